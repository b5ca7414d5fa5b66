// The archival planner (Hudi's HoodieTimelineArchiver for layout 1, pure): which completed instants leave the
// active timeline — the oldest writes, cleans and rollbacks beyond `keepMaxCommits` down to `keepMinCommits`,
// never at or after the oldest pending write, the first savepoint, the latest clean (or its earliest commit
// to retain) or a replacecommit whose replaced files may still exist; and, on a table with a metadata table,
// never past its latest compaction (no MDT compaction, no archival).
import { LakeletError } from '../errors.js';
import { WRITE_ACTIONS, compareInstantTimes, completedAction, type Instant } from '../timeline/instant.js';
import type { Timeline } from '../timeline/timeline.js';

/** Options of {@link planArchival} (`hoodie.keep.min.commits` 20, `hoodie.keep.max.commits` 30). */
export interface ArchivalOptions {
  keepMinCommits?: number;
  keepMaxCommits?: number;
}

/** What the latest completed clean says (the archiver must not outrun it). */
export interface LatestClean {
  /** The clean's instant time. */
  instantTime: string;
  /** Its earliest commit to retain (`""` / undefined when it has none). */
  earliestCommitToRetain: string | undefined;
}

/**
 * Hudi's metadata-table bound on archival (`TimelineArchiverV2`, step 4): the MDT's latest compaction is its
 * last completed commit or replacecommit. With none, nothing is archived (`blocked`); else no write that
 * completed after that compaction's requested time is archived, nor anything after it — `stop` is the first
 * such completed write (undefined: none, no bound). Layout-1 instants, without completion times, count by
 * their requested time.
 */
export function metadataTableArchivalBound(timeline: Timeline, metadataTimeline: Timeline): { blocked: boolean; stop: string | undefined } {
  const compactions = metadataTimeline.completed().filter((i) => i.action === 'commit' || i.action === 'replacecommit');
  const latest = compactions[compactions.length - 1]?.requestedTime;
  if (latest === undefined) return { blocked: true, stop: undefined };
  const after = timeline.completedWrites().find((w) => w.requestedTime !== latest && compareInstantTimes(w.completionTime ?? w.requestedTime, latest) > 0);
  return { blocked: false, stop: after?.requestedTime };
}

/** An archival plan. */
export interface ArchivalPlan {
  /** Completed instants to archive, oldest first. */
  instants: Instant[];
  /** Every timeline file (all states) of those instants, in timeline order. */
  files: Instant[];
}

const PENDING_BLOCKERS: ReadonlySet<string> = new Set(['commit', 'deltacommit', 'replacecommit', 'compaction', 'logcompaction', 'clustering']);
const lt = (a: string, b: string): boolean => compareInstantTimes(a, b) < 0;

function count(name: string, v: number | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new LakeletError('INVALID_ARGUMENT', `archive: ${name} must be a whole number ≥ 1, got ${String(v)}`, { field: name, value: v });
  return v;
}

/** Resolve and validate the options: `keepMaxCommits` must exceed `keepMinCommits` (as Hudi requires). */
export function resolveArchivalOptions(options: ArchivalOptions = {}): { keepMinCommits: number; keepMaxCommits: number } {
  const keepMinCommits = count('keepMinCommits', options.keepMinCommits, 20);
  const keepMaxCommits = count('keepMaxCommits', options.keepMaxCommits, 30);
  if (keepMaxCommits <= keepMinCommits) {
    throw new LakeletError('INVALID_ARGUMENT', `archive: keepMaxCommits (${keepMaxCommits}) must be greater than keepMinCommits (${keepMinCommits})`, { field: 'keepMaxCommits', value: keepMaxCommits });
  }
  return { keepMinCommits, keepMaxCommits };
}

/**
 * Plan an archival. Once the active timeline holds more than `keepMaxCommits` completed writes, cleans and
 * rollbacks, the oldest go until `keepMinCommits` remain, stopping before the latest clean and before: the latest completed write preceding the oldest
 * pending write or table service (so files of pending writes stay distinguishable); the first completed
 * savepoint; the latest clean's earliest commit to retain; the first replacecommit at or after that commit (or
 * after the clean itself, or any replacecommit when the table was never cleaned) — its replaced file groups
 * may still be on storage. With `metadataTimeline` (the table has a metadata table): see
 * {@link metadataTableArchivalBound}.
 */
export function planArchival(timeline: Timeline, options: ArchivalOptions = {}, latestClean?: LatestClean, metadataTimeline?: Timeline): ArchivalPlan {
  const { keepMinCommits, keepMaxCommits } = resolveArchivalOptions(options);
  const writes = timeline.completedWrites();
  const total = timeline.completed().filter((i) => WRITE_ACTIONS.has(i.action) || i.action === 'clean' || i.action === 'rollback').length;
  if (total <= keepMaxCommits) return { instants: [], files: [] };

  const stops: string[] = [];
  if (metadataTimeline) {
    const bound = metadataTableArchivalBound(timeline, metadataTimeline);
    if (bound.blocked) return { instants: [], files: [] };
    if (bound.stop !== undefined) stops.push(bound.stop);
  }
  const pending = timeline.pending().find((i) => PENDING_BLOCKERS.has(i.action));
  if (pending) {
    const before = writes.filter((w) => lt(w.requestedTime, pending.requestedTime));
    stops.push(before[before.length - 1]?.requestedTime ?? pending.requestedTime);
  }
  const firstSavepoint = timeline.completed().find((i) => i.action === 'savepoint');
  if (firstSavepoint) stops.push(firstSavepoint.requestedTime);
  const ectr = latestClean?.earliestCommitToRetain || undefined;
  if (ectr) stops.push(ectr);
  const replaces = timeline.instants.filter((i) => i.action === 'replacecommit' || i.action === 'clustering');
  if (replaces.length > 0) {
    const lowerBound = latestClean ? ectr ?? latestClean.instantTime : undefined;
    const guard = lowerBound === undefined ? replaces[0] : replaces.find((r) => !lt(r.requestedTime, lowerBound));
    if (guard) stops.push(guard.requestedTime);
  }
  const stop = stops.reduce<string | undefined>((a, b) => (a === undefined || lt(b, a) ? b : a), undefined);

  // Writes, cleans and rollbacks all count towards the limits, so the active timeline as a whole stays
  // between min and max (Hudi counts commits and cleans separately; the total then grows to twice as much).
  const earliestPending = timeline.pending()[0]?.requestedTime;
  const latestCleanInstant = timeline.completed().filter((i) => i.action === 'clean').at(-1);
  const counted = timeline.completed().filter((i) => WRITE_ACTIONS.has(i.action) || i.action === 'clean' || i.action === 'rollback');
  const instants: Instant[] = [];
  let remaining = counted.length;
  for (const i of counted) {
    if (remaining <= keepMinCommits) break;
    if (stop !== undefined && !lt(i.requestedTime, stop)) break;
    if (earliestPending !== undefined && !lt(i.requestedTime, earliestPending)) break;
    if (i === latestCleanInstant) continue; // the latest clean's metadata bounds time travel and archival
    instants.push(i);
    remaining--;
  }
  if (!instants.some((i) => WRITE_ACTIONS.has(i.action))) return { instants: [], files: [] };
  return { instants, files: archivalPlanFiles(timeline, instants) };
}

/**
 * Every timeline file (all states, in timeline order) of the completed `instants`: a compaction's requested and
 * inflight files belong to its `commit`, a log compaction's to its `deltacommit`, a clustering's to its
 * `replacecommit`.
 */
export function archivalPlanFiles(timeline: Timeline, instants: readonly Instant[]): Instant[] {
  const keys = new Set(instants.map((i) => `${i.requestedTime}|${i.action}`));
  return timeline.files.filter((f) => keys.has(`${f.requestedTime}|${completedAction(f.action)}`));
}
