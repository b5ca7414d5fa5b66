// The metadata table is on by default for new v8/v9 tables, as Hudi 1.x and hudi-rs create them (issue 10):
// createTable without `metadataTable` lists files, record_index and (with a schema) column_stats and — partitioned —
// partition_stats in hoodie.properties, keeps them through writes (validateTable clean, the record index finds
// every key); `metadataTable: false` creates a v8/v9 table without one; version 6 (the default version) never
// gets one, whatever `metadataTable` says.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, validateTable, type Storage } from '../../src/index.js';
import { parseProperties } from '../../src/config/properties.js';
import { lookupRecordIndex } from '../../src/engine/metadata/metadata-reads.js';

const OPTIONS = { clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false }, bloomFilter: { numEntries: 100 } } as const;
const SCHEMA = { type: 'record', name: 'trip', fields: [{ name: 'id', type: 'string' }, { name: 'city', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: ['null', 'string'], default: null }] };
const ALL = 'column_stats,files,partition_stats,record_index';

const props = async (s: Storage) => parseProperties(new TextDecoder().decode(await s.read('.hoodie/hoodie.properties')));
/** Paths under `.hoodie/metadata` (empty when the table has no metadata table). */
const mdtFiles = async (s: Storage) => (await s.list('.hoodie/metadata', { recursive: true })).map((f) => f.path);
const rowsOf = async (s: Storage) => {
  const out: string[] = [];
  for await (const r of (await openTable(s)).rows({ columns: ['id', 'city', 'ts', 'v'] })) out.push(`${String(r.city)}|${String(r.id)}|${String(r.ts)}|${String(r.v)}`);
  return out.sort();
};

describe.each([9, 8] as const)('a v%i table created without saying metadataTable', (tableVersion) => {
  test.each(['COPY_ON_WRITE', 'MERGE_ON_READ'] as const)('%s, partitioned, with a schema: all four MDT partitions; upserts and a delete keep it valid', async (type) => {
    const storage = memoryStorage();
    const table = await createTable(storage, { name: 'trips', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['city'], schema: SCHEMA, tableVersion });
    const p = await props(storage);
    expect(p.get('hoodie.table.metadata.partitions')).toBe(ALL);
    expect(p.get('hoodie.table.metadata.partitions.inflight')).toBe('');
    expect((await storage.read('.hoodie/metadata/.hoodie/hoodie.properties')).length, 'the MDT\'s own properties').toBeGreaterThan(0);
    expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
    await table.upsert([{ id: 'a', city: 'sf', ts: 1n, v: 'a1' }, { id: 'b', city: 'sf', ts: 1n, v: 'b1' }, { id: 'c', city: 'nyc', ts: 1n, v: 'c1' }], OPTIONS);
    await table.upsert([{ id: 'a', city: 'sf', ts: 2n, v: 'a2' }, { id: 'd', city: 'la', ts: 1n, v: 'd1' }], OPTIONS);
    await table.delete(['b'], OPTIONS);
    expect(await rowsOf(storage)).toEqual(['la|d|1|d1', 'nyc|c|1|c1', 'sf|a|2|a2']);
    expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
    const found = (await lookupRecordIndex(storage, ['a', 'b', 'c', 'd']))!;
    expect([...found.keys()].sort(), 'the record index holds the live keys, not the deleted one').toEqual(['a', 'c', 'd']);
    expect((await props(storage)).get('hoodie.table.metadata.partitions'), 'the writes kept every partition').toBe(ALL);
  });

  test('non-partitioned with a schema: no partition_stats; without a schema: files and record_index', async () => {
    const flat = memoryStorage();
    await createTable(flat, { name: 'flat', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', schema: SCHEMA, tableVersion });
    expect((await props(flat)).get('hoodie.table.metadata.partitions')).toBe('column_stats,files,record_index');
    const bare = memoryStorage();
    const table = await createTable(bare, { name: 'bare', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['city'], tableVersion });
    expect((await props(bare)).get('hoodie.table.metadata.partitions')).toBe('files,record_index');
    await table.upsert([{ id: 'a', city: 'sf', ts: 1n, v: 'a1' }], OPTIONS);
    expect(await validateTable(bare)).toMatchObject({ ok: true, problems: [] });
  });

  test('metadataTable: false creates no metadata table, and writes add none', async () => {
    const storage = memoryStorage();
    const table = await createTable(storage, { name: 'trips', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['city'], schema: SCHEMA, tableVersion, metadataTable: false });
    expect((await props(storage)).has('hoodie.table.metadata.partitions')).toBe(false);
    await table.upsert([{ id: 'a', city: 'sf', ts: 1n, v: 'a1' }], OPTIONS);
    expect((await props(storage)).has('hoodie.table.metadata.partitions')).toBe(false);
    expect(await mdtFiles(storage)).toEqual([]);
    expect(await rowsOf(storage)).toEqual(['sf|a|1|a1']);
    expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
  });
});

describe('version 6 tables never get a metadata table', () => {
  test.each([undefined, true, false])('tableVersion omitted (6) or 6, metadataTable %s', async (metadataTable) => {
    for (const tableVersion of [undefined, 6] as const) {
      const storage = memoryStorage();
      const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['city'], schema: SCHEMA, ...(tableVersion ? { tableVersion } : {}), ...(metadataTable === undefined ? {} : { metadataTable }) });
      expect(table.config.version).toBe(6);
      await table.upsert([{ id: 'a', city: 'sf', ts: 1n, v: 'a1' }], OPTIONS);
      expect((await props(storage)).has('hoodie.table.metadata.partitions'), `tableVersion ${String(tableVersion)}`).toBe(false);
      expect(await mdtFiles(storage), `tableVersion ${String(tableVersion)}`).toEqual([]);
    }
  });
});
