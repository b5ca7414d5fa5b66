// The commit lock: a lock file created with writeIfAbsent (the store's atomic create: S3 If-None-Match,
// O_EXCL/link on file systems, a transaction in IndexedDB), held while a writer checks for conflicts and
// creates its completed instant — the conflict check and the commit become one atomic step, as Hudi's
// lock providers make them. A lock left by a crashed writer expires.
import { LakeletError, isLakeletError } from '../errors.js';
import type { Storage } from '../storage/storage.js';
import { systemClock, type Clock } from './clock.js';

/** Path of the lock file. */
export const COMMIT_LOCK_PATH = '.hoodie/.lakelet-commit.lock';

/** Lock timing. */
export interface CommitLockOptions {
  /** A lock older than this is taken to belong to a crashed writer and broken (default 60 s). */
  expireMs?: number;
  /** Give up waiting after this long with `CONFLICT` (default 90 s: longer than a crashed writer's lock lives). */
  waitMs?: number;
  /** Is the lock's owner gone (e.g. its heartbeat stopped)? Then the lock is broken at once. */
  ownerGone?: (owner: string) => Promise<boolean>;
  /** Time source for the lock's timestamp, its expiry, the wait limit and the back-off sleeps (default: system). */
  clock?: Clock;
}

interface LockContent {
  owner: string;
  at: number;
}

/** Run `fn` holding the table's commit lock. */
export async function withCommitLock<T>(storage: Storage, owner: string, fn: () => Promise<T>, options: CommitLockOptions = {}): Promise<T> {
  const expireMs = options.expireMs ?? 60_000;
  const waitMs = options.waitMs ?? 90_000;
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const mine: LockContent = { owner, at: clock.now() };
  let delay = 5;
  for (;;) {
    mine.at = clock.now();
    if (await storage.writeIfAbsent(COMMIT_LOCK_PATH, new TextEncoder().encode(JSON.stringify(mine)))) break;
    const held = await readLock(storage);
    if (held && (clock.now() - held.at > expireMs || (options.ownerGone && (await options.ownerGone(held.owner))))) {
      // A crashed writer's lock: break it (only if it is still the same lock).
      const again = await readLock(storage);
      if (again && again.owner === held.owner && again.at === held.at) await storage.delete(COMMIT_LOCK_PATH);
      continue;
    }
    if (clock.now() - started > waitMs) {
      throw new LakeletError('CONFLICT', `commit: timed out after ${waitMs} ms waiting for the commit lock held by ${held?.owner ?? 'another writer'}`, { path: COMMIT_LOCK_PATH, value: held?.owner });
    }
    await clock.sleep(delay);
    delay = Math.min(delay * 2, 200);
  }
  try {
    return await fn();
  } finally {
    const held = await readLock(storage).catch(() => undefined);
    if (held && held.owner === owner) await storage.delete(COMMIT_LOCK_PATH).catch(() => undefined);
  }
}

async function readLock(storage: Storage): Promise<LockContent | undefined> {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(await storage.read(COMMIT_LOCK_PATH))) as Partial<LockContent>;
    return typeof parsed.owner === 'string' && typeof parsed.at === 'number' ? { owner: parsed.owner, at: parsed.at } : { owner: 'unknown', at: 0 };
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND')) return undefined;
    if (err instanceof SyntaxError) return { owner: 'unknown', at: 0 };
    throw err;
  }
}
