// Rollback (hudi-format.md §4.3, §12.8): undoes a failed (pending) write or the latest completed one —
// plan as `<r>.rollback.requested`, the write made invisible first, its base files deleted, a rollback
// COMMAND block written in a new log version for every log file it wrote (merge-on-read, as Hudi does),
// its timeline files removed, then `<r>.rollback` completed. Interrupted rollbacks are finished later.
import { LakeletError } from '../errors.js';
import { parseBaseFileName, parseLogFileName } from '../file-group/file-names.js';
import type { Storage } from '../storage/storage.js';
import { parseCommitMetadata } from '../timeline/commit-metadata.js';
import { WRITE_ACTIONS, type Instant } from '../timeline/instant.js';
import { parseRollbackPlan, serializeRollbackMetadata, serializeRollbackPlan } from '../timeline/rollback-metadata.js';
import { deleteMarkers, markedFiles, newInstantTime } from './commit-protocol.js';
import { nextLogVersion, rollbackCommandBlock } from './log-writer.js';
import { TableState } from './table-state.js';
import { dropCompactionPlan } from './compaction.js';
import { HEARTBEAT_DIR, heartbeatExpired } from './heartbeat.js';

/** What a rollback did. */
export interface RollbackResult {
  /** The rollback instant. */
  instant: string;
  /** The instant rolled back. */
  rolledBack: string;
  filesDeleted: number;
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
    const present = (await storage.list(partition)).map((f) => parseLogFileName(nameOf(f.path))).filter((l) => l !== undefined);
    const version = nextLogVersion(present.map((l) => ({ fileId: l.fileId, instantTime: l.instantTime, version: l.version })), fileId, base);
    const name = `.${fileId}_${base}.log.${version}_1-0-1`;
    const path = partition === '' ? name : `${partition}/${name}`;
    await storage.write(path, block);
    written[path] = block.length;
  }
  return written;
}

/** Carry out a planned rollback: hide the target, remove its files, clean its timeline, complete. */
async function executeRollback(state: TableState, rollbackTime: string, target: { requestedTime: string; action: string }, targets: RollbackTargets, started: number): Promise<RollbackResult> {
  const { storage, config } = state;
  // Every timeline file of the instant, except a compaction's plan: a rolled-back compaction is pending
  // again (as in Hudi) and re-runs without the rolled-back blocks.
  const targetFiles = state.timeline.files.filter((f) => f.requestedTime === target.requestedTime && f.action !== 'rollback' && !(f.action === 'compaction' && f.state === 'REQUESTED'));
  // The completed file goes first: from then on readers no longer see the write.
  for (const f of targetFiles.filter((x) => x.state === 'COMPLETED')) await storage.delete(`${config.timelinePath}/${f.fileName}`);
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
    timeTakenInMillis: Date.now() - started,
    totalFilesDeleted: targets.baseFiles.length,
    commitsRollback: [target.requestedTime],
    partitionMetadata: byPartition,
    instantsRollback: [{ commitTime: target.requestedTime, action: target.action }],
  });
  await storage.write(`${config.timelinePath}/${rollbackTime}.rollback`, metadata);
  return { instant: rollbackTime, rolledBack: target.requestedTime, filesDeleted: targets.baseFiles.length };
}

/** Roll back one write instant (pending, or completed), writing a rollback instant. */
export async function rollbackInstant(state: TableState, target: Instant, now?: Date): Promise<RollbackResult> {
  if (!WRITE_ACTIONS.has(target.action)) {
    throw new LakeletError('UNSUPPORTED', `rollback: cannot roll back a ${target.action} instant (${target.requestedTime})`, { instant: target.requestedTime });
  }
  const started = Date.now();
  const rollbackTime = newInstantTime(state, now);
  const targets = await targetsOf(state, target);
  const partitions = new Set([...targets.baseFiles, ...targets.logFiles].map(partitionOf));
  const plan = serializeRollbackPlan({
    instantToRollback: { commitTime: target.requestedTime, action: target.action },
    rollbackRequests: [...partitions].sort().map((partitionPath) => ({
      partitionPath,
      filesToBeDeleted: targets.baseFiles.filter((f) => partitionOf(f) === partitionPath),
      logBlocksToBeDeleted: Object.fromEntries(targets.logFiles.filter((f) => partitionOf(f) === partitionPath).map((f) => [f, 0])),
    })),
  });
  const { storage, config } = state;
  await storage.write(`${config.timelinePath}/${rollbackTime}.rollback.requested`, plan);
  await storage.write(`${config.timelinePath}/${rollbackTime}.rollback.inflight`, new Uint8Array(0));
  return executeRollback(state, rollbackTime, target, targets, started);
}

/** True for commits made by table services (compaction, clustering, log compaction), not by writers. */
export function isTableServiceCommit(state: TableState, instant: Instant): boolean {
  return state.timeline.files.some((f) => f.requestedTime === instant.requestedTime && (f.action === 'compaction' || f.action === 'clustering' || f.action === 'logcompaction'));
}

/**
 * Undo the latest completed data write (or `instant`, which must be the latest data write or pending):
 * table-service commits made after it (compactions that merged its logs) are rolled back first, newest
 * first. Returns the rollback of the write itself.
 */
export async function rollbackLatestWrite(storage: Storage, instant?: string, now?: Date, heartbeatTimeoutMs = 0): Promise<RollbackResult> {
  const failed = await rollbackFailedWrites(storage, now, heartbeatTimeoutMs);
  const pendingTarget = instant === undefined ? undefined : failed.find((r) => r.rolledBack === instant);
  if (pendingTarget) return pendingTarget; // the instant was a failed (pending) write: already rolled back
  let state = await TableState.load(storage);
  const writes = state.timeline.completedWrites();
  const dataWrites = writes.filter((w) => !isTableServiceCommit(state, w));
  const latest = dataWrites.at(-1);
  const time = instant ?? latest?.requestedTime;
  if (time === undefined) throw new LakeletError('NOT_FOUND', 'rollback: the table has no commit to roll back', {});
  const target = state.timeline.get(time);
  if (!target || !WRITE_ACTIONS.has(target.action)) throw new LakeletError('NOT_FOUND', `rollback: no commit ${JSON.stringify(time)} on the timeline`, { instant: time });
  if (target.requestedTime !== latest?.requestedTime) {
    throw new LakeletError('INVALID_ARGUMENT', `rollback: ${time} is not the latest commit (${latest?.requestedTime}); roll back newer commits first or restore a savepoint`, { instant: time });
  }
  const savepointed = new Set(state.timeline.savepoints().map((s) => s.requestedTime));
  const undone = [target, ...writes.filter((w) => w.requestedTime > target.requestedTime)];
  const blocked = undone.find((w) => savepointed.has(w.requestedTime));
  if (blocked) {
    throw new LakeletError('INVALID_ARGUMENT', `rollback: ${blocked.requestedTime} is savepointed; delete the savepoint first`, { instant: blocked.requestedTime });
  }
  for (const service of writes.filter((w) => w.requestedTime > target.requestedTime).reverse()) {
    await rollbackInstant(state, service, now);
    state = await TableState.load(storage);
  }
  // Compaction plans made after the write were built from its files: they go with it.
  for (const plan of state.timeline.instants.filter((i) => i.action === 'compaction' && i.state !== 'COMPLETED' && i.requestedTime > target.requestedTime)) {
    await dropCompactionPlan(state, plan.requestedTime);
  }
  state = await TableState.load(storage);
  return rollbackInstant(state, state.timeline.get(time) ?? target, now);
}

/**
 * Bring the table to a clean state before a write: finish interrupted rollbacks, then roll back every
 * pending commit, deltacommit or replacecommit whose writer is gone — its heartbeat silent for longer than
 * `heartbeatTimeoutMs` (0: every pending write, for single-writer use). Returns the rollbacks done.
 */
export async function rollbackFailedWrites(storage: Storage, now?: Date, heartbeatTimeoutMs = 0): Promise<RollbackResult[]> {
  const results: RollbackResult[] = [];
  let state = await TableState.load(storage);
  for (const pending of state.timeline.pending().filter((i) => i.action === 'rollback')) {
    const path = `${state.config.timelinePath}/${pending.requestedTime}.rollback.requested`;
    const plan = parseRollbackPlan(await storage.read(path), path);
    const targets: RollbackTargets = {
      baseFiles: plan.rollbackRequests.flatMap((r) => r.filesToBeDeleted),
      logFiles: plan.rollbackRequests.flatMap((r) => Object.keys(r.logBlocksToBeDeleted)),
    };
    results.push(await executeRollback(state, pending.requestedTime, { requestedTime: plan.instantToRollback.commitTime, action: plan.instantToRollback.action }, targets, Date.now()));
    state = await TableState.load(storage);
  }
  for (const pending of state.timeline.pending().filter((i) => WRITE_ACTIONS.has(i.action))) {
    // A pending write whose writer still beats its heartbeat is running elsewhere: leave it alone.
    if (!(await heartbeatExpired(storage, pending.requestedTime, heartbeatTimeoutMs))) continue;
    results.push(await rollbackInstant(state, pending, now));
    await storage.delete(`${HEARTBEAT_DIR}/${pending.requestedTime}`);
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
