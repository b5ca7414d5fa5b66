// Pre-commit validators (issue 14, Hudi's hoodie.precommit.validators): each built-in passes and rejects; a
// rejected write is ABORTED and leaves the store byte-identical (nothing visible, no completed instant), the next
// write succeeds and validateTable is clean — on COW and MOR, table versions 6 and 9 — and user validators see
// the batch's stats and the table as it reads after the pending commit.
import { describe, expect, test } from 'vitest';
import {
  createTable, memoryStorage, openTable, validateTable, validators,
  type PendingSnapshot, type PreCommitValidator, type Table, type TableType, type ValidationContext, type WriteResult,
} from '../../src/index.js';
import { failure, thrown } from '../helpers/expect-error.js';
import { expectTreeUnchanged, treeSnapshot } from '../helpers/tree-snapshot.js';

const { expect: expectRecords, notNull, rowCount, unique } = validators;

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'dq',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'val', type: ['null', 'long'], default: null }],
};
const QUIET = { bloomFilter: { numEntries: 100 }, compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false } };
type Row = { id: string; part: string; ts: number; val: number | null };
const row = (id: string, val: number | null = 1, part = 'p0', ts = 1): Row => ({ id, part, ts, val });

async function table(type: TableType, version: 6 | 9, extra: Record<string, unknown> = {}): Promise<Table> {
  const t = await createTable(memoryStorage(), { name: 'dq', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, tableVersion: version, ...QUIET, ...extra });
  await t.upsert([row('a', 1, 'p0'), row('b', 2, 'p1')]);
  return t;
}

async function contents(t: Table): Promise<string[]> {
  const out: string[] = [];
  for await (const r of t.rows({ columns: ['id', 'part', 'val'] })) out.push(`${String(r.id)}/${String(r.part)}/${String(r.val)}`);
  return out.sort();
}

/**
 * `write` must reject with ABORTED matching `message`; the store stays byte-identical, the rows as before; the
 * next write (without validators) commits and the table validates clean.
 */
let nextId = 0;
async function expectRejected(t: Table, write: () => Promise<WriteResult>, message: RegExp): Promise<void> {
  const before = await treeSnapshot(t.storage);
  const rowsBefore = await contents(t);
  const commitsBefore = t.commits.length;
  const err = await failure(write());
  expect(err.code).toBe('ABORTED');
  expect(err.message).toMatch(message);
  expect(err.message).toMatch(/nothing was committed/);
  await expectTreeUnchanged(t.storage, before);
  await t.refresh();
  expect(t.commits.length).toBe(commitsBefore);
  expect(await contents(t)).toEqual(rowsBefore);
  const id = `next${++nextId}`;
  const next = await t.upsert([row(id, 5, 'p0')], { validators: [] });
  expect(next.stats.inserted).toBe(1);
  expect((await contents(t)).filter((r) => r.startsWith(`${id}/`))).toEqual([`${id}/p0/5`]);
  const report = await validateTable(t.storage);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
}

for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
  for (const version of [6, 9] as const) {
    describe(`pre-commit validators, ${type} v${version}`, () => {
      test('notNull: passes when every new record has the column, rejects naming the column and the first null key', async () => {
        const t = await table(type, version);
        await t.insert([row('c', 3)], { validators: [notNull(['id', 'val'])] });
        expect(await contents(t)).toContain('c/p0/3');
        await expectRejected(t, () => t.upsert([row('d', 4), row('e', null, 'p1'), row('f', null)], { validators: [notNull('val')] }), /validator notNull\(val\) failed: column "val" is null in record key "e" \(partition "part=p1"\) and 1 more record/);
      });

      test('expect: a filter over the new records (text, triple, list); the message names the record and the predicate', async () => {
        const t = await table(type, version);
        await t.upsert([row('c', 3)], { validators: [expectRecords('val >= 0'), expectRecords(['part', 'IN', ['p0', 'p1']]), expectRecords(['val < 10', ['id', '!=', 'zz']])] });
        await expectRejected(t, () => t.upsert([row('d', 4), row('e', -1, 'p1')], { validators: [expectRecords('val >= 0')] }), /validator expect\(val >= 0\) failed: record key "e" \(partition "part=p1"\) does not satisfy val >= 0/);
        // A null satisfies no comparison (as in queries).
        await expectRejected(t, () => t.upsert([row('g', null)], { validators: [expectRecords(['val', '>=', 0])] }), /record key "g" .*does not satisfy val >= 0/);
      });

      test('rowCount: counts the new snapshot with the pending files (inserts and deletes) against min and max', async () => {
        const t = await table(type, version);
        await t.upsert([row('c', 3)], { validators: [rowCount({ min: 3, max: 3 })] });
        await expectRejected(t, () => t.insert([row('d'), row('e')], { validators: [rowCount({ max: 4 })] }), /rowCount\(\.\.4\) failed: the table would hold 5 rows, more than the maximum 4/);
        // 4 rows now (a, b, c, next): a delete of two goes below the minimum — on MOR it is a pending log block.
        await expectRejected(t, () => t.delete(['a', 'c'], { validators: [rowCount({ min: 3 })] }), /the table would hold 2 rows, fewer than the minimum 3/);
        // 5 rows now (each rejection was followed by one more insert); an upsert of existing keys adds none.
        await t.upsert([row('a', 9), row('b', 9, 'p1')], { validators: [rowCount({ min: 5, max: 5 })] });
      });

      test('unique: bulk insert of a key the table holds, or twice in the batch, is rejected; new keys and upserts pass', async () => {
        const t = await table(type, version);
        await t.bulkInsert([row('c'), row('d', 1, 'p1')], { validators: [unique()] });
        await t.upsert([row('a', 7), row('c', 7)], { validators: [unique()] });
        await expectRejected(t, () => t.bulkInsert([row('x'), row('a', 9)], { validators: [unique()] }), /validator unique failed: record key "a" \(partition "part=p0"\) is already in the table/);
        await expectRejected(t, () => t.insert([row('y'), row('z', 1, 'p1'), row('y', 2)], { validators: [unique()] }), /record key "y" \(partition "part=p0"\) appears more than once in the batch/);
        expect((await contents(t)).filter((r) => r.startsWith('a/'))).toEqual(['a/p0/7']);
      });

      test('a user function sees the batch stats and the table after the pending commit; a message or a throw is ABORTED', async () => {
        const t = await table(type, version);
        let seen: { batch: unknown; count: number; newRow: unknown[]; instant: string } | undefined;
        const inspect: PreCommitValidator = async (batch, snapshot: PendingSnapshot) => {
          const newRow: unknown[] = [];
          for await (const r of snapshot.rows({ columns: ['id', 'val', '_hoodie_commit_time'], filters: ["id = 'c'"] })) newRow.push(r);
          seen = { batch, count: await snapshot.count(), newRow, instant: snapshot.instant };
          return true;
        };
        const result = await t.upsert([row('c', 3), row('a', 5)], { validators: [inspect] });
        expect(seen?.batch).toEqual({ operation: 'UPSERT', instant: result.instant, inserted: 1, updated: 1, deleted: 0, partitions: ["part=p0"] });
        expect(seen?.count).toBe(3);
        expect(seen?.newRow).toEqual([{ id: 'c', val: 3n, _hoodie_commit_time: result.instant }]);
        expect(seen?.instant).toBe(result.instant);

        const tooMany = (batch: { inserted: number }) => (batch.inserted > 1 ? `${batch.inserted} inserts, at most 1` : true);
        await expectRejected(t, () => t.insert([row('d'), row('e')], { validators: [tooMany] }), /validator tooMany\(\) failed: 2 inserts, at most 1/);
        const boom = new Error('the quality service is down');
        const err = await failure(t.upsert([row('f')], { validators: [() => { throw boom; }] }));
        expect(err.code).toBe('ABORTED');
        expect(err.message).toMatch(/validator validators\[0\] failed: threw: the quality service is down/);
        expect(err.cause).toBe(boom);
        await expectRejected(t, () => t.upsert([row('g')], { validators: [async () => false] }), /validators\[0\] failed: returned false/);
      });
    });
  }
}

describe('pre-commit validators: options', () => {
  test('the table default (createTable) applies to every write; a write passes its own list, [] for none', async () => {
    const t = await table('COPY_ON_WRITE', 6, { validators: [notNull('val')] });
    await expectRejected(t, () => t.upsert([row('c', null)]), /notNull\(val\)/);
    await t.upsert([row('c', null)], { validators: [] });
    await expectRejected(t, () => t.upsert([row('d', -1)], { validators: [expectRecords('val > 0')] }), /expect\(val > 0\)/);
  });

  test('openTable({ validators }) makes them the default of the opened object\'s writes', async () => {
    const created = await table('MERGE_ON_READ', 9);
    const t = await openTable(created.storage, { validators: [notNull('val')] });
    await expectRejected(t, () => t.upsert([row('c', null)]), /notNull\(val\) failed/);
    await (await openTable(created.storage)).upsert([row('c', null)]);
  });

  for (const index of ['GLOBAL_SIMPLE', 'GLOBAL_BLOOM', 'IN_MEMORY', 'RECORD_INDEX'] as const) {
    test(`unique() follows the index: a key in another partition is a duplicate under a global index (${index})`, async () => {
      const global = await table('COPY_ON_WRITE', 6, { index });
      await expectRejected(global, () => global.insert([row('a', 1, 'p1')], { validators: [unique()] }), /record key "a" \(partition "part=p1"\) is already in the table/);
      await expectRejected(global, () => global.insert([row('q', 1, 'p0'), row('q', 1, 'p1')], { validators: [unique()] }), /"q" \(partition "part=p1"\) appears more than once/);
      await global.insert([row('r', 1, 'p1')], { validators: [unique()] });
      await expectRejected(global, () => global.bulkInsert([row('r', 2, 'p0')], { validators: [unique()] }), /record key "r" \(partition "part=p0"\) is already in the table/);
    });
  }

  for (const index of ['SIMPLE', 'BLOOM'] as const) {
    test(`unique() follows the index: the same key in another partition is no duplicate under a partitioned index (${index})`, async () => {
      const local = await table('MERGE_ON_READ', 6, { index });
      await local.insert([row('a', 1, 'p1')], { validators: [unique()] });
      expect((await contents(local)).filter((r) => r.startsWith('a/'))).toEqual(['a/p0/1', 'a/p1/1']);
      await expectRejected(local, () => local.bulkInsert([row('a', 3, 'p1')], { validators: [unique()] }), /record key "a" \(partition "part=p1"\) is already in the table/);
    });
  }

  for (const version of [6, 9] as const) {
    test(`the pending snapshot of an overwrite hides the groups it replaces (v${version})`, async () => {
      const t = await table('MERGE_ON_READ', version);
      await t.upsert([row('c', 3, 'p0'), row('d', 4, 'p1')]);
      const counts: number[] = [];
      const count = async (_: unknown, snapshot: PendingSnapshot) => (counts.push(await snapshot.count()), true);
      // p0 held a and c; the overwrite leaves x alone there: b, d (p1) and x.
      await t.insertOverwrite([row('x', 1, 'p0')], { validators: [count, rowCount({ min: 3, max: 3 })] });
      await expectRejected(t, () => t.deletePartitions(['part=p1'], { validators: [count, rowCount({ min: 2 })] }), /the table would hold \d+ rows, fewer than the minimum 2/);
      expect(counts).toEqual([3, 1]);
    });
  }

  test('a rejected write whose clean-up fails too leaves a pending instant the next write rolls back', async () => {
    const inner = memoryStorage();
    let deletesFail = false;
    const storage = { ...inner, label: inner.label, readOnly: inner.readOnly, head: inner.head.bind(inner), read: inner.read.bind(inner), write: inner.write.bind(inner), writeIfAbsent: inner.writeIfAbsent.bind(inner), list: inner.list.bind(inner),
      delete: (p: string) => (deletesFail ? Promise.reject(new Error(`store down: delete ${p}`)) : inner.delete(p)) };
    const t = await createTable(storage, { name: 'dq', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...QUIET, heartbeatTimeoutMs: 0 });
    await t.upsert([row('a', 1)]);
    const err = await failure(t.upsert([row('b', 2)], { validators: [() => ((deletesFail = true), 'refused')] }));
    expect(err.code).toBe('ABORTED');
    deletesFail = false;
    await t.refresh();
    expect(t.timeline.filter((i) => i.state !== 'COMPLETED').length).toBe(1); // the attempt's instant, not completed
    expect(await contents(t)).toEqual(['a/p0/1']);
    await t.upsert([row('c', 3)]); // rolls the failed attempt back first
    expect(await contents(t)).toEqual(['a/p0/1', 'c/p0/3']);
    expect(t.timeline.filter((i) => i.state !== 'COMPLETED')).toEqual([]);
    expect((await validateTable(t.storage)).problems).toEqual([]);
  });

  test('a validator object gets the records, the schema and key lookups through the index', async () => {
    const t = await table('COPY_ON_WRITE', 6);
    let seen: { records: string[]; fields: string[]; found: number } | undefined;
    const probe = {
      name: 'probe',
      async validate(ctx: ValidationContext) {
        const found = await ctx.existingKeys([{ recordKey: 'a', partitionPath: 'part=p0', data: {} }, { recordKey: 'zz', partitionPath: 'part=p0', data: {} }, ...ctx.records]);
        seen = { records: ctx.records.map((r) => r.recordKey), fields: ctx.schema.fields.map((f) => f.name), found: found.size };
        return ctx.records.length < 2 || 'at most one record per write';
      },
    };
    await t.insert([row('c')], { validators: [probe] });
    expect(seen).toEqual({ records: ['c'], fields: ['id', 'part', 'ts', 'val'], found: 1 });
    await expectRejected(t, () => t.upsert([row('a', 5), row('d')], { validators: [probe] }), /validator probe failed: at most one record per write/);
    expect(seen?.found).toBe(1); // a: once, whether asked as made up or as the write's own record
  });

  test('validators run in order and stop at the first failure; an ABORTED write is not retried on conflict', async () => {
    const t = await table('MERGE_ON_READ', 6);
    const calls: string[] = [];
    const first = () => (calls.push('first'), 'no');
    const second = () => (calls.push('second'), true);
    await failure(t.upsert([row('c')], { validators: [first, second], retryOnConflict: 3 }));
    expect(calls).toEqual(['first']);
  });

  test('bad validators and bad built-in arguments are INVALID_ARGUMENT before anything is written', async () => {
    const t = await table('COPY_ON_WRITE', 6);
    const before = await treeSnapshot(t.storage);
    const err = await failure(t.upsert([row('c')], { validators: [42 as unknown as PreCommitValidator] }));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toMatch(/validators\[0\]/);
    await expectTreeUnchanged(t.storage, before);
    expect(thrown(() => notNull([])).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => rowCount({})).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => rowCount({ min: 5, max: 2 })).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => expectRecords('val ~ 3')).code).toBe('INVALID_ARGUMENT');
  });

  test('a validator naming an unknown column fails the write (ABORTED) with the columns listed', async () => {
    const t = await table('COPY_ON_WRITE', 6);
    await expectRejected(t, () => t.upsert([row('c')], { validators: [notNull('nope')] }), /unknown column "nope" \(columns: id, part, ts, val\)/);
  });
});
