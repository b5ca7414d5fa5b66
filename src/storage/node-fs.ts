// nodeFsStorage: a Storage over a directory of the local file system (Node only; exported from
// `lakelet/node`). Writes go to a temp file that is fsynced, then published by rename(2) (write) or link(2)
// (writeIfAbsent, which fails atomically when the target exists), then the directory is fsynced: readers
// never see a half-written file, and a file that was published survives a power loss with its bytes.
import * as fsPromises from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { LakeletError, notFound } from '../errors.js';
import { checkRange, joinPath, normalizePath, TEMP_FILE_MARKER, type ByteRange, type FileInfo, type ListOptions, type Storage } from './storage.js';

/**
 * The file-system functions nodeFsStorage calls (a subset of `node:fs/promises`). Replaceable only so tests
 * can observe the order of fsyncs and renames, or inject errors a root-run test cannot provoke.
 */
export type NodeFsOps = Pick<typeof fsPromises, 'open' | 'link' | 'mkdir' | 'readdir' | 'readFile' | 'rename' | 'stat' | 'lstat' | 'unlink'>;

/** Options of {@link nodeFsStorage}. */
export interface NodeFsStorageOptions {
  /** The file-system functions to use (default `node:fs/promises`): a seam for tests. */
  fs?: NodeFsOps;
  /**
   * Fsync files before publishing them and folders after (default true). `false` keeps the atomic
   * temp-and-rename publishing but leaves flushing to the OS, as SQLite's `synchronous=OFF` does: a power
   * loss may then leave a completed instant without its bytes. For scratch tables and tests that do not
   * test durability (each fsync costs milliseconds).
   */
  fsync?: boolean;
}

/** Errno codes of platforms that cannot fsync a directory (Windows): the rename is as durable as it gets. */
const DIR_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EINVAL', 'ENOTSUP', 'EPERM', 'EBADF']);

/**
 * A Storage whose root is the directory `dir` (created on first write).
 *
 * Durability (like SQLite's and Hudi's HDFS writers): `write` and `writeIfAbsent` fsync the temp file before
 * publishing it and fsync its directory (and any directory they created) after, so once a write resolves its
 * bytes and its name survive a crash or power loss — timeline files and data files alike, so the data files
 * a commit names are on disk before the commit file is. Errors: a missing file → `NOT_FOUND`; `EACCES` /
 * `EPERM` → `STORAGE` "permission denied" naming the path; `ENAMETOOLONG` → `INVALID_ARGUMENT` naming the
 * path; anything else → `STORAGE` with the errno code. A failed fsync of the folder after publishing is
 * `STORAGE` too, although the file is then in place: its durability is unknown, so the write is not reported
 * as done. Temp files (`<name>.lakelet-tmp-*`) are hidden from listings unless `includeTemporary` is set.
 */
export function nodeFsStorage(dir: string, options: NodeFsStorageOptions = {}): Storage {
  const fs: NodeFsOps = options.fs ?? fsPromises;
  const durable = options.fsync !== false;
  const label = `fs:${dir}`;
  const abs = (path: string) => join(dir, ...normalizePath(path).split('/').filter(Boolean));
  const fail = (err: unknown, path: string, what: string): never => {
    throw fsError(label, err, path, what);
  };

  /** Fsync a directory, so the names created or renamed in it are durable. */
  const syncDir = async (path: string): Promise<void> => {
    if (!durable) return;
    let handle;
    try {
      handle = await fs.open(path, 'r');
      await handle.sync();
    } catch (err) {
      if (!(process.platform === 'win32' && DIR_SYNC_UNSUPPORTED.has(errnoOf(err)))) throw err;
    } finally {
      await handle?.close();
    }
  };
  /** Create the parent folders of `target`; fsync the parent of every folder created. */
  const makeParents = async (target: string): Promise<void> => {
    const parent = dirname(target);
    const first = await fs.mkdir(parent, { recursive: true });
    if (first === undefined) return;
    const created: string[] = [];
    for (let d = parent; d.length >= first.length; d = dirname(d)) created.push(d);
    // Innermost first: `parent` itself is synced after the file lands in it.
    for (const d of created) if (d !== parent) await syncDir(d);
    await syncDir(dirname(first));
  };
  /** Write `bytes` to a new file at `path` (open flag `w` or `wx`) and fsync it before closing. */
  const writeSynced = async (path: string, bytes: Uint8Array, flag: 'w' | 'wx'): Promise<void> => {
    const handle = await fs.open(path, flag);
    try {
      let done = 0;
      while (done < bytes.length) {
        const { bytesWritten } = await handle.write(bytes, done, bytes.length - done);
        done += bytesWritten;
      }
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
  };
  const removeQuietly = (path: string) => fs.unlink(path).catch(() => undefined);
  const tempName = (target: string) => `${target}${TEMP_FILE_MARKER}${Math.random().toString(36).slice(2)}`;

  return {
    label,
    readOnly: false,
    async head(path: string): Promise<FileInfo> {
      const p = normalizePath(path);
      try {
        const s = await fs.stat(abs(p));
        if (!s.isFile()) throw notFound(label, p);
        return { path: p, size: s.size, kind: 'file', lastModified: s.mtimeMs };
      } catch (err) {
        if (err instanceof LakeletError) throw err;
        return fail(err, p, 'stat');
      }
    },
    async read(path: string, range?: ByteRange): Promise<Uint8Array> {
      const p = normalizePath(path);
      try {
        if (range === undefined) return new Uint8Array(await fs.readFile(abs(p)));
        const handle = await fs.open(abs(p), 'r');
        try {
          const size = (await handle.stat()).size;
          const r = checkRange(label, p, size, range);
          const out = new Uint8Array(r.end - r.start);
          let done = 0;
          while (done < out.length) {
            const { bytesRead } = await handle.read(out, done, out.length - done, r.start + done);
            if (bytesRead === 0) break;
            done += bytesRead;
          }
          return out.subarray(0, done);
        } finally {
          await handle.close();
        }
      } catch (err) {
        if (err instanceof LakeletError) throw err;
        return fail(err, p, 'read');
      }
    },
    async write(path: string, bytes: Uint8Array): Promise<void> {
      const p = normalizePath(path);
      const target = abs(p);
      const tmp = tempName(target);
      let published = false;
      try {
        await makeParents(target);
        await writeSynced(tmp, bytes, 'w');
        await fs.rename(tmp, target);
        published = true;
        await syncDir(dirname(target));
      } catch (err) {
        if (!published) await removeQuietly(tmp);
        fail(err, p, 'write');
      }
    },
    async writeIfAbsent(path: string, bytes: Uint8Array): Promise<boolean> {
      const p = normalizePath(path);
      const target = abs(p);
      const tmp = tempName(target);
      try {
        await makeParents(target);
      } catch (err) {
        return fail(err, p, 'create');
      }
      try {
        await writeSynced(tmp, bytes, 'wx');
        try {
          await fs.link(tmp, target);
        } catch (err) {
          const code = errnoOf(err);
          if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw err;
          // No hard links on this file system: fall back to an exclusive create (atomic, but not all-or-nothing).
          await writeSynced(target, bytes, 'wx');
        }
        await syncDir(dirname(target));
        return true;
      } catch (err) {
        if (errnoOf(err) === 'EEXIST') return false;
        return fail(err, p, 'create');
      } finally {
        await removeQuietly(tmp);
      }
    },
    async list(prefix: string, options: ListOptions = {}): Promise<FileInfo[]> {
      const root = normalizePath(prefix);
      const out: FileInfo[] = [];
      const walk = async (rel: string): Promise<void> => {
        let entries;
        try {
          entries = await fs.readdir(abs(rel), { withFileTypes: true });
        } catch (err) {
          const code = errnoOf(err);
          if (code === 'ENOENT' || code === 'ENOTDIR') return;
          fail(err, rel, 'list');
          return;
        }
        for (const e of entries) {
          const path = joinPath(rel, e.name);
          if (e.name.includes(TEMP_FILE_MARKER) && !options.includeTemporary) continue;
          if (e.isDirectory()) {
            if (options.recursive) await walk(path);
            else out.push({ path, size: 0, kind: 'directory' });
          } else if (e.isFile()) {
            let s;
            try {
              s = await fs.stat(abs(path));
            } catch (err) {
              if (errnoOf(err) === 'ENOENT') continue; // removed while listing
              fail(err, path, 'stat');
              continue;
            }
            out.push({ path, size: s.size, kind: 'file', lastModified: s.mtimeMs });
          }
        }
      };
      await walk(root);
      return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
    async delete(path: string): Promise<void> {
      const p = normalizePath(path);
      if (p === '') return;
      try {
        await fs.unlink(abs(p));
      } catch (err) {
        const code = errnoOf(err);
        // Nothing there, or a file stands where a folder of the path should be: nothing to delete.
        if (code === 'ENOENT' || code === 'ENOTDIR') return;
        // Only files are deleted: a folder is left alone (unlink says EISDIR on Linux, EPERM on macOS).
        if (code === 'EISDIR' || code === 'EPERM') {
          const isDir = await fs.lstat(abs(p)).then((s) => s.isDirectory(), () => false);
          if (isDir) return;
        }
        fail(err, p, 'delete');
      }
    },
  };
}

/** The errno code of a Node error (`''` when there is none). */
function errnoOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * A file-system error as a LakeletError: missing → `NOT_FOUND`; permission → `STORAGE` "permission denied";
 * a name too long → `INVALID_ARGUMENT`; anything else → `STORAGE` with the errno code. Each names the path.
 */
export function fsError(label: string, err: unknown, path: string, what: string): LakeletError {
  if (err instanceof LakeletError) return err;
  const code = errnoOf(err);
  const where = JSON.stringify(path);
  const context = code ? { path, value: code } : { path };
  const reading = what === 'stat' || what === 'read' || what === 'list';
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
    case 'EISDIR':
      // Reading: nothing (or a folder) at the path. Writing: a file stands where a folder should be, or the
      // path is a folder — not a missing file.
      if (reading) return notFound(label, path);
      return new LakeletError('STORAGE', `storage(${label}): cannot ${what} ${where}: ${code === 'EISDIR' ? 'a folder has that name' : code === 'ENOTDIR' ? 'a parent of it is not a folder' : 'a folder of it is missing'} (${code})`, context, { cause: err });
    case 'EACCES':
    case 'EPERM':
      return new LakeletError('STORAGE', `storage(${label}): permission denied, cannot ${what} ${where} (${code})`, context, { cause: err });
    case 'ENAMETOOLONG':
      return new LakeletError('INVALID_ARGUMENT', `storage(${label}): path too long for the file system, cannot ${what} ${where} (${code})`, context, { cause: err });
    default: {
      const reason = err instanceof Error ? err.message : String(err);
      return new LakeletError('STORAGE', `storage(${label}): cannot ${what} ${where}: ${code ? `${code}: ` : ''}${reason}`, context, { cause: err });
    }
  }
}
