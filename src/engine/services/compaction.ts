// Compaction of merge-on-read tables, scheduling: a plan (`<c>.compaction.requested`) made under the commit
// lock, only while no other write is pending (Hudi's rule), from committed logs only; and dropping a plan.
// compaction-run.ts runs plans (loaded only when one runs).
import { LakeletError } from '../../errors.js';
import { planCompaction, type CompactionTrigger } from '../../plan/compaction-schedule.js';
import { serializeCompactionPlan, type CompactionOperation } from '../../timeline/compaction-plan.js';
import { WRITE_ACTIONS, type Instant } from '../../timeline/instant.js';
import { deleteMarkers, markedFiles, newInstantTime } from '../commit/commit-protocol.js';
import { instantTransition } from '../commit/transitions.js';
import { withCommitLock } from '../commit/commit-lock.js';
import { pendingCompactionGroups } from './pending-compactions.js';
import { pendingClusteringGroups } from './pending-clustering.js';
import { HEARTBEAT_TIMEOUT_MS, heartbeatExpired } from '../commit/heartbeat.js';
import type { TableState } from '../table-state.js';
import { reloadTimeline, type EngineContext } from '../context.js';
import type { ResolvedWriteOptions } from '../write/write-options.js';
import { systemClock, type Clock } from '../clock.js';

/** What a compaction did. */
export interface CompactionResult {
  instant: string;
  fileGroups: number;
  recordsWritten: number;
  logFilesCompacted: number;
}

/** The time source of table services: `now` pins the instant time (tests), else `clock` gives it. */
export interface ServiceTiming {
  clock?: Clock;
  now?: Date;
  /** Silence after which a pending write's (or a compaction run's) heartbeat counts as stopped (default 60 s; 0: at once). */
  heartbeatTimeoutMs?: number;
}

/** Options of {@link scheduleCompaction}. */
export interface ScheduleOptions extends ServiceTiming {
  /**
   * While another write is pending and its writer alive, no plan is made: `skip` returns undefined (inline
   * compaction after a write), `conflict` throws `CONFLICT` naming the write (an explicit compact). Default `skip`.
   */
  whenWritesPending?: 'skip' | 'conflict';
}

/**
 * What compaction runs need. With a `pool`, each slice is merged and its new base file encoded by a
 * `compactFileSlice` task on it (the merge handle's path; this thread only reads and writes files); without
 * one (or with size 0), inline.
 */
export type CompactionRunOptions = Pick<ResolvedWriteOptions, 'codec' | 'rowGroupRows' | 'bloomFilter'> & Partial<Pick<ResolvedWriteOptions, 'pool'>> & ServiceTiming;

/** Compaction is for merge-on-read tables: any other → `UNSUPPORTED`. */
export function requireMergeOnRead(state: TableState): void {
  if (state.config.tableType !== 'MERGE_ON_READ') throw new LakeletError('UNSUPPORTED', 'compaction: only merge-on-read tables are compacted', { value: state.config.tableType });
}

/** What a compaction scheduled on a table state would plan, and the writes pending then. */
export interface CompactionSchedule {
  /** The plan's operations (undefined: no plan — the trigger is not reached, or no slice has committed logs). */
  operations: CompactionOperation[] | undefined;
  /** Writes pending on the timeline (their logs are left out of the plan; a live one stops it being made). */
  pendingWrites: Instant[];
}

/**
 * The plan {@link scheduleCompaction} makes on `state` (and `Table.compactionPlan` shows without making it):
 * the latest slices without the groups of pending compactions and clusterings (a clustering rewrites them
 * elsewhere) and without the logs pending writes marked (uncommitted), by the trigger (or `force`). Reads only.
 */
export async function compactionSchedule(state: TableState, trigger: CompactionTrigger, force: boolean): Promise<CompactionSchedule> {
  const pendingWrites = state.timeline.pending().filter((i) => WRITE_ACTIONS.has(i.action));
  const uncommitted = new Set<string>();
  for (const w of pendingWrites) for (const f of await markedFiles(state.storage, w.requestedTime)) uncommitted.add(f);
  const pending = new Set([...(await pendingCompactionGroups(state)).keys(), ...(await pendingClusteringGroups(state)).keys()]);
  const operations = planCompaction((await state.fileSystemView()).latestSlices(), state.timeline, pending, trigger, force, uncommitted);
  return { operations, pendingWrites };
}

/**
 * Schedule a compaction when the trigger says so (or `force`); returns its instant, or undefined. Runs under
 * the commit lock, so no write completes while the plan is made: a write still pending then either saw no
 * plan and is alive (no plan is made, see `whenWritesPending`) or is a failed write whose logs the plan
 * leaves out (they are uncommitted; its rollback removes them). A writer that did not see the plan and
 * touches one of its groups fails its commit with `CONFLICT`.
 */
export async function scheduleCompaction(ctx: EngineContext, trigger: CompactionTrigger, force = false, options: ScheduleOptions = {}): Promise<string | undefined> {
  const { storage } = ctx;
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const first = await ctx.snapshot();
  requireMergeOnRead(first);
  // The lock's owner is named by a current instant time (no heartbeat: its own time vouches for it).
  const owner = newInstantTime(first, clock);
  const ownerGone = (o: string) => heartbeatExpired(storage, o, timeoutMs, clock);
  return withCommitLock(storage, owner, async (held) => {
    const state = await reloadTimeline(first); // under the lock: the timeline as it is now
    const { operations, pendingWrites } = await compactionSchedule(state, trigger, force);
    if (!operations) return undefined;
    for (const w of pendingWrites) {
      if (await heartbeatExpired(storage, w.requestedTime, timeoutMs, clock)) continue;
      if (options.whenWritesPending !== 'conflict') return undefined;
      throw new LakeletError('CONFLICT', `compaction: write ${w.requestedTime} (${w.action}) is still in progress; a compaction is planned only when no other write is pending — retry when it has completed`, { instant: w.requestedTime });
    }
    const instant = newInstantTime(state, options.now ?? clock);
    await held();
    ctx.invalidate();
    const created = await instantTransition(storage, state.config, instant, 'compaction').request(serializeCompactionPlan({ operations }));
    if (!created) throw new LakeletError('CONFLICT', `compaction: instant ${instant} already exists`, { instant });
    return instant;
  }, { ownerGone, clock });
}

/**
 * Drop a pending compaction plan (and any files a crashed run of it left): used when the writes it was
 * planned from are rolled back or restored away.
 */
export async function dropCompactionPlan(state: TableState, instant: string): Promise<void> {
  const { storage } = state;
  for (const f of await markedFiles(storage, instant)) await storage.delete(f);
  await deleteMarkers(storage, instant);
  const files = state.timeline.files.filter((f) => f.requestedTime === instant && f.action === 'compaction');
  // Inflight first, the plan last: a crash in between leaves a plan that is simply re-run or dropped again.
  for (const f of files.sort((a, b) => (a.state === 'REQUESTED' ? 1 : 0) - (b.state === 'REQUESTED' ? 1 : 0))) await storage.delete(state.instantPath(f));
}
