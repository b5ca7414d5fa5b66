// replicate(source, target, { mode }): the entry of replication. `push` (replicate-push.ts) brings a copy of a
// table up to the source's completed timeline; `pull` brings the target's new commits into the source; `rebase`
// replays the source's unpublished writes on a target that diverged, then pulls (replicate-rebase.ts).
import { unsupported } from '../errors.js';
import type { Storage } from '../storage/storage.js';
import type { Clock } from '../engine/clock.js';
import type { WriteOptions } from '../engine/write/write-options.js';
import type { ReplicateProgress } from './replicate-copy.js';
import { push, type PushResult } from './replicate-push.js';
import { reconcile } from './replicate-rebase.js';
import type { ReplayedWrite } from './replay-writes.js';

/** How {@link replicate} reconciles the two tables. */
export type ReplicateMode = 'push' | 'pull' | 'rebase';

/** Options of {@link replicate}. */
export interface ReplicateOptions {
  /** Called after every file copied, published or deleted. */
  onProgress?: (progress: ReplicateProgress) => void;
  /** Stops the replication before its next store call (`ABORTED`); the next run resumes it. */
  signal?: AbortSignal;
  /**
   * `push` (default): the source's commits go to the target; a diverged target → `CONFLICT`. `pull`: the
   * target's new commits come into the source (when both diverged, as `rebase`). `rebase`: push, or when the
   * target diverged, replay the source's unpublished writes on it as new commits, then pull.
   */
  mode?: ReplicateMode;
  /** Options of a rebase's replayed writes on the target (default `retryOnConflict: 3` over the target's write defaults). */
  write?: WriteOptions;
  /**
   * Pull and rebase: a pending local instant whose writer beat within this long is a write in progress, and
   * the run refuses with `CONFLICT` rather than take it back (default 60 s, as writers judge failed writes; 0:
   * every pending local instant is a failed write — single-writer use).
   */
  heartbeatTimeoutMs?: number;
  /** Pull and rebase: the time source heartbeats are judged by (default: system). */
  clock?: Clock;
}

/** What {@link replicate} did. The copy fields describe the copy into the target (push) or into the source (pull, rebase). */
export interface ReplicateResult extends PushResult {
  /** `push`, `pull`, `rebase` (writes replayed on the target, then pulled), or `none` (a pull with nothing new). */
  direction: 'push' | 'pull' | 'rebase' | 'none';
  /** The commits a rebase wrote on the target, oldest first. */
  replayed: ReplayedWrite[];
}

const MODES: readonly ReplicateMode[] = ['push', 'pull', 'rebase'];

/**
 * Replicate a Hudi table between two stores (any pair: OPFS, IndexedDB, node-fs, memory, S3). By default a
 * push: copy every completed instant of `source` the `target` lacks, data files first and each completed
 * instant file last (created atomically), so readers of the target only see a prefix of the source's
 * timeline; services' instants too; deletions mirrored last. A target that diverged (someone else wrote there)
 * stops it with `CONFLICT` naming the first diverging instant — unless `mode` is `rebase` or `pull`: then the
 * source's unpublished writes are replayed as new commits on top of the target's through the normal write path
 * (its conflict check and retries; conflicting updates resolved by the ordering field), and the source is
 * made equal to the target (its diverged tail taken back, the target's instants copied in) — refused with
 * `CONFLICT` while a local write or service of that tail is still in progress. Resumable and idempotent after a
 * crash or lost connection at any point.
 */
export async function replicate(source: Storage, target: Storage, options: ReplicateOptions = {}): Promise<ReplicateResult> {
  const mode = options.mode ?? 'push';
  if (!MODES.includes(mode)) throw unsupported(`replicate: mode ${JSON.stringify(mode)} is not supported (push, pull or rebase)`, { value: mode });
  const copy = { ...(options.onProgress ? { onProgress: options.onProgress } : {}), ...(options.signal ? { signal: options.signal } : {}) };
  if (mode === 'push') return { ...(await push(source, target, copy)), direction: 'push', replayed: [] };
  const liveness = { ...(options.heartbeatTimeoutMs !== undefined ? { heartbeatTimeoutMs: options.heartbeatTimeoutMs } : {}), ...(options.clock ? { clock: options.clock } : {}) };
  const r = await reconcile(source, target, mode, { ...copy, ...liveness, ...(options.write ? { write: options.write } : {}) });
  return { ...r.copy, direction: r.direction, replayed: r.replayed };
}
