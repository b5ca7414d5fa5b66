// Rollback (hudi-format.md §4.3, §12.8): undoes a failed (pending) write or the latest completed one —
// plan as `<r>.rollback.requested`, the write made invisible first, its data files deleted, its timeline
// files removed, then `<r>.rollback` completed. Interrupted rollbacks are finished by the next writer.
import { LakeletError } from '../errors.js';
import type { Storage } from '../storage/storage.js';
import { parseCommitMetadata } from '../timeline/commit-metadata.js';
import { WRITE_ACTIONS, type Instant } from '../timeline/instant.js';
import { parseRollbackPlan, serializeRollbackMetadata, serializeRollbackPlan, type RollbackRequest } from '../timeline/rollback-metadata.js';
import { deleteMarkers, markedFiles, newInstantTime } from './commit-protocol.js';
import { TableState } from './table-state.js';

/** What a rollback did. */
export interface RollbackResult {
  /** The rollback instant. */
  instant: string;
  /** The instant rolled back. */
  rolledBack: string;
  filesDeleted: number;
}

function partitionOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Data files the target instant wrote: from its markers and, when completed, its write stats. */
async function filesOf(state: TableState, target: Instant): Promise<string[]> {
  const files = new Set(await markedFiles(state.storage, target.requestedTime));
  if (target.state === 'COMPLETED') {
    const path = `${state.config.timelinePath}/${target.fileName}`;
    const md = parseCommitMetadata(await state.storage.read(path), path);
    for (const stats of Object.values(md.partitionToWriteStats)) {
      for (const s of stats) if (s.path && s.path.includes(target.requestedTime)) files.add(s.path);
    }
  }
  return [...files].sort();
}

/** Carry out a planned rollback: hide the target, delete its files, clean its timeline, complete. */
async function executeRollback(state: TableState, rollbackTime: string, target: { requestedTime: string; action: string }, files: string[], started: number): Promise<RollbackResult> {
  const { storage, config } = state;
  const targetFiles = state.timeline.files.filter((f) => f.requestedTime === target.requestedTime && f.action === target.action);
  // The completed file goes first: from then on readers no longer see the write.
  for (const f of targetFiles.filter((x) => x.state === 'COMPLETED')) await storage.delete(`${config.timelinePath}/${f.fileName}`);
  for (const f of files) await storage.delete(f);
  for (const f of targetFiles.filter((x) => x.state !== 'COMPLETED')) await storage.delete(`${config.timelinePath}/${f.fileName}`);
  await deleteMarkers(storage, target.requestedTime);
  const byPartition: Record<string, { partitionPath: string; successDeleteFiles: string[] }> = {};
  for (const f of files) (byPartition[partitionOf(f)] ??= { partitionPath: partitionOf(f), successDeleteFiles: [] }).successDeleteFiles.push(f);
  const metadata = serializeRollbackMetadata({
    startRollbackTime: rollbackTime,
    timeTakenInMillis: Date.now() - started,
    totalFilesDeleted: files.length,
    commitsRollback: [target.requestedTime],
    partitionMetadata: byPartition,
    instantsRollback: [{ commitTime: target.requestedTime, action: target.action }],
  });
  await storage.write(`${config.timelinePath}/${rollbackTime}.rollback`, metadata);
  return { instant: rollbackTime, rolledBack: target.requestedTime, filesDeleted: files.length };
}

/** Roll back one write instant (pending, or completed), writing a rollback instant. */
export async function rollbackInstant(state: TableState, target: Instant, now?: Date): Promise<RollbackResult> {
  if (!WRITE_ACTIONS.has(target.action)) {
    throw new LakeletError('UNSUPPORTED', `rollback: cannot roll back a ${target.action} instant (${target.requestedTime})`, { instant: target.requestedTime });
  }
  const started = Date.now();
  const rollbackTime = newInstantTime(state, now);
  const files = await filesOf(state, target);
  const byPartition = new Map<string, string[]>();
  for (const f of files) {
    const p = partitionOf(f);
    byPartition.set(p, [...(byPartition.get(p) ?? []), f]);
  }
  const requests: Pick<RollbackRequest, 'partitionPath' | 'filesToBeDeleted'>[] = [...byPartition].map(([partitionPath, filesToBeDeleted]) => ({ partitionPath, filesToBeDeleted }));
  const plan = serializeRollbackPlan({ instantToRollback: { commitTime: target.requestedTime, action: target.action }, rollbackRequests: requests });
  const { storage, config } = state;
  await storage.write(`${config.timelinePath}/${rollbackTime}.rollback.requested`, plan);
  await storage.write(`${config.timelinePath}/${rollbackTime}.rollback.inflight`, new Uint8Array(0));
  return executeRollback(state, rollbackTime, target, files, started);
}

/**
 * Bring the table to a clean state before a write: finish interrupted rollbacks, then roll back every
 * pending commit, deltacommit or replacecommit (a failed write). Returns the rollbacks done.
 */
export async function rollbackFailedWrites(storage: Storage, now?: Date): Promise<RollbackResult[]> {
  const results: RollbackResult[] = [];
  let state = await TableState.load(storage);
  for (const pending of state.timeline.pending().filter((i) => i.action === 'rollback')) {
    const path = `${state.config.timelinePath}/${pending.requestedTime}.rollback.requested`;
    const plan = parseRollbackPlan(await storage.read(path), path);
    const files = plan.rollbackRequests.flatMap((r) => r.filesToBeDeleted);
    results.push(await executeRollback(state, pending.requestedTime, { requestedTime: plan.instantToRollback.commitTime, action: plan.instantToRollback.action }, files, Date.now()));
    state = await TableState.load(storage);
  }
  for (const pending of state.timeline.pending().filter((i) => WRITE_ACTIONS.has(i.action))) {
    results.push(await rollbackInstant(state, pending, now));
    state = await TableState.load(storage);
  }
  // Markers of writes that completed but crashed before cleaning up after themselves.
  for (const dir of await storage.list('.hoodie/.temp')) {
    const instant = dir.path.slice(dir.path.lastIndexOf('/') + 1);
    if (dir.kind === 'directory' && state.timeline.completedAt(instant)) await deleteMarkers(storage, instant);
  }
  return results;
}

