// fileListStorage: a read-only Storage over `File` objects a user picked (`<input webkitdirectory>`, drag and
// drop). Paths come from `webkitRelativePath` (or are given); bytes are read lazily with `File.slice()`.
import { LakeletError, notFound } from '../errors.js';
import { listFlat } from './listing.js';
import { ReadOnlyStorage } from './read-only.js';
import { checkRange, normalizePath, type ByteRange, type FileInfo, type ListOptions, type Storage } from './storage.js';

/** A file with an explicit path, for files that carry no `webkitRelativePath` (e.g. from a drop). */
export interface FileListEntry {
  /** The file's bytes (a `File` or any `Blob`). */
  file: Blob;
  /** Its path inside the store, `/`-separated. */
  path: string;
  /** Modification time in epoch milliseconds (default: the `File`'s own, when it is one). */
  lastModified?: number;
}

/** Options of {@link fileListStorage}. */
export interface FileListStorageOptions {
  /** Label used in messages (default `files`). */
  label?: string;
}

interface Entry {
  blob: Blob;
  lastModified: number | undefined;
}

/**
 * A read-only Storage over picked files: a `FileList` from `<input type=file webkitdirectory>` (paths from
 * `webkitRelativePath`, which start with the picked folder's name; a `File` without one is stored under its
 * name) or `{ file, path }` entries. Nothing is read up front: `read` slices the `File`, so big tables are
 * never loaded whole. Entries with `.`/`..`/empty path segments and `__MACOSX/` junk are skipped; for
 * duplicate paths the last one wins. Writes raise `UNSUPPORTED`, missing files `NOT_FOUND`, and a file the
 * browser can no longer read (changed or deleted on disk) `STORAGE`.
 */
export function fileListStorage(files: Iterable<File | FileListEntry>, options: FileListStorageOptions = {}): Storage {
  return new FileListStorage(files, options.label ?? 'files');
}

function entryOf(item: File | FileListEntry): { path: string; entry: Entry } {
  if (typeof File !== 'undefined' && item instanceof File) {
    const rel = item.webkitRelativePath;
    return { path: rel !== undefined && rel !== '' ? rel : item.name, entry: { blob: item, lastModified: item.lastModified } };
  }
  const e = item as FileListEntry;
  const own = typeof File !== 'undefined' && e.file instanceof File ? e.file.lastModified : undefined;
  return { path: e.path, entry: { blob: e.file, lastModified: e.lastModified ?? own } };
}

function cleanPath(path: string): string | undefined {
  const p = path.replace(/\\/g, '/').replace(/^\/+/, '');
  if (p === '' || p.startsWith('__MACOSX/')) return undefined;
  if (p.split('/').some((s) => s === '' || s === '.' || s === '..' || s.includes('\0'))) return undefined;
  return p;
}

class FileListStorage extends ReadOnlyStorage {
  private readonly files = new Map<string, Entry>();

  constructor(files: Iterable<File | FileListEntry>, readonly label: string) {
    super();
    for (const item of files) {
      const { path, entry } = entryOf(item);
      const p = cleanPath(path);
      if (p !== undefined) this.files.set(p, entry);
    }
  }

  private get(path: string): { p: string; entry: Entry } {
    const p = normalizePath(path);
    const entry = this.files.get(p);
    if (!entry) throw notFound(this.label, p);
    return { p, entry };
  }

  private info(path: string, entry: Entry): FileInfo {
    const info: FileInfo = { path, size: entry.blob.size, kind: 'file' };
    if (entry.lastModified !== undefined) info.lastModified = entry.lastModified;
    return info;
  }

  async head(path: string): Promise<FileInfo> {
    const { p, entry } = this.get(path);
    return this.info(p, entry);
  }

  async read(path: string, range?: ByteRange): Promise<Uint8Array> {
    const { p, entry } = this.get(path);
    const r = checkRange(this.label, p, entry.blob.size, range);
    try {
      return new Uint8Array(await entry.blob.slice(r.start, r.end).arrayBuffer());
    } catch (err) {
      throw new LakeletError('STORAGE', `storage(${this.label}): cannot read ${JSON.stringify(p)}: ${(err as Error).message}`, { path: p }, { cause: err });
    }
  }

  async list(prefix: string, options: ListOptions = {}): Promise<FileInfo[]> {
    return listFlat(normalizePath(prefix), this.files, options.recursive === true, (path, entry) => this.info(path, entry));
  }
}
