// Executes reads: resolves a query's instants, columns and filters against the table state, plans the
// slices (plan/read-plan.ts) and streams merged, filtered, projected rows one file slice at a time.
import { LakeletError } from '../../errors.js';
import { fileGroupKey } from '../../file-group/file-slice.js';
import type { AvroRecordSchema } from '../../format/avro/schema.js';
import { fieldType, META_FIELDS } from '../../schema/table-schema.js';
import { comparableKind } from '../../schema/compare.js';
import { orderingSpec } from '../../merge/ordering.js';
import { checkFilter, compileFilters, matchRow, parseFilter, type CompiledFilter, type Filter } from '../../expr/filter.js';
import { inCommitRange, planRead, type DataSkipping, type IncrementalRangeType, type ReadPlan } from '../../plan/read-plan.js';
import { compareInstantTimes, INIT_INSTANT_TIME } from '../../timeline/instant.js';
import { readFileSliceBatches, type ReadWarning } from './file-slice-reader.js';
import { withArchivedWrites } from './archived-fallback.js';
import { byCompletionTime, incrementalWindow, type IncrementalWindow, type WindowWrite } from './incremental-window.js';
import type { TableState } from '../table-state.js';
import type { ListingMode } from '../metadata/metadata-listing.js';
import { normalizeInstant } from './query-instant.js';
import { rowsOf } from './row-stream.js';

export { normalizeInstant };

/** Options shared by every read. */
export interface ReadOptions {
  /** Columns to return, in order (default: all, meta columns first). */
  columns?: readonly string[];
  /** Filters, ANDed: `[field, op, value]` triples or `"field op value"` strings. */
  filters?: readonly (Filter | string)[];
  /** Stop after this many rows. */
  limit?: number;
  /** Called for each problem a read skips over (a corrupt log block, a metadata table it could not use). */
  onWarning?: (warning: ReadWarning) => void;
  /**
   * Where the file listing comes from: `metadata` (default) reads the metadata table's `files` partition when the
   * table (version 8 or 9) lists it, and uses its `record_index`, `column_stats` and `partition_stats` to skip
   * file groups, files and partitions; an MDT that cannot be read or trusted falls back to storage with a
   * `METADATA_FALLBACK` warning. `storage` lists storage and ignores the metadata table.
   */
  listing?: ListingMode;
}

/** Options of a snapshot or read-optimized query. */
export interface QueryOptions extends ReadOptions {
  /**
   * Time travel: read the table as of this instant (`yyyyMMddHHmmss[SSS]`, inclusive) or Date (UTC). Table
   * version 6: the writes requested at or before it. Versions 8 and 9: the writes *completed* at or before it
   * (the requested time of a completed write stands for its completion time), as Hudi 1.x's readers do.
   */
  asOf?: string | Date;
  /** Read base files only (merge-on-read tables; the same as a snapshot on copy-on-write). */
  readOptimized?: boolean;
}

/**
 * Options of an incremental query: records written in `(from, to]`. Table version 6 ranges over requested
 * (instant) times, as Hudi 0.x does; versions 8 and 9 over completion times, as Hudi 1.x does — a write belongs
 * to the window it completed in, and a bound that is the requested time of a completed write stands for that
 * write's completion time.
 */
export interface IncrementalOptions extends ReadOptions {
  /** Exclusive start instant. */
  from: string | Date;
  /** Inclusive end instant (default: the latest write). */
  to?: string | Date;
}

/** A query ready to run, with everything resolved. */
export interface ResolvedRead {
  schema: AvroRecordSchema;
  /** Output columns in order. */
  columns: string[];
  plan: ReadPlan;
  /** Snapshot instant over requested times (table version 6, or undefined = latest). */
  asOf: string | undefined;
  /** Versions 8 and 9: the completion time the snapshot is read as of (instead of `asOf`). */
  completedBy?: string | undefined;
  /** Incremental queries: which times the window ranges over. */
  rangeType?: IncrementalRangeType | undefined;
  readOptimized: boolean;
  limit: number;
  /** Warnings of resolving the read (a metadata table it fell back from), reported when it runs. */
  warnings?: ReadWarning[];
}

/**
 * Is `asOf` before the table's first completed write (archived ones included)? Then the table as of `asOf` is
 * empty — what Hudi (and the fixtures' expected answers) give — and needs no file a clean may have deleted.
 */
async function beforeFirstCommit(state: TableState, asOf: string): Promise<boolean> {
  const active = state.timeline.completedWrites()[0]?.requestedTime;
  if (active !== undefined && compareInstantTimes(asOf, active) >= 0) return false;
  const archived = (await state.archivedTimeline()).completedWrites()[0]?.requestedTime;
  return archived === undefined || compareInstantTimes(asOf, archived) < 0;
}

function compile(schema: AvroRecordSchema, filters: readonly (Filter | string)[] | undefined): CompiledFilter[] {
  const parsed = (filters ?? []).map((f) => (typeof f === 'string' ? parseFilter(f) : checkFilter(f)));
  for (const [field] of parsed) {
    if (!fieldType(schema, field)) throw new LakeletError('INVALID_ARGUMENT', `query: filter on unknown column ${JSON.stringify(field)}`, { field });
  }
  return compileFilters(parsed, (field) => {
    const t = fieldType(schema, field);
    return t ? comparableKind(t) : undefined;
  });
}

function outputColumns(schema: AvroRecordSchema, columns: readonly string[] | undefined): string[] {
  const all = schema.fields.map((f) => f.name);
  if (!columns) return all;
  for (const c of columns) {
    if (!all.includes(c)) throw new LakeletError('INVALID_ARGUMENT', `query: unknown column ${JSON.stringify(c)} (columns: ${all.join(', ')})`, { field: c });
  }
  return [...columns];
}

/** Resolve a snapshot / read-optimized query into a plan. */
export async function resolveQuery(state: TableState, options: QueryOptions): Promise<ResolvedRead> {
  const asOf = options.asOf === undefined ? undefined : normalizeInstant(options.asOf, 'asOf');
  // Before the first commit the answer is empty, not "no longer readable" (a clean deleted nothing of it).
  if (asOf !== undefined && !(await beforeFirstCommit(state, asOf))) await state.checkReadable(asOf);
  const readOptimized = options.readOptimized === true;
  // Versions 8 and 9: as of the moment T, the writes completed by T (hudi-format.md §4.3 with completion times).
  // Before the active timeline's first write: the view knows the archived writes' completion times too.
  const { timeline } = asOf !== undefined && byCompletionTime(state) ? await withArchivedWrites(state, asOf) : { timeline: state.timeline };
  const completedBy = asOf !== undefined && byCompletionTime(state) ? timeline.completionBound(asOf) : undefined;
  const requestedAsOf = completedBy === undefined ? asOf : undefined;
  // The schema of the last write the snapshot holds: by completion time, a later-requested write may not be in it.
  const schema = await state.schemaAsOf(completedBy === undefined ? asOf : timeline.latestWriteCompletedBy(completedBy)?.requestedTime ?? asOf);
  const filters = compile(schema, options.filters);
  const view = timeline === state.timeline ? await state.fileSystemView() : await state.withTimeline(timeline).fileSystemView();
  const { skipping, warnings } = await skippingOf(state, filters, asOf === undefined && !readOptimized);
  const plan = planRead(state.config, view, { asOf: requestedAsOf, readOptimized, incrementalFrom: undefined, incrementalGroups: undefined, filters, completedBy, skipping });
  return { schema, columns: outputColumns(schema, options.columns), plan, asOf: requestedAsOf, completedBy, readOptimized, limit: checkLimit(options.limit), warnings };
}

/** The metadata table's data skipping for `filters` (when the state was listed through it) and the listing's warnings. */
async function skippingOf(state: TableState, filters: readonly CompiledFilter[], latest: boolean): Promise<{ skipping: DataSkipping | undefined; warnings: ReadWarning[] }> {
  const listing = await state.listing();
  const skipping = listing.metadataTable ? await (await import('../metadata/lazy.js')).metadataSkipping(listing.metadataTable, state.config, filters, latest) : undefined;
  return { skipping, warnings: listing.warning ? [listing.warning] : [] };
}

/** Resolve an incremental query into a plan: file groups written in `(from, to]`, rows committed in it. */
export async function resolveIncremental(state: TableState, options: IncrementalOptions): Promise<ResolvedRead> {
  const window = await incrementalWindow(state, options.from, options.to);
  if (window.rangeType === 'completionTime') return resolveIncrementalByCompletion(state, options, window);
  const { to = INIT_INSTANT_TIME } = window;
  const schema = await state.schemaAsOf(to);
  const filters = compile(schema, options.filters);
  if (!(await beforeFirstCommit(state, to))) await state.checkReadable(to);
  const { groups, files } = writtenGroups(window.writes);
  const view = await state.fileSystemView();
  const { skipping, warnings } = await skippingOf(state, filters, false);
  const plan = planRead(state.config, view, { asOf: to, readOptimized: false, incrementalFrom: window.from, incrementalGroups: groups, incrementalFiles: windowFiles(state, files), filters, skipping });
  return { schema, columns: outputColumns(schema, options.columns), plan, asOf: to, readOptimized: false, rangeType: 'requestedTime', limit: checkLimit(options.limit), warnings };
}

/** The file groups and files the window's writes wrote (merge-on-read reads only these files). */
function writtenGroups(writes: readonly WindowWrite[]): { groups: Set<string>; files: Set<string> } {
  const groups = new Set<string>();
  const files = new Set<string>();
  for (const { metadata: md } of writes) {
    for (const [partition, stats] of Object.entries(md.partitionToWriteStats)) {
      for (const s of stats) {
        if (s.fileId) groups.add(fileGroupKey(s.partitionPath ?? partition, s.fileId));
        if (s.path) files.add(s.path);
      }
    }
  }
  return { groups, files };
}

/**
 * Versions 8 and 9 (Hudi 1.x's `IncrementalQueryAnalyzer` with an open-closed range, as its Spark relations use):
 * the writes whose completion time is in `(from, to]`; the table read as of completion time `to` (latest when
 * absent), limited to the file groups those writes touched, keeping rows whose `_hoodie_commit_time` is the
 * requested time of one of them.
 */
async function resolveIncrementalByCompletion(state: TableState, options: IncrementalOptions, window: IncrementalWindow): Promise<ResolvedRead> {
  const { timeline, to, writes } = window;
  const last = writes.reduce<string | undefined>((m, w) => (m === undefined || compareInstantTimes(w.instant.requestedTime, m) > 0 ? w.instant.requestedTime : m), undefined);
  const schema = await state.schemaAsOf(last ?? to);
  const filters = compile(schema, options.filters);
  if (to !== undefined && !(await beforeFirstCommit(state, to))) await state.checkReadable(to);
  const { groups, files } = writtenGroups(writes);
  const commitTimes = new Set(writes.map((w) => w.instant.requestedTime));
  const view = timeline === state.timeline ? await state.fileSystemView() : await state.withTimeline(timeline).fileSystemView();
  const { skipping, warnings } = await skippingOf(state, filters, false);
  const plan = planRead(state.config, view, { asOf: undefined, completedBy: to, readOptimized: false, incrementalFrom: undefined, incrementalGroups: groups, incrementalFiles: windowFiles(state, files), incrementalCommitTimes: commitTimes, filters, skipping });
  return { schema, columns: outputColumns(schema, options.columns), plan, asOf: undefined, completedBy: to, readOptimized: false, rangeType: 'completionTime', limit: checkLimit(options.limit), warnings };
}

/**
 * The files a merge-on-read incremental read may read (plan/read-plan.ts `windowSlices`: Hudi's view over the
 * window's affected files); copy-on-write reads the latest base file of each written group, which a window
 * write wrote, so it needs no cut.
 */
function windowFiles(state: TableState, files: ReadonlySet<string>): ReadonlySet<string> | undefined {
  return state.config.tableType === 'MERGE_ON_READ' ? files : undefined;
}

function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return Infinity;
  if (!Number.isInteger(limit) || limit < 0) throw new LakeletError('INVALID_ARGUMENT', `query: limit must be a whole number ≥ 0, got ${limit}`, { field: 'limit', value: limit });
  return limit;
}

/** Stream the rows of a resolved read, one file slice in memory at a time. */
export function executeRead(state: TableState, read: ResolvedRead, onWarning?: (w: ReadWarning) => void): AsyncGenerator<Record<string, unknown>, undefined, undefined> {
  return rowsOf(executeReadBatches(state, read, onWarning));
}

/** The rows of a resolved read as batches (one per file batch that has rows to give), one file slice in memory at a time. */
export async function* executeReadBatches(state: TableState, read: ResolvedRead, onWarning: (w: ReadWarning) => void = () => undefined): AsyncGenerator<Record<string, unknown>[], undefined, undefined> {
  for (const w of read.warnings ?? []) onWarning(w);
  if (read.limit === 0) return;
  const { config } = state;
  const spec = orderingSpec(config.orderingFields, read.schema);
  const ordering = spec.orderingFields;
  const needed = new Set<string>(read.columns);
  for (const f of read.plan.filters) needed.add(f.path[0] as string);
  if (config.populateMetaFields) for (const m of META_FIELDS) needed.add(m);
  for (const f of ordering) needed.add(f);
  if (read.schema.fields.some((f) => f.name === '_hoodie_is_deleted')) needed.add('_hoodie_is_deleted');
  const ctx = {
    storage: state.storage,
    config,
    timeline: state.timeline,
    asOf: read.asOf,
    completedBy: read.completedBy,
    merge: { mode: config.recordMergeMode, partialUpdateMode: config.properties.get('hoodie.table.partial.update.mode'), ...spec },
    onWarning,
    schema: read.schema,
  };
  let emitted = 0;
  const range = read.plan.commitTimeRange;
  const commitTimes = read.plan.commitTimes;
  const filters = read.plan.filters;
  // Slices without logs to merge read only what the answer needs: the output, filter columns and (for
  // incremental reads) the commit time — not the five meta columns a merge needs.
  const light = new Set<string>(read.columns);
  for (const f of filters) light.add(f.path[0] as string);
  if ((range || commitTimes) && config.populateMetaFields) light.add('_hoodie_commit_time');
  const lightColumns = [...light];
  const neededColumns = [...needed];
  const passThrough = lightColumns.length === read.columns.length;
  for (const slice of read.plan.slices) {
    const merging = !read.readOptimized && slice.logFiles.length > 0 && config.populateMetaFields;
    for await (const rows of readFileSliceBatches(ctx, slice, { columns: merging ? neededColumns : lightColumns, filters, baseOnly: read.readOptimized })) {
      // Rows of one base-file batch share their shape: check the first, not every row. Merged batches mix
      // base rows and log records (older schemas may lack columns), so their rows are always copied.
      const batchPassThrough = passThrough && !merging && rows.length > 0 && sameColumns(rows[0] as Record<string, unknown>, read.columns);
      const out: Record<string, unknown>[] = [];
      for (const row of rows) {
        if (range || commitTimes) {
          const commitTime = config.populateMetaFields ? row._hoodie_commit_time : slice.baseInstantTime;
          if (range ? !inCommitRange(commitTime, range) : typeof commitTime !== 'string' || !commitTimes?.has(commitTime)) continue;
        }
        if (filters.length > 0 && !matchRow(row, filters)) continue;
        if (batchPassThrough) {
          out.push(row);
        } else {
          const projected: Record<string, unknown> = {};
          for (const c of read.columns) projected[c] = row[c] ?? null;
          out.push(projected);
        }
        if (++emitted >= read.limit) break;
      }
      if (out.length > 0) yield out;
      if (emitted >= read.limit) return;
    }
  }
}

/** Does the row have exactly these keys, in this order? */
function sameColumns(row: Record<string, unknown>, columns: readonly string[]): boolean {
  const keys = Object.keys(row);
  if (keys.length !== columns.length) return false;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== columns[i]) return false;
  return true;
}
