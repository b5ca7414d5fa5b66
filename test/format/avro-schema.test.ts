// Avro schema parsing: named-type resolution across namespaces, logical types, recursion, invalid schemas
// (INVALID_ARGUMENT, or CORRUPT_FILE with the path when the schema came from a file) and JSON round trip.
import { describe, expect, it } from 'vitest';
import { isLakeletError } from '../../src/errors.js';
import {
  type AvroSchema, avroSchemaJson, avroSchemaToJson, isParsedAvroSchema, parseAvroSchema,
} from '../../src/format/avro/schema.js';

function field(schema: AvroSchema, name: string): AvroSchema {
  if (schema.type !== 'record') throw new Error('not a record');
  const f = schema.fields.find((x) => x.name === name);
  if (f === undefined) throw new Error(`no field ${name}`);
  return f.type;
}

describe('parseAvroSchema', () => {
  it('parses primitives given as strings and objects', () => {
    expect(parseAvroSchema('"long"')).toEqual({ type: 'long' });
    expect(parseAvroSchema({ type: 'string', 'avro.java.string': 'String' })).toEqual({ type: 'string' });
  });

  it('resolves short names in the enclosing namespace, so Spark-style "fixed" names can repeat', () => {
    const s = parseAvroSchema({
      type: 'record', name: 'row', namespace: 'hoodie.t',
      fields: [
        { name: 'a', type: { type: 'fixed', name: 'fixed', namespace: 'hoodie.t.a', size: 5, logicalType: 'decimal', precision: 10, scale: 2 } },
        { name: 'b', type: { type: 'fixed', name: 'fixed', namespace: 'hoodie.t.b', size: 3 } },
        { name: 'c', type: 'hoodie.t.a.fixed' },
        { name: 'inner', type: { type: 'record', name: 'Inner', fields: [{ name: 'x', type: 'int' }] } },
        { name: 'again', type: 'Inner' },
      ],
    });
    const a = field(s, 'a');
    const b = field(s, 'b');
    expect(a.type === 'fixed' && a.fullName).toBe('hoodie.t.a.fixed');
    expect(a.type === 'fixed' && a.logicalType).toEqual({ name: 'decimal', precision: 10, scale: 2 });
    expect(b.type === 'fixed' && b.size).toBe(3);
    expect(field(s, 'c')).toBe(a);
    const inner = field(s, 'inner');
    expect(inner.type === 'record' && inner.fullName).toBe('hoodie.t.Inner');
    expect(field(s, 'again')).toBe(inner);
  });

  it('keeps recursive references as the same node', () => {
    const s = parseAvroSchema({ type: 'record', name: 'Node', fields: [{ name: 'next', type: ['null', 'Node'] }] });
    const next = field(s, 'next');
    expect(next.type === 'union' && next.branches[1]).toBe(s);
    expect(JSON.parse(avroSchemaJson(s))).toEqual({ type: 'record', name: 'Node', fields: [{ name: 'next', type: ['null', 'Node'] }] });
  });

  it('validates logical types and drops invalid ones, as the Avro spec says', () => {
    const s = parseAvroSchema({
      type: 'record', name: 'r', fields: [
        { name: 'd', type: { type: 'int', logicalType: 'date' } },
        { name: 'badDate', type: { type: 'long', logicalType: 'date' } },
        { name: 'ts', type: { type: 'long', logicalType: 'timestamp-micros' } },
        { name: 'lts', type: { type: 'long', logicalType: 'local-timestamp-millis' } },
        { name: 'dec', type: { type: 'bytes', logicalType: 'decimal', precision: 30, scale: 15 } },
        { name: 'badDec', type: { type: 'bytes', logicalType: 'decimal', precision: 2, scale: 5 } },
        { name: 'u', type: { type: 'string', logicalType: 'uuid' } },
        { name: 'odd', type: { type: 'string', logicalType: 'something-new' } },
      ],
    });
    expect(field(s, 'd')).toEqual({ type: 'int', logicalType: { name: 'date' } });
    expect(field(s, 'badDate')).toEqual({ type: 'long' });
    expect(field(s, 'ts')).toEqual({ type: 'long', logicalType: { name: 'timestamp-micros' } });
    expect(field(s, 'lts')).toEqual({ type: 'long', logicalType: { name: 'local-timestamp-millis' } });
    expect(field(s, 'dec')).toEqual({ type: 'bytes', logicalType: { name: 'decimal', precision: 30, scale: 15 } });
    expect(field(s, 'badDec')).toEqual({ type: 'bytes' });
    expect(field(s, 'u')).toEqual({ type: 'string', logicalType: { name: 'uuid' } });
    expect(field(s, 'odd')).toEqual({ type: 'string' });
  });

  it('records field defaults and enum symbols', () => {
    const s = parseAvroSchema({
      type: 'record', name: 'r', fields: [
        { name: 'version', type: ['int', 'null'], default: 1 },
        { name: 'e', type: { type: 'enum', name: 'E', symbols: ['A', 'B'] } },
        { name: 'plain', type: 'string' },
      ],
    });
    expect(s.type === 'record' && s.fields[0]).toMatchObject({ name: 'version', hasDefault: true, default: 1 });
    expect(s.type === 'record' && s.fields[2]?.hasDefault).toBe(false);
    expect(field(s, 'e')).toMatchObject({ type: 'enum', symbols: ['A', 'B'] });
  });

  it('returns parsed nodes unchanged and knows them', () => {
    const s = parseAvroSchema('{"type":"array","items":"int"}');
    expect(isParsedAvroSchema(s)).toBe(true);
    expect(isParsedAvroSchema({ type: 'array', items: { type: 'int' } })).toBe(false);
    expect(parseAvroSchema(s)).toBe(s);
    expect(avroSchemaJson(s)).toBe('{"type":"array","items":"int"}');
    expect(avroSchemaToJson(s)).toEqual({ type: 'array', items: 'int' });
  });

  const invalid: [string, unknown][] = [
    ['bad JSON', '{"type":'],
    ['unknown type name', '"nope"'],
    ['record without fields', { type: 'record', name: 'r' }],
    ['record without name', { type: 'record', fields: [] }],
    ['duplicate field', { type: 'record', name: 'r', fields: [{ name: 'a', type: 'int' }, { name: 'a', type: 'int' }] }],
    ['duplicate named type', { type: 'record', name: 'r', fields: [{ name: 'a', type: { type: 'fixed', name: 'f', size: 1 } }, { name: 'b', type: { type: 'fixed', name: 'f', size: 2 } }] }],
    ['nested union', [['null', 'int']]],
    ['enum without symbols', { type: 'enum', name: 'E' }],
    ['fixed with negative size', { type: 'fixed', name: 'F', size: -1 }],
    ['invalid name', { type: 'record', name: '1abc', fields: [] }],
    ['number as type', 42],
  ];
  for (const [what, schema] of invalid) {
    it(`rejects ${what} with INVALID_ARGUMENT`, () => {
      let caught: unknown;
      try {
        parseAvroSchema(schema as string | object);
      } catch (err) {
        caught = err;
      }
      expect(isLakeletError(caught, 'INVALID_ARGUMENT')).toBe(true);
    });
  }

  it('reports CORRUPT_FILE naming the file when the schema came from one', () => {
    let caught: unknown;
    try {
      parseAvroSchema('{"type":"record"', { path: 'a/b.log' });
    } catch (err) {
      caught = err;
    }
    expect(isLakeletError(caught, 'CORRUPT_FILE')).toBe(true);
    expect(isLakeletError(caught) && caught.context.path).toBe('a/b.log');
  });
});
