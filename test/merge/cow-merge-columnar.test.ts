// Differential tests of the columnar copy-on-write merge (merge/cow-merge.ts + merge/take.ts, issue 13): for a
// spread of schemas (every Avro type, nesting, lists, maps, decimals, timestamps, all-null rows, a flat table),
// merge modes (commit-time, event-time with wins, ties and smaller ordering values on one or two fields, deletes
// with and without ordering), several row groups, inserts only, compacted rows and deletes emptying the file, the
// new merge gives byte-identical files to the row-object merge it replaced (test/helpers/row-merge.ts). Also: the
// columnar reader (format/parquet/read-columns.ts) returns the values readParquetRows puts in rows.
import { describe, expect, it } from 'vitest';
import type { AvroRecordSchema } from '../../src/format/avro/schema.js';
import { batchRow } from '../../src/format/parquet/column-batch.js';
import { readParquetColumns } from '../../src/format/parquet/read-columns.js';
import { bufferFromBytes, readParquetFooter, readParquetRows } from '../../src/format/parquet/read.js';
import { writeBaseFile } from '../../src/format/parquet/write.js';
import { mergeFileGroupRows, type MergeFileGroupSpec, type WireWriterOptions } from '../../src/merge/cow-merge.js';
import type { HoodieRecord } from '../../src/merge/hoodie-record.js';
import { orderingSpec } from '../../src/merge/ordering.js';
import { createWorkerApi } from '../../src/worker/worker-impl.js';
import { referenceRowMerge } from '../helpers/row-merge.js';
import { ALL_TYPES, FLAT, GOLDEN_CASES } from '../format/parquet/golden/cases.js';
import { mergeSpecToWire } from '../../src/worker/record-wire.js';

const NEW = '20250505050505050';
const golden = (name: string): { schema: AvroRecordSchema; rows: Record<string, unknown>[] } => {
  const c = GOLDEN_CASES.find((g) => g.name === name);
  if (!c) throw new Error(`no golden case ${name}`);
  return { schema: c.options.schema, rows: c.rows };
};
const dataOf = (row: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('_hoodie_')));
const keyOf = (row: Record<string, unknown>): string => String(row._hoodie_record_key);

type Action = 'keep' | 'upsert' | 'upsert-smaller' | 'upsert-tie' | 'delete' | 'delete-ordered' | 'delete-smaller';

/**
 * Updates for the base rows: `pick(i)` chooses what happens to row `i`; upserts take their data from another base
 * row (`(i + 3) % n`), with the ordering values of that row, of the stored row (tie), or a smaller one.
 */
function updatesFor(rows: Record<string, unknown>[], fields: string[], smaller: (v: unknown) => unknown, pick: (i: number) => Action): Map<string, HoodieRecord> {
  const updates = new Map<string, HoodieRecord>();
  rows.forEach((row, i) => {
    const action = pick(i);
    if (action === 'keep') return;
    const source = dataOf(rows[(i + 3) % rows.length] as Record<string, unknown>);
    const own = fields.map((f) => row[f]);
    const ordering = action === 'upsert' ? fields.map((f) => source[f])
      : action === 'upsert-tie' || action === 'delete-ordered' ? own
      : action === 'upsert-smaller' || action === 'delete-smaller' ? own.map(smaller)
      : [];
    const isDelete = action.startsWith('delete');
    const data = isDelete ? {} : { ...source, ...Object.fromEntries(fields.map((f, k) => [f, ordering[k]])) };
    updates.set(keyOf(row), { recordKey: keyOf(row), partitionPath: 'p', data, ordering, isDelete, index: i });
  });
  return updates;
}

const ACTIONS: Action[] = ['keep', 'upsert', 'keep', 'upsert-smaller', 'upsert-tie', 'delete', 'delete-ordered', 'delete-smaller', 'keep'];

interface Case {
  name: string;
  schema: AvroRecordSchema;
  base: Uint8Array | undefined;
  updates: Map<string, HoodieRecord>;
  inserts: HoodieRecord[];
  mergedRows?: () => Record<string, unknown>[];
  ordering: string[];
  mode: MergeFileGroupSpec['mergeMode'];
  writer: WireWriterOptions;
}

function spec(c: Case): MergeFileGroupSpec {
  const o = orderingSpec(c.ordering, c.schema);
  return {
    instantTime: NEW, taskId: 7, partitionPath: 'p', fileName: `f1_7-3-2_${NEW}.parquet`, basePath: c.base ? 'p/old.parquet' : undefined,
    updates: c.updates, inserts: c.inserts, ...(c.mergedRows ? { mergedRows: c.mergedRows() } : {}),
    schema: c.schema, mergeMode: c.mode, ...o, writer: c.writer, collectKeys: true,
  };
}

const insertsFrom = (rows: Record<string, unknown>[], fields: string[], n: number): HoodieRecord[] =>
  rows.slice(0, n).map((row, i) => ({ recordKey: `new-${i}`, partitionPath: 'p', data: dataOf(row), ordering: fields.map((f) => row[f]), isDelete: false, index: i }));

/** `n` inserts cycling through `rows` (keys `many-<i>`): more than one slice of the merge's columnar inserts. */
const manyInserts = (rows: Record<string, unknown>[], fields: string[], n: number): HoodieRecord[] =>
  Array.from({ length: n }, (_, i) => {
    const row = rows[i % rows.length] as Record<string, unknown>;
    return { recordKey: `many-${i}`, partitionPath: 'p', data: dataOf(row), ordering: fields.map((f) => row[f]), isDelete: false, index: i };
  });

const smallerBig = (v: unknown): unknown => (typeof v === 'bigint' ? v - 1n : v);
const smallerNum = (v: unknown): unknown => (typeof v === 'number' ? v - 1 : v);
const smallerDate = (v: unknown): unknown => (v instanceof Date ? new Date(v.getTime() - 1) : v);

function cases(): Case[] {
  const all = golden('all-types-gzip-bloom');
  const nulls = golden('all-types-nulls-only');
  const flat = golden('flat-snappy-bloom');
  const allBase = writeBaseFile(all.rows, { schema: ALL_TYPES, rowGroupRows: 8 });
  const nullBase = writeBaseFile(nulls.rows, { schema: ALL_TYPES, codec: 'SNAPPY' });
  const flatBase = writeBaseFile(flat.rows, { schema: FLAT, rowGroupRows: 150, codec: 'SNAPPY' });
  const pickAll = (i: number): Action => ACTIONS[i % ACTIONS.length] as Action;
  // Flat: the first row group (rows 0–149) untouched, so its vectors pass through as read.
  const pickFlat = (i: number): Action => (i < 150 ? 'keep' : ACTIONS[(i * 7) % ACTIONS.length] as Action);
  return [
    { name: 'all types, event time on a nullable long', schema: ALL_TYPES, base: allBase, updates: updatesFor(all.rows, ['i64'], smallerBig, pickAll),
      inserts: insertsFrom(all.rows, ['i64'], 3), ordering: ['i64'], mode: 'EVENT_TIME_ORDERING', writer: { rowGroupRows: 5, codec: 'GZIP' } },
    { name: 'all types, event time on a decimal and a timestamp', schema: ALL_TYPES, base: allBase,
      updates: updatesFor(all.rows, ['ts_ms', 'dec_5_2'], smallerDate, pickAll), inserts: [], ordering: ['ts_ms', 'dec_5_2'], mode: 'EVENT_TIME_ORDERING',
      writer: { codec: 'UNCOMPRESSED', bloomFilter: false } },
    { name: 'all types, commit time ordering', schema: ALL_TYPES, base: allBase, updates: updatesFor(all.rows, ['i64'], smallerBig, pickAll),
      inserts: insertsFrom(all.rows, ['i64'], 2), ordering: ['i64'], mode: 'COMMIT_TIME_ORDERING', writer: { rowGroupRows: 7, codec: 'SNAPPY' } },
    { name: 'all-null rows', schema: ALL_TYPES, base: nullBase, updates: updatesFor(nulls.rows, ['i64'], smallerBig, (i) => (i === 1 ? 'upsert' : 'keep')),
      inserts: insertsFrom(nulls.rows, ['i64'], 1), ordering: ['i64'], mode: 'EVENT_TIME_ORDERING', writer: { codec: 'SNAPPY' } },
    { name: 'flat, event time on a timestamp, untouched row group', schema: FLAT, base: flatBase, updates: updatesFor(flat.rows, ['at'], smallerDate, pickFlat),
      inserts: insertsFrom(flat.rows, ['at'], 10), ordering: ['at'], mode: 'EVENT_TIME_ORDERING', writer: { rowGroupRows: 100, codec: 'SNAPPY' } },
    { name: 'flat, event time on int and double', schema: FLAT, base: flatBase, updates: updatesFor(flat.rows, ['n', 'fare'], smallerNum, pickFlat),
      inserts: [], ordering: ['n', 'fare'], mode: 'EVENT_TIME_ORDERING', writer: { codec: 'GZIP' } },
    { name: 'flat, no updates at all', schema: FLAT, base: flatBase, updates: new Map(), inserts: insertsFrom(flat.rows, ['at'], 4),
      ordering: ['at'], mode: 'EVENT_TIME_ORDERING', writer: { rowGroupRows: 150, codec: 'SNAPPY' } },
    { name: 'flat, deletes empty the file', schema: FLAT, base: flatBase, updates: updatesFor(flat.rows, ['at'], smallerDate, () => 'delete'),
      inserts: [], ordering: ['at'], mode: 'EVENT_TIME_ORDERING', writer: { codec: 'SNAPPY' } },
    { name: 'updates and 20,000 inserts, slices and row groups not aligned', schema: FLAT, base: flatBase, updates: updatesFor(flat.rows, ['at'], smallerDate, pickFlat),
      inserts: manyInserts(flat.rows, ['at'], 20_000), ordering: ['at'], mode: 'EVENT_TIME_ORDERING', writer: { rowGroupRows: 3001, codec: 'SNAPPY' } },
    { name: 'inserts only (a new file group)', schema: ALL_TYPES, base: undefined, updates: new Map(), inserts: insertsFrom(all.rows, ['i64'], 20),
      ordering: ['i64'], mode: 'EVENT_TIME_ORDERING', writer: { rowGroupRows: 6 } },
    { name: 'compacted rows and inserts', schema: ALL_TYPES, base: undefined, updates: new Map(), inserts: insertsFrom(all.rows, ['i64'], 2),
      mergedRows: () => all.rows.map((r) => ({ ...r })), ordering: ['i64'], mode: 'EVENT_TIME_ORDERING', writer: { rowGroupRows: 9 } },
  ];
}

describe('columnar copy-on-write merge', () => {
  for (const c of cases()) {
    it(`gives the row merge's bytes: ${c.name}`, async () => {
      const file = c.base && bufferFromBytes(c.base);
      const columnar = await mergeFileGroupRows(spec(c), file);
      const reference = await referenceRowMerge(spec(c), file);
      expect(columnar.bytes).toEqual(reference.bytes);
      const counts = (m: typeof columnar) => ({ rowCount: m.rowCount, inserted: m.inserted, updated: m.updated, deleted: m.deleted, keys: m.keys });
      expect(counts(columnar)).toEqual(counts(reference));
    });
  }

  it('the cases exercise wins, losses, ties and both kinds of delete', async () => {
    const c = cases()[0] as Case;
    const m = await mergeFileGroupRows(spec(c), bufferFromBytes(c.base as Uint8Array));
    expect(m.updated).toBeGreaterThan(0);
    expect(m.deleted).toBeGreaterThan(0);
    const emptied = cases().find((x) => x.name.includes('empty')) as Case;
    expect((await mergeFileGroupRows(spec(emptied), bufferFromBytes(emptied.base as Uint8Array))).rowCount).toBe(0);
  });

  it('the worker gives the inline bytes: every case, its records as columns through a structured clone', async () => {
    const api = createWorkerApi({ kernels: 'js' });
    for (const c of cases()) {
      const inline = await mergeFileGroupRows(spec(c), c.base && bufferFromBytes(c.base));
      const request = structuredClone({ ...(await mergeSpecToWire(spec(c))), ...(c.base ? { base: c.base.slice().buffer } : {}) });
      const fromWorker = await api.mergeFileGroup(request);
      expect(new Uint8Array(fromWorker.bytes), c.name).toEqual(inline.bytes);
      expect({ ...fromWorker, bytes: undefined, kernels: undefined }, c.name).toEqual({ ...inline, bytes: undefined, kernels: undefined });
    }
  });
});

describe('readParquetColumns', () => {
  for (const g of GOLDEN_CASES) {
    it(`holds readParquetRows' values: ${g.name}`, async () => {
      const file = bufferFromBytes(writeBaseFile(g.rows, g.options));
      const footer = await readParquetFooter(file, 'x');
      const total = g.rows.length;
      for (const range of [{}, { rowStart: 1, rowEnd: Math.max(1, total - 2) }]) {
        const rows = await readParquetRows(file, footer, 'x', range);
        const batch = await readParquetColumns(file, footer, 'x', range);
        expect(batch.length).toBe(rows.length);
        expect(Array.from({ length: batch.length }, (_, i) => batchRow(batch, i))).toEqual(rows);
      }
    });
  }

  it('keeps non-null fixed-width columns typed and projects columns', async () => {
    const g = golden('flat-snappy-bloom');
    const file = bufferFromBytes(writeBaseFile(g.rows, { schema: FLAT, rowGroupRows: 150 }));
    const footer = await readParquetFooter(file, 'x');
    const batch = await readParquetColumns(file, footer, 'x', { columns: ['fare', 'id', 'tip'], rowStart: 100, rowEnd: 300 });
    expect(Object.keys(batch.columns).sort()).toEqual(['fare', 'id', 'tip']);
    expect(batch.columns.fare).toBeInstanceOf(Float64Array);
    expect(batch.columns.id).toBeInstanceOf(BigInt64Array);
    expect(Array.isArray(batch.columns.tip)).toBe(true);
    expect(Array.from(batch.columns.id as BigInt64Array)).toEqual(g.rows.slice(100, 300).map((r) => r.id));
  });
});
