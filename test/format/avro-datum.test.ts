// Avro binary datum coding: hand-checked encodings (zigzag varints, blocks with negative counts), the value
// model for logical types, encoder/decoder round trips, and out-of-bounds reads becoming CORRUPT_FILE.
import { describe, expect, it } from 'vitest';
import { isLakeletError } from '../../src/errors.js';
import { AvroReader, decodeAvroDatum } from '../../src/format/avro/decoder.js';
import { AvroWriter, decimalToBytes, encodeAvroDatum } from '../../src/format/avro/encoder.js';
import { parseAvroSchema } from '../../src/format/avro/schema.js';

const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return isLakeletError(err) ? err.code : `non-lakelet: ${String(err)}`;
  }
  return undefined;
}

describe('AvroReader varints', () => {
  it('decodes zigzag ints and longs from the Avro spec examples', () => {
    const r = new AvroReader(bytes(0x00, 0x01, 0x02, 0x03, 0x7f, 0x80, 0x01));
    expect([r.readInt(), r.readInt(), r.readInt(), r.readInt(), r.readInt(), r.readInt()]).toEqual([0, -1, 1, -2, -64, 64]);
    expect(r.pos).toBe(7);
  });

  it('decodes int32 and int64 extremes exactly', () => {
    const w = new AvroWriter();
    const longs = [0n, -1n, 1n, 2n ** 53n + 1n, -(2n ** 53n) - 3n, 2n ** 63n - 1n, -(2n ** 63n), 1695159649088n];
    w.writeInt(2147483647);
    w.writeInt(-2147483648);
    for (const l of longs) w.writeLong(l);
    const r = new AvroReader(w.finish());
    expect(r.readInt()).toBe(2147483647);
    expect(r.readInt()).toBe(-2147483648);
    for (const l of longs) expect(r.readLong()).toBe(l);
    expect(r.remaining).toBe(0);
  });

  it('encodes longs from numbers and bigints identically', () => {
    for (const n of [0, 1, -1, 63, -64, 64, 1 << 30, -(2 ** 31), 2 ** 40, -(2 ** 52), Number.MAX_SAFE_INTEGER]) {
      const a = new AvroWriter();
      a.writeLong(n);
      const b = new AvroWriter();
      b.writeLong(BigInt(n));
      expect(a.finish()).toEqual(b.finish());
    }
  });

  it('reads 1695159649088 from the avro data block example bytes', () => {
    expect(new AvroReader(bytes(0x80, 0x8d, 0x9c, 0xf6, 0xd5, 0x62)).readLong()).toBe(1695159649088n);
  });

  it('rejects overlong and truncated varints with CORRUPT_FILE and the offset', () => {
    expect(codeOf(() => new AvroReader(bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0x01)).readInt())).toBe('CORRUPT_FILE');
    expect(codeOf(() => new AvroReader(bytes(...Array(10).fill(0xff), 0x01)).readLong())).toBe('CORRUPT_FILE');
    let caught: unknown;
    try {
      new AvroReader(bytes(0x80, 0x80), 'f.avro', 0, 2, 100).readLong();
    } catch (err) {
      caught = err;
    }
    expect(isLakeletError(caught, 'CORRUPT_FILE') && caught.context).toMatchObject({ path: 'f.avro', offset: 100 });
  });
});

describe('decodeAvroDatum', () => {
  it('reads arrays and maps written in several blocks, including negative counts with byte sizes', () => {
    const arr = parseAvroSchema({ type: 'array', items: 'int' });
    // block of 2 (count 2), block of -1 with size 1, end
    expect(decodeAvroDatum(arr, bytes(0x04, 0x02, 0x04, 0x01, 0x02, 0x06, 0x00))).toEqual([1, 2, 3]);
    const map = parseAvroSchema({ type: 'map', values: 'long' });
    expect(decodeAvroDatum(map, bytes(0x01, 0x06, 0x02, 0x61, 0x54, 0x00))).toEqual({ a: 42n });
  });

  it('maps logical types to the value model', () => {
    const s = parseAvroSchema({
      type: 'record', name: 'r', fields: [
        { name: 'date', type: { type: 'int', logicalType: 'date' } },
        { name: 'tm', type: { type: 'int', logicalType: 'time-millis' } },
        { name: 'tu', type: { type: 'long', logicalType: 'time-micros' } },
        { name: 'tsm', type: { type: 'long', logicalType: 'timestamp-millis' } },
        { name: 'tsu', type: { type: 'long', logicalType: 'timestamp-micros' } },
        { name: 'ltsu', type: { type: 'long', logicalType: 'local-timestamp-micros' } },
        { name: 'dec', type: { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 2 } },
        { name: 'fdec', type: { type: 'fixed', name: 'fixed', size: 5, logicalType: 'decimal', precision: 10, scale: 3 } },
        { name: 'uuid', type: { type: 'string', logicalType: 'uuid' } },
        { name: 'e', type: { type: 'enum', name: 'E', symbols: ['X', 'Y'] } },
        { name: 'f', type: { type: 'fixed', name: 'F', size: 2 } },
      ],
    });
    const w = new AvroWriter();
    w.writeInt(19000); // 2022-01-08
    w.writeInt(3_600_000);
    w.writeLong(1_500_000n);
    w.writeLong(1_700_000_000_123n);
    w.writeLong(1_700_000_000_123_456n);
    w.writeLong(-1n);
    w.writeBytes(bytes(0xe2, 0xb4)); // -7500 → -75.00
    w.writeFixed(bytes(0, 0, 0, 0x30, 0x39)); // 12345 → 12.345
    w.writeString('9909a8b1-2d15-4d3d-8ec9-efc48c536a00');
    w.writeInt(1);
    w.writeFixed(bytes(7, 8));
    const v = decodeAvroDatum(s, w.finish()) as Record<string, unknown>;
    expect(v.date).toEqual(new Date('2022-01-08T00:00:00Z'));
    expect(v.tm).toBe(3_600_000);
    expect(v.tu).toBe(1_500_000n);
    expect(v.tsm).toEqual(new Date(1_700_000_000_123));
    expect(v.tsu).toEqual(new Date(1_700_000_000_123));
    expect(v.ltsu).toEqual(new Date(-1));
    expect(v.dec).toBe('-75.00');
    expect(v.fdec).toBe('12.345');
    expect(v.uuid).toBe('9909a8b1-2d15-4d3d-8ec9-efc48c536a00');
    expect(v.e).toBe('Y');
    expect(v.f).toEqual(bytes(7, 8));
  });

  it('copies bytes and fixed values (they do not alias the input buffer)', () => {
    const input = bytes(0x04, 0x61, 0x62);
    const out = decodeAvroDatum(parseAvroSchema('"bytes"'), input) as Uint8Array;
    input[1] = 0;
    expect(out).toEqual(bytes(0x61, 0x62));
  });

  it('keeps a record field named __proto__ as an own property', () => {
    const s = parseAvroSchema({ type: 'map', values: 'int' });
    const v = decodeAvroDatum(s, bytes(0x02, 0x12, ...new TextEncoder().encode('__proto__'), 0x02, 0x00)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__']);
  });

  const bad: [string, unknown, number[]][] = [
    ['truncated string', '"string"', [0x0a, 0x61]],
    ['negative string length', '"string"', [0x01]],
    ['invalid UTF-8', '"string"', [0x02, 0xff]],
    ['union branch out of range', '["null","int"]', [0x04]],
    ['enum index out of range', { type: 'enum', name: 'E', symbols: ['A'] }, [0x02]],
    ['truncated double', '"double"', [0, 0, 0]],
    ['bad boolean', '"boolean"', [0x02]],
    ['array count larger than the data', { type: 'array', items: 'long' }, [0x80, 0x80, 0x80, 0x10]],
    ['huge count of null items', { type: 'array', items: 'null' }, [0xfe, 0xff, 0xff, 0xff, 0x0f]],
    ['trailing bytes', '"int"', [0x02, 0x02]],
    ['truncated fixed', { type: 'fixed', name: 'F', size: 4 }, [1, 2]],
  ];
  for (const [what, schema, data] of bad) {
    it(`turns ${what} into CORRUPT_FILE`, () => {
      expect(codeOf(() => decodeAvroDatum(parseAvroSchema(schema as string | object), Uint8Array.from(data)))).toBe('CORRUPT_FILE');
    });
  }
});

describe('encodeAvroDatum round trips', () => {
  const schema = parseAvroSchema({
    type: 'record', name: 'Row', namespace: 'test', fields: [
      { name: 'n', type: 'null' },
      { name: 'b', type: 'boolean' },
      { name: 'i', type: 'int' },
      { name: 'l', type: 'long' },
      { name: 'f', type: 'float' },
      { name: 'd', type: 'double' },
      { name: 'by', type: 'bytes' },
      { name: 's', type: 'string' },
      { name: 'opt', type: ['null', 'string'] },
      { name: 'arr', type: { type: 'array', items: ['null', 'long'] } },
      { name: 'm', type: { type: 'map', values: { type: 'record', name: 'Inner', fields: [{ name: 'x', type: 'int' }] } } },
      { name: 'fx', type: { type: 'fixed', name: 'fixed', size: 3 } },
      { name: 'dec', type: { type: 'fixed', name: 'fixed', namespace: 'test.dec', size: 16, logicalType: 'decimal', precision: 30, scale: 15 } },
      { name: 'bdec', type: { type: 'bytes', logicalType: 'decimal', precision: 5, scale: 2 } },
      { name: 'date', type: { type: 'int', logicalType: 'date' } },
      { name: 'ts', type: { type: 'long', logicalType: 'timestamp-micros' } },
      { name: 'tsm', type: { type: 'long', logicalType: 'timestamp-millis' } },
      { name: 'tu', type: { type: 'long', logicalType: 'time-micros' } },
      { name: 'uuid', type: { type: 'fixed', name: 'U', size: 16, logicalType: 'uuid' } },
      { name: 'e', type: { type: 'enum', name: 'Color', symbols: ['RED', 'GREEN'] } },
      { name: 'rec', type: ['null', 'Row'] },
      { name: 'version', type: ['int', 'null'], default: 1 },
    ],
  });
  const row = {
    n: null, b: true, i: -123456, l: -(2n ** 62n), f: 1.5, d: 29.1, by: bytes(0, 255, 7), s: 'héllo wörld ✓', opt: null,
    arr: [1n, null, -5n], m: { a: { x: 1 }, 'key with space': { x: -2 } }, fx: bytes(1, 2, 3),
    dec: '-123456789012345.000000000000001', bdec: '999.99', date: new Date('1969-12-31T00:00:00Z'),
    ts: new Date('2025-03-16T02:58:28.811Z'), tsm: new Date(0), tu: 86_399_999_999n,
    uuid: '334e26e9-8355-45cc-97c6-c31daf0df330', e: 'GREEN',
    rec: { n: null, b: false, i: 0, l: 0n, f: 0, d: 0, by: bytes(), s: '', opt: 'x', arr: [], m: {}, fx: bytes(9, 9, 9),
      dec: '0.000000000000000', bdec: '-0.01', date: new Date(0), ts: new Date(0), tsm: new Date(0), tu: 0n,
      uuid: '00000000-0000-0000-0000-000000000000', e: 'RED', rec: null, version: null },
    version: 1,
  };

  it('decodes what it encodes', () => {
    expect(decodeAvroDatum(schema, encodeAvroDatum(schema, row))).toEqual(row);
  });

  it('fills absent fields from defaults and nullable fields with null', () => {
    const s = parseAvroSchema({ type: 'record', name: 'r', fields: [
      { name: 'a', type: ['null', 'string'] }, { name: 'v', type: ['int', 'null'], default: 1 }, { name: 'l', type: 'long', default: 7 },
    ] });
    expect(decodeAvroDatum(s, encodeAvroDatum(s, {}))).toEqual({ a: null, v: 1, l: 7n });
  });

  it('rejects values that do not fit the schema with INVALID_ARGUMENT naming the field', () => {
    let caught: unknown;
    try {
      encodeAvroDatum(schema, { ...row, i: 2 ** 31 });
    } catch (err) {
      caught = err;
    }
    expect(isLakeletError(caught, 'INVALID_ARGUMENT') && caught.context.field).toBe('test.Row.i');
    expect(codeOf(() => encodeAvroDatum(schema, { ...row, s: 5 }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => encodeAvroDatum(schema, { ...row, bdec: '1000.00' }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => encodeAvroDatum(schema, { ...row, bdec: '1.005' }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => encodeAvroDatum(schema, { ...row, e: 'BLUE' }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => encodeAvroDatum(schema, { ...row, fx: bytes(1) }))).toBe('INVALID_ARGUMENT');
  });

  it('writes minimal two\'s-complement decimal bytes', () => {
    expect(decimalToBytes('75.00', 10, 2, undefined)).toEqual(bytes(0x1d, 0x4c));
    expect(decimalToBytes('-75.00', 10, 2, undefined)).toEqual(bytes(0xe2, 0xb4));
    expect(decimalToBytes('1.27', 10, 2, undefined)).toEqual(bytes(0x7f));
    expect(decimalToBytes('1.28', 10, 2, undefined)).toEqual(bytes(0x00, 0x80));
    expect(decimalToBytes(-1n, 10, 0, 4)).toEqual(bytes(0xff, 0xff, 0xff, 0xff));
  });

  it('picks the first union branch that accepts the value', () => {
    const s = parseAvroSchema(['null', 'int', 'long', 'string']);
    expect(encodeAvroDatum(s, 5)).toEqual(bytes(0x02, 0x0a));
    expect(encodeAvroDatum(s, 5n)).toEqual(bytes(0x04, 0x0a));
    expect(encodeAvroDatum(s, null)).toEqual(bytes(0x00));
    expect(codeOf(() => encodeAvroDatum(s, 1.5))).toBe('INVALID_ARGUMENT');
  });
});
