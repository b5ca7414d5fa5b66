// AVRO_DATA content from column vectors: byte-identical to the row path on random batches of every type (defaults,
// typed vectors, constants), the same errors for bad values; and the merge-on-read append handle writing the same
// log file bytes as the old row-object path (test/helpers/row-log-block.ts) without spreading records into rows.
import { describe, expect, it } from 'vitest';
import { parseAvroSchema, type AvroRecordSchema } from '../../../src/format/avro/schema.js';
import { encodeAvroDataBlockContent } from '../../../src/format/log/content.js';
import { encodeAvroDataBlockColumns } from '../../../src/format/log/data-block-columns.js';
import { appendLog } from '../../../src/engine/write/append-handle.js';
import { memoryStorage } from '../../../src/storage/memory.js';
import type { HoodieRecord } from '../../../src/merge/hoodie-record.js';
import { MicrosDate } from '../../../src/schema/timestamp-micros.js';
import { thrown } from '../../helpers/expect-error.js';
import { Random } from '../../helpers/random.js';
import { referenceLogBytes, referenceLogRows } from '../../helpers/row-log-block.js';

const nullable = (type: unknown): unknown => ['null', type];
const meta = ['_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name'].map((name) => ({ name, type: nullable('string'), default: null }));
const schema = parseAvroSchema({
  type: 'record', name: 'trips_record', namespace: 'hoodie.trips', fields: [
    ...meta,
    { name: 'id', type: 'string' },
    { name: 'ts', type: nullable('long'), default: null },
    { name: 'n', type: 'int', default: 7 },
    { name: 'fare', type: nullable('double'), default: null },
    { name: 'f32', type: nullable('float'), default: null },
    { name: 'ok', type: nullable('boolean'), default: null },
    { name: 'blob', type: nullable('bytes'), default: null },
    { name: 'amount', type: nullable({ type: 'fixed', name: 'fixed', namespace: 'hoodie.trips.amount', size: 5, logicalType: 'decimal', precision: 10, scale: 2 }), default: null },
    { name: 'day', type: nullable({ type: 'int', logicalType: 'date' }), default: null },
    { name: 'at', type: nullable({ type: 'long', logicalType: 'timestamp-micros' }), default: null },
    { name: 'tags', type: nullable({ type: 'array', items: 'string' }), default: null },
    { name: 'counts', type: nullable({ type: 'map', values: 'int' }), default: null },
    { name: 'color', type: nullable({ type: 'enum', name: 'color', symbols: ['RED', 'GREEN'] }), default: null },
    { name: 'rider', type: nullable({ type: 'record', name: 'rider', fields: [{ name: 'name', type: nullable('string'), default: null }, { name: 'age', type: 'int', default: 0 }] }), default: null },
    { name: 'constructor', type: nullable('string'), default: null },
  ],
}) as AvroRecordSchema;

/** A random data row of `schema` (no meta fields): some fields missing (their default applies), some null. */
function dataRow(rnd: Random, i: number): Record<string, unknown> {
  const row: Record<string, unknown> = { id: `k${rnd.int(1000)}-${i}` };
  const maybe = (name: string, make: () => unknown): void => {
    const roll = rnd.int(5);
    if (roll === 0) return; // missing: the default
    row[name] = roll === 1 ? null : make();
  };
  maybe('ts', () => BigInt(rnd.int(1e9)) * (rnd.chance(0.5) ? -1n : 1n) * 12345n);
  if (rnd.chance(0.7)) row.n = rnd.int(2 ** 31) - 2 ** 30;
  maybe('fare', () => rnd.next() * 1000 - 100);
  maybe('f32', () => Math.fround(rnd.next()));
  maybe('ok', () => rnd.chance(0.5));
  maybe('blob', () => Uint8Array.from({ length: rnd.int(6) }, () => rnd.int(256)));
  maybe('amount', () => `${rnd.int(100000)}.${String(rnd.int(100)).padStart(2, '0')}`);
  maybe('day', () => new Date(rnd.int(20000) * 86_400_000));
  maybe('at', () => new MicrosDate(BigInt(rnd.int(2e9)) * 1000n + BigInt(rnd.int(1000))));
  maybe('tags', () => Array.from({ length: rnd.int(3) }, () => rnd.pick(['a', 'ключ', '😀', ''])));
  maybe('counts', () => Object.fromEntries(Array.from({ length: rnd.int(3) }, (_, j) => [`c${j}`, rnd.int(100)])));
  maybe('color', () => rnd.pick(['RED', 'GREEN']));
  maybe('rider', () => (rnd.chance(0.5) ? { name: rnd.pick(['ann', 'bo', null]) } : { name: 'x', age: rnd.int(90) }));
  maybe('constructor', () => 'own');
  return row;
}

/** Byte equality as the index of the first difference (-1: none), so a failure says where and a pass is fast. */
const firstDifference = (a: Uint8Array, b: Uint8Array): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return -1;
};

const columnsOf = (rows: readonly Record<string, unknown>[]): Record<string, unknown[]> =>
  Object.fromEntries(schema.fields.map((f) => [f.name, rows.map((r) => (Object.prototype.hasOwnProperty.call(r, f.name) ? r[f.name] : undefined))]));

describe('encodeAvroDataBlockColumns', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`equals the row path's bytes on a random batch (seed ${seed}), with and without constant columns`, () => {
      const rnd = new Random(seed);
      const rows = Array.from({ length: 50 + rnd.int(200) }, (_, i) => ({ ...meta.reduce((m, f) => ({ ...m, [f.name]: `${f.name}-${i % 3}` }), {}), ...dataRow(rnd, i), _hoodie_commit_time: '20240101000000000', _hoodie_file_name: 'fg-1' }));
      const expected = encodeAvroDataBlockContent(schema, rows);
      const batch = { length: rows.length, columns: columnsOf(rows) };
      expect(firstDifference(encodeAvroDataBlockColumns(schema, batch), expected)).toBe(-1);
      const { _hoodie_commit_time: _t, _hoodie_file_name: _f, ...rest } = batch.columns;
      expect(firstDifference(encodeAvroDataBlockColumns(schema, { length: rows.length, columns: rest }, { _hoodie_commit_time: '20240101000000000', _hoodie_file_name: 'fg-1' }), expected)).toBe(-1);
    });
  }

  it('reads typed vectors and absent vectors (the default, else null) as the row path reads values and missing fields', () => {
    const rows = [0, 1, 2].map((i) => ({ id: `k${i}`, fare: i * 1.5 }));
    const columns = { id: ['k0', 'k1', 'k2'], fare: Float64Array.from([0, 1.5, 3]) };
    expect(encodeAvroDataBlockColumns(schema, { length: 3, columns })).toEqual(encodeAvroDataBlockContent(schema, rows));
  });

  it('a value that does not fit fails with the row path\'s error, naming the field (also for a constant)', () => {
    const rows = [{ id: 'k0' }, { id: 'k1', n: 'seven' }];
    const expected = thrown(() => encodeAvroDataBlockContent(schema, rows));
    expect(expected.message).toContain('hoodie.trips.trips_record.n');
    const got = thrown(() => encodeAvroDataBlockColumns(schema, { length: 2, columns: columnsOf(rows) }));
    expect([got.code, got.message, got.context]).toEqual([expected.code, expected.message, expected.context]);
    const constant = thrown(() => encodeAvroDataBlockColumns(schema, { length: 2, columns: { id: ['k0', 'k1'] } }, { n: 'seven' }));
    expect(constant.message).toBe(thrown(() => encodeAvroDataBlockContent(schema, [{ id: 'k0', n: 'seven' }])).message);
  });
});

function records(rnd: Random, count: number): HoodieRecord[] {
  return Array.from({ length: count }, (_, index) => {
    const data = dataRow(rnd, index);
    if (rnd.chance(0.05)) data._hoodie_record_key = 'overridden'; // a data field of a meta name wins, as in a spread
    const isDelete = rnd.chance(0.2);
    return { recordKey: String(data.id), partitionPath: 'p=1', data: isDelete ? {} : data, ordering: isDelete && rnd.chance(0.5) ? [] : [BigInt(index)], isDelete, index };
  });
}

describe('appendLog from columns', () => {
  for (const seed of [11, 12, 13]) {
    it(`writes the same log file bytes as the row-object path (seed ${seed})`, async () => {
      const rnd = new Random(seed);
      const recs = records(rnd, 100 + rnd.int(400));
      const storage = memoryStorage();
      const input = { instantTime: '20240102030405006', taskId: 3, partitionPath: 'p=1', fileId: 'fg-7', schema, records: recs };
      const result = await appendLog({ ...input, storage, baseInstantTime: '20240101000000000', baseFileName: '', version: 2, previousLogFiles: [], beforeWrite: async () => undefined });
      expect(firstDifference(await storage.read(result.stat.path ?? ""), referenceLogBytes(input))).toBe(-1);
      expect(result.updated).toBe(referenceLogRows(input).length);
    });
  }

  it('never spreads a record into a row object (its data is read field by field)', async () => {
    const rnd = new Random(21);
    const recs = records(rnd, 30).map((r) => ({
      ...r,
      // A spread or Object.keys of this data throws; reading fields and hasOwnProperty work.
      data: new Proxy(r.data, { ownKeys: () => { throw new Error('spread'); } }),
    }));
    const storage = memoryStorage();
    const input = { instantTime: '20240102030405006', taskId: 0, partitionPath: 'p=1', fileId: 'fg-7', schema, records: recs };
    const result = await appendLog({ ...input, storage, baseInstantTime: '20240101000000000', baseFileName: '', version: 1, previousLogFiles: [], beforeWrite: async () => undefined });
    const plain = recs.map((r, i) => ({ ...r, data: records(new Random(21), 30)[i]?.data ?? {} }));
    expect(firstDifference(await storage.read(result.stat.path ?? ""), referenceLogBytes({ ...input, records: plain }))).toBe(-1);
  });
});
