// memoryStorage: the reference Storage adapter, keeping every file as bytes in a Map. Also the base of
// read-only in-memory stores (zip archives, files a user picked in the browser).
import { notFound, readOnly } from '../errors.js';
import { listFlat } from './listing.js';
import { checkRange, normalizePath, type ByteRange, type FileInfo, type ListOptions, type Storage } from './storage.js';

/** Options of {@link memoryStorage}. */
export interface MemoryStorageOptions {
  /** Initial files, path → bytes. */
  files?: Iterable<[string, Uint8Array]> | Map<string, Uint8Array>;
  /** Reject every write with `UNSUPPORTED` (default false). */
  readOnly?: boolean;
  /** Label used in messages (default `memory`). */
  label?: string;
}

/** A Storage kept entirely in memory: the reference implementation of the contract. */
export function memoryStorage(options: MemoryStorageOptions = {}): Storage {
  return new MemoryStorage(options);
}

class MemoryStorage implements Storage {
  readonly label: string;
  readonly readOnly: boolean;
  private readonly files = new Map<string, { bytes: Uint8Array; lastModified: number }>();

  constructor(options: MemoryStorageOptions) {
    this.label = options.label ?? 'memory';
    this.readOnly = options.readOnly ?? false;
    const now = Date.now();
    for (const [path, bytes] of options.files ?? []) this.files.set(normalizePath(path), { bytes, lastModified: now });
  }

  async head(path: string): Promise<FileInfo> {
    const p = normalizePath(path);
    const f = this.files.get(p);
    if (!f) throw notFound(this.label, p);
    return { path: p, size: f.bytes.length, kind: 'file', lastModified: f.lastModified };
  }

  async read(path: string, range?: ByteRange): Promise<Uint8Array> {
    const p = normalizePath(path);
    const f = this.files.get(p);
    if (!f) throw notFound(this.label, p);
    const r = checkRange(this.label, p, f.bytes.length, range);
    return f.bytes.slice(r.start, r.end);
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    const p = normalizePath(path);
    if (this.readOnly) throw readOnly(this.label, p);
    this.files.set(p, { bytes: bytes.slice(), lastModified: Date.now() });
  }

  async writeIfAbsent(path: string, bytes: Uint8Array): Promise<boolean> {
    const p = normalizePath(path);
    if (this.readOnly) throw readOnly(this.label, p);
    if (this.files.has(p)) return false;
    this.files.set(p, { bytes: bytes.slice(), lastModified: Date.now() });
    return true;
  }

  async list(prefix: string, options: ListOptions = {}): Promise<FileInfo[]> {
    return listFlat(normalizePath(prefix), this.files, options.recursive === true, (path, f) => ({ path, size: f.bytes.length, kind: 'file', lastModified: f.lastModified }));
  }

  async delete(path: string): Promise<void> {
    const p = normalizePath(path);
    if (this.readOnly) throw readOnly(this.label, p);
    this.files.delete(p);
  }
}
