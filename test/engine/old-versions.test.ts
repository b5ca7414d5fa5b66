// Tables of Hudi 0.10–0.13 (table versions 3, 4, 5; docs/hudi-format-v3-v5.md), made from v6 fixtures by the
// documented differences (test/helpers/old-version-table.ts): every golden query reads as on the v6 fixture,
// each difference has a test that fails when lakelet ignores it, and every write or service is refused with
// UNSUPPORTED naming hoodie.table.version before anything is written.
import { describe, expect, it } from 'vitest';
import { createTable, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { LakeletError } from '../../src/errors.js';
import { formatProperties, parseProperties } from '../../src/config/properties.js';
import { scanLogBlocks } from '../../src/format/log/block.js';
import { collect, fixtureBytes, fixtureCopy } from '../helpers/fixtures.js';
import { makeOldVersionTable, type OldTableVersion } from '../helpers/old-version-table.js';
import type { KryoOrderingValue } from '../helpers/kryo-encode.js';
import { expectTreeUnchanged, treeSnapshot } from '../helpers/tree-snapshot.js';
import { compareRows, expectedFields, type ExpectedFile } from '../golden/compare.js';
import { runQuery } from '../golden/golden-suite.js';
import { partitionValues } from '../../src/plan/read-plan.js';

const TRIPS = 'quickstart_trips_table/mor/avro/v6_trips_8i1u.zip';
const COMPLEX = 'sample_table/cow/v6_complexkeygen_hivestyle.zip';
const MOR_PARQUET = 'sample_table/mor/parquet/v6_nonpartitioned.zip';
/** Every v6 fixture with expected rows: the three above, a rollback (command block), a replacecommit, no meta fields, empty. */
const V6_GOLDEN = [
  TRIPS, COMPLEX, MOR_PARQUET,
  'sample_table/mor/parquet/v6_nonpartitioned_rollback.zip',
  'sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip',
  'sample_table/cow/v6_simplekeygen_hivestyle_no_metafields.zip',
  'sample_table/cow/v6_nonpartitioned.zip',
];

const expectedOf = (zip: string): ExpectedFile =>
  JSON.parse(new TextDecoder().decode(fixtureBytes(`expected/${zip.replace('.zip', '').split('/').join('__')}.json`))) as ExpectedFile;

async function refusal(p: Promise<unknown>): Promise<LakeletError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof LakeletError) return err;
    throw err;
  }
  throw new Error('expected the operation to be refused');
}

async function properties(storage: Storage): Promise<Map<string, string>> {
  return parseProperties(new TextDecoder().decode(await storage.read('.hoodie/hoodie.properties')));
}

/** Every expected query of the v6 fixture gives the same rows on `table`. */
async function expectGolden(table: Table, file: ExpectedFile): Promise<void> {
  expect(file.queries.length).toBeGreaterThanOrEqual(4);
  for (const q of file.queries) {
    const actual = await runQuery(table, q, expectedFields(file.columns, file.metaFields));
    const problem = compareRows(q.rows, actual, file.columns, file.metaFields);
    expect({ q: `${q.kind} ${q.asOf ?? ''} ${q.from ?? ''} ${q.to ?? ''}`, problem }).toEqual({ q: `${q.kind} ${q.asOf ?? ''} ${q.from ?? ''} ${q.to ?? ''}`, problem: undefined });
  }
}

describe.each([5, 4, 3] as OldTableVersion[])('table version %i made from v6 fixtures', (version) => {
  it.each(V6_GOLDEN)('%s: snapshot, time travel, read-optimized and incremental read as the v6 fixture', async (zip) => {
    const storage = await fixtureCopy(zip);
    await makeOldVersionTable(storage, version);
    const table = await openTable(storage);
    expect(table.config.version).toBe(version);
    expect(table.config.timelineLayoutVersion).toBe(1);
    const file = expectedOf(zip);
    expect(table.commits.map((i) => i.requestedTime)).toEqual(file.writeInstants);
    await expectGolden(table, file);
  });

  it('hoodie.properties as that release wrote it (no checksum before v4, no CDC or merger strategy before v5)', async () => {
    const storage = await fixtureCopy(TRIPS);
    await makeOldVersionTable(storage, version);
    const props = await properties(storage);
    expect(props.get('hoodie.table.version')).toBe(String(version));
    expect(props.has('hoodie.table.checksum')).toBe(version >= 4);
    expect(props.has('hoodie.compaction.record.merger.strategy')).toBe(version >= 5);
    const table = await openTable(storage);
    expect(table.config.checksum === undefined).toBe(version < 4);
    expect(table.config.defaultPartitionPath).toBe(version >= 5 ? '__HIVE_DEFAULT_PARTITION__' : 'default');
  });
});

describe('differences from version 6, each read as Hudi 0.14 does', () => {
  it('AVRO_DATA log blocks of content version 2 (0.10–0.13) merge as the v6 ones do', async () => {
    const storage = await fixtureCopy(TRIPS);
    await makeOldVersionTable(storage, 5);
    const log = (await storage.list('', { recursive: true })).find((f) => f.path.includes('.log.'));
    expect(log).toBeDefined();
    const bytes = await storage.read(log!.path);
    const blocks = scanLogBlocks(bytes).blocks.filter((b) => b.type === 'AVRO_DATA');
    expect(blocks.length).toBe(1);
    expect(new DataView(blocks[0]!.content.buffer, blocks[0]!.content.byteOffset, 4).getInt32(0)).toBe(2);
    // The key the second deltacommit updated (the expected incremental window holding it) reads its logged
    // fare in the snapshot, and the base file's in the read-optimized query.
    const file = expectedOf(TRIPS);
    const update = file.queries.find((q) => q.kind === 'incremental' && q.from === '20250331030642808' && q.to === '20250331030645735')!.rows[0]!;
    const base = file.queries.find((q) => q.kind === 'read_optimized' && q.asOf === '20250331030645735')!.rows.find((r) => r.uuid === update.uuid)!;
    expect(base.fare).not.toEqual(update.fare);
    const table = await openTable(storage);
    const read = async (readOptimized: boolean) => collect(table.rows({ columns: ['uuid', 'fare'], readOptimized, filters: [['uuid', '=', update.uuid]] }));
    expect(await read(false)).toEqual([{ uuid: update.uuid, fare: update.fare }]);
    expect(await read(true)).toEqual([{ uuid: update.uuid, fare: base.fare }]);
  });

  it.each([5, 4, 3] as OldTableVersion[])('v%i: a delete block of content version 2 (Kryo DeleteRecord[], as 0.10–0.13 wrote it) deletes as the v6 block does', async (version) => {
    const storage = await fixtureCopy(TRIPS);
    const file = expectedOf(TRIPS);
    const last = file.writeInstants.at(-1)!;
    const latest = file.queries.find((q) => q.kind === 'snapshot' && q.asOf === last)!.rows;
    // One key of the file group that already has a log (san_francisco), one of a base-only group (chennai).
    const gone = [latest.find((r) => r.city === 'san_francisco')!, latest.find((r) => r.city === 'chennai')!];
    const v6 = await openTable(storage);
    await v6.delete(gone.map((r) => ({ uuid: r.uuid, city: r.city })), { compaction: { inline: false } });
    const deleteInstant = v6.commits.at(-1)!.requestedTime;
    expect(deleteInstant > last).toBe(true);
    await makeOldVersionTable(storage, version);
    // Every DELETE block on disk is now content version 2, a Kryo graph of DeleteRecord[] (class by name, id 0).
    let kryoBlocks = 0;
    for (const f of await storage.list('', { recursive: true })) {
      if (!f.path.includes('.log.')) continue;
      for (const b of scanLogBlocks(await storage.read(f.path)).blocks.filter((x) => x.type === 'DELETE')) {
        const head = new TextDecoder('latin1').decode(b.content.subarray(8, 10 + 44).map((x) => x & 0x7f));
        expect([new DataView(b.content.buffer, b.content.byteOffset).getInt32(0), b.content[8], b.content[9], head.slice(2)]).toEqual([2, 1, 0, '[Lorg.apache.hudi.common.model.DeleteRecord;']);
        kryoBlocks++;
      }
    }
    expect(kryoBlocks).toBe(2);
    const table = await openTable(storage);
    expect(table.config.version).toBe(version);
    const cols = ['uuid', 'fare', 'city'];
    const pick = (rows: Record<string, unknown>[]) => rows.map((r) => ({ uuid: r.uuid, fare: r.fare, city: r.city })).sort((a, b) => String(a.uuid).localeCompare(String(b.uuid)));
    const goneIds = new Set(gone.map((r) => r.uuid));
    expect(pick(await collect(table.rows({ columns: cols })))).toEqual(pick(latest.filter((r) => !goneIds.has(r.uuid))));
    // Before the delete, and in the base files, the keys are still there.
    expect(pick(await collect(table.rows({ columns: cols, asOf: last })))).toEqual(pick(latest));
    expect((await collect(table.rows({ columns: cols, readOptimized: true }))).filter((r) => goneIds.has(r.uuid as string))).toHaveLength(2);
  });

  it('Kryo ordering values keep their merge meaning: a Long below the logged update keeps it, Integer 0 deletes', async () => {
    const file = expectedOf(TRIPS);
    const [first, last] = [file.writeInstants[0]!, file.writeInstants.at(-1)!];
    // The key the second deltacommit updated in the san_francisco log, and a base-only chennai key.
    const updated = file.queries.find((q) => q.kind === 'incremental' && q.from === first && q.to === last)!.rows[0]!;
    const latest = file.queries.find((q) => q.kind === 'snapshot' && q.asOf === last)!.rows;
    const other = latest.find((r) => r.city === 'chennai')!;
    const updatedTs = BigInt(updated.ts as number);
    // Hudi 0.14 (HoodieMergedLogRecordScanner.processNextDeletedRecord) keeps the logged record when the delete's
    // ordering value is non-zero, of the same class, and smaller; Integer 0 is natural order: the delete wins.
    const orderings: Record<string, KryoOrderingValue> = {
      [updated.uuid as string]: { type: 'Long', value: updatedTs - 1n },
      [other.uuid as string]: { type: 'Integer', value: 0 },
    };
    const storage = await fixtureCopy(TRIPS);
    await (await openTable(storage)).delete([updated, other].map((r) => ({ uuid: r.uuid, city: r.city })), { compaction: { inline: false } });
    await makeOldVersionTable(storage, 5, { kryoOrderingVal: (rec) => orderings[rec.recordKey!]! });
    const rows = await collect((await openTable(storage)).rows({ columns: ['uuid', 'fare'], filters: [['uuid', 'IN', [updated.uuid, other.uuid]]] }));
    expect(rows).toEqual([{ uuid: updated.uuid, fare: updated.fare }]);
  });

  it.each([['0'], [null]] as const)('timeline layout %s (or absent) in a v3 table reads as layout 1', async (layout) => {
    const storage = await fixtureCopy(COMPLEX);
    await makeOldVersionTable(storage, 3, { layoutVersion: layout });
    expect((await properties(storage)).get('hoodie.timeline.layout.version')).toBe(layout ?? undefined);
    const table = await openTable(storage);
    expect(table.config.timelineLayoutVersion).toBe(1);
    expect(table.config.timelineLayoutVersionAsWritten).toBe(layout ?? undefined);
    await expectGolden(table, expectedOf(COMPLEX));
  });

  it('layout 0 is not accepted for version 6', async () => {
    const storage = await fixtureCopy(COMPLEX);
    const props = await properties(storage);
    props.set('hoodie.timeline.layout.version', '0');
    await storage.write('.hoodie/hoodie.properties', new TextEncoder().encode(formatProperties(props)));
    const err = await refusal(openTable(storage));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.context.field).toBe('hoodie.timeline.layout.version');
  });

  it('version 7 (Hudi 0.16, no format change from 6) reads as version 6', async () => {
    const storage = await fixtureCopy(TRIPS);
    const props = await properties(storage);
    props.set('hoodie.table.version', '7');
    await storage.write('.hoodie/hoodie.properties', new TextEncoder().encode(formatProperties(props)));
    const table = await openTable(storage);
    expect(table.config.version).toBe(7);
    await expectGolden(table, expectedOf(TRIPS));
  });

  it.each(['1', '2', '10'])('version %s stays UNSUPPORTED naming it', async (v) => {
    const storage = await fixtureCopy(TRIPS);
    const props = await properties(storage);
    props.set('hoodie.table.version', v);
    await storage.write('.hoodie/hoodie.properties', new TextEncoder().encode(formatProperties(props)));
    const err = await refusal(openTable(storage));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.context).toMatchObject({ field: 'hoodie.table.version', value: v });
    expect(err.message).toContain(`"${v}"`);
  });
});

describe('the default partition path before version 5', () => {
  const SCHEMA = {
    type: 'record', name: 'r', namespace: 'ov',
    fields: [{ name: 'id', type: 'string' }, { name: 'part', type: ['null', 'string'], default: null }, { name: 'ts', type: 'long' }],
  };
  const OPTIONS = { bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false } };

  /** A COW table lakelet wrote (v6) with a null, an empty and a plain partition value, made version `version`. */
  async function tableWithDefaultPartition(version: OldTableVersion): Promise<Storage> {
    const storage = memoryStorage({ label: `old-default-${version}` });
    const table = await createTable(storage, { name: 'ov', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...OPTIONS });
    await table.upsert([{ id: 'a', part: '', ts: 1 }, { id: 'b', part: 'x', ts: 1 }, { id: 'c', part: null, ts: 1 }], OPTIONS);
    await makeOldVersionTable(storage, version);
    return storage;
  }
  const ids = async (table: Table, filters: NonNullable<Parameters<Table['rows']>[0]>['filters'] = []) =>
    (await collect(table.rows({ columns: ['id'], filters }))).map((r) => r.id).sort();

  it.each([4, 3] as OldTableVersion[])('v%i: null and empty values sit in `default`; a filter on the partition field keeps that partition', async (version) => {
    const storage = await tableWithDefaultPartition(version);
    const dirs = new Set((await storage.list('', { recursive: true })).filter((f) => f.path.endsWith('.parquet')).map((f) => f.path.split('/')[0]));
    expect(dirs).toEqual(new Set(['part=default', 'part=x']));
    const table = await openTable(storage);
    const rows = await collect(table.rows({ columns: ['_hoodie_partition_path', 'id', 'part'] }));
    expect(rows.sort((p, q) => String(p.id).localeCompare(String(q.id)))).toEqual([
      { _hoodie_partition_path: 'part=default', id: 'a', part: '' },
      { _hoodie_partition_path: 'part=x', id: 'b', part: 'x' },
      { _hoodie_partition_path: 'part=default', id: 'c', part: null },
    ]);
    // '' lives in `default`: pruning that partition by its name would lose row a.
    expect(await ids(table, [['part', '=', '']])).toEqual(['a']);
    expect(await ids(table, [['part', 'IN', ['', 'x']]])).toEqual(['a', 'b']);
    expect(await ids(table, [['part', '=', 'x']])).toEqual(['b']);
  });

  it('v5+: `default` is most likely a plain value (0.12 writes __HIVE_DEFAULT_PARTITION__), but may still hold null and empty values', async () => {
    const storage = await tableWithDefaultPartition(4);
    const props = await properties(storage);
    props.set('hoodie.table.version', '5');
    await storage.write('.hoodie/hoodie.properties', new TextEncoder().encode(formatProperties(props)));
    const table = await openTable(storage);
    expect(table.config.defaultPartitionPath).toBe('__HIVE_DEFAULT_PARTITION__');
    expect(partitionValues(table.config, 'part=default')).toEqual(new Map([['part', 'default']]));
    expect(partitionValues((await openTable(await tableWithDefaultPartition(4))).config, 'part=default')).toEqual(new Map([['part', null]]));
    // A v4 table upgraded with hoodie.skip.default.partition.validation keeps its `default` partition: not pruned.
    expect(await ids(table, [['part', '=', '']])).toEqual(['a']);
    expect(await ids(table, [['part', '=', 'y']])).toEqual([]);
    expect(await ids(table)).toEqual(['a', 'b', 'c']);
  });
});

describe('compaction plans in .hoodie/.aux (0.10–0.13 wrote both copies; 0.14 reads the timeline one)', () => {
  it('a compacted v5 table reads from the timeline copy; a damaged .aux copy changes nothing', async () => {
    const storage = await fixtureCopy(TRIPS);
    const [result] = await (await openTable(storage)).compact();
    expect(result).toBeDefined();
    const compaction = result!.instant;
    await makeOldVersionTable(storage, 5);
    const plan = await storage.read(`.hoodie/${compaction}.compaction.requested`);
    expect(await storage.read(`.hoodie/.aux/${compaction}.compaction.requested`)).toEqual(plan);
    await storage.write(`.hoodie/.aux/${compaction}.compaction.requested`, new TextEncoder().encode('not a compaction plan'));

    const table = await openTable(storage);
    expect(table.commits.map((i) => i.requestedTime)).toEqual(['20250331030642808', '20250331030645735', compaction]);
    const file = expectedOf(TRIPS);
    const at = (kind: string, asOf: string) => file.queries.find((q) => q.kind === kind && q.asOf === asOf)!;
    const latest = at('snapshot', '20250331030645735');
    const queries = [
      { ...latest, asOf: compaction },
      { ...latest, kind: 'read_optimized' as const, asOf: compaction }, // the compacted base files hold the update
      at('snapshot', '20250331030642808'),
      at('read_optimized', '20250331030645735'),
      { kind: 'incremental' as const, from: '20250331030645735', to: compaction, rows: [] }, // compaction keeps commit times
    ];
    await expectGolden(table, { ...file, queries: [...queries, ...file.queries.filter((q) => q.kind === 'incremental')] });
  });
});

describe('writing stays version 6+', () => {
  it.each([5, 4, 3, 7])('writes and services into a v%i table are UNSUPPORTED naming hoodie.table.version; the tree is byte-identical', async (version) => {
    const storage = await fixtureCopy(TRIPS);
    if (version === 7) {
      const props = await properties(storage);
      props.set('hoodie.table.version', '7');
      await storage.write('.hoodie/hoodie.properties', new TextEncoder().encode(formatProperties(props)));
    } else await makeOldVersionTable(storage, version as OldTableVersion);
    const table = await openTable(storage);
    const before = await treeSnapshot(storage);
    const row = { ts: 1, uuid: 'new-key', rider: 'r', driver: 'd', fare: 1.5, city: 'chennai' };
    const ops: [string, () => Promise<unknown>][] = [
      ['upsert', () => table.upsert([row])],
      ['insert', () => table.insert([row])],
      ['delete', () => table.delete(['9909a8b1-eb81-4c7c-8d9b-a8d57e1b1ead'])],
      ['compact', () => table.compact()],
      ['clean', () => table.clean({ retainCommits: 1 })],
      ['rollback', () => table.rollback()],
      ['archive', () => table.archive({ keepMinCommits: 1, keepMaxCommits: 2 })],
      ['savepoint', () => table.savepoint()],
    ];
    for (const [name, op] of ops) {
      const err = await refusal(op());
      expect({ name, code: err.code, field: err.context.field }).toEqual({ name, code: 'UNSUPPORTED', field: 'hoodie.table.version' });
      expect(err.message).toContain('hoodie.table.version');
      await expectTreeUnchanged(storage, before);
    }
    await expectGolden(await openTable(storage), expectedOf(TRIPS));
  });
});

describe('the archived timeline of a v5 table (HoodieArchivedMetaEntry of 0.10–0.13, content version 2)', () => {
  it('time travel and incremental reads over archived deltacommits equal the v6 fixture', async () => {
    const storage = await fixtureCopy(TRIPS);
    await (await openTable(storage)).compact();
    const archived = await (await openTable(storage)).archive({ keepMinCommits: 1, keepMaxCommits: 2 });
    expect(archived.map((i) => i.requestedTime)).toEqual(['20250331030642808', '20250331030645735']);
    await makeOldVersionTable(storage, 5);
    const files = (await storage.list('.hoodie/archived')).filter((f) => f.kind === 'file');
    expect(files.length).toBe(1);
    const blocks = scanLogBlocks(await storage.read(files[0]!.path)).blocks;
    expect(blocks.length).toBe(1);
    const schema = JSON.parse(blocks[0]!.header.SCHEMA!) as { fields: { name: string }[] };
    expect(schema.fields.map((f) => f.name)).not.toContain('HoodieInflightReplaceMetadata');
    expect(new DataView(blocks[0]!.content.buffer, blocks[0]!.content.byteOffset, 4).getInt32(0)).toBe(2);

    const table = await openTable(storage);
    expect(table.commits.map((i) => i.action)).toEqual(['commit']); // only the compaction is still active
    const file = expectedOf(TRIPS);
    await expectGolden(table, file);
  });
});
