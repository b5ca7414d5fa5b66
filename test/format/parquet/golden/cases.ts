// The golden base-file cases: schemas, rows and writer options whose files were written once by the writer on
// hyparquet-writer's encoder (see README.md here) and which the current writer must reproduce row for row.
import { parseAvroSchema, type AvroRecordSchema } from '../../../../src/format/avro/schema.js';
import type { BaseFileWriterOptions } from '../../../../src/format/parquet/write.js';
import { withMetaFields } from '../../../../src/schema/table-schema.js';

/** One golden file: its name, the writer options and the rows written. */
export interface GoldenCase {
  name: string;
  options: BaseFileWriterOptions;
  rows: Record<string, unknown>[];
}

const nullable = (type: unknown): unknown => ['null', type];
const BIG = 2n ** 53n + 12345n;
const SMALL_BLOOM = { numEntries: 40, fpp: 0.01 } as const;

/** Every Avro type lakelet writes, nested records, 2-level lists, maps; meta fields first. */
export const ALL_TYPES = withMetaFields(parseAvroSchema({
  type: 'record', name: 'all_types', namespace: 'lakelet.golden',
  fields: [
    { name: 'id', type: 'int' },
    { name: 'flag', type: nullable('boolean') },
    { name: 'i32', type: nullable('int') },
    { name: 'i64', type: nullable('long') },
    { name: 'f32', type: nullable('float') },
    { name: 'f64', type: nullable('double') },
    { name: 'str', type: nullable('string') },
    { name: 'bin', type: nullable('bytes') },
    { name: 'fix', type: nullable({ type: 'fixed', name: 'fix4', size: 4 }) },
    { name: 'color', type: nullable({ type: 'enum', name: 'color', symbols: ['RED', 'GREEN', 'BLUE'] }) },
    { name: 'uid', type: nullable({ type: 'string', logicalType: 'uuid' }) },
    { name: 'dec_5_2', type: nullable({ type: 'bytes', logicalType: 'decimal', precision: 5, scale: 2 }) },
    { name: 'dec_10_5', type: nullable({ type: 'fixed', name: 'dec10', size: 5, logicalType: 'decimal', precision: 10, scale: 5 }) },
    { name: 'dec_30_0', type: nullable({ type: 'bytes', logicalType: 'decimal', precision: 30, scale: 0 }) },
    { name: 'day', type: nullable({ type: 'int', logicalType: 'date' }) },
    { name: 'ts_ms', type: nullable({ type: 'long', logicalType: 'timestamp-millis' }) },
    { name: 'ts_us', type: nullable({ type: 'long', logicalType: 'timestamp-micros' }) },
    { name: 'lts_us', type: nullable({ type: 'long', logicalType: 'local-timestamp-micros' }) },
    { name: 't_ms', type: nullable({ type: 'int', logicalType: 'time-millis' }) },
    { name: 't_us', type: nullable({ type: 'long', logicalType: 'time-micros' }) },
    { name: 'req_str', type: 'string' },
    { name: 'req_long', type: 'long' },
    { name: 'req_double', type: 'double' },
    { name: 'tags', type: nullable({ type: 'array', items: 'string' }) },
    { name: 'points', type: nullable({ type: 'array', items: { type: 'record', name: 'point', fields: [
      { name: 'x', type: nullable('double') }, { name: 'label', type: nullable('string') }, { name: 'n', type: 'long' }] } }) },
    { name: 'matrix', type: nullable({ type: 'array', items: { type: 'array', items: 'double' } }) },
    { name: 'attrs', type: nullable({ type: 'map', values: nullable('long') }) },
    { name: 'rec_map', type: nullable({ type: 'map', values: nullable({ type: 'record', name: 'mval', fields: [
      { name: 'score', type: nullable('double') }, { name: 'ok', type: nullable('boolean') }] }) }) },
    { name: 'nested', type: nullable({ type: 'record', name: 'outer', fields: [
      { name: 'name', type: nullable('string') },
      { name: 'inner', type: nullable({ type: 'record', name: 'inner', fields: [
        { name: 'amount', type: nullable({ type: 'bytes', logicalType: 'decimal', precision: 12, scale: 3 }) },
        { name: 'ids', type: nullable({ type: 'array', items: 'long' }) }] }) }] }) },
  ],
}) as AvroRecordSchema);

/** A flat table like the bench's trips: required and nullable primitives only, many repeats (dictionary pays). */
export const FLAT = withMetaFields(parseAvroSchema({
  type: 'record', name: 'trips', namespace: 'lakelet.golden',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'city', type: 'string' },
    { name: 'fare', type: 'double' },
    { name: 'n', type: 'int' },
    { name: 'tip', type: nullable('double') },
    { name: 'note', type: nullable('string') },
    { name: 'ok', type: 'boolean' },
    { name: 'at', type: { type: 'long', logicalType: 'timestamp-micros' } },
  ],
}) as AvroRecordSchema);

function meta(key: string, i: number, part = ''): Record<string, unknown> {
  return {
    _hoodie_commit_time: '20240418173551906',
    _hoodie_commit_seqno: `20240418173551906_0_${i}`,
    _hoodie_record_key: key,
    _hoodie_partition_path: part,
    _hoodie_file_name: 'a079bdb3-731c-4894-b855-abfcd6921007-0_0-1-1_20240418173551906.parquet',
  };
}

const LONG_TEXT = 'ü'.repeat(40) + 'tail-of-a-long-string';

function allTypesRow(i: number): Record<string, unknown> {
  const k = i % 5;
  const nul = k === 2;
  const pick = <T>(...v: T[]): T => v[i % v.length] as T;
  return {
    ...meta(`key-${String((i * 7919) % 1000).padStart(4, '0')}`, i),
    id: i,
    flag: nul ? null : i % 2 === 0,
    i32: nul ? null : pick(-2147483648, 2147483647, 0, -1, i * 1000),
    i64: nul ? null : pick(BIG, -(2n ** 63n), 0n, 2n ** 63n - 1n, BigInt(i)),
    f32: nul ? null : pick(1.5, -0.25, 0, -0, Number.NaN, 3.25),
    f64: nul ? null : pick(Math.PI, -1e300, 0, -0, Number.NaN, Infinity, -Infinity),
    str: nul ? null : pick('héllo wörld ✓ 𝄞', '', 'z', LONG_TEXT, `s${i}`, '\uffff', '𝄞𝄞'),
    bin: nul ? null : pick(new Uint8Array([0, 1, 255]), new Uint8Array(0), new Uint8Array([9]), new Uint8Array(70).fill(0xff)),
    fix: nul ? null : pick(new Uint8Array([1, 2, 3, 4]), new Uint8Array([255, 255, 255, 255]), new Uint8Array(4)),
    color: nul ? null : pick('RED', 'GREEN', 'BLUE'),
    uid: nul ? null : pick('334e26e9-8355-45cc-97c6-c31daf0df330', '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
    dec_5_2: nul ? null : pick('-123.45', '0.00', '999.99', '1.5', '-0.01'),
    dec_10_5: nul ? null : pick('12345.67891', '-0.00001', '-99999.99999', '0'),
    dec_30_0: nul ? null : pick('999999999999999999999999999999', '-1', '0', '12'),
    day: nul ? null : pick(new Date('2024-01-15T00:00:00Z'), new Date('1969-12-31T00:00:00Z'), new Date('2262-01-01T00:00:00Z')),
    ts_ms: nul ? null : pick(new Date('2024-04-18T17:35:51.906Z'), new Date(0), new Date('1900-01-01T00:00:00Z')),
    ts_us: nul ? null : pick<unknown>(new Date('1969-12-31T23:59:59.999Z'), new Date('2262-04-11T23:47:16.854Z'), 1_700_000_000_000_001n),
    lts_us: nul ? null : pick(new Date('2000-02-29T12:00:00.001Z'), new Date(0)),
    t_ms: nul ? null : pick(45_296_789, 0, 86_399_999),
    t_us: nul ? null : pick(45_296_789_123n, 0n, 86_399_999_999n),
    req_str: pick('required', 'ünïcödé', 'r3', ''),
    req_long: BigInt(i) * 1_000_000_007n - 5n,
    req_double: i * 0.5 - 3,
    tags: k === 1 ? [] : nul ? null : pick(['a', 'b', 'c'], ['x'], [`t${i}`]),
    points: k === 1 ? [] : nul ? null : [{ x: 1.25, label: 'p', n: -1n }, { x: null, label: null, n: BigInt(i) }],
    matrix: k === 1 ? [[]] : nul ? null : pick([[1.5], [2, 3]], [], [[i]]),
    attrs: k === 1 ? {} : nul ? null : pick({ one: 1n, none: null, big: -BIG }, { k: BigInt(i) }),
    rec_map: k === 1 ? {} : nul ? null : pick({ a: { score: 0.5, ok: true }, b: null, c: { score: null, ok: null } }, { z: { score: i, ok: false } }),
    nested: nul ? null : pick(
      { name: 'n1', inner: { amount: '-0.001', ids: [1n, 2n] } },
      { name: null, inner: null },
      { name: 'only name', inner: { amount: null, ids: null } },
      { name: `n${i}`, inner: { amount: '0', ids: [] } },
    ),
  };
}

const CITIES = ['amsterdam', 'berlin', 'chicago', 'delhi', 'são paulo'];

function flatRow(i: number): Record<string, unknown> {
  return {
    ...meta(`trip-${String(i).padStart(5, '0')}`, i, `city=${CITIES[i % 5]}`),
    id: BigInt(i),
    city: CITIES[(i * 3) % 5],
    fare: Math.round(((i * 37) % 1000) * 1.25) / 10,
    n: (i * 13) % 7 - 3,
    tip: i % 4 === 0 ? null : (i % 9) * 0.5,
    note: i % 3 === 0 ? null : i % 3 === 1 ? 'ok' : `note ${i}`,
    ok: i % 3 !== 1,
    at: 1_700_000_000_000_000n + BigInt(i) * 1_000_000n,
  };
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** Every golden case. Files are `golden/<name>.parquet`. */
export const GOLDEN_CASES: GoldenCase[] = [
  { name: 'all-types-gzip-bloom', options: { schema: ALL_TYPES, codec: 'GZIP', bloomFilter: SMALL_BLOOM, rowGroupRows: 8 }, rows: range(20).map(allTypesRow) },
  { name: 'all-types-snappy', options: { schema: ALL_TYPES, codec: 'SNAPPY', bloomFilter: false }, rows: range(12).map(allTypesRow) },
  { name: 'all-types-uncompressed-simple-bloom', options: { schema: ALL_TYPES, codec: 'UNCOMPRESSED', bloomFilter: { ...SMALL_BLOOM, type: 'SIMPLE' } }, rows: range(9).map(allTypesRow) },
  { name: 'all-types-nulls-only', options: { schema: ALL_TYPES, codec: 'SNAPPY', bloomFilter: false }, rows: [2, 7, 12].map(allTypesRow) },
  { name: 'flat-snappy-bloom', options: { schema: FLAT, codec: 'SNAPPY', bloomFilter: SMALL_BLOOM, rowGroupRows: 150 }, rows: range(400).map(flatRow) },
  { name: 'flat-gzip', options: { schema: FLAT, codec: 'GZIP', bloomFilter: false }, rows: range(60).map(flatRow) },
  { name: 'flat-no-meta', options: { schema: FLAT, codec: 'UNCOMPRESSED', populateMetaFields: false }, rows: range(30).map(flatRow) },
  { name: 'flat-empty', options: { schema: FLAT, codec: 'SNAPPY', bloomFilter: SMALL_BLOOM }, rows: [] },
];
