// The read side of the Table facade: the getters (config, timeline, commits, schema, retention), commit
// listeners, and the queries (snapshot, time travel, read-optimized, incremental) as Arrow or streamed rows.
// Table (table.ts) extends it with writes and table services.
import type { TableConfig } from '../config/table-config.js';
import type { FileSlice } from '../file-group/file-slice.js';
import type { ArrowSchema, ArrowTable } from '../arrow/arrow.js';
import type { AvroRecordSchema } from '../format/avro/schema.js';
import { rowsOf } from '../engine/read/row-stream.js';
import { executeReadBatches, normalizeInstant, resolveIncremental, resolveQuery, type IncrementalOptions, type QueryOptions } from '../engine/read/query.js';
import type { TableState } from '../engine/table-state.js';
import type { Storage } from '../storage/storage.js';
import { WRITE_ACTIONS, type Instant } from '../timeline/instant.js';
import type { CommitMetadata } from '../timeline/commit-metadata.js';
import { LakeletError } from '../errors.js';
import type { EngineContext } from '../engine/context.js';
import type { FileSliceOptions, RowsOptions, TableRetention } from '../types.js';
import { tableRetention } from './retention.js';
import type { SchemaHistoryEntry } from './schema-history.js';
import { collectArrow, readState, resolveRowsRead, resolveSliceRead, resolveWithFallback } from './reads.js';
import type { CommitListener, OnCommitOptions } from '../engine/commit/notifications.js';
import type { ChangeRecord } from '../engine/read/cdc/cdc-infer.js';
// The CDC query is imported statically: as a lazy chunk it made the bundler split the shared read path into more
// chunks, which weighed more than the query itself (test/bundle-size.test.ts).
import type { ChangesOptions } from '../engine/read/cdc/cdc-query.js';
// Static too: as a lazy chunk it split the shared read path into more chunks, weighing more (test/bundle-size.test.ts).

/** The Arrow module, loaded on first use: apps that never ask for Arrow output never load (or bundle) it. */
const loadArrow = () => import('../arrow/arrow.js');

/** The reads every {@link Table} has; `openTable` or `createTable` gives one. */
export class TableReader {
  /** The engine context: storage, the write options given at creation (defaults of every write), the pool, the state. */
  protected readonly ctx: EngineContext;

  protected constructor(ctx: EngineContext) {
    this.ctx = ctx;
  }

  /** The table state reads and the getters share: the context's snapshot as last loaded (after each commit). */
  protected get state(): TableState {
    return this.ctx.current as TableState; // loaded by open(), given by created()
  }

  /** The state a read runs on: the snapshot, listed through the metadata table unless `listing` is `storage`. */
  protected readState(listing: QueryOptions['listing']): TableState {
    return readState(this.state, listing ?? this.ctx.readDefaults.listing);
  }

  /** The store the table lives in. */
  get storage(): Storage {
    return this.ctx.storage;
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

  /**
   * Call `listener` once for every completed instant of this table the table comes to see — its writes and
   * services (commit, deltacommit, replacecommit, compaction's commit, clean, rollback, restore, savepoint),
   * other writers' commits its loads find, and commits other pages or workers announce — with Hudi's callback
   * message fields. Returns the function that removes the listener. A listener that throws never fails the commit.
   */
  onCommit(listener: CommitListener, options?: OnCommitOptions): () => void {
    return this.ctx.notifier.add(listener, options);
  }

  /** Re-read config, timeline and file listing. */
  async refresh(): Promise<void> {
    await this.ctx.load();
  }

  /** The table schema (Avro record, meta fields first when the table has them) as of an instant. */
  async avroSchema(options: { asOf?: string | Date } = {}): Promise<AvroRecordSchema> {
    return this.state.schemaAsOf(options.asOf === undefined ? undefined : normalizeInstant(options.asOf, 'asOf'));
  }

  /**
   * Each distinct table schema the completed writes recorded (archived ones too), oldest first, with the
   * instant (requested time) that introduced it and what changed: how the table's schema evolved.
   */
  async schemaHistory(): Promise<SchemaHistoryEntry[]> {
    return (await import('./schema-history.js')).schemaHistory(this.state); // loaded on first use, with its schema diff
  }

  /** The table schema as an Arrow schema. */
  async schema(options: { asOf?: string | Date } = {}): Promise<ArrowSchema> {
    const [{ arrowSchema }, avro] = await Promise.all([loadArrow(), this.avroSchema(options)]);
    return arrowSchema(avro);
  }

  /**
   * What the table still keeps for time travel: the oldest instant a query can read (set by the latest clean;
   * absent when nothing was cleaned) and the completed savepoints, as of the table's current view.
   */
  retention(): Promise<TableRetention> {
    return tableRetention(this.state);
  }

  /**
   * The file slices a query would read: a snapshot or read-optimized query as of an instant, or (with
   * `from`) an incremental query over `(from, to]`. Filters prune partitions (and, through the metadata table, slices).
   */
  async fileSlices(options: FileSliceOptions = {}): Promise<FileSlice[]> {
    await this.ctx.catchUp();
    return (await resolveWithFallback(this.readState(options.listing), (s) => resolveSliceRead(s, options))).plan.slices;
  }

  /** Snapshot, time-travel or read-optimized query, as an Arrow Table. */
  async query(options: QueryOptions = {}): Promise<ArrowTable> {
    await this.ctx.catchUp();
    const state = this.readState(options.listing);
    return collectArrow(state, await resolveWithFallback(state, (s) => resolveQuery(s, options)), options.onWarning);
  }

  /** Incremental query: the latest version of each record written in `(from, to]`, as an Arrow Table. */
  async incremental(options: IncrementalOptions): Promise<ArrowTable> {
    await this.ctx.catchUp();
    const state = this.readState(options.listing);
    return collectArrow(state, await resolveWithFallback(state, (s) => resolveIncremental(s, options)), options.onWarning);
  }

  /**
   * Stream rows as plain objects (snapshot; incremental when `from` is given). Memory stays bounded by one
   * file slice. Values: long → bigint, decimal → string, date/timestamp → Date (a `MicrosDate` keeping the exact
   * microseconds when a timestamp has them beyond the millisecond), bytes → Uint8Array.
   */
  rows(options: RowsOptions = {}): AsyncGenerator<Record<string, unknown>, undefined, undefined> {
    const batches = async function* (reader: TableReader): AsyncGenerator<Record<string, unknown>[], undefined, undefined> {
      await reader.ctx.catchUp();
      const state = reader.readState(options.listing);
      yield* executeReadBatches(state, await resolveWithFallback(state, (s) => resolveRowsRead(s, options)), options.onWarning);
    };
    return rowsOf(batches(this));
  }

  /**
   * Change data capture (Hudi's CDC query, inferred from the timeline and file slices): one change per insert,
   * update and delete of the writes in `(from, to]` — `op`, `ts_ms`, `before`/`after` images without meta
   * columns — in commit order; compactions and clusterings give none.
   */
  async changes(options: ChangesOptions): Promise<ChangeRecord[]> {
    await this.ctx.catchUp();
    return (await import('./record-changes.js')).collectChanges(this.readState(options.listing), options);
  }

  /** The changes of {@link changes}, streamed commit by commit (one commit's changes in memory at a time). */
  async *changeRows(options: ChangesOptions): AsyncGenerator<ChangeRecord> {
    await this.ctx.catchUp();
    const { commitChanges } = await import('./record-changes.js');
    for await (const c of commitChanges(this.readState(options.listing), options)) yield* c.changes;
  }

  /** The changes of {@link changes} as an Arrow Table: op, ts_ms (int64), commit_time, before and after (structs). */
  async changesArrow(options: ChangesOptions): Promise<ArrowTable> {
    await this.ctx.catchUp();
    return (await import('./record-changes.js')).collectChangesArrow(this.readState(options.listing), options);
  }

  /**
   * Record history (lineage): every committed version of the record `key` (the record key, or its key fields'
   * values) — value, commit and completion time, insert/update/delete, the file it lived in — newest first,
   * across the retained and archived timeline, and where the history ends (created, cleaned, archived, absent).
   * Only file groups whose base-file bloom filters admit the key are read.
   */
  async history(key: import('../types.js').RecordKeyInput, options: import('../types.js').HistoryOptions = {}): Promise<import('../types.js').RecordHistory> {
    await this.ctx.catchUp();
    return (await import('./record-changes.js')).recordHistory(this.readState(options.listing), key, options);
  }

}
