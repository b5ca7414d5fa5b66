// Crash tests: a fault-injecting store fails the N-th storage call of an operation (and every call after
// it, as a crashed process would), for every N. After each crash the reopened table equals the last
// committed state, the next operation succeeds and is correct, and no files of the crashed one remain.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, type Storage, type Table, type TableType } from '../../src/index.js';
import { copyStorage, faultyStorage } from '../helpers/storage-faults.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'crash',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: ['null', 'double'], default: null }],
};
const OPTIONS = { bloomFilter: { numEntries: 100 }, rowGroupRows: 2, compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false }, heartbeatTimeoutMs: 0 };
const UPSERT = [{ id: 'a', part: 'x', ts: 2, v: 10 }, { id: 'c', part: 'y', ts: 2, v: 30 }, { id: 'e', part: 'z', ts: 1, v: 50 }];
const NEXT = [{ id: 'b', part: 'x', ts: 3, v: 200 }, { id: 'f', part: 'y', ts: 1, v: 60 }];

async function snapshot(table: Table, readOptimized = false): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['id', 'part', 'ts', 'v'], readOptimized })) out.push(`${r.part}|${r.id}|${r.ts}|${r.v}`);
  return out.sort();
}

async function baseTable(type: TableType, extraWrites: number): Promise<Storage> {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 'crash', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...OPTIONS });
  await table.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }, { id: 'b', part: 'x', ts: 1, v: 2 }, { id: 'c', part: 'y', ts: 1, v: 3 }, { id: 'd', part: 'y', ts: 1, v: 4 }], OPTIONS);
  for (let i = 0; i < extraWrites; i++) await table.upsert([{ id: 'd', part: 'y', ts: 10 + i, v: 100 + i }], OPTIONS);
  return storage;
}

const copy = (s: Storage) => copyStorage(s, (files) => memoryStorage({ files }));

/** The visible state: the snapshot plus the read-optimized view (which a compaction changes). */
async function state(storage: Storage): Promise<string> {
  const t = await openTable(storage);
  return JSON.stringify([await snapshot(t), await snapshot(t, true)]);
}

interface CrashCase {
  name: string;
  type: TableType;
  extraWrites: number;
  act: (t: Table) => Promise<unknown>;
}

const CASES: CrashCase[] = [
  { name: 'a copy-on-write upsert', type: 'COPY_ON_WRITE', extraWrites: 0, act: (t) => t.upsert(UPSERT, OPTIONS) },
  { name: 'a merge-on-read deltacommit', type: 'MERGE_ON_READ', extraWrites: 1, act: (t) => t.upsert(UPSERT, OPTIONS) },
  { name: 'a compaction', type: 'MERGE_ON_READ', extraWrites: 2, act: (t) => t.compact(OPTIONS) },
  { name: 'a rollback', type: 'COPY_ON_WRITE', extraWrites: 2, act: (t) => t.rollback() },
];

for (const c of CASES) {
  describe(`crash at every storage call of ${c.name}`, async () => {
    const base = await baseTable(c.type, c.extraWrites);
    const before = await state(base);
    const clean = await copy(base);
    const counting = faultyStorage(clean);
    await c.act(await openTable(counting));
    const totalCalls = counting.calls;
    const after = await state(clean);
    // What the next step gives from either state: finish any pending work (re-running the operation
    // for compactions and rollbacks), then one more upsert.
    const next = async (s: Storage, pendingOp: boolean) => {
      const t = await openTable(s);
      if (pendingOp && c.name === 'a compaction') await t.compact(OPTIONS);
      await t.upsert(NEXT, OPTIONS);
      return state(s);
    };
    const afterNext = await next(await copy(clean), false);

    test('the operation makes storage calls worth crashing', () => {
      expect(totalCalls).toBeGreaterThan(10);
    });

    test('every crash point leaves a committed state; the next write succeeds and cleans up', { timeout: 300_000 }, async () => {
      let committed = 0;
      for (let n = 1; n <= totalCalls; n++) {
        const storage = await copy(base);
        const crashed = await openTable(faultyStorage(storage, n)).then((t) => c.act(t)).then(() => false, () => true);
        const now = await state(storage);
        // A fault after the commit point only hits housekeeping: the operation reports success.
        if (!crashed) expect(now, `call ${n} of ${totalCalls} failed after the commit`).toBe(after);
        const done = now === after && now !== before ? true : now === before ? false : undefined;
        expect(done, `after a crash at call ${n}: ${now}`).not.toBeUndefined();
        if (done) committed++;
        const reopened = await openTable(storage);
        const pending = reopened.timeline.some((i) => i.state !== 'COMPLETED');
        const rollbackStarted = reopened.timeline.some((i) => i.action === 'rollback' && i.state !== 'COMPLETED');
        const result = await next(storage, !done || pending);
        // A rollback that got as far as its plan is finished by the next write; a compaction is re-run by
        // the next compact(); other crashes leave the state before the operation.
        const expected = done || rollbackStarted || c.name === 'a compaction' ? afterNext : await next(await copy(base), false);
        expect(result, `next write after a crash at call ${n}`).toEqual(expected);
        const final = await openTable(storage);
        expect(final.timeline.filter((i) => i.state !== 'COMPLETED' && i.action !== 'compaction'), `no pending writes (crash at ${n})`).toEqual([]);
        const instants = new Set(final.timeline.filter((i) => i.state === 'COMPLETED').map((i) => i.requestedTime));
        const orphans = (await storage.list('', { recursive: true })).filter((f) => f.path.endsWith('.parquet') && !instants.has(f.path.slice(-25, -8)));
        expect(orphans.map((f) => f.path), `no files of failed writes (crash at ${n})`).toEqual([]);
        expect(await storage.list('.hoodie/.temp', { recursive: true }), `no markers left (crash at ${n})`).toEqual([]);
      }
      expect(committed).toBeLessThan(totalCalls);
    });
  });
}
