// diffSchemas: added and removed fields, promotions and nullability changes, nested record fields by dotted
// path, and nothing for schemas that differ only in docs or nullable-union branch order.
import { describe, expect, test } from 'vitest';
import { parseRecordSchema } from '../../src/schema/table-schema.js';
import { describeFieldType, diffSchemas } from '../../src/schema/schema-diff.js';

const record = (fields: unknown[]) => parseRecordSchema({ type: 'record', name: 'r', fields }, 'test');
const opt = (t: unknown) => ['null', t];

describe('diffSchemas', () => {
  test('equal schemas have no changes; docs and union branch order do not count', () => {
    const a = record([{ name: 'id', type: 'string' }, { name: 'n', type: opt('long'), default: null }]);
    const b = record([{ name: 'id', type: 'string', doc: 'the key' }, { name: 'n', type: ['long', 'null'] }]);
    expect(diffSchemas(a, a)).toEqual([]);
    expect(diffSchemas(a, b)).toEqual([]);
  });

  test('an added nullable column, a promotion and a required field becoming nullable', () => {
    const a = record([{ name: 'id', type: 'string' }, { name: 'n', type: opt('int'), default: null }, { name: 'q', type: 'double' }]);
    const b = record([{ name: 'id', type: 'string' }, { name: 'n', type: opt('long'), default: null }, { name: 'q', type: opt('double'), default: null }, { name: 'extra', type: opt('string'), default: null }]);
    expect(diffSchemas(a, b)).toEqual([
      { kind: 'type-changed', field: 'n', from: 'nullable int', to: 'nullable long' },
      { kind: 'type-changed', field: 'q', from: 'double', to: 'nullable double' },
      { kind: 'added', field: 'extra', type: 'nullable string' },
    ]);
  });

  test('a removed field, listed after the others', () => {
    const a = record([{ name: 'id', type: 'string' }, { name: 'gone', type: 'boolean' }]);
    const b = record([{ name: 'id', type: 'string' }, { name: 'new', type: 'int' }]);
    expect(diffSchemas(a, b)).toEqual([{ kind: 'added', field: 'new', type: 'int' }, { kind: 'removed', field: 'gone', type: 'boolean' }]);
  });

  test('nested record fields by dotted path; array items and decimal precision as one type change', () => {
    const addr = (fields: unknown[]) => ({ type: 'record', name: 'addr', fields });
    const a = record([
      { name: 'a', type: opt(addr([{ name: 'city', type: 'string' }])), default: null },
      { name: 'xs', type: { type: 'array', items: 'int' } },
      { name: 'd', type: { type: 'bytes', logicalType: 'decimal', precision: 5, scale: 2 } },
    ]);
    const b = record([
      { name: 'a', type: opt(addr([{ name: 'city', type: 'string' }, { name: 'zip', type: opt('string'), default: null }])), default: null },
      { name: 'xs', type: { type: 'array', items: 'long' } },
      { name: 'd', type: { type: 'bytes', logicalType: 'decimal', precision: 9, scale: 2 } },
    ]);
    expect(diffSchemas(a, b)).toEqual([
      { kind: 'added', field: 'a.zip', type: 'nullable string' },
      { kind: 'type-changed', field: 'xs', from: 'array<int>', to: 'array<long>' },
      { kind: 'type-changed', field: 'd', from: 'decimal(5,2)', to: 'decimal(9,2)' },
    ]);
  });

  test('describeFieldType names logical types and nullability', () => {
    const s = record([{ name: 't', type: opt({ type: 'long', logicalType: 'timestamp-micros' }), default: null }, { name: 'z', type: 'null' }]);
    expect(describeFieldType(s.fields[0]!.type)).toBe('nullable timestamp-micros');
    expect(describeFieldType(s.fields[1]!.type)).toBe('null');
  });
});
