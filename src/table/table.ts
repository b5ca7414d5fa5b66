// The Table facade users see: open a Hudi table in any Storage, query it (the reads live in table-reader.ts),
// write to it, and run its table services.
import type { TableConfig } from '../config/table-config.js';
import { TableState } from '../engine/table-state.js';
import { Timeline } from '../timeline/timeline.js';
import type { Storage } from '../storage/storage.js';
import type { Instant } from '../timeline/instant.js';
import { LakeletError } from '../errors.js';
import { InMemoryIndex } from '../engine/write/in-memory-index.js';
import type { RollbackResult } from '../engine/services/rollback.js';
import type { CompactionResult } from '../engine/services/compaction.js';
import { write, type WriteRequest, type WriteResult } from '../engine/write/write-client.js';
import type { WriteOptions } from '../engine/write/write-options.js';
import { EngineContext } from '../engine/context.js';
import { withTableWriteLock } from '../engine/commit/write-lock.js';
import type { DisableMetadataTableResult } from '../engine/table-support.js';
import { clean, type CleanOptions, type CleanResult } from '../engine/services/clean.js';
import { archive } from '../engine/services/archival.js';
import type { ArchivalOptions } from '../plan/archival-plan.js';
import { deleteSavepoint, savepoint, type SavepointOptions, type SavepointResult } from '../engine/services/savepoint.js';
import type { RestoreResult } from '../engine/services/restore.js';
import type { WriteInput } from '../engine/write/records.js';
import { compactTable, disableTableMetadataTable, rollbackTable, runTableService } from './services.js';
import type { TableReadDefaults } from '../engine/context.js';
import { TableReader } from './table-reader.js';
import { clusterTable, type ClusterOptions } from './clustering.js';
import type { ClusteringResult } from '../engine/services/clustering.js';
import { cleanPlan, compactionPlan, type CompactionPlanOptions, type PlannedClean, type PlannedCompaction } from './service-plans.js';

/**
 * An open Hudi table: `openTable` (table/open.ts) opens one, `createTable` makes one. The table reflects the timeline as it was when
 * opened (and after its own writes); call {@link Table.refresh} to see later commits — or let another page's
 * announcement (the table's BroadcastChannel) make the next read reload.
 */
export class Table extends TableReader {
  /** The IN_MEMORY index of this table's writes: its key map is kept (and updated in place) between writes. */
  private readonly inMemoryIndex = new InMemoryIndex();

  private constructor(ctx: EngineContext) {
    super(ctx);
  }

  /** @internal The Table of a table just created (config known, timeline empty). */
  static created(storage: Storage, config: TableConfig, writeDefaults?: WriteOptions): Table {
    return new Table(new EngineContext(storage, writeDefaults, new TableState(storage, config, Timeline.fromFileNames([]))));
  }

  /** Open the table whose root is the root of `storage` (`readDefaults`: where reads list files, see openTable). */
  static async open(storage: Storage, writeDefaults?: WriteOptions, readDefaults: TableReadDefaults = {}): Promise<Table> {
    const ctx = new EngineContext(storage, writeDefaults);
    ctx.readDefaults = { ...readDefaults };
    await ctx.load();
    return new Table(ctx);
  }

  /** Insert new records and update existing ones (by record key), keeping the greatest ordering value. */
  upsert(rows: WriteInput, options?: WriteOptions): Promise<WriteResult> {
    return this.write({ operation: 'UPSERT', input: rows, options });
  }

  /** Insert records without looking up existing keys (Hudi's non-deduplicating insert; small files are filled). */
  insert(rows: WriteInput, options?: WriteOptions): Promise<WriteResult> {
    return this.write({ operation: 'INSERT', input: rows, options });
  }

  /** Insert records into new file groups, sorted by partition and key, without looking up existing keys. */
  bulkInsert(rows: WriteInput, options?: WriteOptions): Promise<WriteResult> {
    return this.write({ operation: 'BULK_INSERT', input: rows, options });
  }

  /** Delete records: by record key strings (looked up in every partition) or by rows holding the key fields. */
  delete(keysOrRows: readonly string[] | WriteInput, options?: WriteOptions): Promise<WriteResult> {
    if (Array.isArray(keysOrRows) && keysOrRows.every((k) => typeof k === 'string')) {
      return this.write({ operation: 'DELETE', keys: keysOrRows as readonly string[], options });
    }
    return this.write({ operation: 'DELETE', input: keysOrRows as WriteInput, options });
  }

  /** Replace the partitions the rows fall in (or `partitions`) with the rows (a replacecommit). */
  insertOverwrite(rows: WriteInput, options: WriteOptions & { partitions?: readonly string[] } = {}): Promise<WriteResult> {
    const { partitions, ...rest } = options;
    return this.write({ operation: 'INSERT_OVERWRITE', input: rows, options: rest, ...(partitions ? { partitions } : {}) });
  }

  /** Replace the whole table with the rows (a replacecommit). */
  insertOverwriteTable(rows: WriteInput, options?: WriteOptions): Promise<WriteResult> {
    return this.write({ operation: 'INSERT_OVERWRITE_TABLE', input: rows, options });
  }

  /** Remove whole partitions (a replacecommit; files stay until cleaned). */
  deletePartitions(paths: readonly string[], options?: WriteOptions): Promise<WriteResult> {
    if (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string')) throw new LakeletError('INVALID_ARGUMENT', 'deletePartitions: expected a list of partition paths', { value: paths });
    return this.write({ operation: 'DELETE_PARTITION', partitions: paths, options });
  }

  /**
   * Roll back a write: by default the newest pending write (a crashed one) if there is one, else the latest
   * completed commit; or the given instant if it is pending or the latest completed write. Older commits
   * cannot be rolled back alone (use a savepoint restore). A pending write whose heartbeat is still alive (its
   * writer may be running elsewhere) is refused with `CONFLICT` until the heartbeat timeout has passed, unless
   * `options.force`; a forced rollback makes that writer, if it is alive, fail with `ABORTED`.
   */
  async rollback(instant?: string | Instant, options: Pick<WriteOptions, 'clock' | 'heartbeatTimeoutMs'> & { force?: boolean } = {}): Promise<RollbackResult> {
    return rollbackTable(this.ctx, instant, options);
  }

  /** Delete file versions no retained commit needs, per the cleaning policy (default keep the latest 10 commits). */
  async clean(options: CleanOptions = {}): Promise<CleanResult | undefined> {
    return this.runService('clean', (ctx) => clean(ctx, { ...ctx.defaults.clean, ...options }));
  }

  /** Move old completed instants to the archived timeline, keeping 20–30 commits active (by default). */
  async archive(options: ArchivalOptions = {}): Promise<Instant[]> {
    return this.runService('archive', (ctx) => archive(ctx, { ...ctx.defaults.archive, ...options }));
  }

  /** Savepoint a commit (default the latest): its files are kept by the cleaner and it can be restored. */
  async savepoint(options: SavepointOptions = {}): Promise<SavepointResult> {
    return this.runService('savepoint', (ctx) => savepoint(ctx, options));
  }

  /** Remove a savepoint (its files become cleanable). */
  async deleteSavepoint(instant: string | Instant): Promise<void> {
    return this.runService('deleteSavepoint', (ctx) => deleteSavepoint(ctx, instant));
  }

  /**
   * Opt-in for a v6 table written with Hudi's metadata table enabled, which lakelet refuses to write: disable the
   * metadata table as Hudi's writer does with `hoodie.metadata.enable=false` (clear
   * `hoodie.table.metadata.partitions`, then delete `.hoodie/metadata`; readers fall back to listing). Engines
   * lose the listing, column stats and record index it held until a Hudi writer rebuilds it.
   */
  async disableMetadataTable(): Promise<DisableMetadataTableResult> {
    return disableTableMetadataTable(this.ctx);
  }

  /** Roll the table back to a savepoint: every write after it is undone through a restore instant. */
  async restore(savepointInstant: string | Instant): Promise<RestoreResult> {
    const { restore } = await import('../engine/services/restore.js');
    return this.runService('restore', (ctx) => restore(ctx, savepointInstant));
  }

  /**
   * Compact a merge-on-read table now: schedule a plan for every slice with committed log files (unless one
   * is pending) and run all pending compactions. A plan is made only while no other write is in progress:
   * with a live pending write this throws `CONFLICT` naming it, and nothing changes (retry when it is done).
   * Writes that start once the plan exists keep going and put their logs on top of it; a write that was
   * already running when the plan was made and touches a planned file group fails its commit with
   * `CONFLICT`, leaving no trace. Plans another runner is running (live heartbeat) are skipped.
   */
  async compact(options: WriteOptions & { force?: boolean } = {}): Promise<CompactionResult[]> {
    return compactTable(this.ctx, options);
  }

  /**
   * Dry run of {@link compact}: the file slices the next `compact(options)` would compact — those of pending
   * compaction plans (with their instant) and those of the plan it would schedule now, made by the same planner
   * with the table's compaction trigger (`force` defaults to true, as `compact()`'s), leaving out groups of
   * pending compactions and clusterings and logs of pending writes (listed in `pendingWrites`: a live one
   * makes `compact()` throw `CONFLICT`). Reads the table afresh; writes nothing and takes no lock. A
   * copy-on-write table → `UNSUPPORTED`, as `compact()`.
   */
  async compactionPlan(options: CompactionPlanOptions = {}): Promise<PlannedCompaction> {
    return compactionPlan(this.ctx, options);
  }

  /**
   * Dry run of {@link clean}: the files the next `clean(options)` would delete, per partition — those of
   * interrupted cleans it finishes first and those of the plan it would make now (the same planner and inputs:
   * the table's clean defaults merged with `options`, savepoints, replaced file groups, pending compactions).
   * Orphan files (temp files of crashed writes) that a clean also removes are not listed. Reads the table
   * afresh; writes nothing and takes no lock.
   */
  async cleanPlan(options: CleanOptions = {}): Promise<PlannedClean> {
    return cleanPlan(this.ctx, options);
  }

  /**
   * Cluster the table now (Hudi's clustering): schedule a plan of its small file groups (`smallFileLimitBytes`,
   * per partition up to `maxBytesPerGroup`), rewrite them sorted by `sortColumns` (`layout` linear, z-order or
   * hilbert) into new file groups of about `targetFileSizeBytes`, and complete a replacecommit; pending
   * clusterings run too. With a live pending write this throws `CONFLICT` and nothing changes; so it does when
   * the plan it scheduled cannot complete (another runner holds it, a write changed its groups meanwhile), which
   * then stays pending for the next run. Returns the newest clustering's result, or undefined when there was
   * nothing to cluster.
   */
  async cluster(options: ClusterOptions = {}): Promise<ClusteringResult | undefined> {
    return clusterTable(this.ctx, options);
  }

  /**
   * Stop the worker pool this table's writes started (if any). The table stays usable: a later write
   * starts a new pool. Call it when done with the table so workers do not linger.
   */
  async close(): Promise<void> {
    await this.ctx.close();
  }

  /** One table service under the write lock (table/services.ts). */
  private runService<T>(operation: Parameters<typeof runTableService>[1], service: (ctx: EngineContext) => Promise<T>): Promise<T> {
    return runTableService(this.ctx, operation, service);
  }

  private async write(request: Omit<WriteRequest, 'inMemoryIndex'>): Promise<WriteResult> {
    try {
      // One writer at a time per table in this browser profile (Web Locks); across machines the commit
      // protocol's conflict check and atomic completed file decide. The write loads the table afresh.
      return await withTableWriteLock(this.ctx.storage, () => write(this.ctx, { ...request, inMemoryIndex: this.inMemoryIndex }));
    } finally {
      // A committed write resolves even if re-reading the table fails (a later refresh() catches up), and a
      // failed one reports its own error, not the refresh's. The write left its snapshot stale: list it again.
      await this.ctx.snapshot().catch(() => undefined);
    }
  }

}
