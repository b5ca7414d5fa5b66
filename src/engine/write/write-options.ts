// Write options: what each write can set (index, file sizing, dedupe, parquet settings, progress) and
// Hudi's defaults for them.
import { LakeletError } from '../../errors.js';
import type { BaseFileCodec } from '../../format/parquet/write.js';
import { INDEX_TYPES, type IndexType } from '../../index/index-type.js';
import { DEFAULT_FILE_SIZING, type FileSizing } from '../../plan/bucket-assignment.js';
import type { ArchivalOptions } from '../../plan/archival-plan.js';
import type { CleanOptions } from '../services/clean.js';
import { defaultWorkerCount, isNodeRuntime, MAX_WORKERS, type TaskSize, type WorkerPool, type WorkerPoolOptions } from '../../worker/pool.js';
import { kernelsChoice, type KernelsChoice } from '../kernels.js';
import { systemClock, type Clock } from '../clock.js';
import type { ClusteringOptions } from '../../plan/clustering-plan.js';
import { resolveCommitCallback, type CommitCallbackOptions, type ResolvedCommitCallback } from '../commit/commit-callback-options.js';
import { checkCatalogOptions, type CatalogSyncOption, type HiveSyncTarget } from '../../catalog/catalog-options.js';
import { checkValidators, type PreCommitValidator } from '../validators/validator-options.js';

/** Progress of a long write. */
export interface WriteProgress {
  phase: 'prepare' | 'index' | 'write' | 'commit';
  /** Units done in this phase (records for prepare/index, files for write). */
  done: number;
  total: number;
}

/** Options every write accepts (defaults in parentheses; table-level defaults come from `createTable`). */
export interface WriteOptions extends Partial<FileSizing> {
  /** Index used to find existing records (`BLOOM`). */
  index?: IndexType;
  /** Deduplicate the input by key before an upsert, keeping the greatest ordering value (true). */
  combineBeforeUpsert?: boolean;
  /** Deduplicate the input of `insert` (false: Hudi's non-deduplicating insert). */
  combineBeforeInsert?: boolean;
  /** Parquet compression of base files (`GZIP`). */
  codec?: BaseFileCodec;
  /** Rows per parquet row group (100 000). */
  rowGroupRows?: number;
  /** Bloom filter sizing (Hudi's 60000 entries / 1e-9 / 100000 bound, DYNAMIC_V0). */
  bloomFilter?: { numEntries?: number; fpp?: number; maxEntries?: number; type?: 'DYNAMIC_V0' | 'SIMPLE' };
  /** A new table schema for this write (Arrow schema, Avro object or JSON); must be a compatible evolution. */
  schema?: unknown;
  /** Called as the write advances. */
  onProgress?: (progress: WriteProgress) => void;
  /**
   * Cancels the write until it commits: checked at each step the write reports progress for; an aborted signal
   * makes the write reject `ABORTED` and discard its attempt, so nothing of it stays on the table. Once the
   * commit is being written the signal no longer applies (the write completes).
   */
  signal?: AbortSignal;
  /**
   * Merge-on-read compaction after writes: `inline` (default true) schedules and runs one when `deltaCommits`
   * (default 5) deltacommits accumulated since the last one, or the logs reach `logBytes`.
   */
  compaction?: { inline?: boolean; deltaCommits?: number; logBytes?: number };
  /**
   * Clustering after writes (Hudi's inline clustering, default off): with `inline: { everyCommits: N }` a clustering
   * is scheduled and run once N writes completed since the last one; the other fields are its options (see
   * `ClusteringOptions`: small-file limit, target file size, sort columns, layout). A failing clustering is a
   * `clustering` warning on the write's result, never a failure of the committed write.
   */
  clustering?: { inline?: { everyCommits: number } } & ClusteringOptions;
  /** Cleaning after each commit (`automatic`, default true) and its policy (KEEP_LATEST_COMMITS, 10 commits). */
  clean?: { automatic?: boolean } & Omit<CleanOptions, 'now'>;
  /** Archival after each commit (`automatic`, default true), keeping 20–30 commits on the active timeline. */
  archive?: { automatic?: boolean } & ArchivalOptions;
  /**
   * A pending write whose heartbeat has been silent this long (ms) counts as failed and is rolled back by
   * the next writer (default 60 000; 0 rolls back every pending write — single-writer use).
   */
  heartbeatTimeoutMs?: number;
  /** Retry a write that lost a conflict with a concurrent writer this many times (default 0). */
  retryOnConflict?: number;
  /**
   * Worker pool size for tagging, merging and encoding (0 = everything on the calling thread). Default: in
   * browsers `min(hardwareConcurrency - 1, 4)`; in Node with `lakelet/node` loaded (plain `import 'lakelet'`
   * loads it), the cores, at most 4, used only for large tasks ({@link POOL_INLINE_BELOW}: a file group of at
   * least 1 MiB or 10,000 records), small ones running inline; in runtimes without `Worker`, 0. A value given
   * here sends every task to the workers (in Node, worker_threads).
   */
  workers?: number;
  /**
   * The time source of instant times, heartbeats, heartbeat timeouts and the commit lock (default the system
   * clock). Tests inject a manual clock to drive timeouts deterministically.
   */
  clock?: Clock;
  /**
   * Which kernels the write's hot loops use on the calling thread and in its workers: `'auto'` (default) the
   * WASM build, falling back to the JS twin when it cannot load; `'js'` the JS twin always (benchmarks compare
   * the two; results are identical).
   */
  kernels?: KernelsChoice;
  /** After each committed write, refresh the table's entry in the catalog of its storage root (catalog/; default off). */
  catalogSync?: CatalogSyncOption;
  /** After each committed write, send the Hive sync statements since the last sync (catalog/catalog-sync.ts). */
  syncTo?: HiveSyncTarget;
  /**
   * Hudi's HTTP commit callback: after each commit (and its inline services) POST the commit message as JSON to
   * `url` with the `HUDI-CALLBACK-KEY` header. A failing, slow or unreachable endpoint never fails the write:
   * it is a `commit-callback` warning on the result. See `CommitCallbackOptions`.
   */
  commitCallback?: CommitCallbackOptions;
  /**
   * Pre-commit validators (Hudi's `hoodie.precommit.validators`), run in order after the files are written and
   * before the commit: one that fails rolls the write back and it rejects with `ABORTED` (default none; a
   * write's list replaces the table's). See `notNull`, `unique`, `rowCount`, `expect`.
   */
  validators?: readonly PreCommitValidator[];
  /**
   * Extra entries of the commit metadata's `extraMetadata` (Hudi's `commit(…, extraMetadata)`), string values;
   * `schema` is the write's own and cannot be set (default none). Replication tags its replayed writes with it.
   */
  extraMetadata?: Readonly<Record<string, string>>;
}

/** Options with every default filled in. */
export interface ResolvedWriteOptions extends FileSizing {
  index: IndexType;
  combineBeforeUpsert: boolean;
  combineBeforeInsert: boolean;
  codec: BaseFileCodec;
  rowGroupRows: number;
  bloomFilter: { numEntries?: number; fpp?: number; maxEntries?: number; type?: 'DYNAMIC_V0' | 'SIMPLE' };
  schema: unknown;
  onProgress: (progress: WriteProgress) => void;
  compaction: { inline: boolean; deltaCommits: number; logBytes: number | undefined };
  /** Inline clustering: every `everyCommits` writes (undefined: off), with these options (validated when it runs). */
  clustering: { everyCommits: number | undefined; options: ClusteringOptions };
  clean: { automatic: boolean } & Omit<CleanOptions, 'now'>;
  archive: { automatic: boolean } & ArchivalOptions;
  heartbeatTimeoutMs: number;
  retryOnConflict: number;
  /** Resolved worker count (0 = inline). */
  workers: number;
  /** Tasks below this size run inline even with a pool (Node's default pool); undefined: every task goes to it. */
  poolInlineBelow: TaskSize | undefined;
  /**
   * The pool the write's engine steps use: set by the engine context (`EngineContext.writeOptions`), which owns
   * it; undefined when `workers` is 0 and in options resolved without a context.
   */
  pool: WorkerPool | undefined;
  clock: Clock;
  kernels: KernelsChoice;
  catalogSync: CatalogSyncOption | undefined;
  syncTo: HiveSyncTarget | undefined;
  /** The HTTP commit callback, validated (undefined: none). */
  commitCallback: ResolvedCommitCallback | undefined;
  validators: readonly PreCommitValidator[];
  /** Extra commit metadata entries (validated: string values, no `schema`). */
  extraMetadata?: Readonly<Record<string, string>>;
}

const positive = (name: string, v: number | undefined, fallback: number): number => {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new LakeletError('INVALID_ARGUMENT', `write: ${name} must be a positive number, got ${String(v)}`, { field: name, value: v });
  return v;
};

/** The inline clustering setting: `everyCommits` a positive integer when given. */
function resolveInlineClustering(c: WriteOptions['clustering']): ResolvedWriteOptions['clustering'] {
  const { inline, ...options } = c ?? {};
  if (inline === undefined) return { everyCommits: undefined, options };
  const n = inline?.everyCommits;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) throw new LakeletError('INVALID_ARGUMENT', `write: clustering.inline.everyCommits must be a positive integer, got ${String(n)}`, { field: 'clustering.inline.everyCommits', value: n });
  return { everyCommits: n, options };
}

/**
 * The task size from which Node's default pool (no `workers` option) sends a task to a worker: 1 MiB of old
 * file bytes (or logs, or keys) or 10,000 records. Below it the transfer and worker start-up cost more than
 * the parallel merge saves; above it a file group's decode, merge and encode run beside the others.
 */
export const POOL_INLINE_BELOW: TaskSize = Object.freeze({ bytes: 1 << 20, records: 10_000 });

/** The pool a write's resolved options ask for (size, kernels choice, inline threshold). */
export function writePoolOptions(resolved: Pick<ResolvedWriteOptions, 'workers' | 'kernels' | 'poolInlineBelow'>): WorkerPoolOptions {
  return {
    size: resolved.workers,
    // 'js' is passed to the workers; 'auto' leaves the factory's default.
    ...(resolved.kernels === 'js' ? { kernels: 'js' as const } : {}),
    ...(resolved.poolInlineBelow ? { inlineBelow: resolved.poolInlineBelow } : {}),
  };
}

/** Whether two resolved options ask for the same pool (a write then shares the table's). */
export function samePool(a: Pick<ResolvedWriteOptions, 'workers' | 'kernels' | 'poolInlineBelow'>, b: Pick<ResolvedWriteOptions, 'workers' | 'kernels' | 'poolInlineBelow'>): boolean {
  return a.workers === b.workers && a.kernels === b.kernels && a.poolInlineBelow === b.poolInlineBelow;
}

/** Merge per-write options over table defaults and Hudi's, validating them (no pool: the engine context adds it). */
export function resolveWriteOptions(...layers: (WriteOptions | undefined)[]): ResolvedWriteOptions {
  const o: WriteOptions = Object.assign({}, ...layers.filter(Boolean));
  const index = o.index ?? 'BLOOM';
  if (!INDEX_TYPES.includes(index)) throw new LakeletError('INVALID_ARGUMENT', `write: unknown index ${JSON.stringify(index)} (one of ${INDEX_TYPES.join(', ')})`, { field: 'index', value: index });
  const workers = o.workers ?? defaultWorkerCount();
  if (!Number.isInteger(workers) || workers < 0 || workers > MAX_WORKERS) throw new LakeletError('INVALID_ARGUMENT', `write: workers must be an integer in 0..${MAX_WORKERS}, got ${String(workers)}`, { field: 'workers', value: workers });
  const codec = o.codec ?? 'GZIP';
  if (!['GZIP', 'SNAPPY', 'ZSTD', 'UNCOMPRESSED'].includes(codec)) throw new LakeletError('INVALID_ARGUMENT', `write: unknown codec ${JSON.stringify(codec)}`, { field: 'codec', value: codec });
  checkCatalogOptions(o.catalogSync, o.syncTo);
  return {
    index,
    smallFileLimit: o.smallFileLimit === 0 ? 0 : positive('smallFileLimit', o.smallFileLimit, DEFAULT_FILE_SIZING.smallFileLimit),
    maxFileSize: positive('maxFileSize', o.maxFileSize, DEFAULT_FILE_SIZING.maxFileSize),
    recordSizeEstimate: positive('recordSizeEstimate', o.recordSizeEstimate, DEFAULT_FILE_SIZING.recordSizeEstimate),
    combineBeforeUpsert: o.combineBeforeUpsert ?? true,
    combineBeforeInsert: o.combineBeforeInsert ?? false,
    codec,
    rowGroupRows: Math.floor(positive('rowGroupRows', o.rowGroupRows, 100_000)),
    bloomFilter: o.bloomFilter ?? {},
    schema: o.schema,
    onProgress: cancellableProgress(o.onProgress ?? (() => undefined), o.signal),
    compaction: {
      inline: o.compaction?.inline ?? true,
      deltaCommits: Math.floor(positive('compaction.deltaCommits', o.compaction?.deltaCommits, 5)),
      logBytes: o.compaction?.logBytes === undefined ? undefined : positive('compaction.logBytes', o.compaction.logBytes, 1),
    },
    clustering: resolveInlineClustering(o.clustering),
    heartbeatTimeoutMs: o.heartbeatTimeoutMs === 0 ? 0 : positive('heartbeatTimeoutMs', o.heartbeatTimeoutMs, 60_000),
    retryOnConflict: o.retryOnConflict === undefined || o.retryOnConflict === 0 ? 0 : Math.floor(positive('retryOnConflict', o.retryOnConflict, 0)),
    clean: { ...o.clean, automatic: o.clean?.automatic ?? true },
    archive: { ...o.archive, automatic: o.archive?.automatic ?? true },
    workers,
    poolInlineBelow: o.workers === undefined && workers > 0 && isNodeRuntime() ? POOL_INLINE_BELOW : undefined,
    pool: undefined,
    clock: o.clock ?? systemClock,
    kernels: kernelsChoice(o.kernels),
    commitCallback: resolveCommitCallback(o.commitCallback),
    catalogSync: o.catalogSync || undefined,
    syncTo: o.syncTo,
    validators: checkValidators(o.validators),
    ...(o.extraMetadata === undefined ? {} : { extraMetadata: checkExtraMetadata(o.extraMetadata) }),
  };
}

/** `extraMetadata`: an object of string values, without the write's own `schema` entry. */
function checkExtraMetadata(extra: unknown): Readonly<Record<string, string>> {
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) throw new LakeletError('INVALID_ARGUMENT', 'write: extraMetadata must be an object of strings', { field: 'extraMetadata', value: extra });
  for (const [k, v] of Object.entries(extra)) {
    if (typeof v !== 'string' || k === 'schema') throw new LakeletError('INVALID_ARGUMENT', `write: extraMetadata.${k} ${k === 'schema' ? 'is the write schema and cannot be set' : `must be a string, got ${String(v)}`}`, { field: `extraMetadata.${k}`, value: v });
  }
  return { ...(extra as Record<string, string>) };
}

/** `onProgress`, throwing `ABORTED` first while `signal` is aborted (the commit's own last report aside). */
function cancellableProgress(onProgress: (p: WriteProgress) => void, signal: AbortSignal | undefined): (p: WriteProgress) => void {
  if (signal === undefined) return onProgress;
  return (p) => {
    if (signal.aborted && !(p.phase === 'commit' && p.done === p.total)) {
      throw new LakeletError('ABORTED', `write: cancelled before its commit (${p.phase}); nothing was written to the table`, { phase: p.phase }, { cause: signal.reason });
    }
    onProgress(p);
  };
}
