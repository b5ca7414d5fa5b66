// Restores (hudi-format.md §3.3, §12.9), following Hudi's (CopyOnWrite)RestoreActionExecutor: roll back every write
// after a savepoint, newest first, under a restore instant that survives crashes.
import { LakeletError, isLakeletError } from '../../errors.js';
import { compareInstantTimes, WRITE_ACTIONS, type Instant } from '../../timeline/instant.js';
import { parseRestoreMetadata, parseRestorePlan, serializeRestoreMetadata, serializeRestorePlan, type RestoreMetadata, type RestorePlan } from '../../timeline/restore-metadata.js';
import { parseRollbackMetadata, type InstantInfo, type RollbackMetadata } from '../../timeline/rollback-metadata.js';
import { instantFilePath } from '../../layout.js';
import { instantTransition, requestNewInstant } from '../commit/transitions.js';
import type { Clock } from '../clock.js';
import { dropCompactionPlan } from './compaction.js';
import { metadataCompactionAfter } from './metadata-sync.js';
import { rollbackFailedWrites, rollbackInstant } from './rollback.js';
import type { TableState } from '../table-state.js';
import { reloadTimeline, type EngineContext } from '../context.js';
import { checkTime, filesOf, timeOf } from './savepoint.js';

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
export async function restore(ctx: EngineContext, savepointInstant: string | Instant, options: { now?: Date; clock?: Clock } = {}): Promise<RestoreResult> {
  const time = checkTime(timeOf(savepointInstant), 'restore');
  const storage = ctx.storage;
  let state = await ctx.snapshot();
  ctx.invalidate(); // whatever happens below changes the timeline
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
    for (const r of await finishPendingRestores(state, options)) if (r.instant === resumed?.instant) result = r;
    state = await reloadTimeline(state);
  }
  if (result) return result;
  if ((await rollbackFailedWrites(state, options.now)).length > 0) state = await reloadTimeline(state);
  const instantsToRollback: InstantInfo[] = state.timeline.instants
    .filter((i) => WRITE_ACTIONS.has(i.action) && compareInstantTimes(i.requestedTime, time) > 0)
    .reverse()
    .map((i) => ({ commitTime: i.requestedTime, action: i.action }));
  // The metadata table is restored by rolling back each rolled-back write's MDT deltacommit: impossible once an
  // MDT compaction folded one of them into its base files (Java refuses the same).
  const compacted = await metadataCompactionAfter(storage, state.config, instantsToRollback.map((i) => i.commitTime));
  if (compacted !== undefined) {
    throw new LakeletError('UNSUPPORTED', `restore: the metadata table was compacted at ${compacted}, folding in writes after savepoint ${time} that a restore would roll back — nothing was written`, { instant: time, value: compacted });
  }
  const plan: RestorePlan = { instantsToRollback, version: 2, savepointToRestoreTimestamp: time };
  // Under the commit lock at a fresh time (no other instant of any action shares it).
  // Like its rollback of pending writes above, a restore takes every other writer for gone (timeout 0).
  const { instantTime: restoreTime } = await requestNewInstant(storage, state.config, 'restore', serializeRestorePlan(plan), { heartbeatTimeoutMs: 0, clock: options.clock ?? ctx.clock, ...(options.now && { now: options.now }) });
  return executeRestore(state, restoreTime, plan, Date.now(), options.now);
}

/**
 * Finish every interrupted restore (`<r>.restore.requested` / `.inflight` without `<r>.restore`), oldest
 * first: interrupted rollbacks and failed writes are rolled back, then each restore's remaining planned
 * instants, then the restore completes. Call it before a write starts (next to `rollbackFailedWrites`);
 * a table without pending restores costs nothing but reading `state` (the table as the caller loaded it).
 * Returns the restores finished (none: the timeline of `state` is unchanged).
 */
export async function finishPendingRestores(state: TableState, options: { now?: Date } = {}): Promise<RestoreResult[]> {
  const pending = await pendingRestores(state);
  if (pending.length === 0) {
    await sweepRestoreRollbacks(state);
    return [];
  }
  await rollbackFailedWrites(state, options.now);
  const results: RestoreResult[] = [];
  for (const p of pending) results.push(await executeRestore(state, p.instant, p.plan, Date.now(), options.now));
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
    const path = instantFilePath(state.config, i.requestedTime, 'restore', 'REQUESTED');
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
async function executeRestore(loaded: TableState, restoreTime: string, plan: RestorePlan, started: number, now: Date | undefined): Promise<RestoreResult> {
  const storage = loaded.storage;
  let state = await reloadTimeline(loaded);
  const transition = instantTransition(storage, state.config, restoreTime, 'restore');
  if (!filesOf(state, restoreTime, 'restore').some((f) => f.state === 'INFLIGHT')) await transition.markInflight();

  for (const info of plan.instantsToRollback) {
    const target = state.timeline.instants.find((i) => i.requestedTime === info.commitTime && i.action === info.action);
    if (!target) continue; // rolled back by an earlier attempt
    await rollbackInstant(state, target, now);
    state = await reloadTimeline(state);
  }

  // Compactions planned after the savepoint (pending, or left pending by rolling back a completed one) go
  // too: their plans name slices of rolled-back writes.
  for (const c of state.timeline.pending().filter((i) => i.action === 'compaction' && plan.savepointToRestoreTimestamp !== null && compareInstantTimes(i.requestedTime, plan.savepointToRestoreTimestamp) > 0)) {
    await dropCompactionPlan(state, c.requestedTime);
  }
  state = await reloadTimeline(state);

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
  await transition.complete(serializeRestoreMetadata(metadata));

  // Like Hudi, drop the rollback instants after the savepoint: the restore instant now records them. Pending
  // rollbacks stay (the next writer finishes them). Deleting inflight, requested, then completed keeps every
  // intermediate state a completed rollback, never a pending one without its plan.
  const savepointTime = plan.savepointToRestoreTimestamp;
  state = await reloadTimeline(state);
  for (const r of state.timeline.completed()) {
    if (r.action !== 'rollback' || (savepointTime !== null && compareInstantTimes(r.requestedTime, savepointTime) <= 0)) continue;
    await deleteRollbackInstant(state, r.requestedTime);
  }
  return { instant: restoreTime, savepoint: savepointTime ?? '', rolledBack: plan.instantsToRollback, metadata };
}
