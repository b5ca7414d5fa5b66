// Executing a clustering plan's groups (issue 19): each group's file slices (base files and, on merge-on-read,
// their committed log blocks merged) are rewritten, sorted by the plan's sort columns and layout
// (plan/layout-sort.ts), into runs of about the plan's target size, each the base file of a NEW file group at the
// clustering instant. Rows keep their `_hoodie_commit_time` and seqno (the plan's preserveHoodieMetadata); only
// `_hoodie_file_name` becomes the new file's name (hudi-format.md §5).
// Memory is bounded, not the group's rows: the input is read chunk by chunk (a base file's row group, or one
// merged slice: clustering-sources.ts) and written column by column. With sort columns, one pass reads only
// those columns and keeps, per row of the group, its sort key bytes (one radix sort, the sortKeys kernel) and
// two 4-byte indexes; the rows are then gathered in sorted order window by window (clustering-gather.ts), a
// window being at most `rowGroupRows` rows of one output file, reading each input chunk once per window that
// needs it. So a group holds at most: its sort keys, one window of rows, one input chunk, and the writer's
// row group. Without sort columns the rows stream in input order (every chunk read once), written as they come.
import { LakeletError } from '../../errors.js';
import { fileGroupKey, type FileSlice } from '../../file-group/file-slice.js';
import { markerPath, partitionFilePath } from '../../layout.js';
import { baseFileName } from '../../file-group/file-names.js';
import type { AvroRecordSchema } from '../../format/avro/schema.js';
import { BaseFileWriter } from '../../format/parquet/write.js';
import { mainThreadKernels } from '../kernels.js';
import { writeStat } from '../write/write-stat.js';
import { GroupGather } from './clustering-gather.js';
import { openGroupSource, type ChunkObserver, type GroupSource } from './clustering-sources.js';
import { orderingSpec } from '../../merge/ordering.js';
import type { RecordIndexUpsert } from '../../metadata/metadata-write-records.js';
import { LAYOUT_STRATEGY_PARAM, SORT_COLUMNS_PARAM, type ClusteringPlan } from '../../plan/clustering-plan.js';
import { layoutOrder, parseLayoutStrategy, type KeySorter } from '../../plan/layout-sort.js';
import type { WriteStatInput } from '../../timeline/commit-metadata-writer.js';
import type { SliceReadContext } from '../read/file-slice-reader.js';
import type { TableState } from '../table-state.js';
import type { ResolvedWriteOptions } from '../write/write-options.js';

/** Base-file writer settings a clustering run writes its files with. */
export type ClusteringWriterOptions = Pick<ResolvedWriteOptions, 'codec' | 'rowGroupRows' | 'bloomFilter'>;

/** What the groups of one clustering plan wrote, ready for its replacecommit. */
export interface ClusteredFiles {
  /** Write stats of the new base files, per partition (plan order). */
  stats: Map<string, WriteStatInput[]>;
  /** The input file groups, per partition: the replacecommit's `partitionToReplaceFileIds`. */
  replaced: Map<string, string[]>;
  /** Every record's new location (the metadata table's record_index moves each key to its new group). */
  locations: RecordIndexUpsert[];
  recordsWritten: number;
  bytesWritten: number;
  fileGroupsReplaced: number;
  fileGroupsWritten: number;
}

/** The sort a plan asks for: its sort columns (none: rows keep their order) and layout. */
export function planSort(plan: ClusteringPlan): { columns: string[]; layout: string } {
  const columns = (plan.strategyParams[SORT_COLUMNS_PARAM] ?? '').split(',').map((c) => c.trim()).filter((c) => c.length > 0);
  const layout = parseLayoutStrategy(plan.strategyParams[LAYOUT_STRATEGY_PARAM] ?? 'linear');
  return { columns, layout };
}

/** Rows encoded to estimate the bytes a row takes in the new files. */
const SAMPLE_ROWS = 256;

/** Hudi's default bloom filter entries (`hoodie.index.bloom.num_entries`): the most a file's filter is sized for. */
const BLOOM_DEFAULT_ENTRIES = 60_000;

/** Groups from which the WASM sortKeys kernel orders the keys (below it the JS twin is as fast; same result). */
const KERNEL_SORT_MIN_ROWS = 1024;

/** Test and tuning hooks of {@link writeClusteredFiles}. */
export interface ClusteringExecutionHooks {
  /** Most rows gathered in memory at once for an output file (default the writer's `rowGroupRows`). */
  windowRows?: number;
  /** Sees every input chunk read (tests count the rows held at once). */
  onChunk?: ChunkObserver;
  /** Sees every window gathered: its rows (tests count the rows held at once). */
  onWindow?: (rows: number) => void;
}

/**
 * The writer's bloom filter for a file of `rows` rows: as configured, but without an explicit `numEntries` sized
 * for the rows the file gets (at most Hudi's 60,000 default; DYNAMIC_V0 filters grow past it as Hudi's do), not
 * 60,000 for every file: the same serialized form Hudi reads, far smaller for small files.
 */
function bloomFor(bloom: ClusteringWriterOptions['bloomFilter'] | false, rows: number): ClusteringWriterOptions['bloomFilter'] | false {
  if (bloom === false || bloom.numEntries !== undefined) return bloom;
  return { ...bloom, numEntries: Math.max(1, Math.min(rows, BLOOM_DEFAULT_ENTRIES)) };
}

/** Writes one output file window by window; returns its bytes, rows and record keys. */
async function encodeFile(gather: GroupGather, from: number, to: number, name: string, schema: AvroRecordSchema, writer: ClusteringWriterOptions, windowRows: number, hooks: ClusteringExecutionHooks, onKeys?: (keys: ArrayLike<unknown>) => void): Promise<Uint8Array> {
  const bloomFilter = bloomFor(writer.bloomFilter, to - from);
  const file = new BaseFileWriter({ schema, codec: writer.codec, rowGroupRows: writer.rowGroupRows, ...(bloomFilter === undefined ? {} : { bloomFilter }) });
  for (let at = from; at < to; at += windowRows) {
    const batch = await gather.window(at, Math.min(to, at + windowRows), name);
    hooks.onWindow?.(batch.length);
    file.writeColumns(batch);
    const keys = batch.columns._hoodie_record_key;
    if (keys && onKeys) onKeys(keys);
  }
  return file.finish();
}

/**
 * How many files a group's `n` rows are written into. The plan sized the group by its input files' bytes, which
 * count each small file's own footer and bloom filter: the output of `planned` files would each fall well short
 * of the target. The target the plan implies (input bytes / planned files) is divided into the bytes the rows
 * take once encoded, estimated from the first rows in output order, as Hudi's writers roll over to a new file at
 * the target size.
 */
async function outputFileCount(gather: GroupGather, n: number, planned: number, inputBytes: number, schema: AvroRecordSchema, writer: ClusteringWriterOptions): Promise<number> {
  if (planned <= 1 || n === 0 || inputBytes <= 0) return Math.max(1, planned);
  const sample = Math.min(SAMPLE_ROWS, n);
  const bytes = await encodeFile(gather, 0, sample, 'sample.parquet', schema, writer, sample, {});
  const estimate = (bytes.length / sample) * n;
  return Math.max(1, Math.min(n, Math.ceil(estimate / (inputBytes / planned))));
}

/** The group's row order by the plan's sort (one pass over the sort columns); undefined: input order. */
async function groupOrder(source: GroupSource, columns: readonly string[], layout: string): Promise<Int32Array | undefined> {
  if (columns.length === 0 || source.rows === 0) return undefined;
  const vectors = columns.map(() => new Array<unknown>(source.rows));
  let at = 0;
  for (let c = 0; c < source.lengths.length; c++) {
    const batch = await source.read(c, columns);
    for (const [i, name] of columns.entries()) {
      const src = batch.columns[name];
      const dst = vectors[i]!;
      for (let r = 0; r < batch.length; r++) dst[at + r] = src?.[r] ?? null;
    }
    at += batch.length;
  }
  let sorter: KeySorter | undefined;
  if (source.rows >= KERNEL_SORT_MIN_ROWS) {
    const kernels = await mainThreadKernels();
    sorter = (keys) => kernels.sortKeys(keys);
  }
  return layoutOrder(vectors, layout, sorter);
}

/**
 * Rewrite every group of `plan` (read from `state`, the table as it is now) into new file groups at `instant`;
 * `beat` keeps the run's heartbeat alive between files. Files are written after their marker (CREATE), so an
 * interrupted run's files are found and removed before a re-run. A planned file group that is no longer live is
 * `CONFLICT` (it was replaced meanwhile; nothing is committed). Memory: see the file header.
 */
export async function writeClusteredFiles(state: TableState, instant: string, plan: ClusteringPlan, writer: ClusteringWriterOptions, beat: () => Promise<void>, hooks: ClusteringExecutionHooks = {}): Promise<ClusteredFiles> {
  const { storage, config } = state;
  const schema = await state.schemaAsOf(undefined);
  const ordering = orderingSpec(config.orderingFields, schema);
  const ctx: SliceReadContext = {
    storage, config, timeline: state.timeline, asOf: undefined,
    merge: { mode: config.recordMergeMode, partialUpdateMode: config.properties.get('hoodie.table.partial.update.mode'), ...ordering },
    onWarning: () => undefined,
    schema, // files of older schemas are rewritten in the table's current types
  };
  const live = new Map<string, FileSlice>();
  for (const s of (await state.fileSystemView()).latestSlices()) live.set(fileGroupKey(s.partitionPath, s.fileId), s);
  const sort = planSort(plan);
  for (const c of sort.columns) {
    if (!schema.fields.some((f) => f.name === c)) throw new LakeletError('INVALID_ARGUMENT', `clustering: plan ${instant} sorts by column ${JSON.stringify(c)}, which the table schema lacks`, { instant, field: c });
  }
  const names = schema.fields.map((f) => f.name);
  const windowRows = Math.max(1, hooks.windowRows ?? writer.rowGroupRows);
  const out: ClusteredFiles = { stats: new Map(), replaced: new Map(), locations: [], recordsWritten: 0, bytesWritten: 0, fileGroupsReplaced: 0, fileGroupsWritten: 0 };
  let taskId = 0;
  for (const group of plan.groups) {
    await beat();
    const slices: FileSlice[] = [];
    let partitionPath: string | undefined;
    let inputBytes = 0;
    for (const planned of group.slices) {
      const slice = live.get(fileGroupKey(planned.partitionPath, planned.fileId));
      if (!slice) {
        throw new LakeletError('CONFLICT', `clustering: plan ${instant} rewrites file group ${planned.partitionPath}/${planned.fileId}, which is no longer live (replaced meanwhile); nothing was committed`, { instant, value: `${planned.partitionPath}/${planned.fileId}` });
      }
      if (partitionPath !== undefined && partitionPath !== slice.partitionPath) {
        throw new LakeletError('CORRUPT_FILE', `clustering: plan ${instant} groups file groups of partitions ${partitionPath} and ${slice.partitionPath}; a clustering group holds one partition`, { instant, value: slice.partitionPath });
      }
      partitionPath = slice.partitionPath;
      inputBytes += slice.baseFile ? slice.baseFile.size : slice.logFiles.reduce((n, l) => n + l.size, 0);
      slices.push(slice);
      const ids = out.replaced.get(slice.partitionPath) ?? [];
      ids.push(slice.fileId);
      out.replaced.set(slice.partitionPath, ids);
      out.fileGroupsReplaced++;
    }
    if (partitionPath === undefined) continue;
    const source = await openGroupSource(ctx, slices, schema, hooks.onChunk);
    const n = source.rows;
    const gather = new GroupGather(source, await groupOrder(source, sort.columns, sort.layout), names);
    const files = await outputFileCount(gather, n, group.numOutputFileGroups, inputBytes, schema, writer);
    const count = Math.max(1, Math.min(files, n));
    for (let i = 0; i < count; i++) {
      const from = Math.floor((i * n) / count);
      const to = Math.floor(((i + 1) * n) / count);
      if (to <= from) continue;
      await beat();
      const fileId = `${crypto.randomUUID()}-0`;
      const name = baseFileName(fileId, `${taskId++}-0-0`, instant);
      const path = partitionFilePath(partitionPath, name);
      const partition = partitionPath;
      const bytes = await encodeFile(gather, from, to, name, schema, writer, windowRows, hooks, (keys) => {
        for (let r = 0; r < keys.length; r++) {
          const key = keys[r];
          if (typeof key === 'string') out.locations.push({ key, partitionPath: partition, fileId });
        }
      });
      await storage.write(markerPath(instant, path, 'CREATE'), new Uint8Array(0));
      await storage.write(path, bytes);
      // As Hudi's clustering write stats: every record an insert into a new file group.
      const stat = writeStat({ fileId, path, partitionPath, prevCommit: undefined, bytes: bytes.length }, { numWrites: to - from, numDeletes: 0, numUpdateWrites: 0, numInserts: to - from });
      out.stats.set(partitionPath, [...(out.stats.get(partitionPath) ?? []), stat]);
      out.recordsWritten += stat.numWrites;
      out.bytesWritten += stat.fileSizeInBytes;
      out.fileGroupsWritten++;
    }
  }
  return out;
}
