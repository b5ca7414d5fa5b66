// Savepoints and restores (hudi-format.md §3.2, §3.3, §12.9), following Hudi's SavepointActionExecutor and
// (CopyOnWrite)RestoreActionExecutor: a savepoint pins the files of a completed commit's snapshot; a restore
// rolls back every write after a savepoint, newest first, under a restore instant that survives crashes.
import { LakeletError, isLakeletError } from '../errors.js';
import type { Storage } from '../storage/storage.js';
import { compareInstantTimes, WRITE_ACTIONS, type Instant } from '../timeline/instant.js';
import { parseRestoreMetadata, parseRestorePlan, serializeRestoreMetadata, serializeRestorePlan, type RestoreMetadata, type RestorePlan } from '../timeline/restore-metadata.js';
import { parseRollbackMetadata, type InstantInfo, type RollbackMetadata } from '../timeline/rollback-metadata.js';
import { serializeSavepointMetadata, type SavepointMetadata, type SavepointPartitionMetadata } from '../timeline/savepoint-metadata.js';
import { newInstantTime } from './commit-protocol.js';
import { requestInstant } from './instant-request.js';
import type { Clock } from './clock.js';
import { dropCompactionPlan } from './compaction.js';
import { rollbackFailedWrites, rollbackInstant } from './rollback.js';
import { TableState } from './table-state.js';

/** Options of {@link savepoint}. */
export interface SavepointOptions {
  /** The completed commit, deltacommit or replacecommit to savepoint (default: the latest one). */
  instant?: string | Instant;
  /** `savepointedBy` (default `"lakelet"`). */
  user?: string;
  /** `comments` (default `""`). */
  comments?: string;
  /** Clock for `savepointedAt` (tests). */
  now?: Date;
}

/** What {@link savepoint} wrote. */
export interface SavepointResult {
  /** The savepoint's instant time: the savepointed commit's requested time. */
  instant: string;
  metadata: SavepointMetadata;
}

/** What a restore did. */
export interface RestoreResult {
  /** The restore instant. */
  instant: string;
  /** The savepoint restored to. */
  savepoint: string;
  /** The write instants rolled back, newest first. */
  rolledBack: InstantInfo[];
  metadata: RestoreMetadata;
}

const timeOf = (i: string | Instant): string => (typeof i === 'string' ? i : i.requestedTime);

function checkTime(value: unknown, what: string): string {
  if (typeof value !== 'string' || !/^\d{14}(\d{3})?$/.test(value)) {
    throw new LakeletError('INVALID_ARGUMENT', `${what}: ${JSON.stringify(value)} is not an instant time (yyyyMMddHHmmss[SSS])`, { value });
  }
  return value;
}

/** The timeline files (all states) of one action at one requested time. */
const filesOf = (state: TableState, time: string, action: string): Instant[] => state.timeline.files.filter((f) => f.requestedTime === time && f.action === action);

/**
 * Savepoint a completed commit (default: the latest): write `<t>.savepoint.inflight`, then `<t>.savepoint`
 * listing the file names (base and log files) of every latest file slice as of `t`, per partition — the files
 * a cleaner must keep and a restore returns to. Not a completed write → `INVALID_ARGUMENT`; already
 * savepointed → `ALREADY_EXISTS`.
 */
export async function savepoint(storage: Storage, options: SavepointOptions = {}): Promise<SavepointResult> {
  const state = await TableState.load(storage);
  const latest = state.timeline.latestWrite();
  const time = options.instant === undefined ? latest?.requestedTime : checkTime(timeOf(options.instant), 'savepoint');
  if (time === undefined) throw new LakeletError('INVALID_ARGUMENT', 'savepoint: the table has no completed commit to savepoint', {});
  if (!state.timeline.isCompletedWrite(time)) {
    throw new LakeletError('INVALID_ARGUMENT', `savepoint: ${time} is not a completed commit, deltacommit or replacecommit`, { instant: time });
  }
  if (filesOf(state, time, 'savepoint').some((f) => f.state === 'COMPLETED')) {
    throw new LakeletError('ALREADY_EXISTS', `savepoint: ${time} is already savepointed`, { instant: time });
  }
  const view = await state.fileSystemView();
  const partitionMetadata: Record<string, SavepointPartitionMetadata> = {};
  for (const slice of view.latestSlices({ asOf: time })) {
    const entry = (partitionMetadata[slice.partitionPath] ??= { partitionPath: slice.partitionPath, savepointDataFile: [] });
    if (slice.baseFile) entry.savepointDataFile.push(slice.baseFile.name);
    for (const log of slice.logFiles) entry.savepointDataFile.push(log.name);
  }
  const metadata: SavepointMetadata = {
    savepointedBy: options.user ?? 'lakelet',
    savepointedAt: (options.now ?? new Date()).getTime(),
    comments: options.comments ?? '',
    partitionMetadata,
    version: 1,
  };
  const dir = state.config.timelinePath;
  await storage.write(`${dir}/${time}.savepoint.inflight`, new Uint8Array(0));
  const path = `${dir}/${time}.savepoint`;
  const bytes = serializeSavepointMetadata(metadata);
  let created: boolean;
  try {
    created = await storage.writeIfAbsent(path, bytes);
  } catch (err) {
    // The create may have taken effect with its answer lost: the savepoint is ours if it holds our bytes.
    if (await holdsBytes(storage, path, bytes)) return { instant: time, metadata };
    throw err;
  }
  if (!created && !(await holdsBytes(storage, path, bytes))) {
    throw new LakeletError('ALREADY_EXISTS', `savepoint: ${time} was savepointed by another writer`, { instant: time });
  }
  return { instant: time, metadata };
}

/**
 * Delete a savepoint (completed file first, then the inflight one, like Hudi). No savepoint files at that
 * time → `NOT_FOUND`. The savepointed commit itself is untouched.
 */
export async function deleteSavepoint(storage: Storage, instant: string | Instant): Promise<void> {
  const time = checkTime(timeOf(instant), 'deleteSavepoint');
  const state = await TableState.load(storage);
  const files = filesOf(state, time, 'savepoint');
  if (files.length === 0) throw new LakeletError('NOT_FOUND', `deleteSavepoint: no savepoint at ${time}`, { instant: time });
  // The completed file decides: once it is gone the savepoint is deleted (a lost answer is checked by a head).
  for (const f of files.filter((x) => x.state === 'COMPLETED')) {
    const path = state.instantPath(f);
    try {
      await storage.delete(path);
    } catch (err) {
      if (!(await isGone(storage, path))) throw err;
    }
  }
  // The inflight file left behind by a failure here is removed by the next write (dropInterruptedSavepoints).
  for (const f of files.filter((x) => x.state !== 'COMPLETED')) await storage.delete(state.instantPath(f)).catch(() => undefined);
}

/** Does `path` hold exactly `bytes`? (False when it cannot be read.) */
async function holdsBytes(storage: Storage, path: string, bytes: Uint8Array): Promise<boolean> {
  try {
    const found = await storage.read(path);
    return found.length === bytes.length && found.every((b, i) => b === bytes[i]);
  } catch {
    return false;
  }
}

/** Is `path` known to be absent? (False when the store cannot tell.) */
async function isGone(storage: Storage, path: string): Promise<boolean> {
  try {
    await storage.head(path);
    return false;
  } catch (err) {
    return isLakeletError(err, 'NOT_FOUND');
  }
}

/**
 * Remove `<t>.savepoint.inflight` files whose savepoint never completed (a savepoint or deleteSavepoint that
 * crashed between its two timeline files), so nothing stays pending. A savepoint still running elsewhere just
 * completes without its inflight file, which readers do not need. Call it before a write starts.
 */
export async function dropInterruptedSavepoints(storage: Storage): Promise<number> {
  const state = await TableState.load(storage);
  let dropped = 0;
  for (const f of state.timeline.files) {
    if (f.action !== 'savepoint' || f.state === 'COMPLETED') continue;
    if (filesOf(state, f.requestedTime, 'savepoint').some((x) => x.state === 'COMPLETED')) continue;
    await storage.delete(state.instantPath(f));
    dropped++;
  }
  return dropped;
}

/**
 * Restore the table to a savepoint: the snapshot becomes the savepointed commit's snapshot and every write
 * after it leaves the timeline. Steps (Hudi's): pending writes and interrupted rollbacks are rolled back
 * first; `<r>.restore.requested` (HoodieRestorePlan: the completed writes after the savepoint, newest
 * first); `<r>.restore.inflight`; one rollback per planned instant; `<r>.restore` (HoodieRestoreMetadata,
 * embedding each rollback's metadata); then the rollback instants after the savepoint are removed from the
 * timeline. A restore interrupted by a crash is finished by the next `restore` (of any savepoint) or by
 * {@link finishPendingRestores}. Meanwhile readers see the snapshot as of some commit between the savepoint
 * and the old latest commit (commits disappear newest first). An instant that is not a completed
 * savepoint → `INVALID_ARGUMENT`.
 */
export async function restore(storage: Storage, savepointInstant: string | Instant, options: { now?: Date; clock?: Clock } = {}): Promise<RestoreResult> {
  const time = checkTime(timeOf(savepointInstant), 'restore');
  let state = await TableState.load(storage);
  const pending = await pendingRestores(state);
  const resumed = pending.find((p) => p.plan.savepointToRestoreTimestamp === time);
  if (!resumed && !state.timeline.savepoints().some((s) => s.requestedTime === time)) {
    throw new LakeletError('INVALID_ARGUMENT', `restore: ${time} is not a savepoint (savepoints: ${state.timeline.savepoints().map((s) => s.requestedTime).join(', ') || 'none'})`, { instant: time });
  }
  if (!resumed && !state.timeline.isCompletedWrite(time)) {
    // A savepoint left behind by a restore to an older savepoint: its commit is gone.
    throw new LakeletError('INVALID_ARGUMENT', `restore: the commit of savepoint ${time} is no longer on the timeline`, { instant: time });
  }
  let result: RestoreResult | undefined;
  if (pending.length > 0) {
    for (const r of await finishPendingRestores(storage, options)) if (r.instant === resumed?.instant) result = r;
  }
  if (result) return result;

  await rollbackFailedWrites(storage, options.now);
  state = await TableState.load(storage);
  const instantsToRollback: InstantInfo[] = state.timeline.instants
    .filter((i) => WRITE_ACTIONS.has(i.action) && compareInstantTimes(i.requestedTime, time) > 0)
    .reverse()
    .map((i) => ({ commitTime: i.requestedTime, action: i.action }));
  const plan: RestorePlan = { instantsToRollback, version: 2, savepointToRestoreTimestamp: time };
  // Under the commit lock at a fresh time (no other instant of any action shares it).
  // Like its rollback of pending writes above, a restore takes every other writer for gone (timeout 0).
  const restoreTime = await requestInstant(storage, state.config, (t) => `${t}.restore.requested`, serializeRestorePlan(plan), { heartbeatTimeoutMs: 0, ...(options.clock && { clock: options.clock }), ...(options.now && { now: options.now }) });
  return executeRestore(storage, restoreTime, plan, Date.now(), options.now);
}

/**
 * Finish every interrupted restore (`<r>.restore.requested` / `.inflight` without `<r>.restore`), oldest
 * first: interrupted rollbacks and failed writes are rolled back, then each restore's remaining planned
 * instants, then the restore completes. Call it before a write starts (next to `rollbackFailedWrites`);
 * a table without pending restores costs one timeline listing. Returns the restores finished.
 */
export async function finishPendingRestores(storage: Storage, options: { now?: Date } = {}): Promise<RestoreResult[]> {
  const state = await TableState.load(storage);
  const pending = await pendingRestores(state);
  if (pending.length === 0) {
    await sweepRestoreRollbacks(state);
    return [];
  }
  await rollbackFailedWrites(storage, options.now);
  const results: RestoreResult[] = [];
  for (const p of pending) results.push(await executeRestore(storage, p.instant, p.plan, Date.now(), options.now));
  return results;
}

/** Delete a rollback instant's files: inflight, requested, then completed (never a pending one without its plan). */
async function deleteRollbackInstant(state: TableState, time: string): Promise<void> {
  const order = { INFLIGHT: 0, REQUESTED: 1, COMPLETED: 2 } as const;
  for (const f of filesOf(state, time, 'rollback').sort((a, b) => order[a.state] - order[b.state])) await state.storage.delete(state.instantPath(f));
}

/**
 * Remove the rollback instants a completed restore left behind when it crashed while removing them: the
 * completed rollbacks right after the latest restore instant (no other instant in between) that rolled
 * back only instants the restore planned. Costs nothing but the listing when there are none.
 */
async function sweepRestoreRollbacks(state: TableState): Promise<void> {
  const last = state.timeline.completed().filter((i) => i.action === 'restore').at(-1);
  if (!last) return;
  const candidates: Instant[] = [];
  for (const i of state.timeline.instants) {
    if (compareInstantTimes(i.requestedTime, last.requestedTime) <= 0) continue;
    if (i.action !== 'rollback' || i.state !== 'COMPLETED') break;
    candidates.push(i);
  }
  if (candidates.length === 0) return;
  const restorePath = state.instantPath(last);
  const planned = new Set(parseRestoreMetadata(await state.storage.read(restorePath), restorePath).instantsToRollback);
  for (const r of candidates) {
    const path = state.instantPath(r);
    const md = parseRollbackMetadata(await state.storage.read(path), path);
    if (md.commitsRollback.length > 0 && md.commitsRollback.every((c) => planned.has(c))) await deleteRollbackInstant(state, r.requestedTime);
  }
}

/** Pending restore instants with their plans, oldest first. */
async function pendingRestores(state: TableState): Promise<{ instant: string; plan: RestorePlan }[]> {
  const out: { instant: string; plan: RestorePlan }[] = [];
  for (const i of state.timeline.pending().filter((x) => x.action === 'restore')) {
    const path = `${state.config.timelinePath}/${i.requestedTime}.restore.requested`;
    let bytes: Uint8Array;
    try {
      bytes = await state.storage.read(path);
    } catch (err) {
      if (isLakeletError(err, 'NOT_FOUND')) throw new LakeletError('INVALID_TABLE', `restore: pending restore ${i.requestedTime} has no plan (${path} is missing)`, { instant: i.requestedTime, path }, { cause: err });
      throw err;
    }
    out.push({ instant: i.requestedTime, plan: parseRestorePlan(bytes, path) });
  }
  return out;
}

/** Carry out (or resume) a planned restore. Idempotent: instants already rolled back are skipped. */
async function executeRestore(storage: Storage, restoreTime: string, plan: RestorePlan, started: number, now: Date | undefined): Promise<RestoreResult> {
  let state = await TableState.load(storage);
  const dir = state.config.timelinePath;
  if (!filesOf(state, restoreTime, 'restore').some((f) => f.state === 'INFLIGHT')) await storage.write(`${dir}/${restoreTime}.restore.inflight`, new Uint8Array(0));

  for (const info of plan.instantsToRollback) {
    const target = state.timeline.instants.find((i) => i.requestedTime === info.commitTime && i.action === info.action);
    if (!target) continue; // rolled back by an earlier attempt
    await rollbackInstant(state, target, now);
    state = await TableState.load(storage);
  }

  // Compactions planned after the savepoint (pending, or left pending by rolling back a completed one) go
  // too: their plans name slices of rolled-back writes.
  for (const c of state.timeline.pending().filter((i) => i.action === 'compaction' && plan.savepointToRestoreTimestamp !== null && compareInstantTimes(i.requestedTime, plan.savepointToRestoreTimestamp) > 0)) {
    await dropCompactionPlan(state, c.requestedTime);
  }
  state = await TableState.load(storage);

  // The rollback metadata of each planned instant: rollbacks made for this restore are the completed
  // rollback instants after the restore instant (this attempt's and any interrupted earlier attempt's).
  const planned = new Set(plan.instantsToRollback.map((i) => i.commitTime));
  const byInstant: Record<string, RollbackMetadata[]> = {};
  for (const r of state.timeline.completed().filter((i) => i.action === 'rollback' && compareInstantTimes(i.requestedTime, restoreTime) > 0)) {
    const path = state.instantPath(r);
    const md = parseRollbackMetadata(await storage.read(path), path);
    for (const c of md.commitsRollback) if (planned.has(c)) byInstant[c] = [md];
  }
  const metadata: RestoreMetadata = {
    startRestoreTime: restoreTime,
    timeTakenInMillis: Math.max(0, Date.now() - started),
    instantsToRollback: plan.instantsToRollback.map((i) => i.commitTime),
    hoodieRestoreMetadata: byInstant,
    version: 1,
    restoreInstantInfo: plan.instantsToRollback,
  };
  await storage.writeIfAbsent(`${dir}/${restoreTime}.restore`, serializeRestoreMetadata(metadata));

  // Like Hudi, drop the rollback instants after the savepoint: the restore instant now records them. Pending
  // rollbacks stay (the next writer finishes them). Deleting inflight, requested, then completed keeps every
  // intermediate state a completed rollback, never a pending one without its plan.
  const savepointTime = plan.savepointToRestoreTimestamp;
  state = await TableState.load(storage);
  for (const r of state.timeline.completed()) {
    if (r.action !== 'rollback' || (savepointTime !== null && compareInstantTimes(r.requestedTime, savepointTime) <= 0)) continue;
    await deleteRollbackInstant(state, r.requestedTime);
  }
  return { instant: restoreTime, savepoint: savepointTime ?? '', rolledBack: plan.instantsToRollback, metadata };
}
