// evolveSchemaForRows: new top-level columns become nullable inferred fields in first-seen order, numbers
// beyond a column's type promote it (int → long, int/long → double), and rows that fit change nothing.
import { describe, expect, test } from 'vitest';
import { avroSchemaToJson } from '../../src/format/avro/schema.js';
import { evolveSchemaForRows } from '../../src/schema/evolve-for-rows.js';
import { parseRecordSchema, withMetaFields } from '../../src/schema/table-schema.js';

const table = parseRecordSchema({
  type: 'record', name: 't_record', namespace: 'hoodie.t',
  fields: [{ name: 'id', type: 'string' }, { name: 'i', type: ['null', 'int'], default: null }, { name: 'l', type: 'long' }, { name: 'f', type: 'float' }, { name: 'when', type: { type: 'long', logicalType: 'timestamp-micros' } }],
}, 'test');
const fields = (s: ReturnType<typeof evolveSchemaForRows>['schema']) => (avroSchemaToJson(s) as { fields: { name: string; type: unknown }[] }).fields;

describe('evolveSchemaForRows', () => {
  test('rows that fit: no change (meta fields of the table or the rows are ignored)', () => {
    const r = evolveSchemaForRows(withMetaFields(table), [{ id: 'a', i: 5, l: 2n ** 40n, f: 1.5, when: 2 ** 40, _hoodie_commit_time: 'x' }]);
    expect(r.added).toEqual([]);
    expect(r.promoted).toEqual([]);
    expect(fields(r.schema)).toEqual(fields(evolveSchemaForRows(table, []).schema));
    expect(fields(r.schema).map((f) => f.name)).toEqual(['id', 'i', 'l', 'f', 'when']);
  });

  test('new columns, nullable and inferred, in the order rows first name them', () => {
    const r = evolveSchemaForRows(table, [{ id: 'a', zeta: 1 }, { id: 'b', alpha: 'x', zeta: null }, { id: 'c', nested: { k: true } }]);
    expect(r.added).toEqual(['zeta', 'alpha', 'nested']);
    const f = fields(r.schema);
    expect(f.slice(5)).toEqual([
      { name: 'zeta', type: ['null', 'long'], default: null },
      { name: 'alpha', type: ['null', 'string'], default: null },
      { name: 'nested', type: ['null', { type: 'record', name: 'nested', namespace: 'hoodie.t.t_record', fields: [{ name: 'k', type: ['null', 'boolean'], default: null }] }], default: null },
    ]);
  });

  test('promotions: int beyond 32 bits → long, fractions in int/long → double; float, logical types and text stay', () => {
    const r = evolveSchemaForRows(table, [{ i: 2 ** 31 }, { l: 0.5, f: 0.25, when: 1.5, id: 7 }]);
    expect(r.promoted).toEqual([{ field: 'i', from: 'int', to: 'long' }, { field: 'l', from: 'long', to: 'double' }]);
    const f = Object.fromEntries(fields(r.schema).map((x) => [x.name, x.type]));
    expect(f).toMatchObject({ i: ['null', 'long'], l: 'double', f: 'float', when: { type: 'long', logicalType: 'timestamp-micros' }, id: 'string' });
    expect(evolveSchemaForRows(table, [{ i: -(2 ** 31) }, { i: 3n }]).promoted).toEqual([]);
    expect(evolveSchemaForRows(table, [{ i: -(2n ** 31n) - 1n }]).promoted).toEqual([{ field: 'i', from: 'int', to: 'long' }]);
  });

  test('a new column of mixed kinds → INVALID_ARGUMENT naming it', () => {
    expect(() => evolveSchemaForRows(table, [{ x: 1 }, { x: 'a' }])).toThrow(/field 'x' holds values of different types/);
  });
});
