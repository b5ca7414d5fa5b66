// The commit lock: mutual exclusion (also when two writers break the same stale lock at once), expiry of a
// crashed holder's lock, an owner whose heartbeat stopped, the wait limit — all on a manual clock, no sleeping —
// and no lock or fence files left behind.
import { describe, expect, test } from 'vitest';
import { DEFAULT_LOCK_EXPIRE_MS, withCommitLock } from '../../src/engine/commit/commit-lock.js';
import { COMMIT_LOCK_PATH } from '../../src/layout.js';
import { LakeletError, memoryStorage, type Storage } from '../../src/index.js';
import { manualClock } from '../../src/engine/clock.js';
import { call, pausingStorage } from '../helpers/pausing-storage.js';

const EXPIRE = DEFAULT_LOCK_EXPIRE_MS;

/** A gate a test opens by hand. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

/** Counts how many actors are inside the lock at once. */
function critical(): { enter(name: string): void; leave(name: string): void; max: number; order: string[] } {
  let inside = 0;
  const c = {
    max: 0,
    order: [] as string[],
    enter(name: string) {
      inside++;
      c.max = Math.max(c.max, inside);
      c.order.push(`+${name}`);
    },
    leave(name: string) {
      inside--;
      c.order.push(`-${name}`);
    },
  };
  return c;
}

/** A clock that reports when its owner starts backing off (it is waiting, not inside). */
function watchedClock(clock: ReturnType<typeof manualClock>): { clock: ReturnType<typeof manualClock>; sleeping: Promise<void> } {
  let signal!: () => void;
  const sleeping = new Promise<void>((r) => (signal = r));
  return { clock: { ...clock, now: () => clock.now(), sleep: (ms: number) => (signal(), clock.sleep(ms)) }, sleeping };
}

/** Files the lock left in `.hoodie` (the lock itself and anything named after it). */
async function lockFiles(storage: Storage): Promise<string[]> {
  return (await storage.list('.hoodie', { recursive: true })).map((f) => f.path).filter((p) => p.includes('lakelet-commit'));
}

/** A lock file as a crashed writer leaves it (written through the lock itself, then the writer "dies"). */
async function crashWhileHolding(storage: Storage, clock: ReturnType<typeof manualClock>, owner = 'crashed'): Promise<void> {
  // The holder's storage stops answering once it is inside: its release never reaches the store.
  const dying = pausingStorage(storage);
  const inside = gate();
  const never = gate();
  void withCommitLock(dying, owner, async () => {
    dying.failAt(() => true, { times: Infinity }); // the process is gone: nothing it does after this reaches the store
    inside.open();
    await never.opened;
  }, { clock }).catch(() => undefined);
  await inside.opened;
  never.open();
}

describe('commit lock', () => {
  test('two writers breaking the same stale lock: exactly one holds it at a time', async () => {
    const storage = memoryStorage();
    const clock = manualClock();
    await crashWhileHolding(storage, clock);
    clock.advance(EXPIRE + 1);
    const a = pausingStorage(storage, 'a');
    const b = pausingStorage(storage, 'b');
    const cs = critical();
    // B reads the stale lock and is held at its first step that changes the store after its failed create.
    const bHeld = b.pauseAt(call(['delete', 'writeIfAbsent'], /lakelet-commit/), { skip: 1 });
    const aInside = gate();
    const aMayLeave = gate();
    const bEntered = gate();
    const bClock = watchedClock(clock);
    const bDone = withCommitLock(b, 'B', async () => {
      cs.enter('B');
      bEntered.open();
      cs.leave('B');
    }, { clock: bClock.clock });
    await bHeld.reached;
    // A breaks the same stale lock and takes it while B is held.
    const aDone = withCommitLock(a, 'A', async () => {
      cs.enter('A');
      aInside.open();
      await aMayLeave.opened;
      cs.leave('A');
    }, { clock });
    await aInside.opened;
    // B goes on while A is inside: it must not get in until A has left.
    bHeld.release();
    await bHeld.finished;
    // B either gets in (wrong: A is inside) or starts waiting for the lock.
    await Promise.race([bEntered.opened, bClock.sleeping]);
    aMayLeave.open();
    await Promise.all([aDone, bDone]);
    expect(cs.max).toBe(1);
    expect(cs.order).toEqual(['+A', '-A', '+B', '-B']);
    expect(await lockFiles(storage)).toEqual([]);
  });

  test('a crashed holder\'s lock is broken after it expires, not before', async () => {
    const storage = memoryStorage();
    const clock = manualClock();
    const crashedAt = clock.now();
    await crashWhileHolding(storage, clock);
    expect(await lockFiles(storage)).toEqual([COMMIT_LOCK_PATH]);
    // Within the expiry and with a wait limit shorter than it: the waiter gives up with CONFLICT.
    const err = await withCommitLock(storage, 'W', async () => 'in', { clock, waitMs: 10_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LakeletError);
    expect((err as LakeletError).code).toBe('CONFLICT');
    expect((err as LakeletError).message).toMatch(/^commit: timed out after 10000 ms waiting for the commit lock held by crashed/);
    expect(await lockFiles(storage)).toEqual([COMMIT_LOCK_PATH]);
    // With the default wait, the waiter backs off on the clock until the lock expires, then breaks it.
    let enteredAt = 0;
    expect(await withCommitLock(storage, 'W', async () => ((enteredAt = clock.now()), 'in'), { clock })).toBe('in');
    expect(enteredAt - crashedAt).toBeGreaterThan(EXPIRE);
    expect(enteredAt - crashedAt).toBeLessThan(EXPIRE + 1_000);
    expect(await lockFiles(storage)).toEqual([]);
  });

  test('a lock whose owner is gone (its heartbeat stopped) is broken at once', async () => {
    const storage = memoryStorage();
    const clock = manualClock();
    await crashWhileHolding(storage, clock, 'dead-owner');
    const asked: string[] = [];
    const start = clock.now();
    const got = await withCommitLock(storage, 'W', async () => 'in', {
      clock,
      ownerGone: async (owner) => {
        asked.push(owner);
        return owner === 'dead-owner';
      },
    });
    expect(got).toBe('in');
    expect(asked).toContain('dead-owner');
    expect(clock.now() - start).toBeLessThan(1_000);
    expect(await lockFiles(storage)).toEqual([]);
  });

  test('a live holder is waited for; the waiter gets in after it leaves and nothing is left', async () => {
    const storage = memoryStorage();
    const clock = manualClock();
    const cs = critical();
    const inside = gate();
    const leave = gate();
    const first = withCommitLock(storage, 'A', async () => {
      cs.enter('A');
      inside.open();
      await leave.opened;
      cs.leave('A');
    }, { clock, ownerGone: async () => false });
    await inside.opened;
    const bClock = watchedClock(clock);
    const second = withCommitLock(storage, 'B', async () => {
      cs.enter('B');
      cs.leave('B');
    }, { clock: bClock.clock, ownerGone: async () => false });
    await bClock.sleeping;
    expect(cs.order).toEqual(['+A']);
    leave.open();
    await Promise.all([first, second]);
    expect(cs.order).toEqual(['+A', '-A', '+B', '-B']);
    expect(await lockFiles(storage)).toEqual([]);
  });

  test('a breaker that crashed holding its fence: the fence expires, the lock is broken, no fence is left', async () => {
    const storage = memoryStorage();
    const clock = manualClock();
    await crashWhileHolding(storage, clock);
    clock.advance(EXPIRE + 1);
    // The breaker wins the fence, then dies before it removes the lock.
    const dying = pausingStorage(storage, 'dying');
    dying.failAt(call('read', COMMIT_LOCK_PATH), { skip: 1, times: Infinity });
    dying.failAt(call('delete', /.*/), { times: Infinity });
    await expect(withCommitLock(dying, 'D', async () => 'in', { clock })).rejects.toThrow(/injected fault/);
    expect((await lockFiles(storage)).length).toBe(2); // the lock and the dead breaker's fence
    // Within the fence's expiry the next writer waits; after it, it supersedes the fence and gets in.
    const err = await withCommitLock(storage, 'W', async () => 'in', { clock, waitMs: 1_000 }).catch((e: unknown) => e);
    expect((err as LakeletError).code).toBe('CONFLICT');
    expect(await withCommitLock(storage, 'W', async () => 'in', { clock })).toBe('in');
    expect(await lockFiles(storage)).toEqual([]);
  });

  test('a release that crashed after removing the lock leaves a fence the next holder removes', async () => {
    const storage = memoryStorage();
    const clock = manualClock();
    const dying = pausingStorage(storage, 'dying');
    dying.failAt(call('delete', /lakelet-commit-lock-fences/));
    expect(await withCommitLock(dying, 'A', async () => 'in', { clock })).toBe('in');
    expect((await lockFiles(storage)).every((p) => p.includes('fences'))).toBe(true);
    expect((await lockFiles(storage)).length).toBe(1);
    expect(await withCommitLock(storage, 'B', async () => 'in', { clock, waitMs: 0 })).toBe('in');
    expect(await lockFiles(storage)).toEqual([]);
  });

  test('a release that crashed holding its fence: once the owner is gone, the next writer gets in at once', async () => {
    const storage = memoryStorage();
    const clock = manualClock();
    const dying = pausingStorage(storage, 'dying');
    dying.failAt(call(['read', 'delete'], /lakelet-commit/), { times: Infinity }); // dies in its release, after the fence
    expect(await withCommitLock(dying, 'A', async () => 'in', { clock })).toBe('in');
    expect((await lockFiles(storage)).length).toBe(2);
    const start = clock.now();
    expect(await withCommitLock(storage, 'B', async () => 'in', { clock, ownerGone: async (o) => o === 'A' })).toBe('in');
    expect(clock.now() - start).toBeLessThan(1_000);
    expect(await lockFiles(storage)).toEqual([]);
  });

  test('a create whose acknowledgement was lost (the store answers false for our own lock) still gets the lock', async () => {
    const storage = memoryStorage();
    const clock = manualClock();
    const lossy: Storage = Object.create(storage) as Storage;
    let lost = 0;
    lossy.writeIfAbsent = async (p, b) => {
      const created = await storage.writeIfAbsent(p, b);
      if (p === COMMIT_LOCK_PATH && created && lost++ === 0) return false; // S3: retried PUT, 412 for our own object
      return created;
    };
    expect(await withCommitLock(lossy, 'A', async () => 'in', { clock, waitMs: 0 })).toBe('in');
    expect(lost).toBe(1);
    expect(await lockFiles(storage)).toEqual([]);
  });

  test('a holder stalled past the expiry is told by held() before its create, and its lock may be taken', async () => {
    const storage = memoryStorage();
    const clock = manualClock();
    const stalled = gate();
    const resume = gate();
    const slow = withCommitLock(storage, 'A', async (held) => {
      await held(); // fresh: fine
      stalled.open();
      await resume.opened;
      await held(); // after the stall: CONFLICT, so A never creates its commit unprotected
      return 'committed';
    }, { clock, ownerGone: async () => false });
    await stalled.opened;
    clock.advance(EXPIRE + 1);
    expect(await withCommitLock(storage, 'B', async (held) => (await held(), 'B in'), { clock, ownerGone: async () => false })).toBe('B in');
    resume.open();
    const err = await slow.catch((e: unknown) => e);
    expect((err as LakeletError).code).toBe('CONFLICT');
    expect((err as LakeletError).message).toMatch(/^commit: the commit lock of A was held past its \d+ ms expiry/);
    expect(await lockFiles(storage)).toEqual([]);
  });

  test('an error inside the lock releases it', async () => {
    const storage = memoryStorage();
    const clock = manualClock();
    await expect(withCommitLock(storage, 'A', async () => {
      throw new LakeletError('CONFLICT', 'commit: inner failure', {});
    }, { clock })).rejects.toThrow(/inner failure/);
    expect(await lockFiles(storage)).toEqual([]);
    expect(await withCommitLock(storage, 'B', async () => 'in', { clock, waitMs: 0 })).toBe('in');
  });
});
