// Avro → Hive column types (Hudi's HiveSchemaUtil.convertField, query-based spelling) and Avro → Spark
// StructType JSON (AvroToSparkJson), one Avro kind at a time, and the statement builders' exact spelling.
import { describe, expect, test } from 'vitest';
import { parseAvroSchema, type AvroRecordSchema, type AvroSchema } from '../../src/format/avro/schema.js';
import { hiveType, sparkSchemaJson } from '../../src/catalog/hive-types.js';
import { addPartitionsStatements, dropPartitionsStatements, replaceColumnsStatement, sparkTableProperties } from '../../src/catalog/hive-ddl.js';
import { partitionValues } from '../../src/catalog/partition-values.js';

const t = (json: unknown) => hiveType(parseAvroSchema(typeof json === 'string' ? JSON.stringify(json) : (json as object)) as AvroSchema);

describe('Avro → Hive types', () => {
  test('primitives and logical types', () => {
    expect(['int', 'long', 'float', 'double', 'boolean', 'string', 'bytes'].map(t)).toEqual(['int', 'bigint', 'float', 'double', 'boolean', 'string', 'binary']);
    expect(t({ type: 'int', logicalType: 'date' })).toBe('DATE');
    expect(t({ type: 'int', logicalType: 'time-millis' })).toBe('int');
    expect(t({ type: 'long', logicalType: 'time-micros' })).toBe('bigint');
    for (const l of ['timestamp-millis', 'timestamp-micros', 'local-timestamp-millis', 'local-timestamp-micros']) {
      expect(t({ type: 'long', logicalType: l })).toBe('bigint');
      expect(hiveType(parseAvroSchema({ type: 'long', logicalType: l }) as AvroSchema, { supportTimestamp: true })).toBe('TIMESTAMP');
    }
    expect(t({ type: 'bytes', logicalType: 'decimal', precision: 38, scale: 10 })).toBe('DECIMAL(38 , 10)');
    expect(t({ type: 'fixed', name: 'f', size: 8, logicalType: 'decimal', precision: 18, scale: 0 })).toBe('DECIMAL(18 , 0)');
    expect(t({ type: 'fixed', name: 'g', size: 16 })).toBe('binary');
    expect(t({ type: 'enum', name: 'e', symbols: ['A', 'B'] })).toBe('string');
    expect(t({ type: 'string', logicalType: 'uuid' })).toBe('binary');
    expect(t(['null', 'int'])).toBe('int');
  });

  test('nested types: struct field names ticked; arrays and maps', () => {
    expect(t({ type: 'array', items: ['null', 'long'] })).toBe('ARRAY< bigint>');
    expect(t({ type: 'map', values: { type: 'array', items: 'string' } })).toBe('MAP< string, ARRAY< string>>');
    expect(t({ type: 'record', name: 'n', fields: [{ name: 'a_b', type: 'int' }, { name: 'c', type: { type: 'record', name: 'm', fields: [{ name: 'd', type: 'double' }] } }] }))
      .toBe('STRUCT< `a_b` : int, `c` : STRUCT< `d` : double>>');
  });

  test('unions of several types and the null type have no Hive type: UNSUPPORTED naming the field', () => {
    const record = parseAvroSchema({ type: 'record', name: 'r', fields: [{ name: 'u', type: ['int', 'string'] }] }) as AvroRecordSchema;
    expect(() => hiveType(record)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED', context: { field: 'schema.u' } }));
  });
});

describe('Avro → Spark schema JSON', () => {
  test('types, nullability, comments, partition columns last', () => {
    const schema = parseAvroSchema({
      type: 'record', name: 'r', fields: [
        { name: 'p', type: 'string' },
        { name: 'd', type: ['null', { type: 'bytes', logicalType: 'decimal', precision: 5, scale: 2 }], default: null, doc: 'money' },
        { name: 'ts', type: { type: 'long', logicalType: 'timestamp-micros' } },
        { name: 'day', type: { type: 'int', logicalType: 'date' } },
        { name: 'xs', type: { type: 'array', items: ['null', 'int'] } },
        { name: 'm', type: { type: 'map', values: 'float' } },
        { name: 'u', type: ['int', 'string'] },
      ],
    }) as AvroRecordSchema;
    expect(JSON.parse(sparkSchemaJson(schema, ['p']))).toEqual({
      type: 'struct', fields: [
        { name: 'd', type: 'decimal(5,2)', nullable: true, metadata: { comment: 'money' } },
        { name: 'ts', type: 'timestamp', nullable: false, metadata: {} },
        { name: 'day', type: 'date', nullable: false, metadata: {} },
        { name: 'xs', type: { type: 'array', elementType: 'integer', containsNull: true }, nullable: false, metadata: {} },
        { name: 'm', type: { type: 'map', keyType: 'string', valueType: 'float', valueContainsNull: false }, nullable: false, metadata: {} },
        { name: 'u', type: 'string', nullable: false, metadata: {} },
        { name: 'p', type: 'string', nullable: false, metadata: {} },
      ],
    });
  });

  test('the schema split every 4,000 characters (numParts = ceil(length / 4000))', () => {
    const json = 'x'.repeat(8001);
    const props = Object.fromEntries(sparkTableProperties(json, ['a', 'b']));
    expect(props['spark.sql.sources.schema.numParts']).toBe('3');
    expect([props['spark.sql.sources.schema.part.0'], props['spark.sql.sources.schema.part.1'], props['spark.sql.sources.schema.part.2']].map((p) => p?.length)).toEqual([4000, 4000, 1]);
    expect([props['spark.sql.sources.schema.numPartCols'], props['spark.sql.sources.schema.partCol.0'], props['spark.sql.sources.schema.partCol.1']]).toEqual(['2', 'a', 'b']);
  });
});

describe('statement spelling and partition values', () => {
  test('ADD, DROP and REPLACE COLUMNS as Hudi spells them', () => {
    const parts = [{ path: 'a=1/b=2', values: ['1', '2'] }, { path: 'a=3/b=4', values: ['3', '4'] }];
    expect(addPartitionsStatements('db', 't', ['a', 'b'], parts, 's3a://x/t')).toEqual([
      "ALTER TABLE `db`.`t` ADD IF NOT EXISTS   PARTITION (`a`='1',`b`='2') LOCATION 's3a://x/t/a=1/b=2'   PARTITION (`a`='3',`b`='4') LOCATION 's3a://x/t/a=3/b=4' ",
    ]);
    expect(dropPartitionsStatements('db', 't', ['a', 'b'], parts)).toEqual(["ALTER TABLE `db`.`t` DROP IF EXISTS  PARTITION (`a`='1',`b`='2'), PARTITION (`a`='3',`b`='4')"]);
    expect(replaceColumnsStatement('db', 't', [{ name: 'x', type: 'int' }, { name: 'a', type: 'string' }, { name: 'y', type: 'bigint' }], ['a']))
      .toBe('ALTER TABLE `db`.`t` REPLACE COLUMNS(`x` int, `y` bigint ) cascade');
    const many = Array.from({ length: 2500 }, (_, i) => ({ path: `p=${i}`, values: [String(i)] }));
    expect(addPartitionsStatements('db', 't', ['p'], many, 's3a://x').map((s) => s.split('PARTITION (').length - 1)).toEqual([1000, 1000, 500]);
  });

  test('partition values: hive-style, multi-level, slash-encoded single field, URL-decoded', () => {
    expect(partitionValues('city=sf', { fields: ['city'], hiveStyle: true, urlEncoded: false })).toEqual(['sf']);
    expect(partitionValues('y=2024/m=01', { fields: ['y', 'm'], hiveStyle: true, urlEncoded: false })).toEqual(['2024', '01']);
    expect(partitionValues('2024/01', { fields: ['y', 'm'], hiveStyle: false, urlEncoded: false })).toEqual(['2024', '01']);
    expect(partitionValues('2024/01/15', { fields: ['ts'], hiveStyle: false, urlEncoded: false })).toEqual(['2024/01/15']);
    expect(partitionValues('city=san%20jose', { fields: ['city'], hiveStyle: true, urlEncoded: true })).toEqual(['san jose']);
    expect(() => partitionValues('a/b/c', { fields: ['x', 'y'], hiveStyle: false, urlEncoded: false })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', context: { path: 'a/b/c', field: 'x,y' } }));
  });
});
