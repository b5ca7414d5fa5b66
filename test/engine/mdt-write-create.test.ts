// New v8/v9 tables with a metadata table (issue 10, doc §6.2): createTable({ tableVersion, metadataTable: true })
// initialises `files` at 00000000000000000 (the 80-byte init log, a base HFile of `__all_partitions__ → {}`) and
// `record_index` at 00000000000000001 (ten 80-byte init logs), lists them in hoodie.properties and (v9)
// index.json; then COW and MOR tables take inserts, upserts, deletes and overwrites with validateTable clean
// after every step and the MDT listing equal to storage. `metadataTable: false` keeps a v9 table without one.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, validateTable, type Storage } from '../../src/index.js';
import { parseProperties } from '../../src/config/properties.js';
import { HFileReader } from '../../src/format/hfile/reader.js';
import { encodeLogBlock } from '../../src/format/log/block.js';
import { encodeDeleteBlockContent } from '../../src/format/log/delete-block.js';
import { lookupRecordIndex, readMetadataListing } from '../../src/engine/metadata/metadata-reads.js';
import { collect } from '../helpers/fixtures.js';
import { fixtureStorage } from '../helpers/fixtures.js';

const OPTIONS = { clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false }, bloomFilter: { numEntries: 100 } } as const;
const V9_MDT = 'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip';
const props = async (s: Storage, path = '.hoodie/hoodie.properties') => parseProperties(new TextDecoder().decode(await s.read(path)));

/** Every data file under the partitions (not .hoodie), name → size, by partition. */
async function storageListing(storage: Storage): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  for (const f of await storage.list('', { recursive: true })) {
    if (f.path.startsWith('.hoodie') || f.path.endsWith('.hoodie_partition_metadata')) continue;
    const i = f.path.lastIndexOf('/');
    const p = i < 0 ? '' : f.path.slice(0, i);
    if (!out.has(p)) out.set(p, new Map());
    out.get(p)!.set(f.path.slice(i + 1), f.size);
  }
  return out;
}

describe.each([9, 8] as const)('a new v%i table with a metadata table', (tableVersion) => {
  test('createTable initialises files and record_index as Hudi does', async () => {
    const storage = memoryStorage();
    await createTable(storage, { name: 'trips', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['city'], tableVersion, metadataTable: true });
    const p = await props(storage);
    expect(p.get('hoodie.table.metadata.partitions')).toBe('files,record_index');
    expect(p.get('hoodie.table.metadata.partitions.inflight')).toBe('');
    // The MDT properties are the fixture's, but for the name, its checksum and the version.
    const ours = await props(storage, '.hoodie/metadata/.hoodie/hoodie.properties');
    const theirs = await props(await fixtureStorage(V9_MDT), '.hoodie/metadata/.hoodie/hoodie.properties');
    expect([...ours.keys()].sort()).toEqual([...theirs.keys()].sort());
    for (const [k, v] of theirs) if (!['hoodie.table.name', 'hoodie.table.checksum', 'hoodie.table.version', 'hoodie.table.initial.version'].includes(k)) expect(ours.get(k), k).toBe(v);
    expect(ours.get('hoodie.table.name')).toBe('trips_metadata');
    expect(ours.get('hoodie.table.version')).toBe(String(tableVersion));
    // The 80-byte init logs: an empty DELETE block with INSTANT_TIME only.
    const files = (await storage.list('.hoodie/metadata', { recursive: true })).map((f) => f.path.slice('.hoodie/metadata/'.length)).sort();
    const init0 = encodeLogBlock('DELETE', { INSTANT_TIME: '00000000000000000' }, encodeDeleteBlockContent([]));
    expect(init0.length).toBe(80);
    expect(await storage.read('.hoodie/metadata/files/.files-0000-0_00000000000000000.log.1_0-0-0')).toEqual(init0);
    const init1 = encodeLogBlock('DELETE', { INSTANT_TIME: '00000000000000001' }, encodeDeleteBlockContent([]));
    for (let g = 0; g < 10; g++) expect(await storage.read(`.hoodie/metadata/record_index/.record-index-000${g}-0_00000000000000001.log.1_0-0-0`)).toEqual(init1);
    expect(files.filter((f) => f.startsWith('record_index/.record-index-'))).toHaveLength(10);
    // The fixture's own init logs are byte-identical to ours for the same instant.
    const fx = await fixtureStorage(V9_MDT);
    expect(await fx.read('.hoodie/metadata/files/.files-0000-0_00000000000000000.log.1_0-0-0')).toEqual(init0);
    // files' base HFile holds one record, __all_partitions__.
    const base = files.find((f) => /^files\/files-0000-0_0-0-0_00000000000000000\.hfile$/.test(f));
    expect(base).toBeDefined();
    const reader = await HFileReader.open(await storage.read(`.hoodie/metadata/${base!}`));
    expect((await collect(reader.entries())).map((e) => e.key)).toEqual(['__all_partitions__']);
    const timeline = files.filter((f) => f.startsWith('.hoodie/timeline/'));
    expect(timeline.filter((f) => /^\.hoodie\/timeline\/0000000000000000[01]_\d{17}\.deltacommit$/.test(f))).toHaveLength(2);
    if (tableVersion === 9) expect(JSON.parse(new TextDecoder().decode(await storage.read('.hoodie/.index_defs/index.json')))).toEqual({ indexDefinitions: { record_index: { indexName: 'record_index', indexType: 'record_index', indexFunction: '', sourceFields: [], indexOptions: { isPartitioned: 'false' }, version: 'V1' } } });
    expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
  });

  test.each([
    ['COPY_ON_WRITE', false], ['MERGE_ON_READ', false], ['COPY_ON_WRITE', true], ['MERGE_ON_READ', true],
  ] as const)('%s (schema given: %s): inserts, upserts, deletes and an overwrite keep the MDT equal to storage and the data', { timeout: 60_000 }, async (type, withSchema) => {
    const storage = memoryStorage();
    // With a schema, column_stats and partition_stats are initialised too (Hudi's order 0 files, 1 column_stats,
    // 2 record_index, 3 partition_stats) and kept by every write.
    const schema = { type: 'record', name: 'trip', fields: [{ name: 'id', type: 'string' }, { name: 'city', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: ['null', 'string'], default: null }] };
    const table = await createTable(storage, { name: 'trips', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['city'], tableVersion, metadataTable: true, ...(withSchema ? { schema } : {}) });
    expect((await props(storage)).get('hoodie.table.metadata.partitions')).toBe(withSchema ? 'column_stats,files,partition_stats,record_index' : 'files,record_index');
    if (withSchema) {
      const mdtTimeline = (await storage.list('.hoodie/metadata/.hoodie/timeline')).map((f) => f.path.split('/').pop()!).filter((n) => /_\d{17}\.deltacommit$/.test(n)).sort();
      expect(mdtTimeline.map((n) => n.slice(0, 17))).toEqual(['00000000000000000', '00000000000000001', '00000000000000002', '00000000000000003']);
      expect((await storage.list('.hoodie/metadata/column_stats')).filter((f) => f.path.includes('_00000000000000001.log.')).length).toBe(2);
      expect((await storage.list('.hoodie/metadata/record_index')).filter((f) => f.path.includes('_00000000000000002.log.')).length).toBe(10);
      expect((await storage.list('.hoodie/metadata/partition_stats')).filter((f) => f.path.includes('_00000000000000003.log.')).length).toBe(1);
      if (tableVersion === 9) {
        const defs = JSON.parse(new TextDecoder().decode(await storage.read('.hoodie/.index_defs/index.json')));
        expect(defs.indexDefinitions.column_stats.sourceFields).toEqual(['_hoodie_commit_time', '_hoodie_partition_path', '_hoodie_record_key', 'id', 'city', 'ts', 'v']);
      }
    }
    const model = new Map<string, { id: string; city: string; ts: number; v: string }>();
    const check = async (what: string, deletedPartition?: string) => {
      const rows = new Map<string, unknown>();
      for await (const r of (await openTable(storage)).rows()) rows.set(r.id as string, `${String(r.city)}|${String(r.ts)}|${String(r.v)}`);
      expect(rows, what).toEqual(new Map([...model].map(([k, r]) => [k, `${r.city}|${r.ts}|${r.v}`])));
      // A partition delete marks the partition deleted in __all_partitions__ at once, as Java's
      // getPartitionsDeleted does, while its replaced files stay on storage until a clean: the validator
      // accepts those (and only those).
      expect(await validateTable(storage), what).toMatchObject({ ok: true, problems: [] });
      const listing = (await readMetadataListing(storage))!;
      const live = await storageListing(storage);
      if (deletedPartition !== undefined) live.delete(deletedPartition); // listed as deleted (see above)
      expect(new Map([...listing].map(([p, files]) => [p, new Map([...files].filter(([n]) => live.get(p)?.has(n)))])), what).toEqual(live);
      const found = (await lookupRecordIndex(storage, [...model.keys()]))!;
      expect([...found.keys()].sort(), what).toEqual([...model.keys()].sort());
    };
    const put = (rows: { id: string; city: string; ts: number; v: string }[]) => { for (const r of rows) model.set(r.id, r); return rows; };
    await table.insert(put([{ id: 'a', city: 'sf', ts: 1, v: 'a1' }, { id: 'b', city: 'sf', ts: 1, v: 'b1' }, { id: 'c', city: 'nyc', ts: 1, v: 'c1' }]), OPTIONS);
    await check('after the first insert');
    await table.upsert(put([{ id: 'a', city: 'sf', ts: 2, v: 'a2' }, { id: 'd', city: 'la', ts: 1, v: 'd1' }]), OPTIONS);
    await check('after an upsert');
    await table.delete(['b'], OPTIONS);
    model.delete('b');
    await check('after a delete');
    await table.insertOverwrite([{ id: 'e', city: 'nyc', ts: 1, v: 'e1' }], { ...OPTIONS, partitions: ['city=nyc'] });
    model.delete('c');
    put([{ id: 'e', city: 'nyc', ts: 1, v: 'e1' }]);
    await check('after an insert overwrite');
    await table.bulkInsert(put([{ id: 'f', city: 'sf', ts: 1, v: 'f1' }, { id: 'g', city: 'tokyo', ts: 1, v: 'g1' }]), OPTIONS);
    await check('after a bulk insert');
    await table.deletePartitions(['city=la'], OPTIONS);
    model.delete('d');
    await check('after a partition delete', 'city=la');
  });
});

test('a schema with a column whose stats lakelet cannot write (a v9 timestamp-millis) starts without column and partition stats; writes work', async () => {
  const storage = memoryStorage();
  const schema = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: ['null', { type: 'long', logicalType: 'timestamp-millis' }], default: null }] };
  const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema, tableVersion: 9, metadataTable: true });
  expect((await props(storage)).get('hoodie.table.metadata.partitions')).toBe('files,record_index');
  await table.upsert([{ id: 'a', part: 'x', ts: 1n, v: new Date(1_700_000_000_000) }], OPTIONS);
  expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
});

test('v9 int, float and double columns get column and partition stats (ValueType INT 3, FLOAT 5, DOUBLE 6) that skip files', { timeout: 60_000 }, async () => {
  const storage = memoryStorage();
  const schema = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'n', type: ['null', 'int'], default: null }, { name: 'f', type: ['null', 'float'], default: null }, { name: 'd', type: ['null', 'double'], default: null }] };
  const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema, tableVersion: 9, metadataTable: true });
  expect((await props(storage)).get('hoodie.table.metadata.partitions')).toBe('column_stats,files,partition_stats,record_index');
  await table.upsert([{ id: 'a', part: 'x', ts: 1n, n: 1, f: 0.5, d: -2.25 }, { id: 'b', part: 'x', ts: 1n, n: 7, f: 1.5, d: 0 }], OPTIONS);
  await table.upsert([{ id: 'c', part: 'y', ts: 1n, n: 100, f: 20.5, d: 1e6 }, { id: 'd', part: 'y', ts: 1n, n: null, f: null, d: 3.5 }], OPTIONS);
  expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
  const { readColumnStats } = await import('../../src/engine/metadata/metadata-reads.js');
  const byColumn = async (c: string) => ((await readColumnStats(storage, c)) ?? []).map((s) => ({ min: s.minValue, max: s.maxValue, nulls: s.nullCount, type: s.valueType?.typeOrdinal })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  expect(await byColumn('n')).toEqual([
    { min: { wrapper: 'IntWrapper', value: 1 }, max: { wrapper: 'IntWrapper', value: 7 }, nulls: 0, type: 3 },
    { min: { wrapper: 'IntWrapper', value: 100 }, max: { wrapper: 'IntWrapper', value: 100 }, nulls: 1, type: 3 },
  ]);
  expect(await byColumn('f')).toEqual([
    { min: { wrapper: 'FloatWrapper', value: 0.5 }, max: { wrapper: 'FloatWrapper', value: 1.5 }, nulls: 0, type: 5 },
    { min: { wrapper: 'FloatWrapper', value: 20.5 }, max: { wrapper: 'FloatWrapper', value: 20.5 }, nulls: 1, type: 5 },
  ]);
  // Parquet's zero rule: a zero maximum is +0.0 (here -2.25 … 0).
  const d = await byColumn('d');
  expect(d).toEqual([
    { min: { wrapper: 'DoubleWrapper', value: -2.25 }, max: { wrapper: 'DoubleWrapper', value: 0 }, nulls: 0, type: 6 },
    { min: { wrapper: 'DoubleWrapper', value: 3.5 }, max: { wrapper: 'DoubleWrapper', value: 1e6 }, nulls: 0, type: 6 },
  ]);
  expect(Object.is((d[0]!.max as { value: number }).value, 0)).toBe(true);
  // The stats prune: `d > 100` reads only part=y's file, and the rows equal a storage-listed read's.
  const dataReads: string[] = [];
  const recording: Storage = {
    label: storage.label, readOnly: storage.readOnly,
    head: (p) => storage.head(p), list: (p, o) => storage.list(p, o), write: (p, b) => storage.write(p, b),
    writeIfAbsent: (p, b) => storage.writeIfAbsent(p, b), delete: (p) => storage.delete(p),
    read: (p, range) => { if (!p.startsWith('.hoodie')) dataReads.push(p); return storage.read(p, range); },
  };
  const rows = await collect((await openTable(recording)).rows({ filters: [['d', '>', 100]], columns: ['id'] }));
  expect([...new Set(dataReads)].map((f) => f.split('/')[0])).toEqual(['part=y']);
  expect(rows).toEqual(await collect((await openTable(storage, { listing: 'storage' })).rows({ filters: [['d', '>', 100]], columns: ['id'] })));
  expect(rows.map((r) => r.id)).toEqual(['c']);
});

test('metadataTable: false keeps a v9 table without a metadata table', async () => {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 't', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', tableVersion: 9, metadataTable: false });
  await table.upsert([{ id: 'a', ts: 1 }], OPTIONS);
  expect((await props(storage)).has('hoodie.table.metadata.partitions')).toBe(false);
  expect(await storage.list('.hoodie/metadata')).toEqual([]);
  expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
});

test('post-commit services whose MDT side has not landed do not run on a table with a metadata table (the MDT stays equal to storage)', { timeout: 60_000 }, async () => {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 't', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', tableVersion: 9, metadataTable: true });
  const services = { clean: { automatic: true, retainCommits: 1 }, compaction: { inline: true, deltaCommits: 1 }, archive: { automatic: false }, bloomFilter: { numEntries: 100 } } as const;
  for (let i = 1; i <= 4; i++) expect((await table.upsert([{ id: 'a', ts: i }, { id: `n${i}`, ts: i }], services)).warnings).toEqual([]);
  const timeline = (await storage.list('.hoodie/timeline')).map((f) => f.path);
  const { METADATA_MAINTAINED_OPERATIONS } = await import('../../src/engine/table-support.js');
  if (!METADATA_MAINTAINED_OPERATIONS.has('clean')) expect(timeline.filter((p) => p.endsWith('.clean'))).toEqual([]);
  if (!METADATA_MAINTAINED_OPERATIONS.has('compact')) expect(timeline.filter((p) => p.includes('.compaction.'))).toEqual([]);
  expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
});

describe.each(['COPY_ON_WRITE', 'MERGE_ON_READ'] as const)('RECORD_INDEX on a v9 %s table with a metadata table', (type) => {
  test('is Hudi\'s record index: keys found in the MDT (global: an update with a new partition moves the key), no .aux index', { timeout: 60_000 }, async () => {
    const storage = memoryStorage();
    const options = { ...OPTIONS, index: 'RECORD_INDEX' } as const;
    const table = await createTable(storage, { name: 'trips', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['city'], tableVersion: 9, metadataTable: true, ...options });
    await table.insert([{ id: 'a', city: 'sf', ts: 1, v: 'a1' }, { id: 'b', city: 'nyc', ts: 1, v: 'b1' }], options);
    // 'a' moves from sf to la: the MDT record index finds it in sf, so the old copy goes and the key now points to la.
    await table.upsert([{ id: 'a', city: 'la', ts: 2, v: 'a2' }], options);
    await table.delete(['b'], options);
    const rows = new Map<string, string>();
    for await (const r of (await openTable(storage)).rows()) rows.set(r.id as string, `${String(r.city)}|${String(r.v)}`);
    expect(rows).toEqual(new Map([['a', 'la|a2']]));
    const found = (await lookupRecordIndex(storage, ['a', 'b']))!;
    expect([...found.keys()]).toEqual(['a']);
    expect(found.get('a')?.partitionPath).toBe('city=la');
    expect(await storage.list('.hoodie/.aux', { recursive: true })).toEqual([]);
    expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
  });
});
