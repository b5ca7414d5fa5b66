// The OPFS primitives under opfsStorage: file-handle types, per-name exclusive locks (Web Locks, or a promise
// chain where they are missing), feature checks, quiet removal of failed writes, and writing a file's bytes.
import { LakeletError } from '../errors.js';
import { errorName } from './dom-errors.js';
import type { OpfsWriteMethod } from './opfs.js';

interface SyncAccessHandle {
  write(buffer: Uint8Array, options?: { at?: number }): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
}
export type FileHandle = FileSystemFileHandle & {
  createSyncAccessHandle?: () => Promise<SyncAccessHandle>;
  move?: (name: string) => Promise<void>;
};
export type DirectoryHandle = FileSystemDirectoryHandle & { entries(): AsyncIterableIterator<[string, FileSystemHandle]> };

/** A same-realm stand-in for Web Locks: one promise chain per name. */
const localLocks = new Map<string, Promise<unknown>>();

/** Run `fn` holding the exclusive Web Lock `name` (a per-realm lock where Web Locks are missing). */
export async function exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (locks && typeof locks.request === 'function') return locks.request(name, { mode: 'exclusive' }, fn) as Promise<T>;
  const previous = localLocks.get(name) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.then(() => undefined, () => undefined);
  localLocks.set(name, settled);
  void settled.then(() => {
    if (localLocks.get(name) === settled) localLocks.delete(name);
  });
  return run;
}

/** True when sync access handles exist in this realm (dedicated workers of Chromium, Firefox, Safari). */
export function syncHandlesExist(): boolean {
  const ctor = (globalThis as { FileSystemFileHandle?: { prototype: object } }).FileSystemFileHandle;
  return ctor !== undefined && typeof (ctor.prototype as FileHandle).createSyncAccessHandle === 'function';
}

/**
 * Remove a file left by a failed write, ignoring failures. An aborted writable stream releases its lock on
 * the file a little later, so `NoModificationAllowedError` is retried for a while.
 */
export async function removeQuietly(dir: FileSystemDirectoryHandle, name: string): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      await dir.removeEntry(name);
      return;
    } catch (err) {
      if (errorName(err) !== 'NoModificationAllowedError') return;
      await new Promise((resolve) => setTimeout(resolve, 5 * 2 ** attempt));
    }
  }
}

/** True when file handles can be renamed in place (`FileSystemFileHandle.move`, Chromium). */
export function canMove(): boolean {
  const ctor = (globalThis as { FileSystemFileHandle?: { prototype: object } }).FileSystemFileHandle;
  return ctor !== undefined && typeof (ctor.prototype as { move?: unknown }).move === 'function';
}

/** Bytes per `write()` on a writable stream (see {@link writeHandleBytes}). */
export const STREAM_CHUNK = 1 << 20;

/**
 * Write `bytes` as the whole content of `handle`, with a sync access handle when `method` asks for one and the
 * context allows it, else a writable stream; returns the method to use from now on (a context that refuses sync
 * handles falls back to streams for good).
 */
export async function writeHandleBytes(handle: FileHandle, bytes: Uint8Array, method: OpfsWriteMethod, label: string): Promise<OpfsWriteMethod> {
  if (method === 'sync-access-handle' && typeof handle.createSyncAccessHandle === 'function') {
    let access: SyncAccessHandle | undefined;
    try {
      access = await handle.createSyncAccessHandle();
    } catch (err) {
      const name = errorName(err);
      if (name !== 'InvalidStateError' && name !== 'NotSupportedError' && name !== 'SecurityError') throw err;
      method = 'writable-stream'; // not allowed in this context after all
    }
    if (access) {
      try {
        access.truncate(0);
        let at = 0;
        while (at < bytes.length) {
          const n = access.write(bytes.subarray(at), { at });
          if (!(n > 0)) throw new LakeletError('STORAGE', `storage(${label}): short write at byte ${at}`, { offset: at });
          at += n;
        }
        access.flush();
      } finally {
        access.close();
      }
      return method;
    }
  }
  const writable = await handle.createWritable();
  try {
    // A page's main thread copies what it writes into the stream synchronously: 1 MiB at a time, never a long task.
    // A stream takes no view of a SharedArrayBuffer: such chunks go as copies.
    const shared = !(bytes.buffer instanceof ArrayBuffer);
    for (let at = 0; at < bytes.length; at += STREAM_CHUNK) {
      const chunk = bytes.subarray(at, at + STREAM_CHUNK);
      await writable.write((shared ? chunk.slice() : chunk) as Uint8Array<ArrayBuffer>);
    }
    await writable.close();
  } catch (err) {
    await writable.abort().catch(() => undefined);
    throw err;
  }
  return method;
}
