// Schema inference from rows, Arrow → Avro conversion (round-tripping arrow.ts) and user schema normalisation.
import { describe, expect, test } from 'vitest';
import {
  Binary, Bool, DateDay, Decimal, Field, FixedSizeBinary, Float32, Float64, Int16, Int32, Int64, Int8, List, Map_, Null, Schema, Struct,
  TimeMillisecond, TimestampMicrosecond, TimestampMillisecond, TimestampNanosecond, Uint32, Utf8, Dictionary, Interval, IntervalUnit,
} from 'apache-arrow';
import { LakeletError } from '../../src/errors.js';
import { arrowSchema } from '../../src/arrow/arrow.js';
import { avroSchemaToJson, isParsedAvroSchema, parseAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import { avroSchemaFromArrow, decimalFixedSize, inferAvroSchema, normalizeUserSchema } from '../../src/schema/infer.js';
import { withMetaFields } from '../../src/schema/table-schema.js';
import { thrown } from '../helpers/expect-error.js';

const json = (s: AvroRecordSchema) => avroSchemaToJson(s) as { name: string; namespace?: string; fields: { name: string; type: unknown; default?: unknown }[] };

describe('inferAvroSchema', () => {
  test('maps each JS type, every field nullable with default null, in first-seen order', () => {
    const schema = inferAvroSchema([
      { s: 'a', b: true, n: 1, f: 1.5, big: 2n, d: new Date(0), bytes: new Uint8Array([1]) },
      { n: 2, f: 2, extra: 'late' },
    ], { name: 'trips_record', namespace: 'hoodie.trips' });
    expect(isParsedAvroSchema(schema)).toBe(true);
    expect(json(schema)).toEqual({
      type: 'record', name: 'trips_record', namespace: 'hoodie.trips', fields: [
        { name: 's', type: ['null', 'string'], default: null },
        { name: 'b', type: ['null', 'boolean'], default: null },
        { name: 'n', type: ['null', 'long'], default: null },
        { name: 'f', type: ['null', 'double'], default: null },
        { name: 'big', type: ['null', 'long'], default: null },
        { name: 'd', type: ['null', { type: 'long', logicalType: 'timestamp-micros' }], default: null },
        { name: 'bytes', type: ['null', 'bytes'], default: null },
        { name: 'extra', type: ['null', 'string'], default: null },
      ],
    });
  });

  test('integers in every row give long; one fraction anywhere gives double', () => {
    expect(json(inferAvroSchema([{ x: 1 }, { x: 2 }, { x: null }], { name: 'r' })).fields[0]!.type).toEqual(['null', 'long']);
    expect(json(inferAvroSchema([{ x: 1 }, { x: 2.5 }], { name: 'r' })).fields[0]!.type).toEqual(['null', 'double']);
    expect(json(inferAvroSchema([{ x: 1n }, { x: 3 }], { name: 'r' })).fields[0]!.type).toEqual(['null', 'long']);
  });

  test('nested objects become records and arrays take their merged item type', () => {
    const schema = inferAvroSchema([
      { id: 1, rider: { name: 'a', tags: ['x'] }, scores: [1, 2], points: [{ x: 1 }] },
      { id: 2, rider: { name: 'b', age: 30 }, scores: [], points: [{ x: 2, y: 'q' }, null] },
    ], { name: 'r', namespace: 'ns' });
    const f = json(schema).fields;
    expect(f.map((x) => x.name)).toEqual(['id', 'rider', 'scores', 'points']);
    expect(f[1]!.type).toEqual(['null', {
      type: 'record', name: 'rider', namespace: 'ns.r', fields: [
        { name: 'name', type: ['null', 'string'], default: null },
        { name: 'tags', type: ['null', { type: 'array', items: 'string' }], default: null },
        { name: 'age', type: ['null', 'long'], default: null },
      ],
    }]);
    expect(f[2]!.type).toEqual(['null', { type: 'array', items: 'long' }]);
    expect(f[3]!.type).toEqual(['null', { type: 'array', items: ['null', {
      type: 'record', name: 'points', namespace: 'ns.r', fields: [
        { name: 'x', type: ['null', 'long'], default: null },
        { name: 'y', type: ['null', 'string'], default: null },
      ],
    }] }]);
  });

  test('a field that is only ever null is a nullable string; meta fields are skipped', () => {
    const schema = inferAvroSchema([{ _hoodie_commit_time: '1', a: null }], { name: 'r' });
    expect(json(schema).fields).toEqual([{ name: 'a', type: ['null', 'string'], default: null }]);
  });

  test('mixed types fail naming the field (nested paths too)', () => {
    const e1 = thrown(() => inferAvroSchema([{ fare: 1 }, { fare: 'x' }], { name: 'r' }));
    expect(e1.code).toBe('INVALID_ARGUMENT');
    expect(e1.context.field).toBe('fare');
    expect(e1.message).toContain("'fare'");
    const e2 = thrown(() => inferAvroSchema([{ a: { b: true } }, { a: { b: 2 } }], { name: 'r' }));
    expect(e2.context.field).toBe('a.b');
    const e3 = thrown(() => inferAvroSchema([{ a: [1, 'x'] }], { name: 'r' }));
    expect(e3.context.field).toBe('a[]');
    expect(thrown(() => inferAvroSchema([{ a: new Map() }], { name: 'r' })).context.field).toBe('a');
    expect(thrown(() => inferAvroSchema([{ 'bad-name': 1 }], { name: 'r' })).context.field).toBe('bad-name');
    expect(thrown(() => inferAvroSchema([], { name: 'r' })).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => inferAvroSchema([{ a: 1 }], { name: '1r' })).code).toBe('INVALID_ARGUMENT');
  });
});

describe('avroSchemaFromArrow', () => {
  test('maps every Arrow type', () => {
    const schema = new Schema([
      new Field('i8', new Int8(), false), new Field('i16', new Int16(), true), new Field('i32', new Int32(), true), new Field('u32', new Uint32(), true),
      new Field('i64', new Int64(), true), new Field('f32', new Float32(), true), new Field('f64', new Float64(), true), new Field('b', new Bool(), true),
      new Field('s', new Utf8(), true), new Field('bin', new Binary(), true), new Field('fx', new FixedSizeBinary(16), true),
      new Field('dec', new Decimal(2, 15, 128), true), new Field('day', new DateDay(), true), new Field('tm', new TimeMillisecond(), true),
      new Field('tsu', new TimestampMicrosecond('UTC'), true), new Field('tsn', new TimestampNanosecond('UTC'), true), new Field('lts', new TimestampMillisecond(), true),
      new Field('nul', new Null(), true), new Field('dict', new Dictionary(new Utf8(), new Int32()), true),
    ]);
    const avro = json(avroSchemaFromArrow(schema, 't_record', 'hoodie.t'));
    const types = Object.fromEntries(avro.fields.map((f) => [f.name, f.type]));
    expect(types).toEqual({
      i8: 'int', i16: ['null', 'int'], i32: ['null', 'int'], u32: ['null', 'long'], i64: ['null', 'long'], f32: ['null', 'float'],
      f64: ['null', 'double'], b: ['null', 'boolean'], s: ['null', 'string'], bin: ['null', 'bytes'],
      fx: ['null', { type: 'fixed', name: 'fixed', namespace: 'hoodie.t.t_record.fx', size: 16 }],
      dec: ['null', { type: 'fixed', name: 'fixed', namespace: 'hoodie.t.t_record.dec', size: 7, logicalType: 'decimal', precision: 15, scale: 2 }],
      day: ['null', { type: 'int', logicalType: 'date' }], tm: ['null', { type: 'int', logicalType: 'time-millis' }],
      tsu: ['null', { type: 'long', logicalType: 'timestamp-micros' }], tsn: ['null', { type: 'long', logicalType: 'timestamp-micros' }],
      lts: ['null', { type: 'long', logicalType: 'local-timestamp-millis' }], nul: ['null', 'string'], dict: ['null', 'string'],
    });
    expect(avro.fields[0]).toEqual({ name: 'i8', type: 'int' });
    expect(avro.fields[1]).toMatchObject({ default: null });
  });

  test('decimal fixed sizes match Spark (precision 10 → 5 bytes, 15 → 7, 38 → 16)', () => {
    expect(decimalFixedSize(10)).toBe(5);
    expect(decimalFixedSize(15)).toBe(7);
    expect(decimalFixedSize(38)).toBe(16);
    expect(decimalFixedSize(2)).toBe(1);
  });

  test('round-trips with arrow.ts arrowSchema for nested and logical types', () => {
    const original = parseAvroSchema({
      type: 'record', name: 'r', namespace: 'hoodie.t', fields: [
        { name: 'id', type: 'int' },
        { name: 'name', type: ['null', 'string'], default: null },
        { name: 'amount', type: ['null', { type: 'fixed', name: 'fixed', namespace: 'hoodie.t.r.amount', size: 7, logicalType: 'decimal', precision: 15, scale: 2 }], default: null },
        { name: 'when', type: ['null', { type: 'long', logicalType: 'timestamp-micros' }], default: null },
        { name: 'tags', type: ['null', { type: 'array', items: ['null', 'string'] }], default: null },
        { name: 'attrs', type: ['null', { type: 'map', values: ['null', 'long'] }], default: null },
        { name: 'rider', type: ['null', { type: 'record', name: 'rider', namespace: 'hoodie.t.r', fields: [{ name: 'x', type: ['null', 'double'], default: null }] }], default: null },
      ],
    }) as AvroRecordSchema;
    const back = avroSchemaFromArrow(arrowSchema(original), 'r', 'hoodie.t');
    expect(avroSchemaToJson(back)).toEqual(avroSchemaToJson(original));
  });

  test('lists, structs and maps with non-null children', () => {
    const schema = new Schema([
      new Field('l', new List(new Field('item', new Int64(), false)), false),
      new Field('st', new Struct([new Field('a', new Utf8(), false)]), false),
      new Field('m', new Map_(new Field('entries', new Struct([new Field('key', new Utf8(), false), new Field('value', new Float64(), false)]), false) as Field<Struct<any>>), false),
    ]);
    const avro = json(avroSchemaFromArrow(schema, 'r'));
    expect(avro.fields).toEqual([
      { name: 'l', type: { type: 'array', items: 'long' } },
      { name: 'st', type: { type: 'record', name: 'st', namespace: 'r', fields: [{ name: 'a', type: 'string' }] } },
      { name: 'm', type: { type: 'map', values: 'double' } },
    ]);
  });

  test('unsupported types and maps with non-string keys fail naming the field', () => {
    const interval = new Schema([new Field('iv', new Interval(IntervalUnit.DAY_TIME))]);
    expect(thrown(() => avroSchemaFromArrow(interval, 'r')).context.field).toBe('iv');
    const intKeys = new Schema([new Field('m', new Map_(new Field('entries', new Struct([new Field('key', new Int32(), false), new Field('value', new Utf8())]), false) as Field<Struct<any>>))]);
    expect(thrown(() => avroSchemaFromArrow(intKeys, 'r')).context.field).toBe('m');
    expect(thrown(() => avroSchemaFromArrow(new Schema([new Field('bad name', new Utf8())]), 'r')).context.field).toBe('bad name');
  });

  test('meta columns are dropped', () => {
    const withMeta = arrowSchema(withMetaFields(inferAvroSchema([{ a: 1 }], { name: 'r' })));
    expect(withMeta.fields).toHaveLength(6);
    expect(json(avroSchemaFromArrow(withMeta, 'r')).fields.map((f) => f.name)).toEqual(['a']);
  });
});

describe('normalizeUserSchema', () => {
  const avro = { type: 'record', name: 'trip', namespace: 'x', fields: [
    { name: '_hoodie_commit_time', type: ['null', 'string'], default: null },
    { name: '_hoodie_record_key', type: ['null', 'string'], default: null },
    { name: 'id', type: 'string' },
    { name: 'fare', type: ['null', 'double'], default: null },
  ] };

  test('Avro objects and JSON text keep their names and lose meta fields', () => {
    for (const input of [avro, JSON.stringify(avro), parseAvroSchema(avro)]) {
      const s = normalizeUserSchema(input, 'ignored');
      expect(isParsedAvroSchema(s)).toBe(true);
      expect(s.fullName).toBe('x.trip');
      expect(s.fields.map((f) => f.name)).toEqual(['id', 'fare']);
    }
  });

  test('Arrow schemas are converted and named', () => {
    const s = normalizeUserSchema(new Schema([new Field('id', new Utf8(), false), new Field('_hoodie_file_name', new Utf8())]), 'tbl_record');
    expect(s.name).toBe('tbl_record');
    expect(json(s).fields).toEqual([{ name: 'id', type: 'string' }]);
  });

  test('non-records, invalid JSON and meta-only schemas are refused', () => {
    expect(thrown(() => normalizeUserSchema('"string"', 'r')).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => normalizeUserSchema('{not json', 'r')).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => normalizeUserSchema({ type: 'record', name: 'r', fields: [{ name: '_hoodie_commit_time', type: 'string' }] }, 'r')).code).toBe('INVALID_ARGUMENT');
  });
});
