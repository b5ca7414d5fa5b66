// Before a pull or rebase takes back the local table's diverged tail: is any of its pending instants still
// being written by a live writer (another tab, process or service on the same local table)? Taking back the
// files of a write in progress would lose it, or leave its commit pointing at deleted files, so the pull
// refuses with CONFLICT and the next run (sync's next tick) tries again once the write has finished.
import { conflict, isLakeletError } from '../errors.js';
import { heartbeatPath } from '../layout.js';
import type { Storage } from '../storage/storage.js';
import { HEARTBEAT_TIMEOUT_MS, heartbeatExpired } from '../engine/commit/heartbeat.js';
import { systemClock, type Clock } from '../engine/clock.js';
import { WRITE_ACTIONS, type Instant } from '../timeline/instant.js';

/** How liveness is judged (as the writers' own rollback of failed writes judges it). */
export interface LivenessOptions {
  /** A writer silent this long is gone (default 60 s; 0: every pending instant is a failed one — single-writer use). */
  heartbeatTimeoutMs?: number;
  /** Time source for the heartbeats' age (default: system). */
  clock?: Clock;
}

async function hasHeartbeat(storage: Storage, instantTime: string): Promise<boolean> {
  try {
    await storage.head(heartbeatPath(instantTime));
    return true;
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND')) return false;
    throw err;
  }
}

/**
 * `CONFLICT` naming the first pending instant of `tail` (the local table's instants the shared copy lacks)
 * whose writer is alive. A service (compaction, clustering, clean…) is alive while its heartbeat is fresh. A
 * write is alive while its heartbeat is fresh, or — with no heartbeat file — while its own instant time is
 * younger than the timeout (Hudi's rule: a writer has just requested its instant and not yet beaten), unless
 * `replayed` (read only then) says the write was replayed on the shared copy by an earlier run: then it is a
 * completed write that run began taking back (completed file first) before it was cut short.
 */
export async function checkNoLiveInstants(source: Storage, tail: readonly Instant[], replayed: () => Promise<ReadonlySet<string>>, options: LivenessOptions = {}): Promise<void> {
  const timeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  if (timeoutMs <= 0) return;
  const clock = options.clock ?? systemClock;
  let replayedTimes: ReadonlySet<string> | undefined;
  for (const i of tail) {
    if (i.state === 'COMPLETED') continue;
    const beating = await hasHeartbeat(source, i.requestedTime);
    if (!beating && !WRITE_ACTIONS.has(i.action)) continue;
    if (await heartbeatExpired(source, i.requestedTime, timeoutMs, clock)) continue;
    if (!beating) {
      replayedTimes ??= await replayed();
      if (replayedTimes.has(i.requestedTime)) continue;
    }
    throw conflict(`replicate: a ${i.action} is in progress on ${source.label} (instant ${i.requestedTime}, ${i.state.toLowerCase()}); taking back the local table's unpublished instants now would lose it — nothing was changed, try again when it has completed`, { instant: i.requestedTime, path: i.fileName });
  }
}
