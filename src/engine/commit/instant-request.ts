// Requesting a new instant: under the commit lock, at a time later than every instant of a fresh listing of
// the timeline, created with writeIfAbsent. So no two instants of any action share a time — a write and a
// compaction, clean or restore requested in the same millisecond would otherwise share markers, heartbeats
// and rollbacks (Hudi generates instant times under its lock provider on multi-writer tables for this reason).
import type { TableConfig } from '../../config/table-config.js';
import { LakeletError } from '../../errors.js';
import type { Storage } from '../../storage/storage.js';
import { instantFilePath } from '../../layout.js';
import { compareInstantTimes, type Action } from '../../timeline/instant.js';
import { nextInstantTime } from '../../timeline/instant-time.js';
import { withCommitLock } from './commit-lock.js';
import { systemClock, type Clock } from '../clock.js';
import { HEARTBEAT_TIMEOUT_MS, heartbeatExpired } from './heartbeat.js';
import { loadTimeline } from '../table-state.js';

/** Options of {@link requestInstant}. */
export interface RequestInstantOptions {
  /** Time source (default the system clock). */
  clock?: Clock;
  /** A pinned time (tests); the instant is still later than every instant on the timeline. */
  now?: Date;
  /** A lock holder silent this long is gone (default 60 s; 0: any holder is gone — single-writer use). */
  heartbeatTimeoutMs?: number;
  /**
   * The caller already holds the commit lock (it is not re-entrant): `held` is its check, called right before
   * the create.
   */
  lockHeld?: () => Promise<void>;
}

/**
 * Create the requested file of a new `action` instant (e.g. `<t>.deltacommit.requested`) with `bytes`, at a
 * fresh instant time `t`, and return `t`.
 */
export async function requestInstant(storage: Storage, config: TableConfig, action: Action, bytes: Uint8Array, options: RequestInstantOptions = {}): Promise<string> {
  const clock = options.clock ?? systemClock;
  const create = async (held: () => Promise<void>): Promise<string> => {
    const timeline = await loadTimeline(storage, config);
    let latest: string | undefined;
    for (const i of timeline.instants) if (latest === undefined || compareInstantTimes(i.requestedTime, latest) > 0) latest = i.requestedTime;
    const time = nextInstantTime(latest, options.now ?? new Date(clock.now()));
    const path = instantFilePath(config, time, action, 'REQUESTED');
    await held();
    // Under the lock nobody else creates an instant; a false here means the lock was broken under us.
    if (!(await storage.writeIfAbsent(path, bytes))) throw new LakeletError('CONFLICT', `timeline: instant ${time} was requested by another writer meanwhile`, { instant: time, path });
    return time;
  };
  if (options.lockHeld) return create(options.lockHeld);
  const timeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  // The lock's owner is named by a current instant time (no heartbeat yet: its own time vouches for it).
  const owner = nextInstantTime(undefined, options.now ?? new Date(clock.now()));
  return withCommitLock(storage, owner, create, { clock, ownerGone: (o) => heartbeatExpired(storage, o, timeoutMs, clock) });
}
