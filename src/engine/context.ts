// The engine context of one table (Hudi's engine context + meta client): the store, the table-level write
// options, the worker pool they ask for, the clock and heartbeat timeout, and the table state — loaded here
// and nowhere else, cached as a snapshot until a step that changes the timeline invalidates it.
import type { Storage } from '../storage/storage.js';
import { createWorkerPool, type WorkerPool } from '../worker/pool.js';
import type { Clock } from './clock.js';
import type { KernelsChoice } from './kernels.js';
import { loadTimeline, TableState } from './table-state.js';
import { resolveWriteOptions, samePool, writePoolOptions, type ResolvedWriteOptions, type WriteOptions } from './write/write-options.js';
import type { ListingMode } from './metadata/metadata-listing.js';
import { CommitNotifier } from './commit/notifications.js';

/** A table's read-side defaults (`openTable`'s options). */
export interface TableReadDefaults {
  /** Where reads' file listings come from unless a query says (default `metadata`, see `ReadOptions.listing`). */
  listing?: ListingMode;
}

/**
 * The table as it is on storage now: `hoodie.properties` and the active timeline read afresh, bypassing every
 * cache. For steps whose decision must see the latest timeline (a write's start, a conflict or rollback check).
 */
export function loadTableState(storage: Storage): Promise<TableState> {
  return TableState.load(storage);
}

/**
 * `state`'s table with its active timeline listed afresh and its config kept (no table service and no write
 * but a schema change rewrites `hoodie.properties`): the reload after a step that changed the timeline.
 */
export async function reloadTimeline(state: TableState): Promise<TableState> {
  return new TableState(state.storage, state.config, await loadTimeline(state.storage, state.config));
}

/** A write's resolved options and the release of what the write owns (a pool it started for itself). */
export interface WriteScope {
  options: ResolvedWriteOptions;
  /** Close the pool the write started (when it asked for other workers or kernels than the table's). */
  release(): Promise<void>;
}

/**
 * What the engine needs of one table. One per `Table`: its pool lives until {@link EngineContext.close}, and its
 * snapshot is the state reads share. Writes and services load fresh state at their start ({@link load}); the
 * steps within them share {@link snapshot}, and every step that changes the timeline calls {@link invalidate}.
 */
export class EngineContext {
  private state: TableState | undefined;
  /** What of the cached state is stale: nothing, the timeline (config kept), or everything. */
  private stale: 'none' | 'timeline' | 'all' = 'all';
  private resolved: ResolvedWriteOptions | undefined;
  private pool: WorkerPool | undefined;
  /** The table's read defaults (openTable's options); reads' states are derived from the snapshot with them. */
  readDefaults: TableReadDefaults = {};
  /**
   * The table's commit notifications (`table.onCommit`, the table's BroadcastChannel): told of every state the
   * context adopts, it reports the completed instants not seen before once each.
   */
  readonly notifier: CommitNotifier;
  /** The notification of the last adopted state, awaited by the loads that adopted it. */
  private notifying: Promise<void> = Promise.resolve();
  /** Another page or worker announced a commit: the next read reloads (see {@link catchUp}). */
  private announced = false;
  /** The reload an announcement started (reads wait for it). */
  private catchingUp: Promise<void> = Promise.resolve();

  /**
   * @param storage the table's store (its root is the table root)
   * @param defaults table-level write options (a Table's write defaults): options of every write and service
   * @param state the state just loaded or created, if known (the first snapshot)
   */
  constructor(
    readonly storage: Storage,
    readonly defaults: WriteOptions = {},
    state?: TableState,
  ) {
    this.notifier = new CommitNotifier(storage, () => this.remoteCommit());
    if (state) this.adopt(state);
  }

  /** The table-level options with every default filled in (validated on first use); `pool` is the context's. */
  get options(): ResolvedWriteOptions {
    if (!this.resolved) {
      const resolved = resolveWriteOptions(this.defaults);
      this.resolved = { ...resolved, pool: this.ownPool(resolved) };
    }
    return this.resolved;
  }

  /** The time source of instant times, heartbeats and timeouts (the table's `clock` option, else the system clock). */
  get clock(): Clock {
    return this.options.clock;
  }

  /** The writers' heartbeat timeout (ms) of this table. */
  get heartbeatTimeoutMs(): number {
    return this.options.heartbeatTimeoutMs;
  }

  /** Which kernels the table's steps and workers use. */
  get kernels(): KernelsChoice {
    return this.options.kernels;
  }

  /**
   * The options of one write (or service run): `perWrite` over the table's defaults. Its pool is the context's
   * when it asks for the same workers and kernels, else one the write starts and closes itself (`release`).
   */
  writeOptions(perWrite?: WriteOptions): WriteScope {
    const resolved = resolveWriteOptions(this.defaults, perWrite);
    const table = this.options;
    if (samePool(resolved, table)) return { options: { ...resolved, pool: table.pool }, release: async () => undefined };
    const own = resolved.workers > 0 ? createWorkerPool(writePoolOptions(resolved)) : undefined;
    return { options: { ...resolved, pool: own }, release: async () => { await own?.close(); } };
  }

  /** The state last loaded (what a `Table`'s synchronous getters show); undefined before the first load. */
  get current(): TableState | undefined {
    return this.state;
  }

  /**
   * The table state the steps of one operation and the reads between commits share: the cached one while
   * valid; after {@link invalidate} the timeline is listed again (config kept), or everything is loaded.
   */
  async snapshot(): Promise<TableState> {
    if (this.state && this.stale === 'none') return this.state;
    const next = this.state && this.stale === 'timeline' ? await reloadTimeline(this.state) : await loadTableState(this.storage);
    return this.adoptNotified(next);
  }

  /** Load config and timeline afresh (a write's or service's start, `refresh()`); the result becomes the snapshot. */
  async load(): Promise<TableState> {
    return this.adoptNotified(await loadTableState(this.storage));
  }

  /**
   * Before a read: when another page or worker announced a commit of this table since the last load, reload
   * (config and timeline) so the read sees it; otherwise nothing (no storage call).
   */
  async catchUp(): Promise<void> {
    if (this.announced) {
      this.announced = false;
      this.catchingUp = this.snapshot().then(() => undefined, () => undefined);
    }
    await this.catchingUp;
  }

  /** Another page announced a commit: the snapshot is stale; with listeners, load now so they hear of it. */
  private remoteCommit(): void {
    this.invalidate({ config: true });
    this.announced = true;
    if (this.notifier.listening) void this.catchUp().catch(() => undefined);
  }

  /** {@link adopt}, then wait for the commit notifications of the new state. */
  private async adoptNotified(state: TableState): Promise<TableState> {
    this.adopt(state);
    await this.notifying;
    return state;
  }

  /** Re-list the timeline now (config kept): after a step that changed it. The result becomes the snapshot. */
  async reload(): Promise<TableState> {
    this.invalidate();
    return this.snapshot();
  }

  /**
   * Mark the snapshot stale: its timeline (a commit, rollback or service changed it), or with `config` also
   * `hoodie.properties` (a write that changed the schema). The next {@link snapshot} reloads what is stale.
   */
  invalidate(what: { config?: boolean } = {}): void {
    if (what.config || this.stale === 'all') this.stale = 'all';
    else this.stale = 'timeline';
  }

  /** Make `state` the snapshot. */
  adopt(state: TableState): TableState {
    this.state = state;
    this.stale = 'none';
    const previous = this.notifying;
    this.notifying = previous.then(() => this.notifier.observe(state)).catch(() => undefined);
    return state;
  }

  /** Stop the context's worker pool (if started). The context stays usable: a later write starts a new one. */
  async close(): Promise<void> {
    this.notifier.close();
    const pool = this.pool;
    this.pool = undefined;
    this.resolved = undefined;
    await pool?.close();
  }

  private ownPool(resolved: ResolvedWriteOptions): WorkerPool | undefined {
    if (resolved.workers <= 0) return undefined;
    this.pool ??= createWorkerPool(writePoolOptions(resolved));
    return this.pool;
  }
}

/** A context over `storage` with table-level options `defaults` (nothing loaded yet). */
export function engineContext(storage: Storage, defaults: WriteOptions = {}): EngineContext {
  return new EngineContext(storage, defaults);
}
