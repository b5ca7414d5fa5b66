// Requesting a new instant: under the commit lock, at a time later than every instant of a fresh listing of
// the timeline, created with writeIfAbsent. So no two instants of any action share a time — a write and a
// compaction, clean or restore requested in the same millisecond would otherwise share markers, heartbeats
// and rollbacks (Hudi generates instant times under its lock provider on multi-writer tables for this reason).
// On layout 2 (v8/v9) completion times count too, and a foreign table whose times may be in another zone is
// refused when its newest time is ahead of our clock (hudi-v9-write.md §1).
import type { TableConfig } from '../../config/table-config.js';
import { LakeletError } from '../../errors.js';
import type { Storage } from '../../storage/storage.js';
import { instantFilePath } from '../../layout.js';
import { compareInstantTimes, type Action, type Instant } from '../../timeline/instant.js';
import { formatInstantTime, nextInstantTime } from '../../timeline/instant-time.js';
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

/** The times a new instant must exceed: every requested and completion time of a timeline's files. */
type TimelineTimes = Iterable<Pick<Instant, 'requestedTime' | 'completionTime'>>;

/** The latest requested or completion time among `instants` (undefined for an empty timeline). */
export function latestTimelineTime(instants: TimelineTimes): string | undefined {
  let latest: string | undefined;
  for (const i of instants) {
    for (const t of [i.requestedTime, i.completionTime]) if (t !== undefined && (latest === undefined || compareInstantTimes(t, latest) > 0)) latest = t;
  }
  return latest;
}

/** Does the table say its instant times are UTC (`hoodie.table.timeline.timezone=UTC`, as lakelet's tables do)? */
export function timelineInUtc(config: TableConfig): boolean {
  return (config.properties.get('hoodie.table.timeline.timezone') ?? '').trim().toUpperCase() === 'UTC';
}

/**
 * How far the newest time of a layout-2 table without `hoodie.table.timeline.timezone=UTC` may lead our clock
 * before {@link mintInstantTime} refuses: one minute (time zones differ from UTC by multiples of 15 minutes).
 */
export const LOCAL_ZONE_LEAD_TOLERANCE_MS = 60_000;

/**
 * A fresh instant time from `now` (formatted in UTC) later than every requested and completion time of the
 * timeline `instants`. A layout-2 table that does not say its times are UTC was written in the JVM's local zone:
 * when its newest time is ahead of our clock by more than {@link LOCAL_ZONE_LEAD_TOLERANCE_MS}, its writer's zone
 * is ahead of UTC, our times could sort before its next ones and newer data would lose to older, so that is
 * `UNSUPPORTED`, naming the time.
 */
export function mintInstantTime(config: TableConfig, instants: TimelineTimes, now: Date): string {
  const latest = latestTimelineTime(instants);
  if (config.timelineLayoutVersion === 2 && latest !== undefined && !timelineInUtc(config)) {
    const ours = formatInstantTime(now);
    // A lead within the tolerance is our own times (each minted past the newest, so a burst runs ahead of the
    // clock by a few milliseconds) or clock skew; a zone ahead of UTC leads by 15 minutes at least.
    if (compareInstantTimes(latest, formatInstantTime(new Date(now.getTime() + LOCAL_ZONE_LEAD_TOLERANCE_MS))) > 0) {
      throw new LakeletError('UNSUPPORTED', `timeline: the newest time on the timeline of table ${JSON.stringify(config.name)}, ${latest}, is ahead of our clock (${ours} UTC); the table has no hoodie.table.timeline.timezone=UTC, so its times are in its writer's local zone and ours could sort before them — nothing was written`, { instant: latest, field: 'hoodie.table.timeline.timezone', value: config.properties.get('hoodie.table.timeline.timezone') ?? null });
    }
  }
  return nextInstantTime(latest, now);
}

/** A completion time for `instantTime` from `now`: later than it and than every time of the timeline `instants`. */
export function completionTimeFor(instantTime: string, instants: TimelineTimes, now: Date): string {
  return nextInstantTime(latestTimelineTime([...instants, { requestedTime: instantTime, completionTime: undefined }]), now);
}

/**
 * Create the requested file of a new `action` instant (e.g. `<t>.deltacommit.requested`) with `bytes`, at a
 * fresh instant time `t`, and return `t`.
 */
export async function requestInstant(storage: Storage, config: TableConfig, action: Action, bytes: Uint8Array, options: RequestInstantOptions = {}): Promise<string> {
  const clock = options.clock ?? systemClock;
  const create = async (held: () => Promise<void>): Promise<string> => {
    const timeline = await loadTimeline(storage, config);
    const time = mintInstantTime(config, timeline.files, options.now ?? new Date(clock.now()));
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
