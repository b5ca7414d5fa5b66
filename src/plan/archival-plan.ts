// The archival planner (Hudi's HoodieTimelineArchiver for layout 1, pure): which completed instants leave the
// active timeline — the oldest writes beyond `keepMaxCommits` down to `keepMinCommits`, never at or after the
// oldest pending write, the first savepoint, the latest clean's earliest commit to retain or a replacecommit
// whose replaced files may still exist; and the cleans and rollbacks older than the newest write archived.
import { LakeletError } from '../errors.js';
import { compareInstantTimes, type Instant } from '../timeline/instant.js';
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
 * Plan an archival. Once the active timeline holds more than `keepMaxCommits` completed writes, the oldest
 * ones go until `keepMinCommits` remain, stopping before: the latest completed write preceding the oldest
 * pending write or table service (so files of pending writes stay distinguishable); the first completed
 * savepoint; the latest clean's earliest commit to retain; the first replacecommit at or after that commit (or
 * after the clean itself, or any replacecommit when the table was never cleaned) — its replaced file groups
 * may still be on storage. Completed cleans and rollbacks older than the newest archived write go along.
 */
export function planArchival(timeline: Timeline, options: ArchivalOptions = {}, latestClean?: LatestClean): ArchivalPlan {
  const { keepMinCommits, keepMaxCommits } = resolveArchivalOptions(options);
  const writes = timeline.completedWrites();
  if (writes.length <= keepMaxCommits) return { instants: [], files: [] };

  const stops: string[] = [];
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

  const eligible = writes.filter((w) => stop === undefined || lt(w.requestedTime, stop));
  const toArchive = eligible.slice(0, Math.max(0, writes.length - keepMinCommits));
  const last = toArchive[toArchive.length - 1];
  if (!last) return { instants: [], files: [] };
  const earliestPending = timeline.pending()[0]?.requestedTime;
  const services = timeline.completed().filter((i) => (i.action === 'clean' || i.action === 'rollback')
    && lt(i.requestedTime, last.requestedTime)
    && (earliestPending === undefined || lt(i.requestedTime, earliestPending)));
  const instants = [...toArchive, ...services].sort((a, b) => compareInstantTimes(a.requestedTime, b.requestedTime));
  const keys = new Set(instants.map((i) => `${i.requestedTime}|${i.action}`));
  // A compaction's requested/inflight files belong to its `commit`; a clustering's to its `replacecommit`.
  const completedOf = (f: Instant): string => (f.action === 'compaction' ? 'commit' : f.action === 'logcompaction' ? 'deltacommit' : f.action === 'clustering' ? 'replacecommit' : f.action);
  const files = timeline.files.filter((f) => keys.has(`${f.requestedTime}|${completedOf(f)}`));
  return { instants, files };
}
