// Rollback (hudi-format.md §4.3, §12.8): undoes a failed (pending) write or the latest completed one —
// plan as `<r>.rollback.requested`, the write made invisible first, its base files deleted, a rollback
// COMMAND block written in a new log version for every log file it wrote (merge-on-read, as Hudi does),
// its timeline files removed, then `<r>.rollback` completed. Interrupted rollbacks are finished later.
import { isLakeletError, LakeletError } from '../../errors.js';
import { parseBaseFileName, parseLogFileName } from '../../file-group/file-names.js';
import type { Storage } from '../../storage/storage.js';
import { parseCommitMetadata } from '../../timeline/commit-metadata.js';
import { WRITE_ACTIONS, type Instant } from '../../timeline/instant.js';
import { parseRollbackPlan, serializeRollbackMetadata, serializeRollbackPlan } from '../../timeline/rollback-metadata.js';
import { deleteMarkers, markedFiles, newInstantTime } from '../commit/commit-protocol.js';
import { withCommitLock } from '../commit/commit-lock.js';
import { systemClock, type Clock } from '../clock.js';
import { nextLogVersion, rollbackCommandBlock } from '../write/append-handle.js';
import { TableState } from '../table-state.js';
import { HEARTBEAT_DIR, HEARTBEAT_TIMEOUT_MS, heartbeatExpired } from '../commit/heartbeat.js';

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

/** What a rollback removes: base files to delete, log files whose blocks a command block must hide. */
interface RollbackTargets {
  baseFiles: string[];
  logFiles: string[];
}

function partitionOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Data files the target instant wrote: from its markers and, when completed, its write stats. */
async function targetsOf(state: TableState, target: Instant): Promise<RollbackTargets> {
  const files = new Set(await markedFiles(state.storage, target.requestedTime));
  if (target.state === 'COMPLETED') {
    const path = `${state.config.timelinePath}/${target.fileName}`;
    const md = parseCommitMetadata(await state.storage.read(path), path);
    for (const stats of Object.values(md.partitionToWriteStats)) {
      for (const s of stats) {
        if (!s.path) continue;
        const base = parseBaseFileName(nameOf(s.path));
        if ((base && base.instantTime === target.requestedTime) || (!base && parseLogFileName(nameOf(s.path)))) files.add(s.path);
      }
    }
  }
  const all = [...files].sort();
  return { baseFiles: all.filter((f) => !parseLogFileName(nameOf(f))), logFiles: all.filter((f) => parseLogFileName(nameOf(f))) };
}

/** Write a rollback command block as the next log version of each log file's slice; returns the new paths. */
async function writeCommandBlocks(storage: Storage, rollbackTime: string, targetInstant: string, logFiles: readonly string[]): Promise<Record<string, number>> {
  const written: Record<string, number> = {};
  const block = rollbackCommandBlock(rollbackTime, targetInstant);
  const slices = new Map<string, { partition: string; fileId: string; base: string }>();
  for (const path of logFiles) {
    const log = parseLogFileName(nameOf(path));
    if (log) slices.set(`${partitionOf(path)}\u0000${log.fileId}\u0000${log.instantTime}`, { partition: partitionOf(path), fileId: log.fileId, base: log.instantTime });
  }
  for (const { partition, fileId, base } of slices.values()) {
    const files = await storage.list(partition);
    // An interrupted run of this same rollback may have written the block already: reuse that file rather
    // than leave it behind unreferenced (the block's bytes name this rollback instant, so equal bytes are it).
    const again = await findSameBlock(storage, files, fileId, base, block);
    if (again !== undefined) {
      written[again] = block.length;
      continue;
    }
    const present = files.map((f) => parseLogFileName(nameOf(f.path))).filter((l) => l !== undefined);
    const version = nextLogVersion(present.map((l) => ({ fileId: l.fileId, instantTime: l.instantTime, version: l.version })), fileId, base);
    const name = `.${fileId}_${base}.log.${version}_1-0-1`;
    const path = partition === '' ? name : `${partition}/${name}`;
    await storage.write(path, block);
    written[path] = block.length;
  }
  return written;
}

/** A log file of the slice holding exactly `block`, if any. */
async function findSameBlock(storage: Storage, files: readonly { path: string; size: number }[], fileId: string, base: string, block: Uint8Array): Promise<string | undefined> {
  for (const f of files) {
    const log = parseLogFileName(nameOf(f.path));
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
  const completed = targetFiles.filter((x) => x.state === 'COMPLETED').map((f) => `${config.timelinePath}/${f.fileName}`);
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
  for (const f of targetFiles.filter((x) => x.state !== 'COMPLETED')) await storage.delete(`${config.timelinePath}/${f.fileName}`);
  await deleteMarkers(storage, target.requestedTime);
  const byPartition: Record<string, { partitionPath: string; successDeleteFiles: string[]; rollbackLogFiles: Record<string, number>; logFilesFromFailedCommit: Record<string, number> }> = {};
  const entry = (p: string) => (byPartition[p] ??= { partitionPath: p, successDeleteFiles: [], rollbackLogFiles: {}, logFilesFromFailedCommit: {} });
  for (const f of targets.baseFiles) entry(partitionOf(f)).successDeleteFiles.push(f);
  for (const [f, size] of Object.entries(commandLogs)) entry(partitionOf(f)).rollbackLogFiles[f] = size;
  for (const f of targets.logFiles) entry(partitionOf(f)).logFilesFromFailedCommit[f] = 0;
  const metadata = serializeRollbackMetadata({
    startRollbackTime: rollbackTime,
    timeTakenInMillis: Math.max(0, clock.now() - started),
    totalFilesDeleted: targets.baseFiles.length,
    commitsRollback: [target.requestedTime],
    partitionMetadata: byPartition,
    instantsRollback: [{ commitTime: target.requestedTime, action: target.action }],
  });
  await storage.write(`${config.timelinePath}/${rollbackTime}.rollback`, metadata);
  return { instant: rollbackTime, rolledBack: target.requestedTime, filesDeleted: targets.baseFiles.length };
}

/** Write the rollback plan `<r>.rollback.requested` for `target`. */
async function planRollback(state: TableState, rollbackTime: string, target: Instant, targets: RollbackTargets): Promise<void> {
  const partitions = new Set([...targets.baseFiles, ...targets.logFiles].map(partitionOf));
  const plan = serializeRollbackPlan({
    instantToRollback: { commitTime: target.requestedTime, action: target.action },
    rollbackRequests: [...partitions].sort().map((partitionPath) => ({
      partitionPath,
      filesToBeDeleted: targets.baseFiles.filter((f) => partitionOf(f) === partitionPath),
      logBlocksToBeDeleted: Object.fromEntries(targets.logFiles.filter((f) => partitionOf(f) === partitionPath).map((f) => [f, 0])),
    })),
  });
  await state.storage.write(`${state.config.timelinePath}/${rollbackTime}.rollback.requested`, plan);
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
  await state.storage.write(`${state.config.timelinePath}/${rollbackTime}.rollback.inflight`, new Uint8Array(0));
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
 * or came back to life) meanwhile.
 */
export async function rollbackPendingWrite(storage: Storage, time: string, options: RollbackOptions, force: boolean): Promise<RollbackResult | undefined> {
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const started = clock.now();
  const owner = newInstantTime(await TableState.load(storage), options.now ?? clock);
  const ownerGone = (o: string) => heartbeatExpired(storage, o, timeoutMs, clock);
  const planned = await withCommitLock(storage, owner, async () => {
    const state = await TableState.load(storage);
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
  await storage.write(`${state.config.timelinePath}/${rollbackTime}.rollback.inflight`, new Uint8Array(0));
  const result = await executeRollback(state, rollbackTime, target, targets, started, clock);
  await storage.delete(`${HEARTBEAT_DIR}/${time}`);
  return result;
}

/** True for commits made by table services (compaction, clustering, log compaction), not by writers. */
export function isTableServiceCommit(state: TableState, instant: Instant): boolean {
  return state.timeline.files.some((f) => f.requestedTime === instant.requestedTime && (f.action === 'compaction' || f.action === 'clustering' || f.action === 'logcompaction'));
}

/**
 * Bring the table to a clean state before a write: finish interrupted rollbacks, then roll back every
 * pending commit, deltacommit or replacecommit whose writer is gone — its heartbeat silent for longer than
 * `heartbeatTimeoutMs` (0: every pending write, for single-writer use) by `clock`. Returns the rollbacks done.
 */
export async function rollbackFailedWrites(storage: Storage, now?: Date, heartbeatTimeoutMs = 0, clock: Clock = systemClock): Promise<RollbackResult[]> {
  const results: RollbackResult[] = [];
  let state = await TableState.load(storage);
  for (const pending of state.timeline.pending().filter((i) => i.action === 'rollback')) {
    const path = `${state.config.timelinePath}/${pending.requestedTime}.rollback.requested`;
    const plan = parseRollbackPlan(await storage.read(path), path);
    const targets: RollbackTargets = {
      baseFiles: plan.rollbackRequests.flatMap((r) => r.filesToBeDeleted),
      logFiles: plan.rollbackRequests.flatMap((r) => Object.keys(r.logBlocksToBeDeleted)),
    };
    results.push(await executeRollback(state, pending.requestedTime, { requestedTime: plan.instantToRollback.commitTime, action: plan.instantToRollback.action }, targets, clock.now(), clock));
    await storage.delete(`${HEARTBEAT_DIR}/${plan.instantToRollback.commitTime}`);
    state = await TableState.load(storage);
  }
  for (const pending of state.timeline.pending().filter((i) => WRITE_ACTIONS.has(i.action))) {
    // A pending write whose writer still beats its heartbeat is running elsewhere: leave it alone.
    if (!(await heartbeatExpired(storage, pending.requestedTime, heartbeatTimeoutMs, clock))) continue;
    const done = await rollbackPendingWrite(storage, pending.requestedTime, { ...(now && { now }), clock, heartbeatTimeoutMs }, false);
    if (done) results.push(done);
    state = await TableState.load(storage);
  }
  // Heartbeats and markers of writes that completed but crashed before cleaning up after themselves.
  for (const hb of await storage.list(HEARTBEAT_DIR)) {
    const instant = hb.path.slice(hb.path.lastIndexOf('/') + 1);
    if (hb.kind === 'file' && !state.timeline.pending().some((i) => i.requestedTime === instant)) await storage.delete(hb.path);
  }
  for (const dir of await storage.list('.hoodie/.temp')) {
    const instant = dir.path.slice(dir.path.lastIndexOf('/') + 1);
    if (dir.kind === 'directory' && state.timeline.completedAt(instant)) await deleteMarkers(storage, instant);
  }
  return results;
}
