// schemaPromoter: values a file wrote under an older schema, read in the table's current types — every promotion
// Hudi accepts (and int/long → decimal from schema-on-read writers), new fields at any depth (default, else null),
// row objects and column vectors (typed arrays included); nothing to do when the file's schema matches.
import { describe, expect, test } from 'vitest';
import { parseAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import { schemaPromoter } from '../../src/schema/promotion.js';

const record = (fields: unknown[]): AvroRecordSchema => parseAvroSchema({ type: 'record', name: 'r', fields }) as AvroRecordSchema;
const one = (type: unknown) => record([{ name: 'v', type }]);
const promote = (from: unknown, to: unknown, value: unknown) => {
  const p = schemaPromoter(one(to), one(from));
  expect(p).toBeDefined();
  return p!.row({ v: value }).v;
};
const utf8 = (s: string) => new TextEncoder().encode(s);
const decimal = (precision: number, scale: number) => ({ type: 'bytes', logicalType: 'decimal', precision, scale });

describe('schemaPromoter: primitive promotions', () => {
  const cases: [string, unknown, unknown, unknown, unknown][] = [
    ['int → long', 'int', 'long', -5, -5n],
    ['int → float', 'int', 'float', 7, 7],
    ['int → double', 'int', 'double', 7, 7],
    ['long → float (rounded to float)', 'long', 'float', 16777217n, 16777216],
    ['long → double', 'long', 'double', -9007199254740993n, -9007199254740992],
    ['float → double', 'float', 'double', Math.fround(1.1), Math.fround(1.1)],
    ['bytes → string (UTF-8)', 'bytes', 'string', utf8('héllo 😀'), 'héllo 😀'],
    ['string → bytes (UTF-8)', 'string', 'bytes', 'héllo', utf8('héllo')],
    ['int → string', 'int', 'string', -7, '-7'],
    ['long → string', 'long', 'string', 12345678901234567890n, '12345678901234567890'],
    ['float → string (Java Float.toString)', 'float', 'string', Math.fround(1.1), '1.1'],
    ['double → string (Java Double.toString)', 'double', 'string', 1e10, '1.0E10'],
    ['a whole double → string', 'double', 'string', 100, '100.0'],
    ['decimal scale growth', decimal(10, 2), decimal(12, 4), '-12.50', '-12.5000'],
    ['decimal scale 0 → 2', decimal(5, 0), decimal(7, 2), '42', '42.00'],
    ['int → decimal (schema-on-read writers)', 'int', decimal(12, 2), -3, '-3.00'],
    ['long → decimal, exactly', 'long', decimal(22, 2), 12345678901234567890n, '12345678901234567890.00'],
  ];
  for (const [name, from, to, value, expected] of cases) {
    test(name, () => {
      expect(promote(from, to, value)).toEqual(expected);
      // Nullable on both sides: null stays null, values promote the same.
      expect(promote(['null', from], ['null', to], null)).toBeNull();
      expect(promote(['null', from], ['null', to], value)).toEqual(expected);
    });
  }
  test('values already in the new type are left as they are', () => {
    expect(promote('int', 'long', 5n)).toBe(5n);
    expect(promote('bytes', 'string', 'x')).toBe('x');
    expect(promote(decimal(10, 2), decimal(12, 4), '1.2345')).toBe('1.2345');
  });
});

describe('schemaPromoter: records, collections, missing fields', () => {
  const riderA = { type: 'record', name: 'Rider', fields: [{ name: 'age', type: 'int' }] };
  const riderB = { type: 'record', name: 'Rider', fields: [{ name: 'age', type: 'long' }, { name: 'x', type: ['null', 'string'], default: null }, { name: 'n', type: 'int', default: 7 }] };
  test('a struct gains fields (null, or their default) and promotes the old ones', () => {
    expect(promote(['null', riderA], ['null', riderB], { age: 3 })).toEqual({ age: 3n, x: null, n: 7 });
    expect(promote(['null', riderA], ['null', riderB], null)).toBeNull();
  });
  test('arrays and maps promote their items and values, structs inside them too', () => {
    expect(promote({ type: 'array', items: 'int' }, { type: 'array', items: 'long' }, [1, 2])).toEqual([1n, 2n]);
    expect(promote({ type: 'map', values: 'bytes' }, { type: 'map', values: 'string' }, { k: utf8('v') })).toEqual({ k: 'v' });
    expect(promote({ type: 'array', items: riderA }, { type: 'array', items: riderB }, [{ age: 1 }])).toEqual([{ age: 1n, x: null, n: 7 }]);
  });
  test('a top-level column the file lacks gets its non-null default; nullable ones stay absent (read as null)', () => {
    const table = record([{ name: 'id', type: 'string' }, { name: 'a', type: ['null', 'string'], default: null }, { name: 'b', type: 'long', default: 3 }]);
    const p = schemaPromoter(table, record([{ name: 'id', type: 'string' }]))!;
    expect(p.row({ id: 'k' })).toEqual({ id: 'k', b: 3n });
    expect(p.batch({ length: 2, columns: { id: ['k', 'l'] } }).columns).toEqual({ id: ['k', 'l'], b: [3n, 3n] });
  });
  test('column vectors, typed arrays included, promote like rows; unchanged columns keep their vector', () => {
    const table = record([{ name: 'id', type: 'string' }, { name: 'n', type: 'long' }, { name: 'f', type: 'double' }]);
    const p = schemaPromoter(table, record([{ name: 'id', type: 'string' }, { name: 'n', type: 'int' }, { name: 'f', type: 'double' }]))!;
    const f = new Float64Array([0.5, 1.5]);
    const out = p.batch({ length: 2, columns: { id: ['a', 'b'], n: new Int32Array([1, -2]), f } });
    expect(out.columns.n).toEqual([1n, -2n]);
    expect(out.columns.f).toBe(f);
  });
  test('no promoter when the file schema reads as the table schema (names and docs aside)', () => {
    const a = record([{ name: 'id', type: 'string' }, { name: 'r', type: ['null', riderA], default: null }]);
    const b = parseAvroSchema({ type: 'record', name: 'other', namespace: 'x', doc: 'd', fields: [{ name: 'id', type: 'string', doc: 'k' }, { name: 'r', type: ['null', { ...riderA, name: 'R2' }] }] });
    expect(schemaPromoter(a, b)).toBeUndefined();
    expect(schemaPromoter(a, a)).toBeUndefined();
  });
  test('an unknown file schema promotes every field by its values', () => {
    const table = record([{ name: 'id', type: 'string' }, { name: 'n', type: 'long' }]);
    expect(schemaPromoter(table, undefined)!.row({ id: 'a', n: 4 })).toEqual({ id: 'a', n: 4n });
  });
});
