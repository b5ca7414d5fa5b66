// The commit lock: a lock file created with writeIfAbsent (the store's atomic create: S3 If-None-Match,
// O_EXCL/link on file systems, a transaction in IndexedDB), held while a writer checks for conflicts and
// creates its completed instant — the conflict check and the commit become one atomic step, as Hudi's
// lock providers make them. A lock left by a crashed writer expires and is broken through a fence, so that
// two writers breaking the same stale lock never both hold it.
import { LakeletError, isLakeletError } from '../../errors.js';
import { COMMIT_LOCK_FENCE_DIR, COMMIT_LOCK_PATH } from '../../layout.js';
import type { Storage } from '../../storage/storage.js';
import { systemClock, type Clock } from '../clock.js';

// The lock file is COMMIT_LOCK_PATH. Break fences are `<generation>.<k>` in COMMIT_LOCK_FENCE_DIR, created with
// writeIfAbsent by whoever removes lock generation `<generation>` (its owner releasing it, or a writer breaking
// it). Only the fence's winner may delete the lock, after checking it is still that generation; every fence is
// deleted right after.

/** Default {@link CommitLockOptions.expireMs}. */
export const DEFAULT_LOCK_EXPIRE_MS = 15_000;

/** Lock timing. */
export interface CommitLockOptions {
  /**
   * A lock (or a fence) older than this is taken to belong to a crashed writer and broken (default 15 s:
   * the lock is held only for a conflict check and one create, and a writer that crashed holding it must
   * not block the next one for a whole heartbeat timeout).
   */
  expireMs?: number;
  /** Give up waiting after this long with `CONFLICT` (default 90 s: longer than a crashed writer's lock lives). */
  waitMs?: number;
  /** Is the lock's owner gone (e.g. its heartbeat stopped)? Then the lock is broken at once. */
  ownerGone?: (owner: string) => Promise<boolean>;
  /** Time source for the lock's timestamp, its expiry, the wait limit and the back-off sleeps (default: system). */
  clock?: Clock;
}

/** The lock file's content: who holds it, since when, and the generation token naming this acquisition. */
interface LockContent {
  owner: string;
  at: number;
  token: string;
}

const encode = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

/**
 * Run `fn` holding the table's commit lock. `fn` gets `held()`, to call right before the create that decides
 * its outcome.
 *
 * Why it is safe: the lock file is only ever deleted by the winner of its generation's fence (a
 * writeIfAbsent), after re-reading the lock and finding that same generation; a generation never comes back
 * once deleted (each acquisition has a fresh random token). So one generation is deleted exactly once, and
 * a breaker that read an old lock can never delete a newer one. A fence whose own holder crashed expires
 * like a lock and is superseded by fence `<generation>.<k+1>`. As with every lease, a holder stalled for
 * longer than `expireMs` can be broken while it still runs.
 */
export async function withCommitLock<T>(storage: Storage, owner: string, fn: (held: () => Promise<void>) => Promise<T>, options: CommitLockOptions = {}): Promise<T> {
  const expireMs = options.expireMs ?? DEFAULT_LOCK_EXPIRE_MS;
  const waitMs = options.waitMs ?? 90_000;
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  let mine: LockContent;
  let delay = 5;
  for (;;) {
    mine = { owner, at: clock.now(), token: crypto.randomUUID() };
    if (await storage.writeIfAbsent(COMMIT_LOCK_PATH, encode(mine))) break;
    const held = await readLock(storage);
    if (!held) continue; // released meanwhile: try again at once
    if (held.token === mine.token) break; // our create landed though its acknowledgement was lost
    const stale = clock.now() - held.at > expireMs || (options.ownerGone !== undefined && (await options.ownerGone(held.owner)));
    if (stale && (await removeGeneration(storage, held, owner, clock, expireMs, options.ownerGone))) continue;
    if (clock.now() - started > waitMs) {
      throw new LakeletError('CONFLICT', `commit: timed out after ${waitMs} ms waiting for the commit lock held by ${held.owner}`, { path: COMMIT_LOCK_PATH, value: held.owner });
    }
    await clock.sleep(delay);
    delay = Math.min(delay * 2, 200);
  }
  // Fences of older generations are leftovers of a crash mid-break or mid-release: none can still act on a
  // lock (theirs is gone, since ours exists), so they are removed.
  await dropOldFences(storage, mine.token).catch(() => undefined);
  const acquired = mine;
  // For `fn` to call right before its decisive create: CONFLICT when the lock may have been broken meanwhile
  // (held past its expiry, or no longer ours), so a stalled holder never commits unprotected.
  const held = async (): Promise<void> => {
    const now = await readLock(storage);
    if (clock.now() - acquired.at > expireMs || now?.token !== acquired.token) {
      throw new LakeletError('CONFLICT', `commit: the commit lock of ${owner} was held past its ${expireMs} ms expiry (the writer stalled) and may have been broken; nothing was committed`, { path: COMMIT_LOCK_PATH, value: owner });
    }
  };
  try {
    return await fn(held);
  } finally {
    await removeGeneration(storage, mine, owner, clock, expireMs, undefined, true).catch(() => undefined);
  }
}

/**
 * Delete lock generation `lock` if it is still the lock file, through its fence. True when the caller
 * should retry at once (the lock is gone or was never that generation); false when another writer is
 * removing it right now (wait). `release`: the owner itself, which does not supersede a live fence. A
 * fence is superseded when it expired, or when it is the lock owner's own (a release that crashed) and
 * `ownerGone` says that owner is gone.
 */
async function removeGeneration(storage: Storage, lock: LockContent, owner: string, clock: Clock, expireMs: number, ownerGone: CommitLockOptions['ownerGone'], release = false): Promise<boolean> {
  const { token } = lock;
  for (let k = 0; ; k++) {
    const fence = `${COMMIT_LOCK_FENCE_DIR}/${fenceName(token)}.${k}`;
    if (await storage.writeIfAbsent(fence, encode({ owner, at: clock.now() }))) {
      try {
        const again = await readLock(storage);
        if (again?.token === token) await storage.delete(COMMIT_LOCK_PATH);
      } finally {
        await storage.delete(fence);
      }
      return true;
    }
    if (release) return false; // a breaker took our (expired) lock: it removes it
    const held = await readFence(storage, fence);
    if (held === undefined) return true; // its holder finished
    const dead = clock.now() - held.at > expireMs || (held.owner === lock.owner && ownerGone !== undefined && (await ownerGone(held.owner)));
    if (!dead) return false;
    // The fence's holder crashed: the next fence of the same generation supersedes it.
  }
}

async function dropOldFences(storage: Storage, token: string): Promise<void> {
  const mine = `${COMMIT_LOCK_FENCE_DIR}/${fenceName(token)}.`;
  for (const f of await storage.list(COMMIT_LOCK_FENCE_DIR)) {
    if (f.kind === 'file' && !f.path.startsWith(mine)) await storage.delete(f.path);
  }
}

/** A generation token as a file-name segment. */
function fenceName(token: string): string {
  return token.replace(/[^A-Za-z0-9_-]/g, '_');
}

async function readLock(storage: Storage): Promise<LockContent | undefined> {
  let text: string;
  try {
    text = new TextDecoder().decode(await storage.read(COMMIT_LOCK_PATH));
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND')) return undefined;
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockContent>;
    if (typeof parsed.owner === 'string' && typeof parsed.at === 'number') {
      // A lock without a token (an older lakelet) is named by its owner and time.
      return { owner: parsed.owner, at: parsed.at, token: typeof parsed.token === 'string' ? parsed.token : `${parsed.owner}@${parsed.at}` };
    }
  } catch {
    /* unreadable: below */
  }
  // Unreadable content (a torn write): stale at once, named by its text.
  return { owner: 'unknown', at: 0, token: `unreadable-${text.length}` };
}

async function readFence(storage: Storage, path: string): Promise<{ owner: string; at: number } | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await storage.read(path);
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND')) return undefined;
    throw err;
  }
  try {
    const parsed = JSON.parse(new TextDecoder().decode(bytes)) as { owner?: unknown; at?: unknown };
    return { owner: typeof parsed.owner === 'string' ? parsed.owner : 'unknown', at: typeof parsed.at === 'number' ? parsed.at : 0 };
  } catch {
    return { owner: 'unknown', at: 0 }; // unreadable: its writer crashed mid-write
  }
}
