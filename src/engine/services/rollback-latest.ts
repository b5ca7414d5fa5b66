// The rollback a user asks for (`table.rollback()`, `lakelet rollback`): which write to undo — the newest
// pending write if there is one (a crashed write, never the last good commit while a newer write is pending),
// else the latest completed data write — and the refusal to roll back a pending write whose heartbeat is alive.
import { LakeletError } from '../../errors.js';
import { compareInstantTimes, WRITE_ACTIONS, type Instant } from '../../timeline/instant.js';
import { dropCompactionPlan } from './compaction.js';
import { isTableServiceCommit, rollbackFailedWrites, rollbackInstant, rollbackPendingWrite, type RollbackOptions, type RollbackResult } from './rollback.js';
import { reloadTimeline, type EngineContext } from '../context.js';
import { metadataCompactionAfter } from './metadata-sync.js';
import { checkRollbackRestorable } from './rollback-guard.js';
import type { TableState } from '../table-state.js';

/**
 * Undo a write: by default the newest pending write if there is one (a crashed write, never the last good
 * commit while a newer write is pending), else the latest completed data write; or `instant`, which must be
 * pending or the latest data write. A pending write whose heartbeat is still alive — its writer may be running
 * on another tab or machine — is refused with `CONFLICT` unless `options.force` (as Hudi refuses it); one whose
 * heartbeat expired is rolled back. Table-service commits made after a completed target (compactions that
 * merged its logs) are rolled back first, newest first. Returns the rollback of the write itself. `clock` and
 * `heartbeatTimeoutMs` default to the context's; the table state is the context's snapshot.
 */
export async function rollbackLatestWrite(ctx: EngineContext, instant?: string, options: RollbackOptions = {}): Promise<RollbackResult> {
  const clock = options.clock ?? ctx.clock;
  const timeoutMs = options.heartbeatTimeoutMs ?? ctx.heartbeatTimeoutMs;
  const now = options.now ?? clock;
  let state = await ctx.snapshot();
  ctx.invalidate(); // whatever happens below changes the timeline
  const failed = await rollbackFailedWrites(state, options.now, timeoutMs, clock);
  const done = failed; // interrupted rollbacks finished, failed writes rolled back
  if (instant !== undefined) {
    const already = done.find((r) => r.rolledBack === instant);
    if (already) return already; // the instant was a failed (pending) write: rolled back just now
  } else if (done.length > 0) {
    // The newest pending write was a failed one and is rolled back: that was the default target.
    return done.reduce((a, b) => (compareInstantTimes(a.rolledBack, b.rolledBack) >= 0 ? a : b));
  }
  if (failed.length > 0) state = await reloadTimeline(state);
  const pendingWrites = state.timeline.pending().filter((i) => WRITE_ACTIONS.has(i.action));
  const newestPending = pendingWrites.at(-1);
  const explicitPending = instant === undefined ? undefined : pendingWrites.find((i) => i.requestedTime === instant);
  const pendingTarget = instant === undefined ? newestPending : explicitPending;
  if (pendingTarget) {
    const result = await rollbackPendingWrite(state, pendingTarget.requestedTime, { ...options, clock, heartbeatTimeoutMs: timeoutMs }, options.force === true);
    if (result) return result;
    state = await reloadTimeline(state);
    const now2 = state.timeline.get(pendingTarget.requestedTime);
    if (now2 && now2.state !== 'COMPLETED') throw liveWriter(pendingTarget, timeoutMs);
    // It completed meanwhile: an explicit target is now the latest commit (checked below); a default target
    // must not silently become some other commit.
    if (instant === undefined) throw new LakeletError('CONFLICT', `rollback: the pending write ${pendingTarget.requestedTime} completed while the rollback started; run it again to roll back that commit`, { instant: pendingTarget.requestedTime });
  }
  const writes = state.timeline.completedWrites();
  const dataWrites: Instant[] = [];
  for (const w of writes) if (!(await isServiceWrite(state, w))) dataWrites.push(w);
  const latest = dataWrites.at(-1);
  const time = instant ?? latest?.requestedTime;
  if (time === undefined) throw new LakeletError('NOT_FOUND', 'rollback: the table has no commit to roll back', {});
  const target = state.timeline.get(time);
  if (!target || !WRITE_ACTIONS.has(target.action)) throw new LakeletError('NOT_FOUND', `rollback: no commit ${JSON.stringify(time)} on the timeline`, { instant: time });
  if (target.requestedTime !== latest?.requestedTime) {
    throw new LakeletError('INVALID_ARGUMENT', `rollback: ${time} is not the latest commit (${latest?.requestedTime}); roll back newer commits first or restore a savepoint`, { instant: time });
  }
  // A newer write still pending may have read this commit's files: undoing the commit under it would let it
  // bring them back. It has to finish or be rolled back first.
  const newer = state.timeline.pending().filter((i) => WRITE_ACTIONS.has(i.action) && compareInstantTimes(i.requestedTime, time) > 0).at(-1);
  if (newer) {
    throw new LakeletError('CONFLICT', `rollback: the write ${newer.requestedTime} started after ${time} and is still pending; roll it back first (it is the default target) or wait for it to finish`, { instant: time, value: newer.requestedTime });
  }
  const savepointed = new Set(state.timeline.savepoints().map((s) => s.requestedTime));
  const undone = [target, ...writes.filter((w) => compareInstantTimes(w.requestedTime, target.requestedTime) > 0)];
  const blocked = undone.find((w) => savepointed.has(w.requestedTime));
  if (blocked) {
    throw new LakeletError('INVALID_ARGUMENT', `rollback: ${blocked.requestedTime} is savepointed; delete the savepoint first`, { instant: blocked.requestedTime });
  }
  // Rolling back deletes the writes' MDT logs: impossible once an MDT compaction folded one of their MDT
  // deltacommits into its base files (Java's validateRollback refuses it; a restore cannot undo it either).
  const compacted = await metadataCompactionAfter(state.storage, state.config, undone.map((w) => w.requestedTime));
  if (compacted !== undefined) {
    throw new LakeletError('UNSUPPORTED', `rollback: the metadata table was compacted at ${compacted}, folding in ${time} — nothing was written`, { instant: time, value: compacted });
  }
  await checkRollbackRestorable(state, time, undone);
  for (const service of writes.filter((w) => compareInstantTimes(w.requestedTime, target.requestedTime) > 0).reverse()) {
    await rollbackInstant(state, service, now);
    state = await reloadTimeline(state);
  }
  // Compaction plans made after the write were built from its files: they go with it.
  for (const plan of state.timeline.instants.filter((i) => i.action === 'compaction' && i.state !== 'COMPLETED' && compareInstantTimes(i.requestedTime, target.requestedTime) > 0)) {
    await dropCompactionPlan(state, plan.requestedTime);
  }
  state = await reloadTimeline(state);
  return rollbackInstant(state, state.timeline.get(time) ?? target, now);
}

/** A table service's commit: a compaction's or a clustering's (on v6 a clustering is a replacecommit whose operation is CLUSTER). */
async function isServiceWrite(state: TableState, w: Instant): Promise<boolean> {
  return isTableServiceCommit(state, w) || (w.action === 'replacecommit' && (await state.commitMetadata(w)).operationType === 'CLUSTER');
}

function liveWriter(target: Instant, timeoutMs: number): LakeletError {
  return new LakeletError(
    'CONFLICT',
    `rollback: the pending ${target.action} ${target.requestedTime} has a live heartbeat (beaten within the last ${timeoutMs} ms), so its writer may still be running; wait for the heartbeat timeout, or force the rollback (--force) if its writer is gone`,
    { instant: target.requestedTime },
  );
}
