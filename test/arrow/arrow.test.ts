// Arrow → Avro schema conversion (every Arrow type, Spark's decimal sizes, round trips with arrowSchema, errors
// naming the field), all in arrow/arrow.ts, the one module that imports apache-arrow.
import { describe, expect, test } from 'vitest';
import {
  Binary, Bool, DateDay, Decimal, Field, FixedSizeBinary, Float32, Float64, Int16, Int32, Int64, Int8, List, Map_, Null, Schema, Struct,
  TimeMillisecond, TimestampMicrosecond, TimestampMillisecond, TimestampNanosecond, Uint32, Utf8, Dictionary, Interval, IntervalUnit,
} from 'apache-arrow';
import { arrowSchema, avroSchemaFromArrow, decimalFixedSize } from '../../src/arrow/arrow.js';
import { avroSchemaToJson, parseAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import { inferAvroSchema } from '../../src/schema/infer.js';
import { withMetaFields } from '../../src/schema/table-schema.js';
import { thrown } from '../helpers/expect-error.js';

const json = (s: AvroRecordSchema) => avroSchemaToJson(s) as { name: string; namespace?: string; fields: { name: string; type: unknown; default?: unknown }[] };

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
