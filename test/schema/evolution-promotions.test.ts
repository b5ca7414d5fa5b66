// checkSchemaEvolution's rule table (issue 14): which schema changes a write may make without rewriting files, as
// Hudi's schema-on-write accepts them (AvroSchemaCompatibility) — every pair of primitive types, decimals, nested
// fields, collections and unions — and the INVALID_ARGUMENT messages naming the column path and both types.
import { describe, expect, test } from 'vitest';
import { parseAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import { avroTypeName } from '../../src/schema/avro-types.js';
import { checkSchemaEvolution } from '../../src/schema/evolution.js';
import { thrown } from '../helpers/expect-error.js';

const record = (fields: unknown[], name = 'r'): AvroRecordSchema => parseAvroSchema({ type: 'record', name, fields }) as AvroRecordSchema;
const withField = (type: unknown) => record([{ name: 'id', type: 'string' }, { name: 'v', type }]);
const evolution = (from: unknown, to: unknown) => () => checkSchemaEvolution(withField(from), withField(to));
const typeName = (t: unknown) => avroTypeName((withField(t).fields[1] as { type: Parameters<typeof avroTypeName>[0] }).type);

const PRIMITIVES: Record<string, unknown> = {
  boolean: 'boolean',
  int: 'int',
  long: 'long',
  float: 'float',
  double: 'double',
  string: 'string',
  bytes: 'bytes',
  decimal: { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 2 },
  date: { type: 'int', logicalType: 'date' },
  timestamp: { type: 'long', logicalType: 'timestamp-micros' },
};
/** The promotions Hudi accepts between different types (from → to). */
const ACCEPTED = new Set([
  'int>long', 'int>float', 'int>double', 'long>float', 'long>double', 'float>double', 'string>bytes', 'bytes>string',
  'int>string', 'long>string', 'float>string', 'double>string',
]);
const NUMERIC = ['int', 'long', 'float', 'double'];

describe('checkSchemaEvolution: every pair of primitive types', () => {
  for (const [from, fromType] of Object.entries(PRIMITIVES)) {
    for (const [to, toType] of Object.entries(PRIMITIVES)) {
      const accepted = from === to || ACCEPTED.has(`${from}>${to}`);
      test(`${from} → ${to}: ${accepted ? 'accepted' : 'refused'}`, () => {
        if (accepted) {
          expect(evolution(fromType, toType)).not.toThrow();
          // The same change inside a nullable union, an array and a map.
          expect(evolution(['null', fromType], ['null', toType])).not.toThrow();
          expect(evolution({ type: 'array', items: fromType }, { type: 'array', items: toType })).not.toThrow();
          expect(evolution({ type: 'map', values: fromType }, { type: 'map', values: toType })).not.toThrow();
          return;
        }
        const err = thrown(evolution(fromType, toType));
        expect(err.code).toBe('INVALID_ARGUMENT');
        expect(err.context.field).toBe('v');
        const narrows = NUMERIC.includes(from) && NUMERIC.includes(to);
        expect(err.message).toBe(narrows
          ? `schema evolution: field 'v' narrows ${from} to ${to}`
          : `schema evolution: field 'v' changes type from ${typeName(fromType)} to ${typeName(toType)}`);
        expect(thrown(evolution({ type: 'array', items: fromType }, { type: 'array', items: toType })).context.field).toBe('v[]');
        expect(thrown(evolution({ type: 'map', values: fromType }, { type: 'map', values: toType })).context.field).toBe('v{}');
      });
    }
  }
  test('string → numbers, and logical types → string (date, decimal), are refused', () => {
    for (const n of NUMERIC) expect(thrown(evolution('string', n)).message).toContain(`from string to ${n}`);
    expect(thrown(evolution({ type: 'int', logicalType: 'date' }, 'string')).message).toContain('from date to string');
    expect(thrown(evolution({ type: 'bytes', logicalType: 'decimal', precision: 4, scale: 1 }, 'string')).message).toContain('from decimal(4,1) to string');
  });
});

describe('checkSchemaEvolution: decimals', () => {
  const bytesDecimal = (precision: number, scale: number) => ({ type: 'bytes', logicalType: 'decimal', precision, scale });
  const fixedDecimal = (size: number, precision: number, scale: number) => ({ type: 'fixed', name: 'd', size, logicalType: 'decimal', precision, scale });
  const accepted: [string, unknown, unknown][] = [
    ['precision grows', bytesDecimal(10, 2), bytesDecimal(12, 2)],
    ['scale and precision grow together', bytesDecimal(10, 2), bytesDecimal(12, 4)],
    ['scale grows, integer digits stay', bytesDecimal(10, 2), bytesDecimal(11, 3)],
    ['a fixed decimal grows within its size', fixedDecimal(5, 9, 2), fixedDecimal(5, 11, 2)],
  ];
  for (const [name, from, to] of accepted) test(`accepted: ${name}`, () => expect(evolution(from, to)).not.toThrow());
  const refused: [string, unknown, unknown, string][] = [
    ['integer digits shrink', bytesDecimal(10, 2), bytesDecimal(10, 3), "field 'v' changes decimal(10,2) to decimal(10,3) (lossy: neither the scale nor the integer digits may shrink)"],
    ['scale shrinks', bytesDecimal(10, 2), bytesDecimal(12, 1), "field 'v' changes decimal(10,2) to decimal(12,1) (lossy: neither the scale nor the integer digits may shrink)"],
    ['precision shrinks', bytesDecimal(10, 2), bytesDecimal(9, 2), "field 'v' changes decimal(10,2) to decimal(9,2) (lossy"],
    ['a fixed decimal changes size', fixedDecimal(5, 9, 2), fixedDecimal(8, 18, 2), "field 'v' changes decimal(9,2) to decimal(18,2) (a fixed decimal keeps its size of 5 bytes)"],
    ['fixed → bytes', fixedDecimal(5, 9, 2), bytesDecimal(9, 2), "field 'v' changes type from decimal(9,2) to decimal(9,2)"],
    ['int → decimal', 'int', bytesDecimal(12, 2), "field 'v' changes type from int to decimal(12,2)"],
    ['long → decimal', 'long', bytesDecimal(20, 0), "field 'v' changes type from long to decimal(20,0)"],
    ['decimal → double', bytesDecimal(10, 2), 'double', "field 'v' changes type from decimal(10,2) to double"],
  ];
  for (const [name, from, to, message] of refused) {
    test(`refused: ${name}`, () => {
      const err = thrown(evolution(from, to));
      expect(err.code).toBe('INVALID_ARGUMENT');
      expect(err.context.field).toBe('v');
      expect(err.message).toContain(message);
    });
  }
});

describe('checkSchemaEvolution: nested fields', () => {
  const rider = (fields: unknown[]) => ['null', { type: 'record', name: 'Rider', fields }];
  const base = rider([{ name: 'age', type: 'int' }, { name: 'name', type: 'string' }]);
  test('a nullable field (or one with a default) added inside a struct, at the end or in the middle, is accepted', () => {
    expect(evolution(base, rider([{ name: 'age', type: 'int' }, { name: 'name', type: 'string' }, { name: 'x', type: ['null', 'string'], default: null }]))).not.toThrow();
    expect(evolution(base, rider([{ name: 'age', type: 'int' }, { name: 'x', type: ['null', 'long'], default: null }, { name: 'name', type: 'string' }]))).not.toThrow();
    expect(evolution(base, rider([{ name: 'age', type: 'int' }, { name: 'name', type: 'string' }, { name: 'n', type: 'int', default: 0 }]))).not.toThrow();
  });
  test('promotions inside a struct in an array are accepted', () => {
    const inArray = (age: string, name: string) => ({ type: 'array', items: { type: 'record', name: 'Stop', fields: [{ name: 'age', type: age }, { name: 'name', type: name }] } });
    expect(evolution(inArray('int', 'string'), inArray('double', 'bytes'))).not.toThrow();
    const err = thrown(evolution(inArray('long', 'string'), inArray('int', 'string')));
    expect(err.context.field).toBe('v[].age');
    expect(err.message).toBe("schema evolution: field 'v[].age' narrows long to int");
  });
  const refused: [string, unknown, string, string][] = [
    ['a required field without a default', rider([{ name: 'age', type: 'int' }, { name: 'name', type: 'string' }, { name: 'x', type: 'string' }]), 'v.x', 'is added as required string without a default (existing rows have no value)'],
    ['a nested field removed', rider([{ name: 'age', type: 'int' }]), 'v.name', 'is removed'],
    ['a nested type narrowed', rider([{ name: 'age', type: 'int' }, { name: 'name', type: 'int' }]), 'v.name', 'changes type from string to int'],
    ['a struct turned into a string', ['null', 'string'], 'v', 'changes type from record Rider to string'],
  ];
  for (const [name, to, path, reason] of refused) {
    test(`refused: ${name} (${path})`, () => {
      const err = thrown(evolution(base, to));
      expect(err.code).toBe('INVALID_ARGUMENT');
      expect(err.context.field).toBe(path);
      expect(err.message).toBe(`schema evolution: field '${path}' ${reason}${reason === 'is removed' ? ' (Hudi refuses column drops by default)' : ''}`);
    });
  }
});

describe('checkSchemaEvolution', () => {
  const base = record([
    { name: 'id', type: 'string' },
    { name: 'n', type: 'int' },
    { name: 'f', type: 'float' },
    { name: 'opt', type: ['null', 'string'], default: null },
    { name: 'amount', type: { type: 'fixed', name: 'fx', size: 7, logicalType: 'decimal', precision: 15, scale: 2 } },
    { name: 'color', type: { type: 'enum', name: 'Color', symbols: ['RED', 'GREEN'] } },
    { name: 'rider', type: ['null', { type: 'record', name: 'Rider', fields: [{ name: 'age', type: 'int' }] }], default: null },
    { name: 'tags', type: { type: 'array', items: 'int' } },
  ]);
  const fields = () => JSON.parse(JSON.stringify([
    { name: 'id', type: 'string' },
    { name: 'n', type: 'int' },
    { name: 'f', type: 'float' },
    { name: 'opt', type: ['null', 'string'], default: null },
    { name: 'amount', type: { type: 'fixed', name: 'fx', size: 7, logicalType: 'decimal', precision: 15, scale: 2 } },
    { name: 'color', type: { type: 'enum', name: 'Color', symbols: ['RED', 'GREEN'] } },
    { name: 'rider', type: ['null', { type: 'record', name: 'Rider', fields: [{ name: 'age', type: 'int' }] }], default: null },
    { name: 'tags', type: { type: 'array', items: 'int' } },
  ])) as { name: string; type: unknown; default?: unknown }[];
  const evolve = (change: (f: ReturnType<typeof fields>) => void) => {
    const f = fields();
    change(f);
    return () => checkSchemaEvolution(base, record(f));
  };
  const field = (f: ReturnType<typeof fields>, name: string) => f.find((x) => x.name === name)!;

  test('allowed changes pass', () => {
    expect(evolve(() => {})).not.toThrow();
    expect(evolve((f) => f.reverse())).not.toThrow();
    expect(evolve((f) => f.push({ name: 'added', type: ['null', 'long'], default: null }))).not.toThrow();
    expect(evolve((f) => f.push({ name: 'withDefault', type: 'int', default: 0 }))).not.toThrow();
    expect(evolve((f) => { field(f, 'n').type = 'long'; })).not.toThrow();
    expect(evolve((f) => { field(f, 'n').type = 'double'; })).not.toThrow();
    expect(evolve((f) => { field(f, 'f').type = 'double'; })).not.toThrow();
    expect(evolve((f) => { field(f, 'id').type = ['null', 'string']; })).not.toThrow();
    expect(evolve((f) => { field(f, 'color').type = { type: 'enum', name: 'Color', symbols: ['RED', 'GREEN', 'BLUE'] }; })).not.toThrow();
    expect(evolve((f) => { field(f, 'amount').type = { type: 'fixed', name: 'fx', size: 7, logicalType: 'decimal', precision: 16, scale: 2 }; })).not.toThrow();
    expect(evolve((f) => { field(f, 'id').type = 'bytes'; })).not.toThrow();
    expect(evolve((f) => { field(f, 'tags').type = { type: 'array', items: 'long' }; })).not.toThrow();
    expect(evolve((f) => { (field(f, 'rider').type as unknown[])[1] = { type: 'record', name: 'Rider', fields: [{ name: 'age', type: 'long' }, { name: 'x', type: ['null', 'int'], default: null }] }; })).not.toThrow();
  });

  const refused: [string, (f: ReturnType<typeof fields>) => void, RegExp][] = [
    ['opt', (f) => { f.splice(f.findIndex((x) => x.name === 'opt'), 1); }, /removed/],
    ['added', (f) => { f.push({ name: 'added', type: 'int' }); }, /required/],
    ['opt', (f) => { field(f, 'opt').type = 'string'; delete field(f, 'opt').default; }, /nullable to required/],
    ['n', (f) => { field(f, 'n').type = 'boolean'; }, /changes type from int to boolean/],
    ['f', (f) => { field(f, 'f').type = 'int'; }, /narrows float to int/],
    ['id', (f) => { field(f, 'id').type = 'int'; }, /string to int/],
    ['amount', (f) => { field(f, 'amount').type = { type: 'fixed', name: 'fx', size: 8, logicalType: 'decimal', precision: 18, scale: 2 }; }, /keeps its size of 7 bytes/],
    ['amount', (f) => { field(f, 'amount').type = { type: 'fixed', name: 'fx', size: 7, logicalType: 'decimal', precision: 15, scale: 3 }; }, /lossy/],
    ['amount', (f) => { field(f, 'amount').type = 'double'; }, /changes type/],
    ['color', (f) => { field(f, 'color').type = { type: 'enum', name: 'Color', symbols: ['RED'] }; }, /GREEN/],
    ['rider.age', (f) => { (field(f, 'rider').type as unknown[])[1] = { type: 'record', name: 'Rider', fields: [{ name: 'age', type: 'boolean' }] }; }, /int to boolean/],
    ['rider.age', (f) => { (field(f, 'rider').type as unknown[])[1] = { type: 'record', name: 'Rider', fields: [] }; }, /removed/],
    ['tags[]', (f) => { field(f, 'tags').type = { type: 'array', items: 'boolean' }; }, /int to boolean/],
    ['n', (f) => { field(f, 'n').type = { type: 'int', logicalType: 'date' }; }, /changes type/],
  ];
  for (const [name, change, message] of refused) {
    test(`refused: ${name} ${message.source}`, () => {
      const err = thrown(evolve(change));
      expect(err.code).toBe('INVALID_ARGUMENT');
      expect(err.context.field).toBe(name);
      expect(err.message).toMatch(message);
      expect(err.message).toContain(`'${name}'`);
    });
  }
});

