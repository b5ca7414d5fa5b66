// Pull and rebase: reconcile a local table with a copy that others write to. The target's new commits are
// pulled into the source (a push in the other direction, the source's diverged tail taken back first); when
// both diverged, the source's unpublished writes are first replayed on the target as new commits
// (replay-writes.ts), so after a rebase both tables hold the same timeline: the target's, with the replays.
import { unsupported } from '../errors.js';
import type { Storage } from '../storage/storage.js';
import { openTable } from '../table/open.js';
import type { WriteOptions } from '../engine/write/write-options.js';
import { compareInstantTimes, parseInstantFileName, WRITE_ACTIONS, type Instant } from '../timeline/instant.js';
import { CopyContext, type ReplicateProgress } from './replicate-copy.js';
import type { TableDirs } from './replicate-paths.js';
import { rollbacksToRead, unmatchedInstants, type TimelineSide } from './replicate-plan.js';
import { checkSameTable, push, viewOf, type PushResult, type StoreView } from './replicate-push.js';
import { rolledBackTimes } from './replicate-rolled-back.js';
import { checkNoLiveInstants, type LivenessOptions } from './live-instants.js';
import { replayedTags, replayWrites, type ReplayedWrite } from './replay-writes.js';

/** What a pull or rebase did. */
export interface ReconcileResult {
  /** `push`: the target had nothing new (rebase pushed); `pull`: the target's commits came into the source; `rebase`: the source's writes were replayed on the target, then pulled; `none`: nothing to pull. */
  direction: 'push' | 'pull' | 'rebase' | 'none';
  /** The copy made (into the target for `push`, into the source for `pull` and `rebase`). */
  copy: PushResult;
  replayed: ReplayedWrite[];
}

/** Options of a pull or rebase (`heartbeatTimeoutMs`, `clock`: how a local write in progress is told from a failed one). */
export interface ReconcileOptions extends LivenessOptions {
  onProgress?: (progress: ReplicateProgress) => void;
  signal?: AbortSignal;
  /** Options of the replayed writes on the target (default `retryOnConflict: 3` over the target's defaults). */
  write?: WriteOptions;
}

const EMPTY: PushResult = { published: [], metadataPublished: [], reverted: [], filesCopied: 0, bytesCopied: 0, filesDeleted: 0 };

const dirsOf = (view: StoreView, table: 'data' | 'metadata'): TableDirs | undefined => view.dirs.find((d) => d.table === table);

/** Requested times a store's rollbacks and restores undid among the instants `other` has and it lacks. */
async function undone(storage: Storage, view: StoreView, side: TimelineSide, other: TimelineSide): Promise<Set<string>> {
  return rolledBackTimes(storage, dirsOf(view, 'data') as TableDirs, rollbacksToRead(side, other));
}

/**
 * Reconcile `source` (the local table) with `target` (the shared copy). `rebase`: when the target has
 * completed instants the source lacks, replay the source's unpublished writes there, then make the source
 * equal to the target; otherwise push. `pull`: the same, except that a target with nothing new leaves both
 * alone. Crash-safe at every storage call: each replay is one atomic commit found again by its tag, and the
 * source's diverged tail is taken back (its completed files first) only once every replay is committed.
 */
export async function reconcile(source: Storage, target: Storage, mode: 'pull' | 'rebase', options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const ctx = new CopyContext(source, target, undefined, options.signal);
  const copyOptions = { ...(options.onProgress ? { onProgress: options.onProgress } : {}), ...(options.signal ? { signal: options.signal } : {}) };
  const tgt = await viewOf(target, ctx);
  if (tgt.timelines === undefined) {
    return mode === 'rebase' ? { direction: 'push', copy: await push(source, target, copyOptions), replayed: [] } : { direction: 'none', copy: EMPTY, replayed: [] };
  }
  const src = await viewOf(source, ctx);
  if (src.timelines === undefined) return { direction: 'pull', copy: await push(target, source, copyOptions), replayed: [] };
  checkSameTable(src, tgt, target.label);
  if (source.readOnly) throw unsupported(`replicate: ${mode} writes into the source ${source.label}, which is read-only`, {});
  const s = src.timelines.data;
  const t = tgt.timelines.data;
  const sourceUndid = await undone(source, src, s, t);
  // Completed on the target but not (or not yet: a pull cut short copied its pending files) on the source.
  const sourceCompleted = new Set(s.timeline.completed().map((i) => i.fileName));
  const sourceStart = s.timeline.instants[0]?.requestedTime;
  const ahead = t.timeline.completed().filter((i) => !sourceCompleted.has(i.fileName) && !sourceUndid.has(i.requestedTime) && (sourceStart === undefined || compareInstantTimes(i.requestedTime, sourceStart) >= 0));
  if (ahead.length === 0) {
    return mode === 'rebase' ? { direction: 'push', copy: await push(source, target, copyOptions), replayed: [] } : { direction: 'none', copy: EMPTY, replayed: [] };
  }
  const targetUndid = await undone(target, tgt, t, s);
  const tail = unmatchedInstants(s, t);
  const targetOnly = unmatchedInstants(t, s);
  // A local write still in progress would be taken back with the tail: refuse before changing anything.
  // A replay's tag is the source instant's completed file name (`:delete` appended for its deletes).
  const replayedTimes = async () => new Set([...(await replayedTags(await openTable(target), targetOnly))].map((tag) => parseInstantFileName(tag.replace(/:delete$/, ''))?.requestedTime ?? tag));
  await checkNoLiveInstants(source, tail, replayedTimes, options);
  const unpublished = tail.filter((i) => i.state === 'COMPLETED' && WRITE_ACTIONS.has(i.action) && !targetUndid.has(i.requestedTime));
  let replay: { writes: number; replayed: ReplayedWrite[] } = { writes: 0, replayed: [] };
  if (unpublished.length > 0) {
    ctx.checkAborted();
    replay = await replayWrites(await openTable(source), await openTable(target), unpublished, targetOnly, options.write);
  }
  // Every replay is committed: the source's diverged tail (as listed, data and metadata table) gives way to the target's timeline.
  const sm = src.timelines.metadata;
  const tm = tgt.timelines.metadata;
  const takeBack = { data: new Set(tail.map((i: Instant) => i.requestedTime)), metadata: new Set(sm && tm ? unmatchedInstants(sm, tm).map((i) => i.requestedTime) : []) };
  const copy = await push(target, source, { ...copyOptions, takeBack });
  return { direction: replay.writes > 0 ? 'rebase' : 'pull', copy, replayed: replay.replayed };
}
