// The Table facade users see: open a Hudi table in any Storage and query it (snapshot, time travel,
// read-optimized, incremental) as an Apache Arrow Table or a stream of plain row objects.
import type { Schema, Table as ArrowTable } from 'apache-arrow';
import { parseTableConfig, type TableConfig } from '../config/table-config.js';
import type { FileSlice } from '../file-group/file-slice.js';
import { arrowSchema, rowsToArrow } from '../arrow/arrow.js';
import type { AvroRecordSchema } from '../format/avro/schema.js';
import { executeRead, normalizeInstant, resolveIncremental, resolveQuery, type IncrementalOptions, type QueryOptions, type ResolvedRead } from '../engine/read/query.js';
import type { ReadWarning } from '../engine/read/file-slice-reader.js';
import { PROPERTIES_PATH, TableState } from '../engine/table-state.js';
import { Timeline } from '../timeline/timeline.js';
import type { Filter } from '../expr/filter.js';
import type { Storage } from '../storage/storage.js';
import { WRITE_ACTIONS, type Instant } from '../timeline/instant.js';
import type { CommitMetadata } from '../timeline/commit-metadata.js';
import { LakeletError } from '../errors.js';
import { createTableFiles, type CreateTableOptions } from '../engine/create-table.js';
import type { TagMap } from '../engine/write/tag.js';
import { rollbackLatestWrite } from '../engine/services/rollback-latest.js';
import type { RollbackResult } from '../engine/services/rollback.js';
import { runPendingCompactions, scheduleCompaction, type CompactionResult } from '../engine/services/compaction.js';
import { write, type WriteRequest, type WriteResult } from '../engine/write/write-client.js';
import { resolveWriteOptions, type WriteOptions } from '../engine/write/write-options.js';
import { withTableWriteLock } from '../engine/commit/write-lock.js';
import { checkTableMaintainable, disableMetadataTable, type DisableMetadataTableResult } from '../engine/table-support.js';
import { clean, type CleanOptions, type CleanResult } from '../engine/services/clean.js';
import { archive } from '../engine/services/archival.js';
import type { ArchivalOptions } from '../plan/archival-plan.js';
import { deleteSavepoint, savepoint, type SavepointOptions, type SavepointResult } from '../engine/services/savepoint.js';
import { finishPendingRestores, restore, type RestoreResult } from '../engine/services/restore.js';
import type { WriteInput } from '../engine/write/records.js';
import { closeWorkerPools } from '../worker/pool-registry.js';

/** Options of {@link Table.fileSlices}. */
export interface FileSliceOptions {
  asOf?: string | Date;
  readOptimized?: boolean;
  /** Incremental: exclusive start instant. */
  from?: string | Date;
  /** Incremental: inclusive end instant (default the latest write). */
  to?: string | Date;
  /** Filters on partition fields prune partitions. */
  filters?: readonly (Filter | string)[];
}

/** Options of {@link Table.rows}: a snapshot query, or an incremental one when `from` is set. */
export type RowsOptions = QueryOptions & { from?: string | Date; to?: string | Date };

/**
 * An open Hudi table. Create it with {@link openTable}. The table reflects the timeline as it was when
 * opened; call {@link Table.refresh} to see later commits.
 */
export class Table {
  private state: TableState;
  /** Write options given at creation: defaults of every write through this object. */
  private readonly writeDefaults: WriteOptions;
  /** The IN_MEMORY index's key map, kept between writes. */
  private readonly keyMap: { instant: string | undefined; map: TagMap } = { instant: undefined, map: new Map() };

  private constructor(state: TableState, writeDefaults: WriteOptions = {}) {
    this.state = state;
    this.writeDefaults = writeDefaults;
  }

  /** @internal The Table of a table just created (config known, timeline empty). */
  static created(storage: Storage, config: TableConfig, writeDefaults?: WriteOptions): Table {
    return new Table(new TableState(storage, config, Timeline.fromFileNames([])), writeDefaults);
  }

  /** Open the table whose root is the root of `storage`. */
  static async open(storage: Storage, writeDefaults?: WriteOptions): Promise<Table> {
    return new Table(await TableState.load(storage), writeDefaults);
  }

  /** The store the table lives in. */
  get storage(): Storage {
    return this.state.storage;
  }

  /** The table's configuration (`hoodie.properties`). */
  get config(): TableConfig {
    return this.state.config;
  }

  /** The active timeline: every instant in its latest state, oldest first. */
  get timeline(): readonly Instant[] {
    return this.state.timeline.instants;
  }

  /** Completed commits, deltacommits and replacecommits, oldest first: the instants queries can travel to. */
  get commits(): Instant[] {
    return this.state.timeline.completedWrites();
  }

  /** The commit metadata (write stats, operation type, extra metadata) of a completed write. */
  async commitMetadata(instant: Instant | string): Promise<CommitMetadata> {
    const time = typeof instant === 'string' ? instant : instant.requestedTime;
    const found = this.state.timeline.completedAt(time);
    if (!found || !WRITE_ACTIONS.has(found.action)) {
      throw new LakeletError('NOT_FOUND', `table: no completed commit at instant ${JSON.stringify(time)}`, { instant: time });
    }
    return this.state.commitMetadata(found);
  }

  /** Re-read config, timeline and file listing. */
  async refresh(): Promise<void> {
    this.state = await TableState.load(this.state.storage);
  }

  /** The table schema (Avro record, meta fields first when the table has them) as of an instant. */
  async avroSchema(options: { asOf?: string | Date } = {}): Promise<AvroRecordSchema> {
    return this.state.schemaAsOf(options.asOf === undefined ? undefined : normalizeInstant(options.asOf, 'asOf'));
  }

  /** The table schema as an Arrow schema. */
  async schema(options: { asOf?: string | Date } = {}): Promise<Schema> {
    return arrowSchema(await this.avroSchema(options));
  }

  /**
   * The file slices a query would read: a snapshot or read-optimized query as of an instant, or (with
   * `from`) an incremental query over `(from, to]`. Filters on partition fields prune partitions.
   */
  async fileSlices(options: FileSliceOptions = {}): Promise<FileSlice[]> {
    const read = options.from !== undefined
      ? await resolveIncremental(this.state, { from: options.from, to: options.to, filters: options.filters })
      : await resolveQuery(this.state, options);
    return read.plan.slices;
  }

  /** Snapshot, time-travel or read-optimized query, as an Arrow Table. */
  async query(options: QueryOptions = {}): Promise<ArrowTable> {
    return this.collect(await resolveQuery(this.state, options), options.onWarning);
  }

  /** Incremental query: the latest version of each record written in `(from, to]`, as an Arrow Table. */
  async incremental(options: IncrementalOptions): Promise<ArrowTable> {
    return this.collect(await resolveIncremental(this.state, options), options.onWarning);
  }

  /**
   * Stream rows as plain objects (snapshot; incremental when `from` is given). Memory stays bounded by one
   * file slice. Values: long → bigint, decimal → string, date/timestamp → Date (a `MicrosDate` keeping the exact
   * microseconds when a timestamp has them beyond the millisecond), bytes → Uint8Array.
   */
  async *rows(options: RowsOptions = {}): AsyncGenerator<Record<string, unknown>> {
    const read = options.from !== undefined
      ? await resolveIncremental(this.state, { ...options, from: options.from })
      : await resolveQuery(this.state, options);
    yield* executeRead(this.state, read, options.onWarning);
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
    const storage = this.state.storage;
    await checkTableMaintainable(storage, 'rollback');
    const result = await withTableWriteLock(storage, async () => {
      await finishPendingRestores(storage);
      const { force, ...timing } = options;
      const { clock, heartbeatTimeoutMs } = resolveWriteOptions(this.writeDefaults, timing);
      return rollbackLatestWrite(storage, typeof instant === 'object' ? instant.requestedTime : instant, { clock, heartbeatTimeoutMs, force: force === true });
    });
    await this.refresh().catch(() => undefined); // done: a failing re-read must not report it undone
    return result;
  }

  /** Delete file versions no retained commit needs, per the cleaning policy (default keep the latest 10 commits). */
  async clean(options: CleanOptions = {}): Promise<CleanResult | undefined> {
    const storage = this.state.storage;
    await checkTableMaintainable(storage, 'clean');
    const resolved = resolveWriteOptions(this.writeDefaults);
    const result = await withTableWriteLock(storage, () => clean(storage, { clock: resolved.clock, heartbeatTimeoutMs: resolved.heartbeatTimeoutMs, ...this.writeDefaults.clean, ...options }));
    await this.refresh().catch(() => undefined); // done: a failing re-read must not report it undone
    return result;
  }

  /** Move old completed instants to the archived timeline, keeping 20–30 commits active (by default). */
  async archive(options: ArchivalOptions = {}): Promise<Instant[]> {
    const storage = this.state.storage;
    await checkTableMaintainable(storage, 'archive');
    const result = await withTableWriteLock(storage, () => archive(storage, { ...this.writeDefaults.archive, ...options }));
    await this.refresh().catch(() => undefined); // done: a failing re-read must not report it undone
    return result;
  }

  /** Savepoint a commit (default the latest): its files are kept by the cleaner and it can be restored. */
  async savepoint(options: SavepointOptions = {}): Promise<SavepointResult> {
    const storage = this.state.storage;
    await checkTableMaintainable(storage, 'savepoint');
    const result = await withTableWriteLock(storage, () => savepoint(storage, options));
    await this.refresh().catch(() => undefined); // done: a failing re-read must not report it undone
    return result;
  }

  /** Remove a savepoint (its files become cleanable). */
  async deleteSavepoint(instant: string | Instant): Promise<void> {
    const storage = this.state.storage;
    await checkTableMaintainable(storage, 'deleteSavepoint');
    await withTableWriteLock(storage, () => deleteSavepoint(storage, instant));
    await this.refresh().catch(() => undefined); // done: a failing re-read must not report it undone
  }

  /**
   * Opt-in for a v6 table written with Hudi's metadata table enabled, which lakelet refuses to write: disable the
   * metadata table as Hudi's writer does with `hoodie.metadata.enable=false` (clear
   * `hoodie.table.metadata.partitions`, then delete `.hoodie/metadata`; readers fall back to listing). Engines
   * lose the listing, column stats and record index it held until a Hudi writer rebuilds it.
   */
  async disableMetadataTable(): Promise<DisableMetadataTableResult> {
    const storage = this.state.storage;
    const result = await withTableWriteLock(storage, () => disableMetadataTable(storage));
    await this.refresh();
    return result;
  }

  /** Roll the table back to a savepoint: every write after it is undone through a restore instant. */
  async restore(savepointInstant: string | Instant): Promise<RestoreResult> {
    const storage = this.state.storage;
    await checkTableMaintainable(storage, 'restore');
    const result = await withTableWriteLock(storage, () => restore(storage, savepointInstant));
    await this.refresh().catch(() => undefined); // done: a failing re-read must not report it undone
    return result;
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
    const resolved = resolveWriteOptions(this.writeDefaults, options);
    const storage = this.state.storage;
    await checkTableMaintainable(storage, 'compact');
    const results = await withTableWriteLock(storage, async () => {
      await scheduleCompaction(storage, resolved.compaction, options.force ?? true, { ...resolved, whenWritesPending: 'conflict' });
      return runPendingCompactions(storage, resolved);
    });
    // Committed compactions resolve even if re-reading the table fails (a later refresh() catches up).
    await this.refresh().catch(() => undefined);
    return results;
  }

  /**
   * Stop the worker pool this table's writes started (if any). The table stays usable: a later write
   * starts a new pool. Call it when done with the table so workers do not linger.
   */
  async close(): Promise<void> {
    await closeWorkerPools(this.writeDefaults);
  }

  private async write(request: Omit<WriteRequest, 'defaults' | 'keyMap'>): Promise<WriteResult> {
    try {
      // One writer at a time per table in this browser profile (Web Locks); across machines the commit
      // protocol's conflict check and atomic completed file decide.
      const storage = this.state.storage;
      await checkTableMaintainable(storage, 'write');
      return await withTableWriteLock(storage, () => write(storage, { ...request, defaults: this.writeDefaults, keyMap: this.keyMap }));
    } finally {
      // A committed write resolves even if re-reading the table fails (a later refresh() catches up), and a
      // failed one reports its own error, not the refresh's.
      await this.refresh().catch(() => undefined);
    }
  }

  private async collect(read: ResolvedRead, onWarning?: (w: ReadWarning) => void): Promise<ArrowTable> {
    const warnings: ReadWarning[] = [];
    const rows: Record<string, unknown>[] = [];
    for await (const row of executeRead(this.state, read, (w) => {
      warnings.push(w);
      onWarning?.(w);
    })) rows.push(row);
    const table = rowsToArrow(rows, arrowSchema(read.schema, read.columns));
    if (warnings.length > 0) table.schema.metadata.set('lakelet.warnings', JSON.stringify(warnings));
    return table;
  }
}

/** Open the Hudi table at the root of `storage`. */
export function openTable(storage: Storage): Promise<Table> {
  return Table.open(storage);
}

/**
 * Create a Hudi table (table version 6) in an empty `storage` and open it. Write options in `options`
 * (index, file sizing, codec, …) become the defaults of every write through the returned object.
 */
export async function createTable(storage: Storage, options: CreateTableOptions): Promise<Table> {
  const text = await createTableFiles(storage, options);
  const { name: _n, databaseName: _d, type: _t, recordKey: _r, orderingField: _o, partitionBy: _p, hiveStylePartitioning: _h, urlEncodePartitioning: _u, keyGenerator: _k, schema: _s, recordMergeMode: _m, ...writeDefaults } = options;
  // Built from what was written, without reading it back: once hoodie.properties exists the table does.
  return Table.created(storage, parseTableConfig(text, PROPERTIES_PATH), writeDefaults);
}
