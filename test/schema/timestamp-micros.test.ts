// D13: timestamp-micros columns keep their microseconds. Inputs with micros (an ISO string with six fraction
// digits, a bigint of epoch micros, a MicrosDate) are stored exactly — checked on the raw INT64 values
// hyparquet reads from the base files — read back exactly, survive a copy-on-write rewrite of their file
// group untouched, and go through merge-on-read logs and compaction unchanged.
import { Int64, Table as ArrowTable, vectorFromArray, type Vector } from 'apache-arrow';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { describe, expect, it } from 'vitest';
import { createTable, memoryStorage, type Storage, type Table } from '../../src/index.js';
import { mergeBucket } from '../../src/engine/write/merge-handle.js';
import { jsonValue } from '../../src/schema/json-row.js';
import { withMetaFields } from '../../src/schema/table-schema.js';
import type { WorkerPool } from '../../src/worker/pool.js';
import { createWorkerApi } from '../../src/worker/worker-impl.js';
import { dateFromEpochMicros, epochMicros, MicrosDate } from '../../src/schema/timestamp-micros.js';
import { parseAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import { writeBaseFile } from '../../src/format/parquet/write.js';
import { bufferFromBytes, readParquetFooter } from '../../src/format/parquet/read.js';

/** hyparquet parsers that leave INT64 timestamps as the raw bigint stored in the file. */
const RAW_TIMESTAMPS = { timestampFromMicroseconds: (v: bigint) => v, timestampFromMilliseconds: (v: bigint) => v, timestampFromNanoseconds: (v: bigint) => v };

const TS = { type: 'long', logicalType: 'timestamp-micros' };
const SCHEMA = {
  type: 'record', name: 'r', namespace: 'micros',
  fields: [{ name: 'id', type: 'string' }, { name: 'seq', type: 'long' }, { name: 'at', type: TS }, { name: 'maybe', type: ['null', TS], default: null }],
};
const SERVICES_OFF = { clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false } };

/** 2024-05-01T10:00:05.123456Z in epoch microseconds. */
const T0 = 1714557605123456n;

async function newTable(type: 'COPY_ON_WRITE' | 'MERGE_ON_READ'): Promise<{ storage: Storage; table: Table }> {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 'micros', type, recordKey: 'id', orderingField: 'seq', schema: SCHEMA, ...SERVICES_OFF });
  return { storage, table };
}

/** Raw INT64 values of `at` (and `maybe`) in every live base file, by record key, as hyparquet decodes them. */
async function rawBaseValues(storage: Storage, table: Table): Promise<Record<string, [bigint, bigint | null]>> {
  const out: Record<string, [bigint, bigint | null]> = {};
  await table.refresh();
  const slices = await table.fileSlices();
  for (const slice of slices) {
    if (!slice.baseFile) continue;
    const bytes = await storage.read(slice.baseFile.path);
    const rows = await parquetReadObjects({
      file: bufferFromBytes(bytes), compressors, columns: ['_hoodie_record_key', 'at', 'maybe'],
      parsers: RAW_TIMESTAMPS as never,
    });
    for (const r of rows) out[String(r._hoodie_record_key)] = [r.at as bigint, (r.maybe ?? null) as bigint | null];
  }
  return out;
}

/** An Arrow table of some columns of `source`, plus extra Int64 columns. */
function tableFromArrays(source: ArrowTable, columns: string[], extra: Record<string, bigint[]>): ArrowTable {
  const vectors: Record<string, Vector> = {};
  for (const c of columns) vectors[c] = source.getChild(c) as Vector;
  for (const [name, values] of Object.entries(extra)) vectors[name] = vectorFromArray(values, new Int64());
  return new ArrowTable(vectors);
}

async function readBack(table: Table): Promise<Record<string, [string, string | null]>> {
  await table.refresh();
  const out: Record<string, [string, string | null]> = {};
  for await (const r of table.rows({ columns: ['id', 'at', 'maybe'] })) {
    out[String(r.id)] = [epochMicros(r.at as Date).toString(), r.maybe === null ? null : epochMicros(r.maybe as Date).toString()];
  }
  return out;
}

describe('timestamp-micros columns keep their microseconds', () => {
  it('write → read: ISO strings with six digits, bigint micros and MicrosDates are stored and read back exactly', async () => {
    const { storage, table } = await newTable('COPY_ON_WRITE');
    await table.upsert([
      { id: 'iso', seq: 1, at: '2024-05-01T10:00:05.123456Z', maybe: '2024-05-01T12:00:05.000001+02:00' },
      { id: 'big', seq: 1, at: T0 + 1n, maybe: null },
      { id: 'obj', seq: 1, at: dateFromEpochMicros(T0 + 2n), maybe: new Date(Number(T0 / 1000n)) },
      { id: 'neg', seq: 1, at: '1969-12-31T23:59:59.999999Z', maybe: -1_000_001n },
    ]);
    expect(await rawBaseValues(storage, table)).toEqual({
      iso: [T0, 1714557605000001n],
      big: [T0 + 1n, null],
      obj: [T0 + 2n, 1714557605123000n],
      neg: [-1n, -1_000_001n],
    });
    expect(await readBack(table)).toEqual({
      iso: [String(T0), '1714557605000001'],
      big: [String(T0 + 1n), null],
      obj: [String(T0 + 2n), '1714557605123000'],
      neg: ['-1', '-1000001'],
    });
    const rows: Record<string, unknown>[] = [];
    for await (const r of table.rows({ columns: ['id', 'at'] })) rows.push(r);
    const iso = rows.find((r) => r.id === 'iso')?.at;
    expect(iso).toBeInstanceOf(Date);
    expect((iso as Date).getTime()).toBe(1714557605123);
    expect((iso as Date).toISOString()).toBe('2024-05-01T10:00:05.123456Z');
    expect(jsonValue(iso, TS as never)).toBe('2024-05-01T10:00:05.123456Z');
  });

  it('a copy-on-write rewrite keeps the exact micros of untouched rows in a base file another writer wrote', async () => {
    const { storage, table } = await newTable('COPY_ON_WRITE');
    await table.upsert([{ id: 'a', seq: 1, at: '2024-05-01T10:00:05.123Z' }, { id: 'b', seq: 1, at: '2024-05-01T10:00:06Z', maybe: '2024-05-01T10:00:07Z' }]);
    // Stand-in for a Spark-written file (no fixture has non-zero micros): the same file re-encoded with raw
    // INT64 micros values, as parquet-avro writes them.
    const [slice] = await table.fileSlices();
    const path = slice?.baseFile?.path as string;
    const bytes = await storage.read(path);
    const footer = await readParquetFooter(bufferFromBytes(bytes), path);
    const schema = parseAvroSchema(footer.keyValues['parquet.avro.schema'] as string) as AvroRecordSchema;
    const raw = await parquetReadObjects({ file: bufferFromBytes(bytes), compressors, parsers: RAW_TIMESTAMPS as never });
    const foreign = raw.map((r) => ({ ...r, at: (r.at as bigint) + 456n, maybe: r.maybe === undefined || r.maybe === null ? null : (r.maybe as bigint) + 789n }));
    await storage.write(path, writeBaseFile(foreign, { schema }));
    const before = await rawBaseValues(storage, table);
    expect(before).toEqual({ a: [T0, null], b: [1714557606000456n, 1714557607000789n] });

    await table.upsert([{ id: 'c', seq: 2, at: T0 }]);
    expect((await table.fileSlices()).map((s) => s.baseFile?.path)).not.toContain(path); // the group was rewritten
    const after = await rawBaseValues(storage, table);
    expect(after).toEqual({ ...before, c: [T0, null] });
  });

  it('merge-on-read: log blocks and compaction keep the micros', async () => {
    const { storage, table } = await newTable('MERGE_ON_READ');
    await table.upsert([{ id: 'a', seq: 1, at: T0 }, { id: 'b', seq: 1, at: T0 + 1n }]);
    await table.upsert([{ id: 'b', seq: 2, at: T0 + 2n, maybe: T0 + 3n }]);
    expect(await readBack(table)).toEqual({ a: [String(T0), null], b: [String(T0 + 2n), String(T0 + 3n)] });
    await table.compact({ force: true });
    expect(await rawBaseValues(storage, table)).toEqual({ a: [T0, null], b: [T0 + 2n, T0 + 3n] });
  });

  it('Arrow: query() returns the raw micros, and an Arrow table as write input keeps them', async () => {
    const { table } = await newTable('COPY_ON_WRITE');
    await table.upsert([{ id: 'a', seq: 1, at: T0, maybe: null }, { id: 'b', seq: 1, at: T0 + 1n, maybe: T0 + 2n }]);
    const arrow = await table.query({ columns: ['id', 'at', 'maybe'] });
    const col = (name: string) => Array.from(arrow.getChild(name)?.data ?? [], (d) => Array.from(d.values as BigInt64Array));
    const ids = Array.from(arrow.getChild('id') ?? [], String);
    const at = col('at').flat();
    expect(Object.fromEntries(ids.map((id, i) => [id, at[i]]))).toEqual({ a: T0, b: T0 + 1n });
    expect(arrow.getChild('maybe')?.get(ids.indexOf('b'))).toBeCloseTo(Number(T0 + 2n) / 1000, 3);

    const { table: copy } = await newTable('COPY_ON_WRITE');
    await copy.upsert(tableFromArrays(arrow, ['id', 'at', 'maybe'], { seq: [1n, 1n] }));
    expect(await readBack(copy)).toEqual({ a: [String(T0), null], b: [String(T0 + 1n), String(T0 + 2n)] });
  });

  it('a copy-on-write merge in a worker (requests structured-cloned across the boundary) keeps the micros', async () => {
    const api = createWorkerApi({ kernels: 'js' });
    // A pool whose one "worker" is this realm behind structuredClone, as postMessage delivers requests.
    const pool = {
      size: 1,
      run: async (method: string, request: unknown) => structuredClone(await (api as unknown as Record<string, (r: unknown) => Promise<unknown>>)[method]?.(structuredClone(request))),
      close: async () => undefined,
    } as unknown as WorkerPool;
    const storage = memoryStorage();
    const schema = withMetaFields(parseAvroSchema(SCHEMA) as AvroRecordSchema);
    const record = (id: string, at: unknown, maybe: unknown) => ({ recordKey: id, partitionPath: '', data: { id, seq: 1n, at, maybe }, ordering: [1n], isDelete: false, index: 0 });
    const result = await mergeBucket({
      storage, instantTime: '20240501100005123', taskId: 0, partitionPath: '', fileId: 'f1', base: undefined,
      updates: new Map(), inserts: [record('a', dateFromEpochMicros(T0), dateFromEpochMicros(T0 + 1n)), record('b', dateFromEpochMicros(T0 + 2n), null)],
      schema, mergeMode: 'EVENT_TIME_ORDERING', orderingFields: ['seq'], orderingKinds: [{ kind: 'bigint', scale: 0 }],
      writer: { codec: 'UNCOMPRESSED' }, beforeWrite: async () => undefined, pool,
    });
    const rows = await parquetReadObjects({ file: bufferFromBytes(await storage.read(result.stat.path as string)), compressors, columns: ['id', 'at', 'maybe'], parsers: RAW_TIMESTAMPS as never });
    expect(rows.map((r) => [r.id, r.at, r.maybe ?? null])).toEqual([['a', T0, T0 + 1n], ['b', T0 + 2n, null]]);
  });

  it('a timestamp-micros ordering field compares by its microseconds (later micros win, same millisecond)', async () => {
    const storage = memoryStorage();
    const table = await createTable(storage, { name: 'ord', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'at', schema: SCHEMA, ...SERVICES_OFF });
    await table.upsert([{ id: 'a', seq: 1, at: T0 + 2n }, { id: 'a', seq: 2, at: T0 + 1n }]); // dedupe in one batch
    await table.upsert([{ id: 'b', seq: 1, at: T0 + 5n }]);
    await table.upsert([{ id: 'b', seq: 2, at: T0 + 4n }]); // older by 1 µs: the stored row stays
    const seqs: Record<string, unknown> = {};
    for await (const r of table.rows({ columns: ['id', 'seq'] })) seqs[String(r.id)] = r.seq;
    expect(seqs).toEqual({ a: 1n, b: 1n });
  });

  it('MicrosDate is a Date of the millisecond, prints six digits only when it has sub-millisecond micros', () => {
    const d = new MicrosDate(T0);
    expect(d).toBeInstanceOf(Date);
    expect(d.getTime()).toBe(1714557605123);
    expect(JSON.stringify({ d })).toBe('{"d":"2024-05-01T10:00:05.123456Z"}');
    expect(new MicrosDate(T0 - 456n).toISOString()).toBe('2024-05-01T10:00:05.123Z');
    expect(epochMicros(new Date(5))).toBe(5000n);
    d.setTime(0); // a setter wins over the carried micros
    expect(epochMicros(d)).toBe(0n);
  });
});
