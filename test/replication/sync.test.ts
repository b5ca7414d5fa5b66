// sync(local, remote): the background loop, driven deterministically by manual timers and a manual network
// (no real sleeps): push, pull and rebase on later ticks; no runs while offline and one at once when back
// online; an unreachable store (every call failing) reported to onError while the loop goes on; no
// overlapping runs; stop() and the signal end it.
import { describe, expect, test } from 'vitest';
import { isLakeletError, memoryStorage, openTable, type Storage } from '../../src/index.js';
import { replicate, type ReplicateResult } from '../../src/replication/replicate.js';
import { sync, type SyncHandle, type SyncNetwork, type SyncTimers } from '../../src/replication/sync.js';
import { call, pausingStorage } from '../helpers/pausing-storage.js';
import { faultyStorage } from '../helpers/storage-faults.js';
import { makeTable, QUIET, replicatedTree, row, storeRows, treeDifferences } from './replicate-helpers.js';

/** Timers that fire only when the test says: `fire()` runs the one pending callback. */
function manualTimers(): SyncTimers & { pending: number; delays: number[]; fire(): void } {
  const waiting = new Map<number, () => void>();
  let next = 0;
  const t = {
    delays: [] as number[],
    get pending() { return waiting.size; },
    setTimeout(cb: () => void, ms: number) { waiting.set(++next, cb); t.delays.push(ms); return next; },
    clearTimeout(h: unknown) { waiting.delete(h as number); },
    fire() {
      expect(waiting.size).toBe(1);
      const [[h, cb]] = [...waiting] as [[number, () => void]];
      waiting.delete(h);
      cb();
    },
  };
  return t;
}

/** A network the test switches on and off. */
function manualNetwork(): SyncNetwork & { set(online: boolean): void } {
  let online = true;
  const listeners = new Set<(o: boolean) => void>();
  return {
    online: () => online,
    subscribe(l) { listeners.add(l); return () => listeners.delete(l); },
    set(o) { online = o; for (const l of listeners) l(o); },
  };
}

/** A remote with two commits and a local replica of it. */
async function pair(): Promise<{ local: Storage; remote: Storage }> {
  const remote = memoryStorage();
  await makeTable(remote, { type: 'MERGE_ON_READ', version: 6 });
  const local = memoryStorage();
  await replicate(remote, local);
  return { local, remote };
}

/** Collects onSync results and errors. */
function observe() {
  const results: ReplicateResult[] = [];
  const errors: unknown[] = [];
  return { results, errors, onSync: (r: ReplicateResult) => results.push(r), onError: (e: unknown) => errors.push(e) };
}

/** Wait for the run under way (joins it; never a timer). */
const settled = async (h: SyncHandle): Promise<void> => {
  await h.runNow();
};

describe('sync', () => {
  test('a first run at once, then one per tick: push, pull, rebase; both tables end equal', async () => {
    const { local, remote } = await pair();
    const timers = manualTimers();
    const seen = observe();
    const h = sync(local, remote, { intervalMs: 5000, timers, network: manualNetwork(), write: QUIET, onSync: seen.onSync, onError: seen.onError });
    await settled(h);
    expect(seen.results.at(-1)?.direction).toBe('push'); // nothing new: an empty push
    expect(timers.delays.at(-1)).toBe(5000);

    await (await openTable(local)).upsert([row('e', 'y', 1, 5)], QUIET);
    timers.fire();
    await settled(h);
    expect(seen.results.at(-1)?.direction).toBe('push');
    expect(seen.results.at(-1)?.published).toHaveLength(1);

    await (await openTable(remote)).upsert([row('f', 'z', 1, 6)], QUIET);
    timers.fire();
    await settled(h);
    expect(seen.results.at(-1)?.direction).toBe('pull');

    await (await openTable(remote)).upsert([row('a', 'x', 9, 90)], QUIET);
    await (await openTable(local)).upsert([row('g', 'x', 1, 7)], QUIET);
    timers.fire();
    await settled(h);
    expect(seen.results.at(-1)?.direction).toBe('rebase');
    expect(seen.results).toHaveLength(4); // one run per tick, no more
    expect(seen.errors).toEqual([]);
    expect(treeDifferences(await replicatedTree(remote), await replicatedTree(local))).toEqual([]);
    expect((await storeRows(remote)).filter((r) => /"id":"[efg]"/.test(r))).toHaveLength(3);
    await h.stop();
    expect(timers.pending).toBe(0);
  });

  test('offline: ticks run nothing; back online runs at once', async () => {
    const { local, remote } = await pair();
    const counted = faultyStorage(remote, 0);
    const timers = manualTimers();
    const network = manualNetwork();
    const seen = observe();
    network.set(false);
    const h = sync(local, counted, { timers, network, onSync: seen.onSync, onError: seen.onError });
    await (await openTable(local)).upsert([row('e', 'y', 1, 5)], QUIET);
    timers.fire();
    timers.fire();
    await settled(h);
    expect([counted.calls, seen.results.length, h.running]).toEqual([0, 0, false]);
    network.set(true); // the online event: a run starts without waiting for the timer
    expect(h.running).toBe(true);
    await settled(h);
    expect(seen.results[0]?.published).toHaveLength(1);
    expect(await storeRows(remote)).toEqual(await storeRows(local));
    await h.stop();
  });

  test('an unreachable remote: the error goes to onError, the loop goes on and completes once it is back', async () => {
    const { local, remote } = await pair();
    const flaky = faultyStorage(remote, 1, 'before'); // every call fails
    const timers = manualTimers();
    const seen = observe();
    await (await openTable(local)).upsert([row('e', 'y', 1, 5)], QUIET);
    const h = sync(local, flaky, { timers, network: manualNetwork(), onSync: seen.onSync, onError: () => { throw new Error('a throwing handler'); } });
    await settled(h);
    const h2errors: unknown[] = [];
    await h.stop();
    const h2 = sync(local, flaky, { timers, network: manualNetwork(), onSync: seen.onSync, onError: (e) => h2errors.push(e) });
    await settled(h2);
    expect(h2errors).toHaveLength(1);
    expect(isLakeletError(h2errors[0], 'STORAGE')).toBe(true);
    expect(seen.results).toEqual([]);
    flaky.failAt = 0; // reachable again
    timers.fire();
    await settled(h2);
    expect(seen.results.at(-1)?.published).toHaveLength(1);
    expect(treeDifferences(await replicatedTree(local), await replicatedTree(remote))).toEqual([]);
    await h2.stop();
  });

  test('runs never overlap: runNow and the online event during a run join it; stop() aborts it without an error', async () => {
    const { local, remote } = await pair();
    await (await openTable(local)).upsert([row('e', 'y', 1, 5)], QUIET);
    const held = pausingStorage(remote);
    const pause = held.pauseAt(call('writeIfAbsent', /\.deltacommit$/));
    const timers = manualTimers();
    const network = manualNetwork();
    const seen = observe();
    const h = sync(local, held, { timers, network, onSync: seen.onSync, onError: seen.onError });
    await pause.reached;
    const joined = h.runNow();
    network.set(true);
    expect(timers.pending).toBe(0); // no next run is scheduled while one is under way
    const listsBefore = held.calls.filter((c) => c.method === 'list').length;
    pause.release();
    await joined;
    expect(seen.results).toHaveLength(1);
    expect(held.calls.filter((c) => c.method === 'list').length).toBe(listsBefore + 1); // the one run's final listing

    // stop() in the middle of a run: aborted, not reported; no more runs.
    await (await openTable(local)).upsert([row('f', 'y', 1, 6)], QUIET);
    const again = held.pauseAt(call('writeIfAbsent', /\.deltacommit$/));
    timers.fire();
    await again.reached;
    const stopping = h.stop();
    again.release();
    await stopping;
    expect([h.stopped, h.running, timers.pending, seen.errors.length, seen.results.length]).toEqual([true, false, 0, 0, 1]);
    expect(await h.runNow()).toBeUndefined();
  });

  test('an aborted signal stops the loop before its first run', async () => {
    const { local, remote } = await pair();
    const counted = faultyStorage(remote, 0);
    const c = new AbortController();
    c.abort();
    const timers = manualTimers();
    const h = sync(local, counted, { timers, network: manualNetwork(), signal: c.signal });
    await settled(h);
    expect([h.stopped, counted.calls, timers.pending]).toEqual([true, 0, 0]);
  });
});
