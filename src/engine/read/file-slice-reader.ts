// Reads one file slice: the base file (projected, row groups pruned by statistics when no log applies)
// and, for merge-on-read snapshots, its log blocks merged on top (skipping rolled-back, uncommitted,
// later-than-T and corrupt blocks, the last reported as warnings). A log that is gone when read and that no
// completed write of the timeline wrote was a pending writer's (which lost and deleted it): skipped.
import type { TableConfig } from '../../config/table-config.js';
import { isLakeletError } from '../../errors.js';
import type { FileSlice } from '../../file-group/file-slice.js';
import type { RecordMergerOptions } from '../../merge/record-merger.js';
import { mergeSlice, type SliceLogFile } from '../../merge/slice-merge.js';
import type { LogScanWarning } from '../../file-group/log-scanner.js';
import { readParquetFooter, readParquetRows, rowGroupStats } from '../../format/parquet/read.js';
import { rangeMayMatch, type CompiledFilter } from '../../expr/filter.js';
import type { Storage } from '../../storage/storage.js';
import { compareInstantTimes } from '../../timeline/instant.js';
import type { Timeline } from '../../timeline/timeline.js';
import { readCommitMetadataOrArchived } from './archived-fallback.js';
import { storageBuffer } from '../../storage/async-buffer.js';
import type { MetadataFallbackWarning } from '../metadata/metadata-listing.js';
import type { AvroRecordSchema } from '../../format/avro/schema.js';
import { footerSchema, schemaPromoter } from '../../schema/promotion.js';

/** Something a read skipped but that the caller should know about (a corrupt log block, an unusable metadata table). */
export type ReadWarning = LogScanWarning | MetadataFallbackWarning;

/** Everything a slice read needs besides the slice. */
export interface SliceReadContext {
  storage: Storage;
  config: TableConfig;
  timeline: Timeline;
  /** Snapshot instant T; undefined = latest. */
  asOf: string | undefined;
  /** Versions 8 and 9: only writes completed at or before this completion time count (instead of `asOf`). */
  completedBy?: string | undefined;
  merge: RecordMergerOptions;
  onWarning: (w: ReadWarning) => void;
  /** The table schema the read answers in: values of files written under older schemas are promoted to it. */
  schema?: AvroRecordSchema | undefined;
}

/** What reading a slice's logs needs. */
type LogReadContext = Pick<SliceReadContext, 'storage' | 'config' | 'timeline' | 'asOf' | 'completedBy'>;

/** What to read from a slice. */
export interface SliceReadOptions {
  /** Columns needed (undefined = all). */
  columns: readonly string[] | undefined;
  /** Filters used to skip base-file row groups (only when no log applies). */
  filters: readonly CompiledFilter[];
  /** Read the base file only. */
  baseOnly: boolean;
}

/** Read and merge one file slice into rows (lakelet's value model). */
export async function readFileSlice(ctx: SliceReadContext, slice: FileSlice, options: SliceReadOptions): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const batch of readFileSliceBatches(ctx, slice, options)) for (const row of batch) out.push(row);
  return out;
}

/**
 * Stream a file slice as batches of rows: one batch per base-file row group when no log applies (memory
 * stays at one row group), else the whole merged slice in one batch.
 */
export async function* readFileSliceBatches(ctx: SliceReadContext, slice: FileSlice, options: SliceReadOptions): AsyncGenerator<Record<string, unknown>[]> {
  const mergeLogs = !options.baseOnly && slice.logFiles.length > 0 && ctx.config.populateMetaFields;
  if (!mergeLogs) {
    if (slice.baseFile) yield* readBaseFile(ctx, slice, options, true);
    return;
  }
  // The base file first (through storage ranges), then the logs: the merge itself is merge/slice-merge.ts's.
  const base: Record<string, unknown>[][] = [];
  if (slice.baseFile) for await (const batch of readBaseFile(ctx, slice, options, false)) base.push(batch);
  const logs = await readSliceLogs(ctx, slice);
  const { completedBy } = ctx;
  const visibility = completedBy === undefined
    ? { isCommittedWrite: (t: string) => ctx.timeline.isCommittedWrite(t), asOf: ctx.asOf }
    : { isCommittedWrite: (t: string) => ctx.timeline.isCommittedWriteBy(t, completedBy), asOf: undefined };
  const merged = await mergeSlice(base, { logs, visibility, merge: ctx.merge, columns: options.columns, schema: ctx.schema });
  for (const w of merged.warnings) ctx.onWarning(w);
  yield merged.rows;
}

/** The base file's rows, one batch per run of kept row groups (pruned by statistics when `prune`). */
async function* readBaseFile(ctx: SliceReadContext, slice: FileSlice, options: SliceReadOptions, prune: boolean): AsyncGenerator<Record<string, unknown>[]> {
  const base = slice.baseFile!;
  const file = await storageBuffer(ctx.storage, base.path, base.size || undefined);
  const footer = await readParquetFooter(file, base.path);
  const columns = options.columns ? [...options.columns] : undefined;
  const promoter = ctx.schema && schemaPromoter(ctx.schema, footerSchema(footer.keyValues));
  let start = 0;
  for (const [g, n] of footer.rowGroupRows.entries()) {
    const rowStart = start;
    start += n;
    if (n === 0 || (prune && options.filters.length > 0 && !groupMayMatch(footer, g, options.filters))) continue;
    const rows = await readParquetRows(file, footer, base.path, { columns, rowStart, rowEnd: start });
    if (promoter) for (const row of rows) promoter.row(row);
    yield rows;
  }
}

function groupMayMatch(footer: Awaited<ReturnType<typeof readParquetFooter>>, g: number, filters: readonly CompiledFilter[]): boolean {
  const stats = rowGroupStats(footer, g);
  return filters.every((flt) => {
    const s = stats.get(flt.field);
    return !s || rangeMayMatch(flt, s.min, s.max);
  });
}

/** The slice's log files' bytes, in log order (a pending writer's log that is gone is skipped, see below). */
export async function readSliceLogs(ctx: LogReadContext, slice: FileSlice): Promise<SliceLogFile[]> {
  const logs: SliceLogFile[] = [];
  for (const log of slice.logFiles) {
    const bytes = await readLogOrSkip(ctx, log.path);
    if (bytes) logs.push({ path: log.path, bytes });
  }
  return logs;
}

/**
 * A log file's bytes; undefined when it is missing and no completed write of `ctx.timeline` names it in its
 * write stats: a pending writer's log (all its blocks would be skipped as uncommitted), deleted by that writer
 * when it lost its conflict or by a rollback of it. A missing log a completed write produced stays `NOT_FOUND`.
 */
async function readLogOrSkip(ctx: LogReadContext, path: string): Promise<Uint8Array | undefined> {
  try {
    return await ctx.storage.read(path);
  } catch (err) {
    if (!isLakeletError(err, 'NOT_FOUND')) throw err;
    // A completed write's instant file gone with no archived copy (rolled back or restored meanwhile): the
    // snapshot being read is no longer the table's, so the log's NOT_FOUND stands.
    const committed = await writtenByCompletedWrite(ctx, path).catch((e: unknown) => {
      if (isLakeletError(e, 'NOT_FOUND')) return true;
      throw e;
    });
    if (committed) throw err;
    return undefined;
  }
}

/** Does the write-stat list of a completed write of the timeline (as of T, if set) name `path`? */
async function writtenByCompletedWrite(ctx: LogReadContext, path: string): Promise<boolean> {
  for (const instant of ctx.timeline.completedWrites()) {
    if (ctx.asOf !== undefined && compareInstantTimes(instant.requestedTime, ctx.asOf) > 0) continue;
    if (ctx.completedBy !== undefined && !ctx.timeline.isCommittedWriteBy(instant.requestedTime, ctx.completedBy)) continue;
    const metadata = await readCommitMetadataOrArchived(ctx.storage, ctx.config, instant);
    for (const stats of Object.values(metadata.partitionToWriteStats)) {
      for (const s of stats) if (s.path === path) return true;
    }
  }
  return false;
}
