// Tables lakelet writes look like the ones Spark writes: meta columns, seqno format, file names, footer
// keys, timeline files and hoodie.properties; DuckDB reads the base files with equal values.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseTableConfig } from '../../src/config/table-config.js';
import { parseBaseFileName } from '../../src/file-group/file-names.js';
import { bufferFromBytes, readParquetFooter } from '../../src/format/parquet/read.js';
import { parseBloomFilter } from '../../src/format/bloom-filter-parse.js';
import { createTable, memoryStorage, openTable } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'lakelet-interop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCHEMA = {
  type: 'record', name: 'trip', namespace: 'interop',
  fields: [
    { name: 'uuid', type: 'string' },
    { name: 'ts', type: 'long' },
    { name: 'city', type: 'string' },
    { name: 'fare', type: ['null', 'double'], default: null },
    { name: 'tip', type: ['null', { type: 'fixed', name: 'tip', size: 5, logicalType: 'decimal', precision: 10, scale: 2 }], default: null },
    { name: 'day', type: ['null', { type: 'int', logicalType: 'date' }], default: null },
    { name: 'at', type: ['null', { type: 'long', logicalType: 'timestamp-micros' }], default: null },
    { name: 'tags', type: ['null', { type: 'array', items: 'string' }], default: null },
    { name: 'rider', type: ['null', { type: 'record', name: 'rider', fields: [{ name: 'name', type: ['null', 'string'], default: null }, { name: 'age', type: ['null', 'int'], default: null }] }], default: null },
  ],
};

const rows = [
  { uuid: 'u1', ts: 1, city: 'sf', fare: 10.5, tip: '1.25', day: '2024-01-02', at: new Date('2024-01-02T03:04:05.678Z'), tags: ['a', 'b'], rider: { name: 'Ann', age: 30 } },
  { uuid: 'u2', ts: 1, city: 'sf', fare: null, tip: '-3.00', day: null, at: null, tags: [], rider: null },
  { uuid: 'u3', ts: 1, city: 'la', fare: 7, tip: null, day: '1999-12-31', at: new Date(0), tags: null, rider: { name: null, age: 41 } },
];

describe('tables written by lakelet', async () => {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 'trips', type: 'COPY_ON_WRITE', recordKey: 'uuid', orderingField: 'ts', partitionBy: ['city'], schema: SCHEMA });
  const first = await table.upsert(rows);
  const second = await table.upsert([{ ...rows[0], ts: 2, fare: 11 }]);

  test('hoodie.properties is a valid v6 table config with the checksum', async () => {
    const config = parseTableConfig(new TextDecoder().decode(await storage.read('.hoodie/hoodie.properties')));
    expect(config).toMatchObject({ name: 'trips', tableType: 'COPY_ON_WRITE', version: 6, timelineLayoutVersion: 1, recordKeyFields: ['uuid'], orderingFields: ['ts'], partitionFields: ['city'], hiveStylePartitioning: true, populateMetaFields: true });
    expect(config.keyGenerator).toBe('org.apache.hudi.keygen.SimpleKeyGenerator');
  });

  test('timeline files: empty requested, JSON inflight and commit with write stats and schema', async () => {
    expect((await storage.read(`.hoodie/${first.instant}.commit.requested`)).length).toBe(0);
    const inflight = JSON.parse(new TextDecoder().decode(await storage.read(`.hoodie/${first.instant}.inflight`)));
    expect(Object.keys(inflight.partitionToWriteStats).sort()).toEqual(['city=la', 'city=sf']);
    const commit = JSON.parse(new TextDecoder().decode(await storage.read(`.hoodie/${second.instant}.commit`)));
    expect(commit.operationType).toBe('UPSERT');
    const stat = commit.partitionToWriteStats['city=sf'][0];
    expect(stat.prevCommit).toBe(first.instant);
    expect(stat.numUpdateWrites).toBe(1);
    expect(JSON.parse(commit.extraMetadata.schema).fields.map((f: { name: string }) => f.name)).toEqual(SCHEMA.fields.map((f) => f.name));
    expect(await storage.read('city=sf/.hoodie_partition_metadata').then((b) => new TextDecoder().decode(b))).toContain(`commitTime=${first.instant}`);
  });

  test('meta columns, seqnos and file names as Spark writes them', async () => {
    const reopened = await openTable(storage);
    const slices = await reopened.fileSlices();
    expect(slices.map((s) => s.partitionPath).sort()).toEqual(['city=la', 'city=sf']);
    for (const slice of slices) {
      const name = slice.baseFile!.name;
      expect(parseBaseFileName(name)).toMatchObject({ fileId: slice.fileId, extension: 'parquet' });
      expect(slice.fileId).toMatch(/^[0-9a-f-]{36}-0$/);
    }
    const seen: string[] = [];
    for await (const r of reopened.rows()) {
      seen.push(String(r.uuid));
      expect(r._hoodie_commit_seqno).toMatch(new RegExp(`^${r._hoodie_commit_time}_\\d+_\\d+$`));
      expect(r._hoodie_record_key).toBe(r.uuid);
      expect(r._hoodie_partition_path).toBe(`city=${r.city}`);
      expect(String(r._hoodie_file_name)).toMatch(/_\d{17}\.parquet$/);
    }
    expect(seen.sort()).toEqual(['u1', 'u2', 'u3']);
    const u2 = (await reopened.query({ filters: [['uuid', '=', 'u2']] })).get(0)?.toJSON();
    expect(u2?._hoodie_commit_time).toBe(first.instant);
    const u1 = (await reopened.query({ filters: [['uuid', '=', 'u1']] })).get(0)?.toJSON();
    expect(u1?._hoodie_commit_time).toBe(second.instant);
  });

  test('footer keys: Avro schema, bloom filter with every key, min/max keys', async () => {
    const slices = await table.fileSlices();
    expect(slices.map((s) => s.partitionPath).sort()).toEqual(['city=la', 'city=sf']);
    for (const slice of slices) {
      const footer = await readParquetFooter(bufferFromBytes(await storage.read(slice.baseFile!.path)), slice.baseFile!.path);
      const kv = footer.keyValues;
      expect(kv['writer.model.name']).toBe('avro');
      expect(JSON.parse(kv['parquet.avro.schema']!).fields.slice(0, 5).map((f: { name: string }) => f.name)).toEqual(['_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name']);
      expect(kv.hoodie_bloom_filter_type_code).toBe('DYNAMIC_V0');
      expect(kv['org.apache.hudi.bloomfilter']).toHaveLength(431_380);
      const keys = slice.partitionPath === 'city=sf' ? ['u1', 'u2'] : ['u3'];
      const bloom = parseBloomFilter(kv['org.apache.hudi.bloomfilter']!, 'DYNAMIC_V0');
      for (const k of keys) expect(bloom.mightContain(k)).toBe(true);
      expect([kv.hoodie_min_record_key, kv.hoodie_max_record_key]).toEqual([keys[0], keys.at(-1)]);
      expect(footer.metadata.row_groups[0]?.columns[0]?.meta_data?.codec).toBe('GZIP');
    }
  });

  test('DuckDB reads the base files with equal values', async () => {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const files: string[] = [];
    for (const slice of await table.fileSlices()) {
      const path = join(dir, slice.baseFile!.name);
      writeFileSync(path, await storage.read(slice.baseFile!.path));
      files.push(path);
    }
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const list = files.map((f) => `'${f}'`).join(',');
    const res = await c.runAndReadAll(`select uuid, ts, city, fare, cast(tip as varchar) as tip, cast(day as varchar) as day, epoch_ms("at") as at, tags, rider.name as rider_name, rider.age as rider_age, _hoodie_record_key from read_parquet([${list}]) order by uuid`);
    const got = res.getRowObjectsJson();
    expect(got).toEqual([
      { uuid: 'u1', ts: '2', city: 'sf', fare: 11, tip: '1.25', day: '2024-01-02', at: '1704164645678', tags: ['a', 'b'], rider_name: 'Ann', rider_age: 30, _hoodie_record_key: 'u1' },
      { uuid: 'u2', ts: '1', city: 'sf', fare: null, tip: '-3.00', day: null, at: null, tags: [], rider_name: null, rider_age: null, _hoodie_record_key: 'u2' },
      { uuid: 'u3', ts: '1', city: 'la', fare: 7, tip: null, day: '1999-12-31', at: '0', tags: null, rider_name: null, rider_age: 41, _hoodie_record_key: 'u3' },
    ]);
  });
});
