// Crash test: a fault-injecting store fails the N-th storage call of an upsert (and every call after it,
// as a crashed process would), for every N. After each crash the reopened table equals the last
// committed state, and the next write succeeds and is correct.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { copyStorage, faultyStorage } from '../helpers/storage-faults.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'crash',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: ['null', 'double'], default: null }],
};
const OPTIONS = { bloomFilter: { numEntries: 100 }, rowGroupRows: 2 };

async function snapshot(table: Table): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['id', 'part', 'ts', 'v'] })) out.push(`${r.part}|${r.id}|${r.ts}|${r.v}`);
  return out.sort();
}

async function baseTable(): Promise<Storage> {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 'crash', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...OPTIONS });
  await table.upsert([
    { id: 'a', part: 'x', ts: 1, v: 1 }, { id: 'b', part: 'x', ts: 1, v: 2 }, { id: 'c', part: 'y', ts: 1, v: 3 }, { id: 'd', part: 'y', ts: 1, v: 4 },
  ], OPTIONS);
  return storage;
}

const UPSERT = [{ id: 'a', part: 'x', ts: 2, v: 10 }, { id: 'c', part: 'y', ts: 2, v: 30 }, { id: 'e', part: 'z', ts: 1, v: 50 }];
const NEXT = [{ id: 'b', part: 'x', ts: 3, v: 200 }, { id: 'f', part: 'y', ts: 1, v: 60 }];

describe('crash at every storage call of an upsert', async () => {
  const base = await baseTable();
  const before = await snapshot(await openTable(base));
  // The expected states: after the upsert, and after the next write on top of either state.
  const clean = await copyStorage(base, (files) => memoryStorage({ files }));
  const counting = faultyStorage(clean);
  await (await openTable(counting)).upsert(UPSERT, OPTIONS);
  const totalCalls = counting.calls;
  const after = await snapshot(await openTable(clean));
  await (await openTable(clean)).upsert(NEXT, OPTIONS);
  const afterNext = await snapshot(await openTable(clean));
  const beforeThenNext = await (async () => {
    const s = await copyStorage(base, (files) => memoryStorage({ files }));
    await (await openTable(s)).upsert(NEXT, OPTIONS);
    return snapshot(await openTable(s));
  })();

  test('the upsert makes enough storage calls to be worth crashing', () => {
    expect(totalCalls).toBeGreaterThan(20);
    expect(after).not.toEqual(before);
  });

  test(`every crash point leaves the last committed state, and the next write succeeds`, { timeout: 300_000 }, async () => {
    let committedCrashes = 0;
    for (let n = 1; n <= totalCalls; n++) {
      const storage = await copyStorage(base, (files) => memoryStorage({ files }));
      const faulty = faultyStorage(storage, n);
      const crashed = await openTable(faulty).then((t) => t.upsert(UPSERT, OPTIONS)).then(() => false, () => true);
      expect(crashed, `call ${n} of ${totalCalls} should fail the write`).toBe(true);
      const reopened = await openTable(storage);
      const state = await snapshot(reopened);
      const committed = reopened.commits.length === 2;
      if (committed) committedCrashes++;
      expect(state, `after a crash at call ${n}`).toEqual(committed ? after : before);
      await reopened.upsert(NEXT, OPTIONS);
      expect(await snapshot(reopened), `next write after a crash at call ${n}`).toEqual(committed ? afterNext : beforeThenNext);
      expect(reopened.timeline.filter((i) => i.state !== 'COMPLETED'), `no pending instants after the next write (crash at ${n})`).toEqual([]);
      const commits = new Set(reopened.commits.map((c) => c.requestedTime));
      const orphans = (await storage.list('', { recursive: true })).filter((f) => f.path.endsWith('.parquet') && !commits.has(f.path.slice(-25, -8)));
      expect(orphans.map((f) => f.path), `files of the crashed write are gone (crash at ${n})`).toEqual([]);
      expect(await storage.list('.hoodie/.temp', { recursive: true }), `no markers left (crash at ${n})`).toEqual([]);
    }
    // Crashes after the completed file is written (marker cleanup) leave the commit in place.
    expect(committedCrashes).toBeGreaterThan(0);
    expect(committedCrashes).toBeLessThan(totalCalls);
  });
});
