// Row validation and coercion into the value model, and the schema-evolution rules for a table's next schema.
import { describe, expect, test } from 'vitest';
import { LakeletError } from '../../src/errors.js';
import { parseAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import { encodeAvroDatum } from '../../src/format/avro/encoder.js';
import { compileRowValidator } from '../../src/schema/validate.js';
import { thrown } from '../helpers/expect-error.js';

const record = (fields: unknown[], name = 'r'): AvroRecordSchema => parseAvroSchema({ type: 'record', name, fields }) as AvroRecordSchema;
const one = (type: unknown) => compileRowValidator(record([{ name: 'v', type }]));

describe('compileRowValidator: primitives', () => {
  test('int accepts 32-bit integers and in-range bigints', () => {
    const v = one('int');
    expect(v({ v: 5 }, 0)).toEqual({ v: 5 });
    expect(v({ v: -2147483648n }, 0)).toEqual({ v: -2147483648 });
    for (const bad of [2147483648, 1.5, '5', 2n ** 31n, true]) expect(thrown(() => v({ v: bad }, 3)).context).toMatchObject({ row: 3, field: 'v' });
  });

  test('long gives bigint; numbers must be safe integers; strings are refused', () => {
    const v = one('long');
    expect(v({ v: 42 }, 0)).toEqual({ v: 42n });
    expect(v({ v: 2n ** 62n }, 0)).toEqual({ v: 2n ** 62n });
    expect(thrown(() => v({ v: 2 ** 60 }, 0)).message).toContain('safe integer');
    expect(thrown(() => v({ v: '42' }, 0)).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => v({ v: 2n ** 63n }, 0)).message).toContain('64-bit');
  });

  test('float/double accept numbers and bigints; floats are rounded to float32', () => {
    expect(one('double')({ v: 3n }, 0)).toEqual({ v: 3 });
    expect(one('double')({ v: 0.1 }, 0)).toEqual({ v: 0.1 });
    expect(one('float')({ v: 0.1 }, 0)).toEqual({ v: Math.fround(0.1) });
    const err = thrown(() => compileRowValidator(record([{ name: 'fare', type: 'double' }]))({ fare: 'abc' }, 17));
    expect(err.message).toBe('row 17: field \'fare\' expects double, got "abc"');
    expect(err.context).toEqual({ row: 17, field: 'fare', value: 'abc' });
  });

  test('string, boolean, enum', () => {
    expect(one('string')({ v: 'x' }, 0)).toEqual({ v: 'x' });
    expect(thrown(() => one('string')({ v: 1 }, 0)).code).toBe('INVALID_ARGUMENT');
    expect(one('boolean')({ v: false }, 0)).toEqual({ v: false });
    expect(thrown(() => one('boolean')({ v: 'true' }, 0)).code).toBe('INVALID_ARGUMENT');
    const e = one({ type: 'enum', name: 'Color', symbols: ['RED', 'GREEN'] });
    expect(e({ v: 'RED' }, 0)).toEqual({ v: 'RED' });
    expect(thrown(() => e({ v: 'BLUE' }, 0)).message).toContain('RED, GREEN');
  });

  test('bytes accept Uint8Array and ArrayBuffer; fixed checks the length', () => {
    const buf = new Uint8Array([1, 2, 3]);
    expect(one('bytes')({ v: buf }, 0)).toEqual({ v: buf });
    expect(one('bytes')({ v: buf.buffer }, 0).v).toEqual(buf);
    expect(thrown(() => one('bytes')({ v: [1, 2] }, 0)).code).toBe('INVALID_ARGUMENT');
    const fixed = one({ type: 'fixed', name: 'f4', size: 4 });
    expect(fixed({ v: new Uint8Array(4) }, 0).v).toHaveLength(4);
    expect(thrown(() => fixed({ v: new Uint8Array(3) }, 0)).message).toContain('length 3, expected 4');
  });
});

describe('compileRowValidator: logical types', () => {
  const dec = { type: 'bytes', logicalType: 'decimal', precision: 6, scale: 2 };

  test('decimals become text with exactly `scale` digits', () => {
    const v = one(dec);
    expect(v({ v: '12.5' }, 0)).toEqual({ v: '12.50' });
    expect(v({ v: 12 }, 0)).toEqual({ v: '12.00' });
    expect(v({ v: 7n }, 0)).toEqual({ v: '7.00' });
    expect(v({ v: -0.5 }, 0)).toEqual({ v: '-0.50' });
    expect(v({ v: '0012.340' }, 0)).toEqual({ v: '12.34' });
    expect(v({ v: '9999.99' }, 0)).toEqual({ v: '9999.99' });
    expect(v({ v: '.5' }, 0)).toEqual({ v: '0.50' });
    const fixedDec = one({ type: 'fixed', name: 'd', size: 5, logicalType: 'decimal', precision: 10, scale: 5 });
    expect(fixedDec({ v: '12345.6789' }, 0)).toEqual({ v: '12345.67890' });
    expect(one({ type: 'bytes', logicalType: 'decimal', precision: 10, scale: 8 })({ v: 1e-7 }, 0)).toEqual({ v: '0.00000010' });
  });

  test('decimals beyond the precision or scale are refused', () => {
    const v = one(dec);
    expect(thrown(() => v({ v: '10000.00' }, 0)).message).toContain('integer digits');
    expect(thrown(() => v({ v: '1.234' }, 0)).message).toContain('fraction digits');
    expect(thrown(() => v({ v: 0.1 + 0.2 }, 0)).message).toContain('fraction digits');
    expect(thrown(() => v({ v: 'abc' }, 0)).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => v({ v: NaN }, 0)).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => v({ v: '1e3' }, 0)).code).toBe('INVALID_ARGUMENT');
  });

  test('date: Date (to its UTC day) or YYYY-MM-DD', () => {
    const v = one({ type: 'int', logicalType: 'date' });
    expect(v({ v: '2024-01-15' }, 0)).toEqual({ v: new Date('2024-01-15T00:00:00Z') });
    expect(v({ v: new Date('2024-01-15T13:45:00Z') }, 0)).toEqual({ v: new Date('2024-01-15T00:00:00Z') });
    for (const bad of ['2024-02-30', '15/01/2024', 19737, new Date(NaN)]) expect(thrown(() => v({ v: bad }, 0)).code).toBe('INVALID_ARGUMENT');
  });

  test('timestamps: Date, ISO-8601 text (no zone = UTC) or epoch milliseconds', () => {
    for (const logicalType of ['timestamp-micros', 'timestamp-millis', 'local-timestamp-micros']) {
      const v = one({ type: 'long', logicalType });
      const want = new Date('2024-01-15T10:30:00.123Z');
      expect(v({ v: want }, 0)).toEqual({ v: want });
      expect(v({ v: '2024-01-15T10:30:00.123Z' }, 0)).toEqual({ v: want });
      expect(v({ v: '2024-01-15 10:30:00.123' }, 0)).toEqual({ v: want });
      expect(v({ v: '2024-01-15T16:00:00.123+05:30' }, 0)).toEqual({ v: want });
      expect(v({ v: want.getTime() }, 0)).toEqual({ v: want });
      for (const bad of ['yesterday', '2024-13-01T00:00:00Z', 1n << 63n, true]) expect(thrown(() => v({ v: bad }, 0)).code).toBe('INVALID_ARGUMENT');
      // A bigint is in the column's own unit (D13: micros are kept exactly).
      const big = v({ v: 1705314600123456n }, 0).v as Date;
      expect(big.getTime()).toBe(logicalType.endsWith('micros') ? 1705314600123 : 1705314600123456);
    }
    const micros = one({ type: 'long', logicalType: 'timestamp-micros' });
    expect((micros({ v: '2024-01-15T10:30:00.123456Z' }, 0).v as Date).toISOString()).toBe('2024-01-15T10:30:00.123456Z');
  });

  test('time-millis and time-micros', () => {
    expect(one({ type: 'int', logicalType: 'time-millis' })({ v: 1000 }, 0)).toEqual({ v: 1000 });
    expect(thrown(() => one({ type: 'int', logicalType: 'time-millis' })({ v: 86_400_000 }, 0)).code).toBe('INVALID_ARGUMENT');
    expect(one({ type: 'long', logicalType: 'time-micros' })({ v: 5 }, 0)).toEqual({ v: 5n });
  });
});

describe('compileRowValidator: records, collections, defaults', () => {
  const schema = record([
    { name: 'id', type: 'string' },
    { name: 'fare', type: ['null', 'double'], default: null },
    { name: 'count', type: 'int', default: 7 },
    { name: 'big', type: 'long', default: 5 },
    { name: 'day', type: { type: 'int', logicalType: 'date' }, default: 1 },
    { name: 'note', type: ['null', 'string'] },
    { name: 'tags', type: { type: 'array', items: 'string' }, default: [] },
    { name: 'attrs', type: ['null', { type: 'map', values: 'long' }], default: null },
    { name: 'rider', type: ['null', { type: 'record', name: 'Rider', fields: [{ name: 'name', type: 'string' }, { name: 'age', type: ['null', 'int'], default: null }] }], default: null },
  ], 'Trip');
  const validate = compileRowValidator(schema);

  test('missing fields take defaults (converted to the value model) or null; output follows schema order', () => {
    const out = validate({ rider: { name: 'z' }, id: 'a' }, 0);
    expect(Object.keys(out)).toEqual(['id', 'fare', 'count', 'big', 'day', 'note', 'tags', 'attrs', 'rider']);
    expect(out).toEqual({ id: 'a', fare: null, count: 7, big: 5n, day: new Date(86_400_000), note: null, tags: [], attrs: null, rider: { name: 'z', age: null } });
  });

  test('nested values are coerced recursively; maps accept objects and Maps', () => {
    const out = validate({ id: 'a', tags: ['x', 'y'], attrs: new Map([['k', 3]]), rider: { name: 'z', age: 30n } }, 0);
    expect(out.tags).toEqual(['x', 'y']);
    expect(out.attrs).toEqual({ k: 3n });
    expect(out.rider).toEqual({ name: 'z', age: 30 });
    expect(validate({ id: 'a', attrs: { __proto__x: 1, k: 2 } }, 0).attrs).toEqual({ __proto__x: 1n, k: 2n });
  });

  test('errors name nested fields with dots and indexes', () => {
    expect(thrown(() => validate({ id: 'a', tags: ['x', 2] }, 4)).context).toMatchObject({ row: 4, field: 'tags[1]' });
    expect(thrown(() => validate({ id: 'a', attrs: { k: 'no' } }, 4)).context).toMatchObject({ field: 'attrs.k' });
    expect(thrown(() => validate({ id: 'a', rider: { age: 3 } }, 4)).context).toMatchObject({ field: 'rider.name' });
    expect(thrown(() => validate({ id: 'a', rider: { name: 'z', extra: 1 } }, 4)).context).toMatchObject({ field: 'rider.extra' });
    expect(thrown(() => validate({ id: 'a', rider: 'z' }, 4)).context).toMatchObject({ field: 'rider' });
  });

  test('required fields must be present; unknown fields are refused', () => {
    const missing = thrown(() => validate({ fare: 1 }, 9));
    expect(missing.message).toBe("row 9: field 'id' is required (string) but missing");
    expect(missing.context).toMatchObject({ row: 9, field: 'id' });
    const extra = thrown(() => validate({ id: 'a', colour: 'red' }, 2));
    expect(extra.context).toMatchObject({ row: 2, field: 'colour', value: 'red' });
    expect(thrown(() => validate({ id: null }, 0)).context.field).toBe('id');
    expect(thrown(() => validate('nope', 1)).context).toMatchObject({ row: 1 });
    expect(thrown(() => validate([], 1)).code).toBe('INVALID_ARGUMENT');
  });

  test('multi-branch unions take the first branch that fits', () => {
    const v = one(['null', 'int', 'string']);
    expect(v({ v: 3 }, 0)).toEqual({ v: 3 });
    expect(v({ v: 'x' }, 0)).toEqual({ v: 'x' });
    expect(v({}, 0)).toEqual({ v: null });
    expect(thrown(() => v({ v: true }, 0)).code).toBe('INVALID_ARGUMENT');
  });

  test('normalized rows encode with the Avro writer', () => {
    const out = validate({ id: 'a', fare: 2, big: 9, tags: ['t'], rider: { name: 'n' } }, 0);
    expect(encodeAvroDatum(schema, out).length).toBeGreaterThan(0);
  });

  test('recursive records validate', () => {
    const node = parseAvroSchema({ type: 'record', name: 'Node', fields: [{ name: 'v', type: 'int' }, { name: 'next', type: ['null', 'Node'], default: null }] }) as AvroRecordSchema;
    const v = compileRowValidator(node);
    expect(v({ v: 1, next: { v: 2 } }, 0)).toEqual({ v: 1, next: { v: 2, next: null } });
    expect(thrown(() => v({ v: 1, next: { v: 'x' } }, 0)).context.field).toBe('next.v');
  });
});

describe('compileRowValidator: strings UTF-8 cannot store (D7)', () => {
  test('a lone surrogate in a string, a map key or a nested string is refused, naming the row and field', () => {
    const v = compileRowValidator(record([
      { name: 's', type: ['null', 'string'] },
      { name: 'm', type: ['null', { type: 'map', values: 'string' }], default: null },
      { name: 'a', type: ['null', { type: 'array', items: 'string' }], default: null },
    ]));
    expect(v({ s: 'ok 😀' }, 0)).toMatchObject({ s: 'ok 😀' });
    for (const [row, bad, field] of [
      [{ s: 'x\ud800' }, 's'],
      [{ s: '\udc00y' }, 's'],
      [{ s: '😀'.slice(1) }, 's'],
      [{ s: 'x', m: { k: 'v\ud83d' } }, 'm.k'],
      [{ s: 'x', m: { ['k\ud800']: 'v' } }, 'm'],
      [{ s: 'x', a: ['ok', '\ud800'] }, 'a[1]'],
    ].map(([r, f], i) => [i, r, f] as const)) {
      const err = thrown(() => v(bad as Record<string, unknown>, row));
      expect(err.code).toBe('INVALID_ARGUMENT');
      expect(err.context).toMatchObject({ row, field });
      expect(err.message).toMatch(/lone UTF-16 surrogate/);
    }
  });
});
