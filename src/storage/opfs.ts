// opfsStorage: a Storage in the Origin Private File System, from the page or a dedicated worker. Files are
// written to a temp name and moved into place (readers never see half a file); writeIfAbsent is made atomic
// within the origin by a Web Lock per path. Bulk writes use sync access handles when running in a worker.
import { LakeletError, notFound } from '../errors.js';
import { errorName, isMissingEntry, storageError } from './dom-errors.js';
import { byPath } from './listing.js';
import { canMove, exclusive, removeQuietly, syncHandlesExist, writeHandleBytes, type DirectoryHandle, type FileHandle } from './opfs-handles.js';
import { checkRange, joinPath, normalizePath, TEMP_FILE_MARKER, type ByteRange, type FileInfo, type ListOptions, type Storage } from './storage.js';

/** Options of {@link opfsStorage}. */
export interface OpfsStorageOptions {
  /**
   * Label used in messages and in the name of the table write lock (default `opfs:<folder>`). Give a unique
   * one when passing a directory handle: two handles with the same name would otherwise share a label.
   */
  label?: string;
  /** Write through `createSyncAccessHandle()` where it exists, i.e. in a dedicated worker (default true). */
  syncAccessHandles?: boolean;
}

/** How an {@link OpfsStorage} writes file contents. */
export type OpfsWriteMethod = 'sync-access-handle' | 'writable-stream';

/** A Storage over an OPFS folder, telling how it writes. */
export interface OpfsStorage extends Storage {
  /** `sync-access-handle` in a dedicated worker (unless disabled), `writable-stream` elsewhere. */
  readonly writeMethod: OpfsWriteMethod;
}

/**
 * A Storage over a folder of the Origin Private File System: a `FileSystemDirectoryHandle`, or a folder
 * path under `navigator.storage.getDirectory()` (`/`-separated, created on first use; `''` = the OPFS root).
 *
 * Writes go to a temp file (named `<name>.lakelet-tmp-*`, hidden from listings) that is then moved over the
 * target with `FileSystemHandle.move()`, so readers see the old or the new bytes, never a mix; where `move()`
 * is missing the file is written in place through a writable stream (which swaps on close) and its size is
 * verified. `writeIfAbsent` checks and creates under an exclusive Web Lock named `lakelet:opfs:<folder>/<path>`:
 * atomic for every tab and worker of this origin that writes through lakelet. OPFS itself has no exclusive
 * create, so atomicity across origins, browser profiles or other programs writing the folder is not possible.
 * A full quota raises `STORAGE` naming the file, and no partial file is left behind.
 *
 * Durability: a sync access handle is `flush()`ed before its file is moved into place (the spec says flush
 * persists the writes to disk); for writable streams and for `move()` the spec promises atomicity, not
 * durability across a power loss. A temp file a crash left is listed with `includeTemporary` and removed by
 * the cleaner (engine/orphan-files.ts) once it is older than the heartbeat timeout.
 */
export function opfsStorage(dir: FileSystemDirectoryHandle | string, options: OpfsStorageOptions = {}): OpfsStorage {
  return new OpfsStore(dir, options);
}

/** Marks temp files of in-progress writes (hidden from listings unless `includeTemporary`). */
const TMP = TEMP_FILE_MARKER;
/** Chromium's swap files of open writable streams (`<name>.crswap`), also hidden. */
const SWAP = '.crswap';
/** How often a read is retried when the file is replaced under it. */
const READ_ATTEMPTS = 8;

class OpfsStore implements OpfsStorage {
  readonly label: string;
  readonly readOnly = false;
  writeMethod: OpfsWriteMethod;
  private root: Promise<{ dir: FileSystemDirectoryHandle; lockRoot: string }> | undefined;

  constructor(private readonly source: FileSystemDirectoryHandle | string, options: OpfsStorageOptions) {
    if (typeof source === 'string') {
      const folder = normalizePath(source);
      this.source = folder;
      this.label = options.label ?? `opfs:${folder}`;
    } else {
      this.label = options.label ?? `opfs:${source.name}`;
    }
    this.writeMethod = options.syncAccessHandles !== false && syncHandlesExist() ? 'sync-access-handle' : 'writable-stream';
  }

  /** The root folder handle and the name its locks start with (resolved once). */
  private rootDir(): Promise<{ dir: FileSystemDirectoryHandle; lockRoot: string }> {
    this.root ??= this.openRoot().catch((err: unknown) => {
      this.root = undefined;
      throw err;
    });
    return this.root;
  }

  private async openRoot(): Promise<{ dir: FileSystemDirectoryHandle; lockRoot: string }> {
    const storageManager = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage;
    const getDirectory = storageManager?.getDirectory?.bind(storageManager);
    if (typeof this.source !== 'string') {
      const resolved = getDirectory ? await getDirectory().then((opfs) => opfs.resolve(this.source as FileSystemDirectoryHandle), () => null) : null;
      return { dir: this.source, lockRoot: resolved ? resolved.join('/') : `handle:${this.source.name}` };
    }
    if (!getDirectory) throw new LakeletError('UNSUPPORTED', `storage(${this.label}): the Origin Private File System is not available here (navigator.storage.getDirectory)`, {});
    let dir: FileSystemDirectoryHandle;
    try {
      dir = await getDirectory();
      for (const part of this.source === '' ? [] : this.source.split('/')) dir = await dir.getDirectoryHandle(part, { create: true });
    } catch (err) {
      throw storageError(this.label, this.source, 'open folder', err);
    }
    return { dir, lockRoot: this.source };
  }

  /** The folder holding `path` (its parent), created on demand; NotFound/TypeMismatch DOMExceptions escape. */
  private async parentDir(path: string, create: boolean): Promise<{ dir: FileSystemDirectoryHandle; name: string }> {
    const parts = path.split('/');
    const name = parts.pop() ?? '';
    let { dir } = await this.rootDir();
    for (const part of parts) dir = await dir.getDirectoryHandle(part, { create });
    return { dir, name };
  }

  private async fileHandle(path: string): Promise<FileHandle> {
    if (path === '') throw notFound(this.label, path);
    const { dir, name } = await this.parentDir(path, false);
    return dir.getFileHandle(name);
  }

  async head(path: string): Promise<FileInfo> {
    const p = normalizePath(path);
    try {
      const file = await (await this.fileHandle(p)).getFile();
      return { path: p, size: file.size, kind: 'file', lastModified: file.lastModified };
    } catch (err) {
      throw storageError(this.label, p, 'stat', err);
    }
  }

  async read(path: string, range?: ByteRange): Promise<Uint8Array> {
    const p = normalizePath(path);
    for (let attempt = 0; ; attempt++) {
      let file: File;
      try {
        file = await (await this.fileHandle(p)).getFile();
      } catch (err) {
        throw storageError(this.label, p, 'read', err);
      }
      const r = checkRange(this.label, p, file.size, range);
      try {
        const blob = range === undefined ? file : file.slice(r.start, r.end);
        return new Uint8Array(await blob.arrayBuffer());
      } catch (err) {
        // The file was replaced (or removed) after getFile(): its snapshot is gone. Look the file up again.
        const name = errorName(err);
        if ((name === 'NotReadableError' || name === 'NotFoundError') && attempt < READ_ATTEMPTS) continue;
        throw storageError(this.label, p, 'read', err);
      }
    }
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    const p = normalizePath(path);
    if (p === '') throw notFound(this.label, p);
    let target: { dir: FileSystemDirectoryHandle; name: string };
    try {
      target = await this.parentDir(p, true);
    } catch (err) {
      throw storageError(this.label, p, 'write', err);
    }
    // No copy of the whole file (a long task for a large base file): the stream copies it 1 MiB at a time.
    await this.publish(target.dir, target.name, p, bytes);
  }

  async writeIfAbsent(path: string, bytes: Uint8Array): Promise<boolean> {
    const p = normalizePath(path);
    if (p === '') throw notFound(this.label, p);
    const copy = bytes.slice();
    const { lockRoot } = await this.rootDir();
    return exclusive(`lakelet:opfs:${lockRoot}/${p}`, async () => {
      let target: { dir: FileSystemDirectoryHandle; name: string };
      try {
        target = await this.parentDir(p, true);
      } catch (err) {
        throw storageError(this.label, p, 'create', err);
      }
      try {
        await target.dir.getFileHandle(target.name);
        return false; // it exists
      } catch (err) {
        if (errorName(err) === 'TypeMismatchError') return false; // a folder holds the name
        if (errorName(err) !== 'NotFoundError') throw storageError(this.label, p, 'create', err);
      }
      await this.publish(target.dir, target.name, p, copy);
      return true;
    });
  }

  /** Write `bytes` to a temp file and move it over `name`; on failure remove what was written. */
  private async publish(dir: FileSystemDirectoryHandle, name: string, path: string, bytes: Uint8Array): Promise<void> {
    if (canMove()) {
      const tmpName = `${name}${TMP}${Math.random().toString(36).slice(2, 10)}`;
      let tmp: FileHandle | undefined;
      try {
        tmp = await dir.getFileHandle(tmpName, { create: true });
        if ((await writeHandleBytes(tmp, bytes, this.writeMethod, this.label)) === 'writable-stream') this.writeMethod = 'writable-stream';
        await (tmp.move as (name: string) => Promise<void>)(name);
        return;
      } catch (err) {
        if (tmp) await removeQuietly(dir, tmpName);
        throw storageError(this.label, path, 'write', err);
      }
    }
    // No move(): write in place (a writable stream only swaps its bytes in on close), then verify.
    const existed = await dir.getFileHandle(name).then(() => true, () => false);
    try {
      const handle: FileHandle = await dir.getFileHandle(name, { create: true });
      if ((await writeHandleBytes(handle, bytes, this.writeMethod, this.label)) === 'writable-stream') this.writeMethod = 'writable-stream';
      const size = (await handle.getFile()).size;
      if (size !== bytes.length) throw new LakeletError('STORAGE', `storage(${this.label}): wrote ${bytes.length} bytes to ${JSON.stringify(path)} but it holds ${size}`, { path });
    } catch (err) {
      if (!existed) await removeQuietly(dir, name);
      throw storageError(this.label, path, 'write', err);
    }
  }

  async list(prefix: string, options: ListOptions = {}): Promise<FileInfo[]> {
    const root = normalizePath(prefix);
    let dir: FileSystemDirectoryHandle;
    try {
      dir = (await this.rootDir()).dir;
      for (const part of root === '' ? [] : root.split('/')) dir = await dir.getDirectoryHandle(part);
    } catch (err) {
      if (isMissingEntry(err)) return [];
      throw storageError(this.label, root, 'list', err);
    }
    const out: FileInfo[] = [];
    const walk = async (folder: FileSystemDirectoryHandle, rel: string): Promise<void> => {
      const files: Promise<FileInfo | undefined>[] = [];
      const folders: [FileSystemDirectoryHandle, string][] = [];
      try {
        for await (const [name, handle] of (folder as DirectoryHandle).entries()) {
          if ((name.includes(TMP) && !options.includeTemporary) || name.endsWith(SWAP)) continue;
          const path = joinPath(rel, name);
          if (handle.kind === 'directory') {
            if (options.recursive) folders.push([handle as FileSystemDirectoryHandle, path]);
            else out.push({ path, size: 0, kind: 'directory' });
          } else {
            files.push((handle as FileSystemFileHandle).getFile().then(
              (f): FileInfo => ({ path, size: f.size, kind: 'file', lastModified: f.lastModified }),
              (err: unknown) => {
                if (isMissingEntry(err)) return undefined; // removed while listing
                throw storageError(this.label, path, 'stat', err);
              },
            ));
          }
        }
      } catch (err) {
        if (isMissingEntry(err)) return; // folder removed while listing
        throw storageError(this.label, rel, 'list', err);
      }
      for (const f of await Promise.all(files)) if (f) out.push(f);
      for (const [sub, path] of folders) await walk(sub, path);
    };
    await walk(dir, root);
    return out.sort(byPath);
  }

  async delete(path: string): Promise<void> {
    const p = normalizePath(path);
    if (p === '') return;
    try {
      const { dir, name } = await this.parentDir(p, false);
      await dir.getFileHandle(name); // only files are deleted: a folder or a missing name is a no-op
      await dir.removeEntry(name);
    } catch (err) {
      if (isMissingEntry(err)) return;
      throw storageError(this.label, p, 'delete', err);
    }
  }
}
