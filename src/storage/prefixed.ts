// prefixedStorage: a view of one folder of another Storage, so a table kept in a sub-folder (of a zip,
// a bucket, a directory) can be opened with paths relative to its own root.
import { joinPath, normalizePath, type ByteRange, type FileInfo, type ListOptions, type Storage } from './storage.js';

const origins = new WeakMap<Storage, { inner: Storage; prefix: string }>();

/** The store and folder a {@link prefixedStorage} view was made of (undefined for any other store). */
export function prefixedOrigin(storage: Storage): { inner: Storage; prefix: string } | undefined {
  return origins.get(storage);
}

/** A Storage whose root is the folder `prefix` of `inner`. */
export function prefixedStorage(inner: Storage, prefix: string): Storage {
  const root = normalizePath(prefix);
  if (root === '') return inner;
  const strip = (info: FileInfo): FileInfo => ({ ...info, path: info.path.slice(root.length + 1) });
  const full = (path: string) => joinPath(root, normalizePath(path));
  const view: Storage = {
    label: `${inner.label}/${root}`,
    readOnly: inner.readOnly,
    head: async (path: string) => strip(await inner.head(full(path))),
    // Every method is async so a bad path rejects the promise instead of throwing synchronously.
    read: async (path: string, range?: ByteRange) => inner.read(full(path), range),
    write: async (path: string, bytes: Uint8Array) => inner.write(full(path), bytes),
    writeIfAbsent: async (path: string, bytes: Uint8Array) => inner.writeIfAbsent(full(path), bytes),
    list: async (path: string, options?: ListOptions) => (await inner.list(full(path), options)).map(strip),
    delete: async (path: string) => inner.delete(full(path)),
  };
  origins.set(view, { inner, prefix: root });
  return view;
}
