// Rollback (hudi-format.md §4.3, §12.8): undoes a failed (pending) write or the latest completed one —
// plan as `<r>.rollback.requested`, the write made invisible first, its base files deleted, a rollback
// COMMAND block written in a new log version for every log file it wrote (merge-on-read v6, as Hudi does; v8/v9
// logs are the write's own files and are deleted instead), its timeline files removed, then `<r>.rollback`
// completed. Interrupted rollbacks are finished later.
import { isLakeletError, LakeletError } from '../../errors.js';
import { logFileName, parseLogFileName } from '../../file-group/file-names.js';
import { baseName, heartbeatPath, instantFilePath, parentPath, partitionFilePath, timelineFilePath } from '../../layout.js';
import type { Storage } from '../../storage/storage.js';
import { commandBlockSlices, rollbackPlan, rollbackTargets, targetsOfPlan, type RollbackTargets } from '../../plan/rollback-plan.js';
import { parseCommitMetadata } from '../../timeline/commit-metadata.js';
import { WRITE_ACTIONS, type Instant } from '../../timeline/instant.js';
import { parseRollbackPlan, serializeRollbackMetadata, serializeRollbackPlan } from '../../timeline/rollback-metadata.js';
import { deleteMarkers, markedFiles, newInstantTime, sweepWriteLeftovers } from '../commit/commit-protocol.js';
import { withCommitLock } from '../commit/commit-lock.js';
import { systemClock, type Clock } from '../clock.js';
import { nextLogVersion, rollbackCommandBlock } from '../write/append-handle.js';
import type { TableState } from '../table-state.js';
import { reloadTimeline } from '../context.js';
import { HEARTBEAT_TIMEOUT_MS, heartbeatExpired } from '../commit/heartbeat.js';
import { instantTransition } from '../commit/transitions.js';
import { parseMetadataPartitions } from '../../metadata/metadata-partitions.js';
import { pendingClusterings } from './pending-clustering.js';

/** What a rollback did. */
export interface RollbackResult {
  /** The rollback instant. */
  instant: string;
  /** The instant rolled back. */
  rolledBack: string;
  filesDeleted: number;
  /**
   * Set when the rollback took effect (the rolled-back commit is no longer visible) but a later step of it
   * failed: the error's message. The rollback stays pending and the next write (or rollback) finishes it.
   */
  unfinished?: string;
}

/** Data files the target instant wrote (plan/rollback-plan.ts): from its markers and, when completed, its write stats. */
async function targetsOf(state: TableState, target: Instant): Promise<RollbackTargets> {
  const marked = await markedFiles(state.storage, target.requestedTime);
  const path = timelineFilePath(state.config, target);
  const metadata = target.state === 'COMPLETED' ? parseCommitMetadata(await state.storage.read(path), path) : undefined;
  const targets = rollbackTargets(target, marked, metadata);
  if (state.config.timelineLayoutVersion !== 2) return targets;
  // v8/v9 logs are named after the deltacommit that wrote them and hold only its blocks: deleted like its base
  // files, no command block (hudi-v9-write.md §3, fixture v9_nonpartitioned_rollback).
  const own = (f: string) => parseLogFileName(baseName(f))?.instantTime === target.requestedTime;
  return { baseFiles: [...targets.baseFiles, ...targets.logFiles.filter(own)].sort(), logFiles: targets.logFiles.filter((f) => !own(f)) };
}

/** Write a rollback command block as the next log version of each log file's slice; returns the new paths. */
async function writeCommandBlocks(storage: Storage, rollbackTime: string, targetInstant: string, logFiles: readonly string[]): Promise<Record<string, number>> {
  const written: Record<string, number> = {};
  const block = rollbackCommandBlock(rollbackTime, targetInstant);
  for (const { partitionPath: partition, fileId, baseInstantTime: base } of commandBlockSlices(logFiles)) {
    const files = await storage.list(partition);
    // An interrupted run of this same rollback may have written the block already: reuse that file rather
    // than leave it behind unreferenced (the block's bytes name this rollback instant, so equal bytes are it).
    const again = await findSameBlock(storage, files, fileId, base, block);
    if (again !== undefined) {
      written[again] = block.length;
      continue;
    }
    const present = files.map((f) => parseLogFileName(baseName(f.path))).filter((l) => l !== undefined);
    const version = nextLogVersion(present.map((l) => ({ fileId: l.fileId, instantTime: l.instantTime, version: l.version })), fileId, base);
    const path = partitionFilePath(partition, logFileName(fileId, base, version, '1-0-1'));
    await storage.write(path, block);
    written[path] = block.length;
  }
  return written;
}

/** A log file of the slice holding exactly `block`, if any. */
async function findSameBlock(storage: Storage, files: readonly { path: string; size: number }[], fileId: string, base: string, block: Uint8Array): Promise<string | undefined> {
  for (const f of files) {
    const log = parseLogFileName(baseName(f.path));
    if (!log || log.fileId !== fileId || log.instantTime !== base || f.size !== block.length) continue;
    const bytes = await storage.read(f.path);
    if (bytes.length === block.length && bytes.every((b, i) => b === block[i])) return f.path;
  }
  return undefined;
}

/** Carry out a planned rollback: hide the target, remove its files, clean its timeline, complete. */
async function executeRollback(state: TableState, rollbackTime: string, target: { requestedTime: string; action: string }, targets: RollbackTargets, started: number, clock: Clock): Promise<RollbackResult> {
  const { storage, config } = state;
  // Every timeline file of the instant, except a compaction's plan: a rolled-back compaction is pending
  // again (as in Hudi) and re-runs without the rolled-back blocks.
  const targetFiles = state.timeline.files.filter((f) => f.requestedTime === target.requestedTime && f.action !== 'rollback' && !(f.action === 'compaction' && f.state === 'REQUESTED'));
  // The completed file goes first: from then on readers no longer see the write, the rollback has taken
  // effect, and a later failure is not reported as if nothing happened — the pending rollback is finished
  // by the next writer.
  const completed = targetFiles.filter((x) => x.state === 'COMPLETED').map((f) => timelineFilePath(config, f));
  for (const f of completed) {
    try {
      await storage.delete(f);
    } catch (err) {
      if (await exists(storage, f)) throw err; // not deleted: nothing took effect
    }
  }
  const result = { instant: rollbackTime, rolledBack: target.requestedTime, filesDeleted: targets.baseFiles.length };
  try {
    return await finishRollback(state, rollbackTime, target, targets, targetFiles, started, clock);
  } catch (err) {
    if (completed.length === 0) throw err;
    return { ...result, unfinished: err instanceof Error ? err.message : String(err) };
  }
}

async function exists(storage: Storage, path: string): Promise<boolean> {
  try {
    await storage.head(path);
    return true;
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND')) return false;
    return true; // cannot tell: assume it is still there
  }
}

/** The rest of a rollback once its target is hidden: files, command blocks, timeline files, completion. */
async function finishRollback(state: TableState, rollbackTime: string, target: { requestedTime: string; action: string }, targets: RollbackTargets, targetFiles: readonly Instant[], started: number, clock: Clock): Promise<RollbackResult> {
  const { storage, config } = state;
  for (const f of targets.baseFiles) await storage.delete(f);
  const commandLogs = await writeCommandBlocks(storage, rollbackTime, target.requestedTime, targets.logFiles);
  for (const f of targetFiles.filter((x) => x.state !== 'COMPLETED')) await storage.delete(timelineFilePath(config, f));
  await deleteMarkers(storage, target.requestedTime);
  const byPartition: Record<string, { partitionPath: string; successDeleteFiles: string[]; rollbackLogFiles: Record<string, number>; logFilesFromFailedCommit: Record<string, number> }> = {};
  const entry = (p: string) => (byPartition[p] ??= { partitionPath: p, successDeleteFiles: [], rollbackLogFiles: {}, logFilesFromFailedCommit: {} });
  for (const f of targets.baseFiles) entry(parentPath(f)).successDeleteFiles.push(f);
  for (const [f, size] of Object.entries(commandLogs)) entry(parentPath(f)).rollbackLogFiles[f] = size;
  for (const f of targets.logFiles) entry(parentPath(f)).logFilesFromFailedCommit[f] = 0;
  const metadata = serializeRollbackMetadata({
    startRollbackTime: rollbackTime,
    timeTakenInMillis: Math.max(0, clock.now() - started),
    totalFilesDeleted: targets.baseFiles.length,
    commitsRollback: [target.requestedTime],
    partitionMetadata: byPartition,
    instantsRollback: [{ commitTime: target.requestedTime, action: target.action }],
  });
  // The MDT's rollback of the target's MDT deltacommit completes first (v8/v9 with an MDT; else a no-op).
  // The MDT code loads only for a table with a metadata table (../metadata/lazy.ts).
  const withMetadataTable = config.version >= 8 && parseMetadataPartitions(config.properties.get('hoodie.table.metadata.partitions')).length > 0;
  const completionClock = withMetadataTable ? await (await import('../metadata/lazy.js')).rollbackMetadataDeltacommit(storage, config, rollbackTime, target, clock) : clock;
  await instantTransition(storage, config, rollbackTime, 'rollback').complete(metadata, { mode: 'overwrite', clock: completionClock });
  return { instant: rollbackTime, rolledBack: target.requestedTime, filesDeleted: targets.baseFiles.length };
}

/** Write the rollback plan `<r>.rollback.requested` for `target`. */
async function planRollback(state: TableState, rollbackTime: string, target: Instant, targets: RollbackTargets): Promise<void> {
  const plan = serializeRollbackPlan(rollbackPlan(target, targets));
  await instantTransition(state.storage, state.config, rollbackTime, 'rollback').request(plan, { mode: 'overwrite' });
}

function checkRollbackable(target: Instant): void {
  if (!WRITE_ACTIONS.has(target.action)) {
    throw new LakeletError('UNSUPPORTED', `rollback: cannot roll back a ${target.action} instant (${target.requestedTime})`, { instant: target.requestedTime });
  }
}

/** Roll back one write instant (pending, or completed), writing a rollback instant. `now` pins its time. */
export async function rollbackInstant(state: TableState, target: Instant, now: Date | Clock = systemClock): Promise<RollbackResult> {
  checkRollbackable(target);
  const clock = now instanceof Date ? systemClock : now;
  const started = clock.now();
  const rollbackTime = newInstantTime(state, now);
  const targets = await targetsOf(state, target);
  await planRollback(state, rollbackTime, target, targets);
  await instantTransition(state.storage, state.config, rollbackTime, 'rollback').markInflight();
  return executeRollback(state, rollbackTime, target, targets, started, clock);
}

/** How a rollback reads the time and judges pending writes. */
export interface RollbackOptions {
  /** Pins the rollback instant time (tests); else `clock` gives it. */
  now?: Date;
  /** Time source of instant times and heartbeat expiry (default the system clock). */
  clock?: Clock;
  /**
   * A pending write whose heartbeat has been silent this long (ms) counts as failed (default 60 000; 0: every
   * pending write counts as failed — single-writer use).
   */
  heartbeatTimeoutMs?: number;
  /**
   * Roll back a pending write even though its heartbeat is alive (default false). Its writer, if it is in
   * fact still running, then fails with `ABORTED` instead of committing.
   */
  force?: boolean;
}

/**
 * Roll back the pending write `time` as one step against concurrent writers: under the commit lock, check
 * that it is still pending (and, unless `force`, that its heartbeat expired) and write the rollback plan.
 * A writer that commits holds the same lock and refuses to complete once a plan for its instant exists, so
 * a write is either committed or rolled back, never both. Undefined when the write completed (or vanished,
 * or came back to life) meanwhile. `loaded` is the table as the caller loaded it; the lock holder lists the
 * timeline afresh.
 */
export async function rollbackPendingWrite(loaded: TableState, time: string, options: RollbackOptions, force: boolean): Promise<RollbackResult | undefined> {
  const storage = loaded.storage;
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const started = clock.now();
  const owner = newInstantTime(loaded, options.now ?? clock);
  const ownerGone = (o: string) => heartbeatExpired(storage, o, timeoutMs, clock);
  const planned = await withCommitLock(storage, owner, async () => {
    const state = await reloadTimeline(loaded);
    const target = state.timeline.get(time);
    if (!target || target.state === 'COMPLETED' || !WRITE_ACTIONS.has(target.action)) return undefined;
    if (!force && !(await heartbeatExpired(storage, time, timeoutMs, clock))) return undefined;
    const rollbackTime = newInstantTime(state, options.now ?? clock);
    const targets = await targetsOf(state, target);
    await planRollback(state, rollbackTime, target, targets);
    return { state, target, targets, rollbackTime };
  }, { ownerGone, clock });
  if (!planned) return undefined;
  const { state, target, targets, rollbackTime } = planned;
  await instantTransition(storage, state.config, rollbackTime, 'rollback').markInflight();
  const result = await executeRollback(state, rollbackTime, target, targets, started, clock);
  await storage.delete(heartbeatPath(time));
  return result;
}

/** True for commits made by table services (compaction, clustering, log compaction), not by writers. */
export function isTableServiceCommit(state: TableState, instant: Instant): boolean {
  return state.timeline.files.some((f) => f.requestedTime === instant.requestedTime && (f.action === 'compaction' || f.action === 'clustering' || f.action === 'logcompaction'));
}

/**
 * Bring the table to a clean state before a write: finish interrupted rollbacks, then roll back every
 * pending commit, deltacommit or replacecommit whose writer is gone — its heartbeat silent for longer than
 * `heartbeatTimeoutMs` (0: every pending write, for single-writer use) by `clock`. Returns the rollbacks done
 * (none: the timeline of `loaded`, the table as the caller loaded it, is unchanged).
 */
export async function rollbackFailedWrites(loaded: TableState, now?: Date, heartbeatTimeoutMs = 0, clock: Clock = systemClock): Promise<RollbackResult[]> {
  const results: RollbackResult[] = [];
  const storage = loaded.storage;
  let state = loaded;
  for (const pending of state.timeline.pending().filter((i) => i.action === 'rollback')) {
    const path = instantFilePath(state.config, pending.requestedTime, 'rollback', 'REQUESTED');
    const plan = parseRollbackPlan(await storage.read(path), path);
    const targets = targetsOfPlan(plan);
    results.push(await executeRollback(state, pending.requestedTime, { requestedTime: plan.instantToRollback.commitTime, action: plan.instantToRollback.action }, targets, clock.now(), clock));
    await storage.delete(heartbeatPath(plan.instantToRollback.commitTime));
    state = await reloadTimeline(state);
  }
  // A pending clustering (a v6 replacecommit whose plan is CLUSTER) is a table service: re-run, not rolled back,
  // as Hudi leaves pending clustering out of its failed-write rollback.
  const clusterings = new Set((await pendingClusterings(state)).map((c) => c.instant));
  for (const pending of state.timeline.pending().filter((i) => WRITE_ACTIONS.has(i.action) && !clusterings.has(i.requestedTime))) {
    // A pending write whose writer still beats its heartbeat is running elsewhere: leave it alone.
    if (!(await heartbeatExpired(storage, pending.requestedTime, heartbeatTimeoutMs, clock))) continue;
    const done = await rollbackPendingWrite(state, pending.requestedTime, { ...(now && { now }), clock, heartbeatTimeoutMs }, false);
    if (done) results.push(done);
    state = await reloadTimeline(state);
  }
  await sweepWriteLeftovers(state);
  return results;
}
