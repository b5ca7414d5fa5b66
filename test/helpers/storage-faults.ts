// Storage wrappers for tests: count the calls a write makes, and fail from the N-th call on (a crash:
// once the process is gone nothing else reaches the store).
import { LakeletError, type Storage } from '../../src/index.js';

/** A wrapper that counts calls and, when armed, fails call number `failAt` and every call after it. */
export interface FaultyStorage extends Storage {
  calls: number;
  failAt: number;
}

/** Wrap `inner`; `failAt` = 0 never fails. */
export function faultyStorage(inner: Storage, failAt = 0): FaultyStorage {
  const s = {
    label: `faulty(${inner.label})`,
    readOnly: inner.readOnly,
    calls: 0,
    failAt,
  } as FaultyStorage;
  const guard = <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    s.calls++;
    if (s.failAt > 0 && s.calls >= s.failAt) return Promise.reject(new LakeletError('STORAGE', `injected fault at call ${s.calls} (${name})`, {}));
    return fn();
  };
  s.head = (p) => guard('head', () => inner.head(p));
  s.read = (p, r) => guard('read', () => inner.read(p, r));
  s.write = (p, b) => guard('write', () => inner.write(p, b));
  s.writeIfAbsent = (p, b) => guard('writeIfAbsent', () => inner.writeIfAbsent(p, b));
  s.list = (p, o) => guard('list', () => inner.list(p, o));
  s.delete = (p) => guard('delete', () => inner.delete(p));
  return s;
}

/** A full in-memory copy of a store. */
export async function copyStorage(source: Storage, make: (files: [string, Uint8Array][]) => Storage): Promise<Storage> {
  const files: [string, Uint8Array][] = [];
  for (const f of await source.list('', { recursive: true })) files.push([f.path, await source.read(f.path)]);
  return make(files);
}
