// hiveSyncStatements: a first sync of Spark-written fixtures (v6, v8, v9; COW and MOR; partitioned multi-level,
// hive-style or not, and non-partitioned) and of lakelet-written tables, checked by parsing the statements and
// comparing every column, type, partition and property with the table (hive-check.ts).
import { describe, expect, test } from 'vitest';
import { createTable, hiveSyncStatements, memoryStorage } from '../../src/index.js';
import { openFixture } from '../helpers/fixtures.js';
import { checkFullSync, parseAll } from './hive-check.js';

const FIXTURES = [
  'sample_table/cow/v6_complexkeygen_hivestyle.zip', // two partition fields, hive-style
  'sample_table/cow/v6_nonpartitioned.zip',
  'sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip',
  'sample_table/cow/v8_nonpartitioned.zip',
  'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip', // one field, yyyy/MM/dd/HH paths
  'sample_table/mor/parquet/v6_nonpartitioned.zip',
  'sample_table/mor/avro/v9_txns_simple_nometa.zip',
  'quickstart_trips_table/mor/avro/v6_trips_8i1u.zip',
  'quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip',
];

describe('a first sync of a Spark-written table', () => {
  for (const zip of FIXTURES) {
    test(zip, async () => {
      const table = await openFixture(zip);
      const statements = await hiveSyncStatements(table, { database: 'lake', basePath: 's3a://bucket/tables/t' });
      await checkFullSync(table, statements, { database: 'lake', basePath: 's3a://bucket/tables/t' });
    });
  }

  test('a table without completed writes has nothing to sync', async () => {
    expect(await hiveSyncStatements(await openFixture('sample_table/cow/v6_empty.zip'), { basePath: 's3a://b/t' })).toEqual([]);
  });
});

const NESTED = {
  type: 'record', name: 'trip', namespace: 'lake',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'city', type: 'string' },
    { name: 'day', type: { type: 'int', logicalType: 'date' } },
    { name: 'ts', type: 'long' },
    { name: 'at', type: ['null', { type: 'long', logicalType: 'timestamp-micros' }], default: null },
    { name: 'fare', type: { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 2 } },
    { name: 'ok', type: 'boolean' },
    { name: 'score', type: ['null', 'double'], default: null },
    { name: 'rider', type: { type: 'record', name: 'rider', fields: [{ name: 'name', type: 'string' }, { name: 'tags', type: { type: 'array', items: 'string' } }] } },
    { name: 'attrs', type: { type: 'map', values: 'long' } },
  ],
};

const row = (id: string, city: string, day: number) => ({
  id, city, day: new Date(Date.UTC(2024, 0, day)), ts: 1n, at: null, fare: '12.50', ok: true, score: 1.5, rider: { name: 'r', tags: ['a'] }, attrs: { k: 2n },
});

describe('a first sync of a lakelet-written table', () => {
  test('COW, partitioned by two fields, nested types: every column type spelled out', async () => {
    const storage = memoryStorage();
    const table = await createTable(storage, { name: 'trips', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['city', 'day'], schema: NESTED });
    await table.upsert([row('a', 'sf', 1), row('b', 'nyc', 2), row('c', 'sf', 2)]);
    const statements = await hiveSyncStatements(table, { database: 'lake', basePath: 's3a://bucket/trips/' });
    await checkFullSync(table, statements, { database: 'lake', basePath: 's3a://bucket/trips' });
    const create = parseAll(statements)[0];
    if (create?.kind !== 'create') throw new Error('no CREATE');
    expect(create.columns.filter((c) => !c.name.startsWith('_hoodie'))).toEqual([
      { name: 'id', type: 'string' },
      { name: 'ts', type: 'bigint' },
      { name: 'at', type: 'bigint' },
      { name: 'fare', type: 'decimal(10,2)' },
      { name: 'ok', type: 'boolean' },
      { name: 'score', type: 'double' },
      { name: 'rider', type: 'struct<name:string,tags:array<string>>' },
      { name: 'attrs', type: 'map<string,bigint>' },
    ]);
    expect(create.partitionColumns).toEqual([{ name: 'city', type: 'string' }, { name: 'day', type: 'date' }]);
    // Hudi's exact spelling of the query-based DDL.
    expect(statements[0]).toContain('`fare` DECIMAL(10 , 2), `ok` boolean');
    expect(statements[0]).toContain('`rider` STRUCT< `name` : string, `tags` : ARRAY< string>>, `attrs` MAP< string, bigint>) PARTITIONED BY (`city` string,`day` DATE) ROW FORMAT SERDE');
    const withTimestamps = parseAll(await hiveSyncStatements(table, { database: 'lake', basePath: 's3a://bucket/trips', supportTimestamp: true }))[0];
    expect(withTimestamps?.kind === 'create' && withTimestamps.columns.find((c) => c.name === 'at')?.type).toBe('timestamp');
  });

  test('MOR, not partitioned: _ro and _rt, no PARTITIONED BY, no partitions, a table name of its own', async () => {
    const storage = memoryStorage();
    const table = await createTable(storage, { name: 'events', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', schema: NESTED });
    await table.upsert([row('a', 'sf', 1)]);
    await table.upsert([row('a', 'sf', 3)]);
    const statements = await hiveSyncStatements(table, { basePath: 'hdfs://nn/events', tableName: 'ev' });
    await checkFullSync(table, statements, { database: 'default', basePath: 'hdfs://nn/events', name: 'ev' });
    expect(statements.some((s) => s.includes('PARTITIONED BY'))).toBe(false);
  });

  test('ADD PARTITION batches hold 1,000 partitions by default, `batchSize` otherwise', async () => {
    const storage = memoryStorage();
    const schema = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'p', type: 'string' }, { name: 'ts', type: 'long' }] };
    const table = await createTable(storage, { name: 'many', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], schema, clean: { automatic: false }, archive: { automatic: false } });
    await table.bulkInsert(Array.from({ length: 5 }, (_, i) => ({ id: `k${i}`, p: `p${i}`, ts: 1n })));
    const batched = parseAll(await hiveSyncStatements(table, { basePath: 's3a://b/many', batchSize: 2 })).filter((s) => s.kind === 'add');
    expect(batched.map((s) => (s.kind === 'add' ? s.partitions.map((p) => p.spec.p) : []))).toEqual([['p0', 'p1'], ['p2', 'p3'], ['p4']]);
    expect(parseAll(await hiveSyncStatements(table, { basePath: 's3a://b/many' })).filter((s) => s.kind === 'add')).toHaveLength(1);
  });

  test('a schema longer than 4,000 characters is split into parts of 4,000', async () => {
    const storage = memoryStorage();
    const fields = [{ name: 'id', type: 'string' }, { name: 'ts', type: 'long' }, ...Array.from({ length: 80 }, (_, i) => ({ name: `a_rather_long_column_name_number_${i}`, type: ['null', 'string'], default: null }))];
    const table = await createTable(storage, { name: 'wide', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', schema: { type: 'record', name: 'w', fields } });
    await table.upsert([{ id: 'a', ts: 1n }]);
    const statements = await hiveSyncStatements(table, { basePath: 's3a://b/wide' });
    await checkFullSync(table, statements, { database: 'default', basePath: 's3a://b/wide' });
    const create = parseAll(statements)[0];
    expect(create?.kind === 'create' && Number(create.tableProperties['spark.sql.sources.schema.numParts'])).toBeGreaterThan(1);
  });

  test('omitMetadataFields, createManagedTable, skipRoSuffix (Hudi\'s omit_metadata_fields, create_managed_table, skip_ro_suffix)', async () => {
    const table = await openFixture('quickstart_trips_table/mor/avro/v6_trips_8i1u.zip');
    const parsed = parseAll(await hiveSyncStatements(table, { basePath: 's3a://b/t', omitMetadataFields: true, createManagedTable: true, skipRoSuffix: true }));
    const creates = parsed.filter((p) => p.kind === 'create');
    expect(creates.map((c) => c.table)).toEqual([table.config.name, `${table.config.name}_rt`]);
    for (const c of creates) {
      if (c.kind !== 'create') continue;
      expect(c.external).toBe(false);
      expect(c.columns.map((x) => x.name)).toEqual(['ts', 'uuid', 'rider', 'driver', 'fare']);
      const spark = JSON.parse(c.tableProperties['spark.sql.sources.schema.part.0'] as string) as { fields: { name: string }[] };
      expect(spark.fields.map((f) => f.name)).toEqual(['ts', 'uuid', 'rider', 'driver', 'fare', 'city']);
    }
  });

  test('a missing basePath is INVALID_ARGUMENT', async () => {
    const table = await openFixture('sample_table/cow/v6_nonpartitioned.zip');
    await expect(hiveSyncStatements(table, {} as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', context: { field: 'basePath' } });
  });
});
