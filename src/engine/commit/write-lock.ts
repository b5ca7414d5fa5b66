// The table write lock: writers of one table in one browser profile (tabs, workers) take turns through an
// exclusive Web Lock named after the storage, so one writer never rolls back another's in-flight commit.

import type { Storage } from '../../storage/storage.js';

/** Options of {@link withTableWriteLock}. */
export interface TableWriteLockOptions {
  /** Give up waiting for the lock (rejects with the signal's reason, an `AbortError`). */
  signal?: AbortSignal;
}

/** The Web Lock name of the table in `storage`: `lakelet:write:<storage label>`. */
export function tableWriteLockName(storage: Storage): string {
  return `lakelet:write:${storage.label}`;
}

/**
 * Run `fn` while holding the table's exclusive write lock: the Web Lock {@link tableWriteLockName}, shared by
 * every tab and dedicated worker of the origin, so concurrent writers of the same table run one at a time.
 * Where `navigator.locks` is missing (Node, old browsers) `fn` simply runs. The lock is keyed by the storage
 * label, so stores must have distinct labels to be locked separately (every `memoryStorage()` is `memory`),
 * and it is not re-entrant: calling it again for the same table inside `fn` waits forever.
 */
export async function withTableWriteLock<T>(storage: Storage, fn: () => Promise<T>, options: TableWriteLockOptions = {}): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (!locks || typeof locks.request !== 'function') return fn();
  const lockOptions: LockOptions = { mode: 'exclusive' };
  if (options.signal) lockOptions.signal = options.signal;
  return locks.request(tableWriteLockName(storage), lockOptions, () => fn()) as Promise<T>;
}
