// Clustering executes with bounded memory (clustering-execute.ts's header): with sort columns the first pass reads
// only the sort columns, and the rows are gathered window by window (never more than `windowRows` at once) from
// input chunks of at most one small file's rows; without sort columns every input chunk is read exactly once. The
// files written hold exactly the rows the former whole-group execution wrote, in the same order (every slice's
// merged rows in plan order, stably sorted by the layout), and each file's bloom filter is sized for its rows.
import { describe, expect, test } from 'vitest';
import { engineContext } from '../../src/engine/context.js';
import { readFileSlice } from '../../src/engine/read/file-slice-reader.js';
import { scheduleClustering } from '../../src/engine/services/clustering.js';
import { writeClusteredFiles, type ClusteringExecutionHooks } from '../../src/engine/services/clustering-execute.js';
import { pendingClusterings } from '../../src/engine/services/pending-clustering.js';
import { fileGroupKey, type FileSlice } from '../../src/file-group/file-slice.js';
import { createBloomFilter } from '../../src/format/bloom-filter.js';
import { BLOOM_FILTER_FOOTER_KEY } from '../../src/format/parquet/hudi-footer.js';
import { readParquetFooter, readParquetRows } from '../../src/format/parquet/read.js';
import { orderingSpec } from '../../src/merge/ordering.js';
import { layoutOrderOfRows } from '../../src/plan/layout-sort.js';
import type { Storage } from '../../src/storage/storage.js';
import { storageBuffer } from '../../src/storage/async-buffer.js';
import { clusteringPlanFromAvro } from '../../src/timeline/clustering-plan-avro.js';
import { row, smallFilesTable } from './clustering-helpers.js';

const WRITER = { codec: 'GZIP', rowGroupRows: 100_000, bloomFilter: {} } as const;
const json = (r: Record<string, unknown>): string => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));

/** A table of small files (MOR: with log files on some), its scheduled clustering plan, and the state to run it on. */
async function planned(type: 'COPY_ON_WRITE' | 'MERGE_ON_READ', sortColumns: string[] | undefined, targetFileSizeBytes = 8 * 1024) {
  const { storage, table } = await smallFilesTable(type, 6, 40);
  if (type === 'MERGE_ON_READ') {
    await table.upsert([{ ...row(3), ts: 2, v: 999 }, { ...row(18), ts: 2, s: 'updated' }]);
    await table.delete([row(8).id as string]);
  }
  const ctx = engineContext(storage);
  const instant = await scheduleClustering(ctx, { smallFileLimitBytes: 1 << 20, targetFileSizeBytes, ...(sortColumns ? { sortColumns } : {}) });
  expect(instant).toBeDefined();
  const state = await ctx.snapshot();
  const pending = (await pendingClusterings(state)).find((p) => p.instant === instant)!;
  return { storage, state, instant: instant!, plan: clusteringPlanFromAvro(pending.plan, pending.path) };
}

/** What the former execution wrote for a group, in order: its slices' merged rows in plan order, stably sorted. */
async function formerOutput(state: Awaited<ReturnType<typeof planned>>['state'], slices: { partitionPath: string; fileId: string }[], sortColumns: string[]): Promise<string[]> {
  const schema = await state.schemaAsOf(undefined);
  const live = new Map<string, FileSlice>();
  for (const s of (await state.fileSystemView()).latestSlices()) live.set(fileGroupKey(s.partitionPath, s.fileId), s);
  const ordering = orderingSpec(state.config.orderingFields, schema);
  const ctx = { storage: state.storage, config: state.config, timeline: state.timeline, asOf: undefined, merge: { mode: state.config.recordMergeMode, ...ordering }, onWarning: () => undefined, schema };
  const rows: Record<string, unknown>[] = [];
  for (const s of slices) rows.push(...(await readFileSlice(ctx, live.get(fileGroupKey(s.partitionPath, s.fileId))!, { columns: undefined, filters: [], baseOnly: false })));
  const sorted = sortColumns.length === 0 ? rows : Array.from(layoutOrderOfRows(rows, sortColumns, 'linear'), (i) => rows[i]!);
  return sorted.map(({ _hoodie_file_name: _n, ...rest }) => json(rest));
}

/** The rows of the written files, in the order the stats list them (without `_hoodie_file_name`), and their blooms. */
async function written(storage: Storage, paths: string[]): Promise<{ rows: string[]; blooms: { rows: number; bytes: number }[] }> {
  const rows: string[] = [];
  const blooms: { rows: number; bytes: number }[] = [];
  for (const path of paths) {
    const file = await storageBuffer(storage, path);
    const footer = await readParquetFooter(file, path);
    const fileRows = await readParquetRows(file, footer, path);
    for (const { _hoodie_file_name: name, ...rest } of fileRows) {
      expect(path.endsWith(`/${String(name)}`)).toBe(true);
      rows.push(json(rest));
    }
    blooms.push({ rows: fileRows.length, bytes: footer.keyValues[BLOOM_FILTER_FOOTER_KEY]!.length });
  }
  return { rows, blooms };
}

describe('clustering execution memory', () => {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`${type}: sorted, at most windowRows rows gathered and one small file's rows read at once; the former output's rows in its order`, async () => {
      const { storage, state, instant, plan } = await planned(type, ['v']);
      const windows: number[] = [];
      const chunks: { rows: number; columns: number }[] = [];
      const hooks: ClusteringExecutionHooks = { windowRows: 7, onWindow: (n) => windows.push(n), onChunk: (c) => chunks.push(c) };
      const expected = (await Promise.all(plan.groups.map((g) => formerOutput(state, g.slices, ['v'])))).flat();
      const files = await writeClusteredFiles(state, instant, plan, WRITER, async () => undefined, hooks);
      const paths = [...files.stats.values()].flat().flatMap((s) => (s.path ? [s.path] : []));
      const got = await written(storage, paths);
      expect(got.rows).toEqual(expected);
      expect(files.recordsWritten).toBe(expected.length);
      expect(expected.length).toBeGreaterThan(150);
      // The bound: windows of at most 7 rows, input chunks of one small file (5 rows a commit over 2 partitions).
      expect(Math.max(...windows)).toBeLessThanOrEqual(7);
      expect(Math.max(...chunks.map((c) => c.rows))).toBeLessThanOrEqual(3);
      // The sort pass reads the sort column only (one per chunk of the group); the rest read every column.
      const keyReads = chunks.filter((c) => c.columns === 1).length;
      expect(keyReads).toBeGreaterThanOrEqual(plan.groups.reduce((n, g) => n + g.slices.length, 0));
      expect(chunks.length).toBeGreaterThan(keyReads);
      // Bloom filters sized for the rows of each file, not 60,000 entries.
      const full = createBloomFilter({}).serialize().length;
      for (const b of got.blooms) expect(b.bytes).toBeLessThan(full / 20);
    }, 120_000);
  }

  test('unsorted: every input chunk read once, rows in input order', async () => {
    // One output file per group (no size sample, which would read the first rows once more).
    const { storage, state, instant, plan } = await planned('COPY_ON_WRITE', undefined, 1 << 20);
    const chunks: number[] = [];
    const expected = (await Promise.all(plan.groups.map((g) => formerOutput(state, g.slices, [])))).flat();
    const files = await writeClusteredFiles(state, instant, plan, WRITER, async () => undefined, { windowRows: 5, onChunk: (c) => chunks.push(c.chunk) });
    const got = await written(storage, [...files.stats.values()].flat().flatMap((s) => (s.path ? [s.path] : [])));
    expect(got.rows).toEqual(expected);
    // Each group's chunks (one per small file) are read once, in order.
    const perGroup = plan.groups.map((g) => g.slices.length);
    expect(chunks).toEqual(perGroup.flatMap((n) => Array.from({ length: n }, (_, i) => i)));
  }, 120_000);
});
