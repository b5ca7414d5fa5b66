// The table-specific facts of ../shared/fixtures/hudi-rs/EXPECTED.md (what hudi-rs's own tests assert):
// file slices as of instants, schemas, projections, filters and partition pruning.
import { Decimal, Int64 } from 'apache-arrow';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import { collect, openFixture } from '../helpers/fixtures.js';
import type { ExpectedFile } from './compare.js';

const V6_LATEST = 'a079bdb3-731c-4894-b855-abfcd6921007-0_0-203-274_20240418173551906.parquet';
const V6_FIRST = 'a079bdb3-731c-4894-b855-abfcd6921007-0_0-182-253_20240418173550988.parquet';
const tuple = (r: Record<string, unknown>) => [r.id, r.name, r.isActive];

describe('sample_table/cow/v6_nonpartitioned', async () => {
  const table = await openFixture('sample_table/cow/v6_nonpartitioned.zip');

  test('file slices as of instants', async () => {
    const names = async (asOf?: string) => (await table.fileSlices(asOf ? { asOf } : {})).map((s) => s.baseFile?.name);
    expect(await names()).toEqual([V6_LATEST]);
    expect(await names('20240418173551906')).toEqual([V6_LATEST]);
    expect(await names('20240418173551905')).toEqual([V6_FIRST]);
    expect(await names('19700101000000')).toEqual([]);
  });

  test('snapshot and time travel', async () => {
    const latest = await table.query();
    expect(latest.numRows).toBe(4);
    expect(latest.numCols).toBe(21);
    const rows = (await collect(table.rows({ columns: ['id', 'name', 'isActive'] }))).map(tuple).sort();
    expect(rows).toEqual([[1, 'Alice', false], [2, 'Bob', false], [3, 'Carol', true], [4, 'Diana', true]]);
    expect((await table.query({ asOf: '20240418173550988' })).numRows).toBe(3);
  });

  test('schema from the commit metadata, data fields in order', async () => {
    const schema = await table.schema();
    expect(schema.fields.slice(5).map((f) => f.name)).toEqual([
      'id', 'name', 'isActive', 'byteField', 'shortField', 'intField', 'longField', 'floatField', 'doubleField',
      'decimalField', 'dateField', 'timestampField', 'binaryField', 'arrayField', 'mapField', 'structField',
    ]);
    expect(schema.fields.slice(0, 5).map((f) => f.name)).toEqual(['_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name']);
    expect(schema.fields.find((f) => f.name === 'decimalField')?.type).toBeInstanceOf(Decimal);
    expect(schema.fields.find((f) => f.name === 'longField')?.type).toBeInstanceOf(Int64);
  });

  test('projection and filters', async () => {
    const projected = await table.query({ columns: ['id', 'name'] });
    expect(projected.numCols).toBe(2);
    expect(projected.numRows).toBe(4);
    const active = (await collect(table.rows({ filters: [['isActive', '=', true]] }))).map(tuple);
    expect(active.sort()).toEqual([[3, 'Carol', true], [4, 'Diana', true]]);
    const ids = (await collect(table.rows({ columns: ['id'], filters: ['isActive = true'] }))).map((r) => r.id).sort();
    expect(ids).toEqual([3, 4]);
    const nested = await collect(table.rows({ filters: [['name', '!=', 'Alice'], ['structField.field2', '>', 30]] }));
    const even = nested.filter((r) => (r.id as number) % 2 === 0).sort((a, b) => String(a.name).localeCompare(String(b.name)));
    expect(even.map((r) => [r.id, r.name, r.isActive, (r.structField as Record<string, unknown>).field2])).toEqual([[2, 'Bob', false, 40], [4, 'Diana', true, 50]]);
  });

  test('values keep their types: decimals exact, longs as bigint, nested values', async () => {
    const [alice] = await collect(table.rows({ filters: [['id', '=', 1]] }));
    expect(alice?.decimalField).toBe('12345.67890');
    expect(alice?.longField).toBe(1234567890n);
    expect(alice?.dateField).toBeInstanceOf(Date);
    expect(Array.isArray(alice?.arrayField)).toBe(true);
    const arrow = await table.query({ filters: [['id', '=', 1]], columns: ['id', 'decimalField'] });
    expect(String(arrow.getChild('decimalField')?.get(0))).toBe('1234567890');
  });
});

describe('sample_table/cow/v6_complexkeygen_hivestyle', async () => {
  const table = await openFixture('sample_table/cow/v6_complexkeygen_hivestyle.zip');
  const three = ['byteField >= 10', 'byteField < 20', 'shortField != 100'];

  test('complex keys and two-level hive partitions', async () => {
    const rows = await collect(table.rows({ columns: ['_hoodie_record_key', '_hoodie_partition_path', 'name'] }));
    const byName = Object.fromEntries(rows.map((r) => [r.name, [r._hoodie_record_key, r._hoodie_partition_path]]));
    expect(byName.Alice).toEqual(['id:1,name:Alice', 'byteField=10/shortField=300']);
    expect(byName.Bob).toEqual(['id:2,name:Bob', 'byteField=20/shortField=100']);
    expect(byName.Diana).toEqual(['id:4,name:Diana', 'byteField=30/shortField=100']);
    expect(table.config.partitionFields).toEqual(['byteField', 'shortField']);
  });

  test('partition filters prune file slices and rows', async () => {
    const paths = (await table.fileSlices()).map((s) => s.baseFile?.path).sort();
    expect(paths).toEqual([
      'byteField=10/shortField=300/a22e8257-e249-45e9-ba46-115bc85adcba-0_0-161-223_20240418173235694.parquet',
      'byteField=20/shortField=100/bb7c3a45-387f-490d-aab2-981c3f1a8ada-0_0-140-198_20240418173213674.parquet',
      'byteField=30/shortField=100/4668e35e-bff8-4be9-9ff2-e7fb17ecb1a7-0_1-161-224_20240418173235694.parquet',
    ]);
    expect((await table.fileSlices({ filters: three })).map((s) => s.baseFile?.path)).toEqual([paths[0]]);
    expect(await table.fileSlices({ filters: ['byteField >= 20', 'shortField = 300'] })).toEqual([]);
    expect((await table.fileSlices({ filters: ['byteField < 20', 'shortField = 300'] })).map((s) => s.fileId)).toEqual(['a22e8257-e249-45e9-ba46-115bc85adcba-0']);
    const rows = (await collect(table.rows({ filters: three }))).map(tuple).sort();
    expect(rows).toEqual([[1, 'Alice', false], [3, 'Carol', true]]);
  });
});

describe('sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable', async () => {
  const table = await openFixture('sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip');
  test('insert overwrite table leaves one file group', async () => {
    expect(table.commits.map((c) => c.action)).toEqual(['commit', 'commit', 'replacecommit']);
    expect((await table.fileSlices()).map((s) => s.fileId)).toEqual(['ebcb261d-62d3-4895-90ec-5b3c9622dff4-0']);
    expect((await collect(table.rows())).map(tuple)).toEqual([[4, 'Diana', false]]);
  });
  test('incremental ranges across the replacecommit', async () => {
    const [c1, c2, c3] = table.commits.map((c) => c.requestedTime) as [string, string, string];
    const inc = async (from: string, to?: string) => (await collect(table.rows({ from, ...(to ? { to } : {}) }))).map(tuple).sort();
    expect(await inc('19700101000000', c1)).toEqual([[1, 'Alice', true], [2, 'Bob', false], [3, 'Carol', true]]);
    expect(await inc(c1, c2)).toEqual([[1, 'Alice', false], [4, 'Diana', true]]);
    expect(await inc(c2, c3)).toEqual([[4, 'Diana', false]]);
    expect(await inc(c1)).toEqual([[4, 'Diana', false]]);
    expect(await inc(c3)).toEqual([]);
  });
});

describe('tables without meta fields, MOR and layout 2', () => {
  test('v6_simplekeygen_hivestyle_no_metafields rows carry no _hoodie_* columns', async () => {
    const table = await openFixture('sample_table/cow/v6_simplekeygen_hivestyle_no_metafields.zip');
    const rows = await collect(table.rows());
    expect(rows.map(tuple).sort()).toEqual([[1, 'Alice', false], [2, 'Bob', false], [3, 'Carol', true], [4, 'Diana', true]]);
    expect(Object.keys(rows[0] ?? {}).some((k) => k.startsWith('_hoodie_'))).toBe(false);
  });

  test('mor/parquet/v6_nonpartitioned: snapshot merges the parquet log block, read-optimized does not', async () => {
    const table = await openFixture('sample_table/mor/parquet/v6_nonpartitioned.zip');
    const latest = table.commits.at(-1)?.requestedTime as string;
    expect((await collect(table.rows())).map(tuple).sort()).toEqual([[1, 'Alice', false], [2, 'Bob', false], [3, 'Carol', true], [4, 'Diana', true]]);
    expect((await collect(table.rows({ asOf: latest, readOptimized: true }))).map(tuple).sort()).toEqual([[1, 'Alice', true], [2, 'Bob', false], [3, 'Carol', true], [4, 'Diana', true]]);
    expect((await table.fileSlices({ readOptimized: true })).every((s) => s.logFiles.length === 0)).toBe(true);
    expect((await table.fileSlices()).some((s) => s.logFiles.length > 0)).toBe(true);
  });

  test('mor/parquet/v6_nonpartitioned_rollback: the rolled-back log block is ignored', async () => {
    const table = await openFixture('sample_table/mor/parquet/v6_nonpartitioned_rollback.zip');
    expect((await collect(table.rows())).map(tuple).sort()).toEqual([[1, 'Alice', true], [2, 'Bob', true], [3, 'Carol', true]]);
    expect(table.timeline.some((i) => i.requestedTime === '20250126040826878')).toBe(false);
  });

  test('quickstart v6_trips_8i1u: the Avro data block update', async () => {
    const table = await openFixture('quickstart_trips_table/mor/avro/v6_trips_8i1u.zip');
    const fare = async (asOf?: string) => (await collect(table.rows({ ...(asOf ? { asOf } : {}), filters: [['rider', '=', 'rider-D']] }))).map((r) => [r.uuid, r.fare]);
    expect(await fare()).toEqual([['9909a8b1-2d15-4d3d-8ec9-efc48c536a00', 25]]);
    expect(await fare(table.commits[0]?.requestedTime)).toEqual([['9909a8b1-2d15-4d3d-8ec9-efc48c536a00', 33.9]]);
    expect((await table.query()).numRows).toBe(8);
  });

  test('quickstart v8_trips_8i3u1d: deletes, compaction, partition pruning', async () => {
    const table = await openFixture('quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip');
    expect(table.config.name).toBe('v8_trips_8i3u1d');
    expect(table.config.tableType).toBe('MERGE_ON_READ');
    const fares = async (opts: object) => Object.fromEntries((await collect(table.rows(opts))).map((r) => [String(r.rider).slice(-1), r.fare]));
    expect(await fares({})).toEqual({ A: 0, C: 27.7, D: 33.9, E: 93.5, G: 0, I: 41.06 });
    const first = await fares({ asOf: '20251220210108078' });
    expect([first.F, first.J]).toEqual([34.15, 17.85]);
    expect((await table.fileSlices({ asOf: '20251220210129235' })).length).toBe(3);
    const compacted = await fares({ asOf: '20251220210129235' });
    expect(Object.keys(compacted).length).toBe(6);
    expect([compacted.A, compacted.D, compacted.C, compacted.G]).toEqual([0, 33.9, 27.7, 43.4]);
    expect((await table.schema()).fields.map((f) => f.name)).toEqual([
      '_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name',
      'ts', 'uuid', 'rider', 'driver', 'fare', 'city',
    ]);
    expect(await fares({ filters: [['city', '=', 'san_francisco']] })).toEqual({ D: 33.9, C: 27.7, A: 0, E: 93.5 });
    expect((await collect(table.rows({ filters: ['rider = rider-A'] }))).length).toBe(1);
    const count = async (op: string) => (await table.fileSlices({ filters: [`city ${op} san_francisco`] })).length;
    expect([await count('='), await count('>'), await count('<'), await count('<='), await count('>=')]).toEqual([1, 1, 1, 2, 2]);
    expect((await table.fileSlices()).every((s) => !s.partitionPath.startsWith('.hoodie'))).toBe(true);
  });

  test('v8_nonpartitioned: layout 2, two commits; a stats-pruned filter returns fewer rows', async () => {
    const table = await openFixture('sample_table/cow/v8_nonpartitioned.zip');
    expect(table.config.timelineLayoutVersion).toBe(2);
    expect(table.commits.length).toBe(2);
    expect(table.commits.every((c) => c.completionTime !== undefined)).toBe(true);
    // The golden rows of the latest snapshot are the oracle: exactly their ids with intField = 15000.
    const golden = JSON.parse(readFileSync(join(inject('FIXTURES_DIR'), 'expected/sample_table__cow__v8_nonpartitioned.json'), 'utf8')) as ExpectedFile;
    const latest = golden.queries.find((q) => q.kind === 'snapshot' && q.asOf === golden.writeInstants.at(-1))!;
    const want = latest.rows.filter((r) => r.intField === 15000).map((r) => r.id);
    expect(want).toEqual([1]);
    expect(latest.rows.length).toBe(4);
    const all = await table.query();
    expect(all.numRows).toBe(latest.rows.length);
    const filtered = await table.query({ columns: ['id'], filters: [['intField', '=', 15000]] });
    expect(filtered.numCols).toBe(1);
    expect(filtered.toArray().map((r) => r.toJSON().id)).toEqual(want);
  });
});

describe('v9 txns tables (COW and MOR)', () => {
  for (const zip of ['sample_table/cow/v9_txns_simple_nometa.zip', 'sample_table/mor/avro/v9_txns_simple_nometa.zip']) {
    test(`${zip}: ids, filters on decimals, regions`, async () => {
      const table = await openFixture(zip);
      const ids = (await collect(table.rows({ columns: ['txn_id'] }))).map((r) => r.txn_id).sort();
      expect(ids).toEqual(['TXN-001', 'TXN-003', 'TXN-007', 'TXN-008', 'TXN-011', 'TXN-012', 'TXN-013', 'TXN-014', 'TXN-015', 'TXN-016', 'TXN-017', 'TXN-018']);
      expect((await collect(table.rows({ filters: ['txn_id = TXN-001'] })))[0]?.txn_type).toBe('reversal');
      expect((await collect(table.rows({ filters: [['txn_id', '=', 'TXN-007'], ['fee_amount', '=', '75.00']] }))).length).toBe(1);
      expect((await collect(table.rows({ filters: ['fee_amount = 75'] }))).map((r) => r.txn_id)).toContain('TXN-007');
      const region = async (r: string) => (await collect(table.rows({ filters: [['region', '=', r]] }))).map((x) => x.txn_id).sort();
      expect(await region('eu')).toEqual(['TXN-011', 'TXN-012', 'TXN-018']);
      expect(await region('us')).toEqual(['TXN-001', 'TXN-003', 'TXN-013', 'TXN-014', 'TXN-017']);
      expect(await region('apac')).toEqual(['TXN-007', 'TXN-008', 'TXN-015', 'TXN-016']);
    });
  }

  test('MOR snapshot equals read-optimized at the latest instant', async () => {
    const table = await openFixture('sample_table/mor/avro/v9_txns_simple_nometa.zip');
    const key = (r: Record<string, unknown>) => JSON.stringify([r.txn_id, r.txn_type, r.amount]);
    const snap = (await collect(table.rows())).map(key).sort();
    const ro = (await collect(table.rows({ asOf: table.commits.at(-1)?.requestedTime as string, readOptimized: true }))).map(key).sort();
    expect(snap).toEqual(ro);
  });

  test('COW incremental with partition filters', async () => {
    const table = await openFixture('sample_table/cow/v9_txns_simple_nometa.zip');
    const range = { from: '20260307135657661', to: '20260307135700696' };
    expect((await collect(table.rows(range))).map((r) => [r.txn_id, r.txn_type])).toEqual([['TXN-001', 'reversal']]);
    expect((await collect(table.rows({ ...range, filters: ['region = us'] }))).length).toBe(1);
    expect((await collect(table.rows({ ...range, filters: ['region = eu'] }))).length).toBe(0);
    const us = await table.fileSlices({ ...range, filters: ['region = us'] });
    expect(us.length).toBe(1);
    expect(us[0]?.baseFile?.path).toContain('region=us');
    expect(await table.fileSlices({ ...range, filters: ['region = eu'] })).toEqual([]);
  });

  test('clustering and compaction keep commit times: ranges over only them are empty', async () => {
    let services = 0;
    for (const zip of ['sample_table/cow/v9_txns_simple_nometa.zip', 'sample_table/mor/avro/v9_txns_simple_nometa.zip']) {
      const table = await openFixture(zip);
      const commits = table.commits;
      for (let i = 1; i < commits.length; i++) {
        const md = await table.commitMetadata(commits[i]!);
        if (md.operationType !== 'CLUSTER' && !md.compacted) continue;
        services++;
        expect(await collect(table.rows({ from: commits[i - 1]!.requestedTime, to: commits[i]!.requestedTime }))).toEqual([]);
      }
    }
    expect(services).toBeGreaterThanOrEqual(3);
  });
});

describe('duplicates, rollbacks and empty tables', () => {
  test('v9_nonpartitioned_rollback: two deltacommits, TXN-002 in two file groups', async () => {
    const table = await openFixture('sample_table/mor/avro/v9_nonpartitioned_rollback.zip');
    expect(table.commits.map((c) => c.action)).toEqual(['deltacommit', 'deltacommit']);
    const rows = (await collect(table.rows({ columns: ['txn_id', 'txn_type', 'txn_ts'] }))).map((r) => [r.txn_id, r.txn_type, r.txn_ts]);
    expect(rows.sort()).toEqual([['TXN-001', 'debit', 1700000000001n], ['TXN-002', 'debit', 1700000000002n], ['TXN-002', 'debit', 1700200000002n], ['TXN-003', 'debit', 1700000000003n]]);
    const [d0, d1] = table.commits.map((c) => c.requestedTime) as [string, string];
    expect((await collect(table.rows({ from: '19700101000000000', to: d0 }))).length).toBe(3);
    expect((await collect(table.rows({ from: d0, to: d1 }))).map((r) => r.txn_ts)).toEqual([1700200000002n]);
    expect(await collect(table.rows({ from: d1 }))).toEqual([]);
  });

  test('v9_timebasedkeygen_nonhivestyle: TXN-001 twice, yyyy/MM/dd/HH partitions', async () => {
    const table = await openFixture('sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip');
    const rows = await collect(table.rows());
    expect(rows.filter((r) => r.txn_id === 'TXN-001').map((r) => r.txn_type).sort()).toEqual(['debit', 'reversal']);
    expect(rows.every((r) => /^\d{4}\/\d{2}\/\d{2}\/\d{2}$/.test(String(r._hoodie_partition_path)))).toBe(true);
  });

  test('v6_empty: no instants, no rows, schema from hoodie.table.create.schema', async () => {
    const table = await openFixture('sample_table/cow/v6_empty.zip');
    expect(table.commits).toEqual([]);
    expect((await table.query()).numRows).toBe(0);
    expect(await collect(table.rows({ from: '19700101000000000' }))).toEqual([]);
    const schema = await table.schema();
    expect(schema.fields.length).toBeGreaterThan(5);
    expect(schema.fields.slice(5).map((f) => f.name)).toContain('id');
  });
});
