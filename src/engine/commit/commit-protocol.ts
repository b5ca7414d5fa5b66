// The commit protocol (hudi-format.md §3, DESIGN.md §2): requested → inflight → completed timeline files,
// markers for every data file written, a conflict check against commits completed meanwhile, and the
// completed file created with writeIfAbsent — the single point that makes a write visible.
import { LakeletError, isLakeletError } from '../../errors.js';
import { fileGroupKey } from '../../file-group/file-slice.js';
import type { Storage } from '../../storage/storage.js';
import { parseCommitMetadata } from '../../timeline/commit-metadata.js';
import { baseName, HEARTBEAT_DIR, markerDir, MARKERS_DIR, parseMarkerPath, timelineFilePath } from '../../layout.js';
import type { Action } from '../../timeline/instant.js';
import { parseInstantTime } from '../../timeline/instant-time.js';
import type { TableState } from '../table-state.js';
import { loadTimeline } from '../table-state.js';
import { withCommitLock } from './commit-lock.js';
import { parseMetadataPartitions } from '../../metadata/metadata-partitions.js';
import { rollbackOf } from '../services/rolled-back.js';
import { HEARTBEAT_INTERVAL_MS, HEARTBEAT_TIMEOUT_MS, heartbeatExpired, startHeartbeat, type Heartbeat } from './heartbeat.js';
import { systemClock, type Clock } from '../clock.js';
import { compactionInstants, compactionPlanGroups } from '../services/pending-compactions.js';
import { mintInstantTime, requestInstant } from './instant-request.js';
import { instantTransition, type InstantTransition } from './transitions.js';

/** A write in progress. */
export interface InflightWrite {
  instantTime: string;
  action: Action;
  /** Requested times of the completed writes the writer saw when it started. */
  seenCompleted: ReadonlySet<string>;
  /**
   * Requested times of the compaction plans (pending or completed) the writer saw when it started: it writes
   * its logs on top of the pending ones, so their completion is no conflict; a plan it did not see is.
   */
  seenCompactions: ReadonlySet<string>;
  /** The writer's heartbeat, beating until the write completes or is rolled back. */
  heartbeat: Heartbeat;
  /** The writer's time source (heartbeats, the commit lock). */
  clock: Clock;
}

/**
 * A fresh instant time, later than every instant of the timeline (any action, any state), from `now`: a
 * `Date`, or a clock whose time is read (default: the system clock).
 */
export function newInstantTime(state: TableState, now: Date | Clock = systemClock): string {
  if (!(now instanceof Date)) now = new Date(now.now());
  return mintInstantTime(state.config, state.timeline.files, now);
}

/**
 * Write `<t>.<action>.requested`. The instant time comes from `now` when given (tests pin it), else from
 * `clock`, which also drives the write's heartbeat and its commit lock.
 */
export async function startWrite(state: TableState, action: Action, requested: Uint8Array = new Uint8Array(0), now?: Date, clock: Clock = systemClock, heartbeatTimeoutMs = HEARTBEAT_TIMEOUT_MS): Promise<InflightWrite> {
  // Under the commit lock, later than every instant of any action (two actors never share a time).
  const instantTime = await requestInstant(state.storage, state.config, action, requested, { clock, heartbeatTimeoutMs, ...(now && { now }) });
  // The heartbeat right after: until then (and for the heartbeat timeout) the instant's own time vouches for it.
  const heartbeat = await startHeartbeat(state.storage, instantTime, HEARTBEAT_INTERVAL_MS, clock);
  return { instantTime, action, seenCompleted: new Set(state.timeline.completedWrites().map((i) => i.requestedTime)), seenCompactions: new Set(compactionInstants(state.timeline)), heartbeat, clock };
}

/** Write the inflight file (the workload profile). */
export async function markInflight(state: TableState, write: InflightWrite, profile: Uint8Array): Promise<void> {
  // A writer stalled past its heartbeat timeout may have been rolled back (its requested file deleted): it
  // must not bring the instant back.
  const transition = writeTransition(state.storage, state, write);
  await checkStillRequested(transition, write);
  await transition.markInflight(profile);
}

/** The timeline transitions of a write instant. */
export function writeTransition(storage: Storage, state: TableState, write: InflightWrite): InstantTransition {
  return instantTransition(storage, state.config, write.instantTime, write.action);
}

/** `ABORTED` unless this write's requested file still exists (a rollback deletes it). */
async function checkStillRequested(transition: InstantTransition, write: InflightWrite): Promise<void> {
  try {
    await transition.storage.head(transition.path('REQUESTED'));
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND')) throw rolledBackError(write);
    throw err;
  }
}

function rolledBackError(write: InflightWrite, by?: string): LakeletError {
  return new LakeletError('ABORTED', `commit: instant ${write.instantTime} was rolled back${by ? ` by rollback ${by}` : ''} (its heartbeat was silent past the timeout, so another writer took it for failed); nothing of it was committed`, { instant: write.instantTime, ...(by !== undefined && { value: by }) });
}

/** What {@link completeWrite} runs under the commit lock besides the data completion. */
export interface CompleteWriteHooks {
  /**
   * Runs under the commit lock after the conflict check passed, just before the data instant's completed file
   * is created (the metadata table's deltacommit, doc §6.2). It returns a time the data completion time must
   * exceed (the MDT deltacommit's completion time), or undefined. If it throws, the write does not complete.
   */
  beforeComplete?: (lockHeld: () => Promise<void>) => Promise<string | undefined>;
}

/**
 * Check for conflicts with writes completed since this one started (a completed write touching one of
 * `touchedGroups` → `CONFLICT`), run `hooks.beforeComplete` (the MDT deltacommit), then create the completed
 * instant file atomically and drop the markers.
 */
export async function completeWrite(storage: Storage, state: TableState, write: InflightWrite, metadata: Uint8Array, touchedGroups: ReadonlySet<string>, heartbeatTimeoutMs = HEARTBEAT_TIMEOUT_MS, hooks: CompleteWriteHooks = {}): Promise<void> {
  await write.heartbeat.beat();
  // Conflict check and commit under the table's commit lock: no other writer can complete in between. A lock
  // whose owner's heartbeat stopped was left by a crashed writer and is broken.
  const ownerGone = (owner: string) => heartbeatExpired(storage, owner, heartbeatTimeoutMs, write.clock);
  await withCommitLock(storage, write.instantTime, (held) => checkAndCommit(storage, state, write, metadata, touchedGroups, held, hooks), { ownerGone, clock: write.clock });
  // Committed: what follows is housekeeping the next writer redoes if it fails here.
  try {
    await write.heartbeat.stop();
    await deleteMarkers(storage, write.instantTime);
  } catch {
    /* leftover heartbeat and markers are cleaned by the next writer */
  }
}

/**
 * Abort a write that has not completed: delete the files it created (from its markers; it never changes
 * existing files, so nothing else needs undoing) and its timeline files. No rollback instant is needed —
 * nobody saw the write. If this fails half-way, the next writer rolls the instant back.
 */
export async function abortWrite(storage: Storage, state: TableState, write: InflightWrite): Promise<void> {
  await write.heartbeat.stop();
  for (const f of await markedFiles(storage, write.instantTime)) await storage.delete(f);
  await deleteMarkers(storage, write.instantTime);
  // The MDT deltacommit of the instant (if it got that far) goes before the data instant's own files: a crash
  // in between leaves the data instant pending, and its rollback finds the rest.
  // The MDT code loads only for a table with a metadata table (v8/v9 listing MDT partitions; ../metadata/lazy.ts).
  if (state.config.version >= 8 && parseMetadataPartitions(state.config.properties.get('hoodie.table.metadata.partitions')).length > 0) {
    await (await import('../metadata/lazy.js')).discardMetadataDeltacommitOf(storage, state.config, write.instantTime);
  }
  await writeTransition(storage, state, write).remove('INFLIGHT', 'REQUESTED');
}

async function checkAndCommit(storage: Storage, state: TableState, write: InflightWrite, metadata: Uint8Array, touchedGroups: ReadonlySet<string>, lockHeld: () => Promise<void> = async () => undefined, hooks: CompleteWriteHooks = {}): Promise<void> {
  const timeline = await loadTimeline(storage, state.config);
  // Was I rolled back? Then never complete: the instant must still be pending with its requested file, and
  // no rollback may name it (a rollback plan is written under this same lock).
  const mine = timeline.get(write.instantTime);
  const requested = timeline.files.some((f) => f.requestedTime === write.instantTime && f.action === write.action && f.state === 'REQUESTED');
  if (!mine || mine.state === 'COMPLETED' || !requested) throw rolledBackError(write);
  const rollback = await rollbackOf(storage, state.config, timeline, write.instantTime);
  if (rollback !== undefined) throw rolledBackError(write, rollback);
  for (const other of timeline.completedWrites()) {
    if (write.seenCompleted.has(other.requestedTime) || write.seenCompactions.has(other.requestedTime) || other.requestedTime === write.instantTime) continue;
    const path = timelineFilePath(state.config, other);
    const md = parseCommitMetadata(await storage.read(path), path);
    const theirs = new Set<string>();
    for (const [partition, stats] of Object.entries(md.partitionToWriteStats)) for (const s of stats) theirs.add(fileGroupKey(s.partitionPath || partition, s.fileId));
    for (const [partition, ids] of Object.entries(md.partitionToReplaceFileIds)) for (const id of ids) theirs.add(fileGroupKey(partition, id));
    for (const g of touchedGroups) {
      if (theirs.has(g)) {
        throw new LakeletError('CONFLICT', `commit: instant ${write.instantTime} conflicts with ${other.requestedTime}, which changed the same file group ${g.replace('\u0000', '/')}`, { instant: write.instantTime, value: other.requestedTime });
      }
    }
  }
  // A compaction plan scheduled after this write started (pending or done) fixed a new base instant for its
  // groups; this write's logs sit on the old one and would be lost in a superseded slice (Hudi's rule).
  for (const c of compactionInstants(timeline)) {
    if (write.seenCompactions.has(c)) continue;
    const covered = await compactionPlanGroups(storage, state.config, c);
    for (const g of touchedGroups) {
      if (covered.has(g)) {
        throw new LakeletError('CONFLICT', `commit: instant ${write.instantTime} conflicts with compaction ${c}, planned meanwhile for the same file group ${g.replace('\u0000', '/')}`, { instant: write.instantTime, value: c });
      }
    }
  }
  const transition = writeTransition(storage, state, write);
  await lockHeld();
  const floor = hooks.beforeComplete ? await hooks.beforeComplete(lockHeld) : undefined;
  if (floor !== undefined) await lockHeld();
  if (!(await transition.complete(metadata, { clock: floor === undefined ? write.clock : clockAfter(write.clock, floor) }))) {
    const completed = (await transition.completedPath()) ?? write.instantTime;
    throw new LakeletError('CONFLICT', `commit: ${completed} already exists`, { instant: write.instantTime, path: completed });
  }
}

/** `clock`, but never earlier than one millisecond after the instant time `floor` (a completion after the MDT's). */
function clockAfter(clock: Clock, floor: string): Clock {
  const min = parseInstantTime(floor).getTime() + 1;
  return { now: () => Math.max(clock.now(), min), sleep: (ms) => clock.sleep(ms) };
}

/** Remove a write's marker folder (best effort is fine: leftover markers are harmless). */
export async function deleteMarkers(storage: Storage, instantTime: string): Promise<void> {
  for (const f of await storage.list(markerDir(instantTime), { recursive: true })) await storage.delete(f.path);
}

/** Data files a write recorded in its markers. */
export async function markedFiles(storage: Storage, instantTime: string): Promise<string[]> {
  const out: string[] = [];
  for (const f of await storage.list(markerDir(instantTime), { recursive: true })) {
    const marker = parseMarkerPath(f.path);
    const path = marker === undefined ? '' : marker.dataPath ?? marker.file;
    if (path.length > 0) out.push(path);
  }
  return out;
}

/** Heartbeats of writes no longer pending and markers of completed writes: what writes that crashed after completing left. */
export async function sweepWriteLeftovers(state: TableState): Promise<void> {
  const { storage } = state;
  for (const hb of await storage.list(HEARTBEAT_DIR)) {
    const instant = baseName(hb.path);
    if (hb.kind === 'file' && !state.timeline.pending().some((i) => i.requestedTime === instant)) await storage.delete(hb.path);
  }
  for (const dir of await storage.list(MARKERS_DIR)) {
    const instant = baseName(dir.path);
    if (dir.kind === 'directory' && state.timeline.completedAt(instant)) await deleteMarkers(storage, instant);
  }
}
