// createTable({ tableVersion: 8, metadataTable: false | 9 }): hoodie.properties key by key as Hudi 1.0 (v8) and 1.1 (v9) write them for
// a table without a metadata table (compared with the Spark-written fixtures' own files), plus lakelet's
// `hoodie.table.timeline.timezone=UTC`; then every operation on such a table, COW and MOR, leaves a timeline with
// the fixtures' structure (names, empty files, embedded schemas), v8/v9 log names, and the rows a model predicts.
import { describe, expect, test } from 'vitest';
import { parseProperties } from '../../src/config/properties.js';
import { createTable, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { manualClock } from '../../src/engine/clock.js';
import { readAvroContainer } from '../../src/format/avro/container.js';
import { fixtureStorage } from '../helpers/fixtures.js';
import { dataFileNames, expectFixtureStructure, expectLayout2Logs, kindOf, timelineNames, V8_COW, V9_COW } from '../helpers/v9-timeline.js';

const PROPS = '.hoodie/hoodie.properties';
/** Keys whose values name the table or its schema (differ by construction), and lakelet's own additions. */
const OWN = new Set(['hoodie.table.name', 'hoodie.table.checksum', 'hoodie.table.create.schema', 'hoodie.table.timeline.timezone', 'lakelet.partition.path.escaped']);

async function properties(storage: Storage): Promise<Map<string, string>> {
  return parseProperties(new TextDecoder().decode(await storage.read(PROPS)));
}

const SCHEMA = {
  type: 'record', name: 'txn', namespace: 'v9',
  fields: [{ name: 'id', type: 'string' }, { name: 'region', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: ['null', 'string'], default: null }],
};
type Row = { id: string; region: string; ts: bigint; v: string | null };
const OPTIONS = { clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false } } as const;

describe('createTable: hoodie.properties of v8 and v9 tables', () => {
  test('v9 (partitioned, ordering field) has exactly the keys and fixed values of the Spark v9 fixture, plus timezone UTC', async () => {
    const fixture = await properties(await fixtureStorage(V9_COW));
    const storage = memoryStorage();
    await createTable(storage, { name: 'mine', type: 'COPY_ON_WRITE', recordKey: 'txn_id', orderingField: 'txn_ts', partitionBy: ['region'], schema: { type: 'record', name: 'r', fields: [{ name: 'txn_id', type: 'string' }, { name: 'txn_ts', type: 'long' }, { name: 'region', type: 'string' }] }, tableVersion: 9, metadataTable: false });
    const mine = await properties(storage);
    expect([...mine.keys()].filter((k) => !OWN.has(k)).sort()).toEqual([...fixture.keys()].filter((k) => !OWN.has(k)).sort());
    for (const [k, v] of fixture) if (!OWN.has(k)) expect(mine.get(k), k).toBe(v);
    expect(mine.get('hoodie.table.timeline.timezone')).toBe('UTC');
    expect(mine.has('hoodie.table.create.schema')).toBe(true);
    // v9 has neither payload class nor merge strategy id nor precombine field (the upgrade to v9 drops them).
    for (const k of ['hoodie.compaction.payload.class', 'hoodie.record.merge.strategy.id', 'hoodie.table.precombine.field', 'hoodie.table.metadata.partitions']) expect(mine.has(k), k).toBe(false);
  });

  test('v8 (non-partitioned, ordering field) has exactly the keys and fixed values of the Spark v8 fixture, plus timezone UTC', async () => {
    const fixture = await properties(await fixtureStorage(V8_COW));
    const storage = memoryStorage();
    await createTable(storage, { name: 'mine', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'longField', tableVersion: 8, metadataTable: false });
    const mine = await properties(storage);
    const keys = (m: Map<string, string>) => [...m.keys()].filter((k) => !OWN.has(k)).sort();
    expect(keys(mine)).toEqual(keys(fixture));
    for (const [k, v] of fixture) if (!OWN.has(k)) expect(mine.get(k), k).toBe(v);
    expect(mine.get('hoodie.table.timeline.timezone')).toBe('UTC');
  });

  test('v8 commit-time ordering: the commit-time merge strategy and OverwriteWithLatestAvroPayload; v9: the mode alone', async () => {
    const v8 = memoryStorage();
    await createTable(v8, { name: 'a', type: 'MERGE_ON_READ', recordKey: 'id', tableVersion: 8, metadataTable: false });
    const p8 = await properties(v8);
    expect([p8.get('hoodie.record.merge.mode'), p8.get('hoodie.record.merge.strategy.id'), p8.get('hoodie.compaction.payload.class')]).toEqual(['COMMIT_TIME_ORDERING', 'ce9acb64-bde0-424c-9b91-f6ebba25356d', 'org.apache.hudi.common.model.OverwriteWithLatestAvroPayload']);
    const v9 = memoryStorage();
    const t9 = await createTable(v9, { name: 'a', type: 'MERGE_ON_READ', recordKey: 'id', tableVersion: 9, metadataTable: false });
    const p9 = await properties(v9);
    expect([p9.get('hoodie.record.merge.mode'), p9.has('hoodie.record.merge.strategy.id'), p9.has('hoodie.compaction.payload.class')]).toEqual(['COMMIT_TIME_ORDERING', false, false]);
    expect([t9.config.version, t9.config.timelineLayoutVersion, t9.config.timelinePath, t9.config.archivePath]).toEqual([9, 2, '.hoodie/timeline', '.hoodie/timeline/history']);
  });

  test('an unknown table version is INVALID_ARGUMENT and nothing is written', async () => {
    const storage = memoryStorage();
    await expect(createTable(storage, { name: 'a', type: 'COPY_ON_WRITE', recordKey: 'id', tableVersion: 7 as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', context: { field: 'tableVersion' } });
    expect(await storage.list('', { recursive: true })).toEqual([]);
  });
});

async function rowsOf(table: Table, readOptimized = false): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['id', 'region', 'ts', 'v'], readOptimized })) out.push(`${r.region as string}|${r.id as string}|${String(r.ts)}|${String(r.v)}`);
  return out.sort();
}
const canon = (m: Map<string, Row>): string[] => [...m.values()].map((r) => `${r.region}|${r.id}|${r.ts}|${r.v}`).sort();

for (const version of [8, 9] as const) {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`v${version} ${type}: every operation reads back as the model and leaves the fixtures' timeline structure`, async () => {
      const storage = memoryStorage();
      const clock = manualClock(Date.UTC(2026, 5, 1));
      const table = await createTable(storage, { name: `t${version}`, type, recordKey: 'id', orderingField: 'ts', partitionBy: ['region'], schema: SCHEMA, tableVersion: version, metadataTable: false, clock, ...OPTIONS });
      const model = new Map<string, Row>();
      const put = (rows: Row[]) => rows.forEach((r) => model.set(r.id, r));
      const check = async (what: string) => {
        expect(await rowsOf(await openTable(storage)), what).toEqual(canon(model));
        clock.advance(5);
      };
      const rows = (ids: string[], ts: bigint, v: string, region = 'us'): Row[] => ids.map((id) => ({ id, region, ts, v }));
      // Inserts, an update, a delete.
      put(rows(['a', 'b', 'c'], 1n, 'one'));
      put(rows(['d'], 1n, 'one', 'eu'));
      await table.upsert([...model.values()]);
      await check('after the first upsert');
      put(rows(['a'], 2n, 'two'));
      await table.upsert(rows(['a'], 2n, 'two'));
      await check('after an update');
      await table.delete(['b']);
      model.delete('b');
      await check('after a delete');
      await table.insert(rows(['e'], 1n, 'ins', 'eu'));
      put(rows(['e'], 1n, 'ins', 'eu'));
      await check('after an insert');
      if (type === 'MERGE_ON_READ') {
        const logs = await expectLayout2Logs(storage, new Set());
        expect(logs.length, 'the update and the delete wrote log files').toBeGreaterThanOrEqual(2);
        const compacted = await table.compact({ force: true });
        expect(compacted.length).toBe(1);
        expect(await rowsOf(await openTable(storage), true), 'read-optimized after the compaction').toEqual(canon(model));
        const names = await timelineNames(storage);
        const c = compacted[0]!.instant;
        expect(names.filter((n) => n.startsWith(c)).map((n) => kindOf(n).kind).sort()).toEqual(['commit', 'compaction.inflight', 'compaction.requested']);
        const md = readAvroContainer(await storage.read(`.hoodie/timeline/${names.find((n) => n.startsWith(`${c}_`))!}`)).records[0] as { compacted: boolean; operationType: string };
        expect([md.compacted, md.operationType]).toEqual([true, 'COMPACT']);
        await check('after the compaction');
      }
      const sp = await table.savepoint();
      await table.upsert(rows(['c'], 5n, 'after-savepoint'));
      await check2(model, storage, rows(['c'], 5n, 'after-savepoint'));
      await table.restore(sp.instant);
      model.set('c', { id: 'c', region: 'us', ts: 1n, v: 'one' });
      await check('after the restore');
      // Insert overwrite of one partition: the replacecommit's requested plan is the all-null one.
      await table.insertOverwrite(rows(['x'], 1n, 'ow', 'eu'), { partitions: ['region=eu'] });
      for (const [k, r] of model) if (r.region === 'eu') model.delete(k);
      put(rows(['x'], 1n, 'ow', 'eu'));
      await check('after an insert overwrite');
      await table.upsert(rows(['a'], 9n, 'rolled-back'));
      const before = new Set(await dataFileNames(storage));
      const rb = await table.rollback();
      await check('after rolling back the latest upsert');
      const after = new Set(await dataFileNames(storage));
      expect([...after].filter((f) => !before.has(f)), 'a v8/v9 rollback writes no command block').toEqual([]);
      expect([...before].filter((f) => f.includes(rb.rolledBack)).every((f) => !after.has(f)), 'the rolled-back write\'s files are gone').toBe(true);
      // The v9 rollback form (fixture v9_nonpartitioned_rollback): the write's files in filesToBeDeleted and
      // successDeleteFiles — its log too on MOR — and no log blocks or rollback logs.
      const tl = await timelineNames(storage);
      const planName = tl.find((n) => n === `${rb.instant}.rollback.requested`)!;
      const plan = readAvroContainer(await storage.read(`.hoodie/timeline/${planName}`)).records[0] as { instantToRollback: { commitTime: string; action: string }; RollbackRequests: { filesToBeDeleted: string[]; logBlocksToBeDeleted: Record<string, unknown> }[] };
      const rolledFiles = [...before].filter((f) => f.includes(rb.rolledBack));
      expect(plan.instantToRollback).toEqual({ commitTime: rb.rolledBack, action: type === 'COPY_ON_WRITE' ? 'commit' : 'deltacommit' });
      expect(plan.RollbackRequests.flatMap((r) => r.filesToBeDeleted).sort()).toEqual(rolledFiles.sort());
      expect(plan.RollbackRequests.every((r) => Object.keys(r.logBlocksToBeDeleted).length === 0)).toBe(true);
      if (type === 'MERGE_ON_READ') expect(rolledFiles.some((f) => /\/\.[^/]+\.log\.1_/.test(f)), 'the rolled-back deltacommit wrote a log').toBe(true);
      const doneName = tl.find((n) => n.startsWith(`${rb.instant}_`) && n.endsWith('.rollback'))!;
      const done = readAvroContainer(await storage.read(`.hoodie/timeline/${doneName}`)).records[0] as { partitionMetadata: Record<string, { successDeleteFiles: string[]; rollbackLogFiles: Record<string, unknown> }> };
      expect(Object.values(done.partitionMetadata).flatMap((p) => p.successDeleteFiles).sort()).toEqual(rolledFiles.sort());
      expect(Object.values(done.partitionMetadata).every((p) => Object.keys(p.rollbackLogFiles).length === 0)).toBe(true);
      const cleaned = await table.clean({ retainCommits: 1 });
      expect(cleaned?.instant).toBeDefined();
      await check('after a clean');
      const fresh = await expectFixtureStructure(storage);
      const kinds = new Set(fresh.map((n) => kindOf(n).kind));
      for (const k of ['replacecommit.requested', 'replacecommit', 'rollback', 'savepoint', 'restore', 'clean']) expect(kinds.has(k as never), k).toBe(true);
      expect(kinds.has(type === 'COPY_ON_WRITE' ? 'commit' : 'deltacommit')).toBe(true);
    });
  }
}

/** The table with one extra upsert applied (a model copy: the restore that follows drops it again). */
async function check2(model: Map<string, Row>, storage: Storage, extra: Row[]): Promise<void> {
  const m = new Map(model);
  for (const r of extra) m.set(r.id, r);
  expect(await rowsOf(await openTable(storage)), 'after the upsert past the savepoint').toEqual(canon(m));
}

describe('layout-2 instant and completion times', () => {
  test('completion times are taken from the clock when the completed file is written; a clock gone back still yields times after every time on the timeline', async () => {
    const storage = memoryStorage();
    const clock = manualClock(Date.UTC(2026, 5, 1, 12));
    const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', schema: SCHEMA, tableVersion: 9, metadataTable: false, clock, ...OPTIONS });
    await table.upsert([{ id: 'a', region: 'us', ts: 1n, v: 'x' }]);
    clock.set(Date.UTC(2026, 0, 1)); // the clock jumps back five months
    await table.upsert([{ id: 'a', region: 'us', ts: 2n, v: 'y' }]);
    const completed = (await timelineNames(storage)).filter((n) => n.includes('_')).map(kindOf);
    expect(completed.length).toBe(2);
    const [first, second] = completed as [ReturnType<typeof kindOf>, ReturnType<typeof kindOf>];
    expect(first.requested).toBe('20260601120000000');
    expect(first.completion! > first.requested).toBe(true);
    // The second write's times follow the first's completion although the clock is behind.
    expect(second.requested > first.completion!).toBe(true);
    expect(second.completion! > second.requested).toBe(true);
    expect(await rowsOf(await openTable(storage))).toEqual(['us|a|2|y']);
  });

  test('a foreign v9 table without hoodie.table.timeline.timezone whose newest time is ahead of our clock is refused, nothing written', async () => {
    const { fixtureCopy } = await import('../helpers/fixtures.js');
    const storage = await fixtureCopy(V9_COW);
    const before = (await storage.list('', { recursive: true })).map((f) => f.path).sort();
    const table = await openTable(storage);
    const behind = manualClock(Date.UTC(2026, 0, 1)); // the fixture's timeline is from 2026-03-07
    const err = await table.upsert([], { clock: behind }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'UNSUPPORTED', context: { field: 'hoodie.table.timeline.timezone' } });
    expect((err as Error).message).toContain('20260307135709890_20260307135710097'.slice(18));
    expect((await storage.list('', { recursive: true })).map((f) => f.path).sort()).toEqual(before);
  });
});
