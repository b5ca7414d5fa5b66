// Shared cases of the worker pool tests (Node worker_threads and Chromium module Workers): tagging, merging and
// compacting file groups through a pool must equal the inline results, and errors keep code and context.
import { expect } from 'vitest';
import { createTable, isLakeletError, LakeletError, memoryStorage, type IndexType, type Table } from '../../src/index.js';
import { tagLocations } from '../../src/engine/write/base-file-index.js';
import type { TagMap } from '../../src/index/index-type.js';
import { packKeys } from '../../src/kernels/kernels.js';
import { withMetaFields } from '../../src/schema/table-schema.js';
import { parseAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import type { WorkerPool } from '../../src/worker/pool.js';
import { ownBuffer, type WorkerResult } from '../../src/worker/worker-api.js';
import { mergeSpecToWire } from '../../src/worker/record-wire.js';
import { engineContext } from '../../src/engine/context.js';
import { readFileSlice } from '../../src/engine/read/file-slice-reader.js';
import { orderingSpec } from '../../src/merge/ordering.js';
import { wireLogVisibility } from '../../src/merge/slice-merge.js';
import { writeBaseFile } from '../../src/format/parquet/write.js';
import { bufferFromBytes, readParquetFooter, readParquetRows } from '../../src/format/parquet/read.js';
import { SCHEMA, snapshot, type Row } from '../helpers/table-model.js';

export const PARTS = ['p0', 'p1', 'p2'];

/** A row of the test table. */
export function row(i: number, ts = 1n, part = PARTS[i % PARTS.length] as string): Row {
  return { id: `k${String(i).padStart(5, '0')}`, part, ts, val: i / 4, name: i % 7 === 0 ? null : `n${i % 13}` };
}

/** A copy-on-write table in memory with several base files per partition (three bulk inserts). */
export async function sampleTable(workers = 0): Promise<Table> {
  const table = await createTable(memoryStorage(), {
    name: 'pool', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA,
    codec: 'SNAPPY', workers, clean: { automatic: false }, archive: { automatic: false },
  });
  for (let b = 0; b < 3; b++) await table.bulkInsert(Array.from({ length: 600 }, (_, j) => row(b * 600 + j)));
  return table;
}

const sorted = (m: TagMap): string[] => [...m].map(([k, v]) => `${k}→${v.partitionPath}/${v.fileId}@${v.baseInstantTime}`).sort();

/** tagLocations with the pool equals tagLocations without it, for every file-based index. */
export async function expectTaggingMatches(pool: WorkerPool): Promise<void> {
  const table = await sampleTable();
  const slices = await table.fileSlices();
  expect(slices.length).toBeGreaterThanOrEqual(6);
  // Existing keys (some in the wrong partition for non-global lookups) and new ones.
  const keys = Array.from({ length: 400 }, (_, j) => {
    const i = j * 7;
    return { recordKey: row(i).id, partitionPath: j % 5 === 0 ? 'part=p9' : `part=${row(i).part}` };
  });
  for (const type of ['BLOOM', 'GLOBAL_BLOOM', 'SIMPLE', 'GLOBAL_SIMPLE'] as IndexType[]) {
    const inline = await tagLocations(table.storage, slices, keys, type);
    const pooled = await tagLocations(table.storage, slices, keys, type, undefined, pool);
    expect(inline.size).toBeGreaterThan(100);
    expect(sorted(pooled)).toEqual(sorted(inline));
  }
}

/** The raw `tagFile` result of one base file (sorted matched indices), for comparing pools. */
export async function tagOneFile(pool: WorkerPool, table: Table, keys = Array.from({ length: 900 }, (_, i) => row(i * 2).id)): Promise<{ matched: number[]; candidates: number }> {
  const slice = (await table.fileSlices())[0];
  if (!slice?.baseFile) throw new Error('no base file');
  const packed = packKeys(keys);
  const file = (await table.storage.read(slice.baseFile.path)).slice().buffer as ArrayBuffer;
  const k = packed.bytes.slice().buffer as ArrayBuffer;
  const o = packed.offsets.slice().buffer as ArrayBuffer;
  const r = await pool.run('tagFile', { path: slice.baseFile.path, file, keys: k, offsets: o, useBloom: true, exact: true }, [file, k, o]);
  expect(file.byteLength).toBe(pool.size > 0 ? 0 : file.byteLength); // transferred, not copied
  return { matched: [...new Uint32Array(r.matched)], candidates: r.candidates };
}

const schema = withMetaFields(parseAvroSchema(SCHEMA) as AvroRecordSchema);

function metaRows(n: number, start = 0): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, j) => {
    const r = row(start + j);
    return {
      _hoodie_commit_time: '20240101000000000', _hoodie_commit_seqno: `20240101000000000_0_${j}`, _hoodie_record_key: r.id,
      _hoodie_partition_path: r.part, _hoodie_file_name: 'f1_0-0-0_20240101000000000.parquet', ...r,
    };
  });
}

/**
 * Compacting a slice in the pool (base and log bytes transferred, merge and encode in the worker) gives the
 * same bytes and counts as inline, and the new base file holds the slice exactly as a read merges it.
 */
export async function expectCompactMatches(pool: WorkerPool, inline: WorkerPool): Promise<void> {
  const table = await createTable(memoryStorage(), {
    name: 'compact', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA,
    clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false },
  });
  await table.bulkInsert(Array.from({ length: 900 }, (_, j) => row(j)));
  await table.upsert(Array.from({ length: 300 }, (_, j) => row(j * 3, 2n)));
  await table.delete(Array.from({ length: 30 }, (_, j) => row(j * 29 + 1)));
  await table.upsert(Array.from({ length: 100 }, (_, j) => row(j * 5, j % 2 === 0 ? 3n : 0n)));
  const storage = table.storage;
  const slice = (await table.fileSlices()).find((s) => s.baseFile && s.logFiles.length >= 2);
  if (!slice?.baseFile) throw new Error('no slice with logs');
  const state = await engineContext(storage).snapshot();
  const tableSchema = await state.schemaAsOf(undefined);
  const merge = { mode: state.config.recordMergeMode, ...orderingSpec(state.config.orderingFields, tableSchema) };
  const basePath = slice.baseFile.path;
  const fileName = `${slice.fileId}_1-0-0_20990101000000000.parquet`;
  const request = async () => ({
    base: (await storage.read(basePath)).slice().buffer as ArrayBuffer,
    logs: await Promise.all(slice.logFiles.map(async (l) => ({ path: l.path, bytes: (await storage.read(l.path)).slice().buffer as ArrayBuffer }))),
    visibility: wireLogVisibility(state.timeline, undefined), merge,
    ...await mergeSpecToWire({
      instantTime: '20990101000000000', taskId: 1, partitionPath: slice.partitionPath, fileName, basePath,
      updates: new Map(), inserts: [], schema: tableSchema, mergeMode: merge.mode, orderingFields: merge.orderingFields,
      orderingKinds: merge.orderingKinds, writer: { codec: 'SNAPPY' as const, rowGroupRows: 100 }, collectKeys: true,
    }),
  });
  const first = await request();
  const a = await pool.run('compactFileSlice', first, [first.base, ...first.logs.map((l) => l.bytes)]);
  expect(first.logs[0]!.bytes.byteLength).toBe(0); // transferred, not copied
  const b = await inline.run('compactFileSlice', await request());
  expect({ ...a, bytes: undefined }).toEqual({ ...b, bytes: undefined });
  expect(new Uint8Array(a.bytes)).toEqual(new Uint8Array(b.bytes));
  expect(a.warnings).toEqual([]);
  // The new base file holds what a read of the slice merges (meta fields and all, but the file name).
  const file = bufferFromBytes(new Uint8Array(a.bytes));
  const written = await readParquetRows(file, await readParquetFooter(file, fileName), fileName);
  const read = await readFileSlice({ storage, config: state.config, timeline: state.timeline, asOf: undefined, merge, onWarning: () => undefined }, slice, { columns: undefined, filters: [], baseOnly: false });
  const canonRows = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify({ ...r, _hoodie_file_name: undefined }, (_k, x) => (typeof x === 'bigint' ? String(x) : x)));
  expect(canonRows(written)).toEqual(canonRows(read));
  expect(written.length).toBe(a.rowCount);
  expect(new Set(written.map((r) => r._hoodie_commit_time)).size).toBeGreaterThan(1); // base and log records both kept
  expect(written.length).toBeLessThan(300); // deletes applied
}

/** Merging a file group in the pool gives the same bytes and counts as inline. */
/** One SNAPPY merge with a bloom filter on `pool` (a new file group of 2,000 inserts). */
export async function mergeOnce(pool: WorkerPool): Promise<WorkerResult<'mergeFileGroup'>> {
  const inserts = Array.from({ length: 2000 }, (_, j) => {
    const r = row(j);
    return { recordKey: r.id, partitionPath: r.part, data: { ...r }, ordering: [r.ts], isDelete: false, index: j };
  });
  return pool.run('mergeFileGroup', await mergeSpecToWire({
    instantTime: '20240102000000000', taskId: 1, partitionPath: 'p0', fileName: 'f2_1-0-0_20240102000000000.parquet',
    updates: new Map(), inserts, schema, mergeMode: 'EVENT_TIME_ORDERING' as const, orderingFields: ['ts'],
    orderingKinds: [{ kind: 'bigint' as const, scale: 0 }], writer: { codec: 'SNAPPY' as const }, collectKeys: false,
  }));
}

export async function expectMergeMatches(pool: WorkerPool, inline: WorkerPool): Promise<void> {
  const base = ownBuffer(writeBaseFile(metaRows(1500), { schema, codec: 'GZIP', rowGroupRows: 400 }));
  const updates = new Map<string, { recordKey: string; partitionPath: string; data: Record<string, unknown>; ordering: unknown[]; isDelete: boolean; index: number }>();
  for (let i = 0; i < 1500; i += 10) {
    const r = row(i, i % 20 === 0 ? 5n : 0n);
    updates.set(r.id, { recordKey: r.id, partitionPath: r.part, data: { ...r, name: 'updated' }, ordering: [r.ts], isDelete: i % 30 === 0, index: i });
  }
  const inserts = Array.from({ length: 50 }, (_, j) => {
    const r = row(8000 + j);
    return { recordKey: r.id, partitionPath: r.part, data: { ...r }, ordering: [r.ts], isDelete: false, index: j };
  });
  const request = async () => ({
    base: base.slice(0),
    ...await mergeSpecToWire({
      instantTime: '20240102000000000', taskId: 3, partitionPath: 'p0', fileName: 'f1_3-0-0_20240102000000000.parquet',
      basePath: 'p0/f1.parquet', updates, inserts, schema, mergeMode: 'EVENT_TIME_ORDERING' as const, orderingFields: ['ts'],
      orderingKinds: [{ kind: 'bigint' as const, scale: 0 }], writer: { codec: 'GZIP' as const, rowGroupRows: 400 }, collectKeys: true,
    }),
  });
  const first = await request();
  const a = await pool.run('mergeFileGroup', first, [first.base]);
  const b = await inline.run('mergeFileGroup', await request());
  expect({ ...a, bytes: undefined }).toEqual({ ...b, bytes: undefined });
  expect(new Uint8Array(a.bytes)).toEqual(new Uint8Array(b.bytes));
  expect(a.inserted).toBe(50);
  expect(a.updated + a.deleted).toBeGreaterThan(0);
  expect(a.rowCount).toBe(1500 - a.deleted + 50);
}

/** A LakeletError thrown in a worker arrives as a LakeletError with its code, context and cause. */
export async function expectErrorTransfer(pool: WorkerPool): Promise<void> {
  const junk = new Uint8Array(64).fill(7).buffer;
  const none = new ArrayBuffer(0);
  const request = { path: 'p0/broken.parquet', file: junk, keys: none, offsets: new Uint32Array([0]).buffer, useBloom: false, exact: true };
  const err = await pool.run('tagFile', request, [junk]).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(LakeletError);
  expect(isLakeletError(err, 'CORRUPT_FILE')).toBe(true);
  const e = err as LakeletError;
  expect(e.context.path).toBe('p0/broken.parquet');
  expect(typeof e.context.offset).toBe('number');
  expect(e.message).toMatch(/^parquet: .*p0\/broken\.parquet/);
  expect(e.cause).toBeInstanceOf(Error);
  expect((e.cause as Error).message.length).toBeGreaterThan(0);
}

/** Table writes with a worker pool give the same table as without. */
export async function expectPooledWritesMatch(workers: number): Promise<void> {
  const results: string[][] = [];
  for (const w of [0, workers]) {
    const table = await sampleTable(w);
    await table.upsert(Array.from({ length: 700 }, (_, j) => row(j * 3, 2n, j % 11 === 0 ? 'p1' : undefined)));
    await table.delete(Array.from({ length: 40 }, (_, j) => ({ ...row(j * 17 + 1) })));
    const r = await table.upsert(Array.from({ length: 300 }, (_, j) => row(5000 + j, 3n)));
    expect(r.stats.inserted).toBe(300);
    results.push(await snapshot(table));
    await table.close();
  }
  expect(results[1]).toEqual(results[0]);
  expect(results[0]!.length).toBeGreaterThan(1800);
}
