// nodeFsStorage: a Storage over a directory of the local file system (Node only; exported from
// `lakelet/node`). Writes go to a temp file first; writeIfAbsent publishes it with link(2), which fails
// atomically when the target exists, so readers never see a half-written file.
import { link, mkdir, open, readdir, readFile, rm, stat, writeFile, rename } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { LakeletError } from '../errors.js';
import { checkRange, joinPath, normalizePath, notFound, type ByteRange, type FileInfo, type ListOptions, type Storage } from './storage.js';

/** A Storage whose root is the directory `dir` (created on first write). */
export function nodeFsStorage(dir: string): Storage {
  const label = `fs:${dir}`;
  const abs = (path: string) => join(dir, ...normalizePath(path).split('/').filter(Boolean));
  const fail = (err: unknown, path: string, what: string): never => {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') throw notFound(label, path);
    throw new LakeletError('STORAGE', `storage(${label}): cannot ${what} ${JSON.stringify(path)}: ${(err as Error).message}`, { path }, { cause: err });
  };

  return {
    label,
    readOnly: false,
    async head(path: string): Promise<FileInfo> {
      const p = normalizePath(path);
      try {
        const s = await stat(abs(p));
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
        if (range === undefined) return new Uint8Array(await readFile(abs(p)));
        const handle = await open(abs(p), 'r');
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
      const tmp = `${target}.lakelet-tmp-${Math.random().toString(36).slice(2)}`;
      try {
        await mkdir(dirname(target), { recursive: true });
        await writeFile(tmp, bytes);
        await rename(tmp, target);
      } catch (err) {
        await rm(tmp, { force: true }).catch(() => undefined);
        fail(err, p, 'write');
      }
    },
    async writeIfAbsent(path: string, bytes: Uint8Array): Promise<boolean> {
      const p = normalizePath(path);
      const target = abs(p);
      const tmp = `${target}.lakelet-tmp-${Math.random().toString(36).slice(2)}`;
      try {
        await mkdir(dirname(target), { recursive: true });
        await writeFile(tmp, bytes, { flag: 'wx' });
        try {
          await link(tmp, target);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw err;
          // No hard links on this file system: fall back to an exclusive create (atomic, but not all-or-nothing).
          await writeFile(target, bytes, { flag: 'wx' });
        }
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
        return fail(err, p, 'create');
      } finally {
        await rm(tmp, { force: true }).catch(() => undefined);
      }
    },
    async list(prefix: string, options: ListOptions = {}): Promise<FileInfo[]> {
      const root = normalizePath(prefix);
      const out: FileInfo[] = [];
      const walk = async (rel: string): Promise<void> => {
        let entries;
        try {
          entries = await readdir(abs(rel), { withFileTypes: true });
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'ENOENT' || code === 'ENOTDIR') return;
          fail(err, rel, 'list');
          return;
        }
        for (const e of entries) {
          const path = joinPath(rel, e.name);
          if (e.name.includes('.lakelet-tmp-')) continue;
          if (e.isDirectory()) {
            if (options.recursive) await walk(path);
            else out.push({ path, size: 0, kind: 'directory' });
          } else if (e.isFile()) {
            let s;
            try {
              s = await stat(abs(path));
            } catch (err) {
              if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed while listing
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
      try {
        await rm(abs(p), { force: true });
      } catch (err) {
        fail(err, p, 'delete');
      }
    },
  };
}
