// Schema inference from rows: JS values → Avro types, nullability, meta fields, and errors naming the field.
import { describe, expect, test } from 'vitest';
import { avroSchemaToJson, isParsedAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import { inferAvroSchema } from '../../src/schema/infer.js';
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
