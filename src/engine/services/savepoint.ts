// Savepoints (hudi-format.md §3.2, §12.9), following Hudi's SavepointActionExecutor: a savepoint pins the files of a
// completed commit's snapshot, so the cleaner keeps them and a restore (restore.ts) can return to it.
import { LakeletError, isLakeletError } from '../../errors.js';
import type { Storage } from '../../storage/storage.js';
import type { EngineContext } from '../context.js';
import type { Instant } from '../../timeline/instant.js';
import { parseSavepointMetadata, savepointedFilePaths, serializeSavepointMetadata, type SavepointMetadata, type SavepointPartitionMetadata } from '../../timeline/savepoint-metadata.js';
import type { TableState } from '../table-state.js';
import { instantTransition } from '../commit/transitions.js';

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


/** The requested time of an instant given as a string or an Instant. */
export const timeOf = (i: string | Instant): string => (typeof i === 'string' ? i : i.requestedTime);

/** `value` if it is an instant time (yyyyMMddHHmmss[SSS]), else `INVALID_ARGUMENT` naming `what`. */
export function checkTime(value: unknown, what: string): string {
  if (typeof value !== 'string' || !/^\d{14}(\d{3})?$/.test(value)) {
    throw new LakeletError('INVALID_ARGUMENT', `${what}: ${JSON.stringify(value)} is not an instant time (yyyyMMddHHmmss[SSS])`, { value });
  }
  return value;
}

/** The timeline files (all states) of one action at one requested time. */
export const filesOf = (state: TableState, time: string, action: string): Instant[] => state.timeline.files.filter((f) => f.requestedTime === time && f.action === action);

/**
 * Savepoint a completed commit (default: the latest): write `<t>.savepoint.inflight`, then `<t>.savepoint`
 * listing the file names (base and log files) of every latest file slice as of `t`, per partition — the files
 * a cleaner must keep and a restore returns to. Not a completed write → `INVALID_ARGUMENT`; already
 * savepointed → `ALREADY_EXISTS`.
 */
export async function savepoint(ctx: EngineContext, options: SavepointOptions = {}): Promise<SavepointResult> {
  const { storage } = ctx;
  const state = await ctx.snapshot();
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
    savepointedAt: options.now?.getTime() ?? ctx.clock.now(),
    comments: options.comments ?? '',
    partitionMetadata,
    version: 1,
  };
  ctx.invalidate();
  // Hudi writes no requested file for a savepoint: inflight, then completed.
  const transition = instantTransition(storage, state.config, time, 'savepoint');
  await transition.markInflight();
  const bytes = serializeSavepointMetadata(metadata);
  // The create may have taken effect with its answer lost: the savepoint is ours if it holds our bytes.
  const created = await transition.complete(bytes, { landed: 'same-bytes' });
  if (!created && !(await transition.holds('COMPLETED', bytes))) {
    throw new LakeletError('ALREADY_EXISTS', `savepoint: ${time} was savepointed by another writer`, { instant: time });
  }
  return { instant: time, metadata };
}

/**
 * Delete a savepoint (completed file first, then the inflight one, like Hudi). No savepoint files at that
 * time → `NOT_FOUND`. The savepointed commit itself is untouched.
 */
export async function deleteSavepoint(ctx: EngineContext, instant: string | Instant): Promise<void> {
  const time = checkTime(timeOf(instant), 'deleteSavepoint');
  const { storage } = ctx;
  const state = await ctx.snapshot();
  const files = filesOf(state, time, 'savepoint');
  if (files.length === 0) throw new LakeletError('NOT_FOUND', `deleteSavepoint: no savepoint at ${time}`, { instant: time });
  ctx.invalidate();
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
 * completes without its inflight file, which readers do not need. Call it before a write starts, with the table
 * as the write loaded it. Returns how many it dropped (0: the timeline of `state` is unchanged).
 */
export async function dropInterruptedSavepoints(state: TableState): Promise<number> {
  const { storage } = state;
  let dropped = 0;
  for (const f of state.timeline.files) {
    if (f.action !== 'savepoint' || f.state === 'COMPLETED') continue;
    if (filesOf(state, f.requestedTime, 'savepoint').some((x) => x.state === 'COMPLETED')) continue;
    await storage.delete(state.instantPath(f));
    dropped++;
  }
  return dropped;
}

/** Paths of the files completed savepoints protect (table-relative). */
export async function savepointedFiles(state: TableState): Promise<Set<string>> {
  const out = new Set<string>();
  for (const i of state.timeline.completed()) {
    if (i.action !== 'savepoint') continue;
    const path = state.instantPath(i);
    for (const p of savepointedFilePaths(parseSavepointMetadata(await state.storage.read(path), path))) out.add(p);
  }
  return out;
}
