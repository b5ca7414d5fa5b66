// The archival planner of the metadata table's own timeline (pure). Hudi archives the MDT timeline with the
// same archiver as a data table (TimelineArchiverV2.getCommitInstantsToArchive / getInstantsToArchive), run
// by HoodieBackedTableMetadataWriter.performTableServices after the MDT clean and compaction, with the MDT write
// config of HoodieMetadataWriteUtils.createMetadataWriteConfig. The rules, with their sources:
// - Limits: `archiveCommitsWith(data keep.min + 1, data keep.max + 1)` (createMetadataWriteConfig; 21 / 31 by
//   default), raised by ArchivalUtils.getMinAndMaxInstantsToKeep when the MDT's KEEP_LATEST_COMMITS cleaner keeps
//   more: its earliest commit to retain (CleanerUtils.getEarliestCommitToRetain: the `retained`-th completed
//   commit from the end, never after the earliest pending commit) with N completed commits after it makes
//   min = N + 2 and max = min + (max − min as configured).
// - "Commits" are the MDT's completed deltacommits and commits (compactions): nothing is archived while there
//   are no more than max of them; then the oldest go, leaving min, and only those requested before the
//   earliest instant to retain, the earliest of:
//   1. the latest completed commit before the earliest pending write-timeline instant (or that instant);
//   2. MOR compaction (CompactionUtils.getEarliestInstantToRetainForCompaction with the MDT's
//      `hoodie.metadata.compact.max.delta.commits`, 10): the latest completed MDT compaction while fewer than
//      that many deltacommits followed it, else the deltacommit that many from the end (with no compaction yet,
//      the same over all deltacommits, starting at the first);
//   3. (step 4 is the data table's MDT bound, step 3 clustering: neither applies to the MDT)
//   5. the data table: its first commit, deltacommit or replacecommit of any state, or its first pending
//      instant of any action if earlier (TimelineUtils.getEarliestInstantForMetadataArchival) — the MDT keeps
//      the deltacommit of every data write a rollback may still undo (HoodieTableMetadataUtil.processRollbackMetadata).
//   and never at or after the MDT's first savepoint (it has none in practice).
// - With the commits go the MDT's completed cleans and rollbacks requested before the last archived commit
//   (getCleanAndRollbackInstantsToArchive), and every state's file of each (ActiveAction.fromInstants).
// Java's MDT log reader counts blocks of instants older than the active timeline's start as committed
// (containsOrBeforeTimelineStarts), so archived MDT deltacommits' logs stay valid for their file slices.
import { archivalPlanFiles, resolveArchivalOptions, type ArchivalOptions, type ArchivalPlan } from './archival-plan.js';
import { LakeletError } from '../errors.js';
import { compareInstantTimes, type Instant } from '../timeline/instant.js';
import type { Timeline } from '../timeline/timeline.js';

/** Options of {@link planMetadataArchival}. */
export interface MetadataArchivalOptions extends ArchivalOptions {
  /** The MDT cleaner's commits retained (lakelet's MDT clean keeps 20, Java's default). */
  cleanerCommitsRetained?: number;
  /** MDT deltacommits that make an MDT compaction due (`hoodie.metadata.compact.max.delta.commits`, 10). */
  compactionMaxDeltaCommits?: number;
}

/** How many MDT commits the archiver keeps (see the file header). */
export interface MetadataArchivalLimits {
  keepMinCommits: number;
  keepMaxCommits: number;
}

const PENDING_WRITE_ACTIONS: ReadonlySet<string> = new Set(['commit', 'deltacommit', 'replacecommit', 'compaction', 'logcompaction', 'clustering']);
const DATA_COMMIT_ACTIONS: ReadonlySet<string> = new Set(['commit', 'deltacommit', 'replacecommit', 'clustering']);
const lt = (a: string, b: string): boolean => compareInstantTimes(a, b) < 0;

function positive(name: string, v: number | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < 1) throw new LakeletError('INVALID_ARGUMENT', `metadata archival: ${name} must be a whole number ≥ 1, got ${String(v)}`, { field: name, value: v });
  return v;
}

/** The MDT's completed deltacommits and commits, oldest first (Java's completed commits timeline of the MDT). */
function completedCommits(mdt: Timeline): Instant[] {
  return mdt.completed().filter((i) => i.action === 'deltacommit' || i.action === 'commit' || i.action === 'replacecommit');
}

/** CleanerUtils.getEarliestCommitToRetain under KEEP_LATEST_COMMITS. */
function cleanerEarliestCommitToRetain(mdt: Timeline, commits: readonly Instant[], retained: number): Instant | undefined {
  if (commits.length <= retained) return undefined;
  const nth = commits[commits.length - retained] as Instant;
  const pending = mdt.pending().find((i) => i.action === 'deltacommit' || i.action === 'commit' || i.action === 'replacecommit');
  if (!pending || !lt(pending.requestedTime, nth.requestedTime)) return nth;
  return commits.filter((c) => lt(c.requestedTime, pending.requestedTime)).at(-1);
}

/** The MDT archiver's min and max commits to keep on `mdt` as it is now (see the file header). */
export function metadataArchivalLimits(mdt: Timeline, options: MetadataArchivalOptions = {}): MetadataArchivalLimits {
  const data = resolveArchivalOptions(options);
  const min = data.keepMinCommits + 1;
  const max = data.keepMaxCommits + 1;
  const retained = positive('cleanerCommitsRetained', options.cleanerCommitsRetained, 20);
  const commits = completedCommits(mdt);
  const ectr = cleanerEarliestCommitToRetain(mdt, commits, retained);
  if (ectr === undefined) return { keepMinCommits: min, keepMaxCommits: max };
  const byCleaning = commits.filter((c) => lt(ectr.requestedTime, c.requestedTime)).length + 2;
  return min < byCleaning ? { keepMinCommits: byCleaning, keepMaxCommits: byCleaning + max - min } : { keepMinCommits: min, keepMaxCommits: max };
}

/** Does the MDT hold more commits than the archiver keeps (the first condition of any archival; the MDT timeline alone)? */
export function metadataArchivalDue(mdt: Timeline, options: MetadataArchivalOptions = {}): boolean {
  return completedCommits(mdt).length > metadataArchivalLimits(mdt, options).keepMaxCommits;
}

/** Rule 2: the oldest MDT instant a future MDT compaction still needs on the active timeline. */
function retainedForCompaction(mdt: Timeline, maxDeltaCommits: number): Instant | undefined {
  const lastCompaction = mdt.completed().filter((i) => i.action === 'commit').at(-1);
  const deltas = mdt.instants.filter((i) => i.action === 'deltacommit' && (lastCompaction === undefined || lt(lastCompaction.requestedTime, i.requestedTime)));
  const anchor = lastCompaction ?? deltas[0];
  if (anchor === undefined) return undefined;
  return deltas.length < maxDeltaCommits ? anchor : deltas[deltas.length - maxDeltaCommits];
}

/** Rule 5: the data table's first commit of any state, or its first pending instant when earlier. */
function retainedForDataTable(data: Timeline): Instant | undefined {
  const firstCommit = data.instants.find((i) => DATA_COMMIT_ACTIONS.has(i.action));
  const firstPending = data.pending()[0];
  if (!firstCommit) return firstPending;
  if (!firstPending) return firstCommit;
  return lt(firstPending.requestedTime, firstCommit.requestedTime) ? firstPending : firstCommit;
}

/**
 * Plan an archival of the MDT timeline `mdt` of the data table whose active timeline is `data` (rules in the
 * file header). `options` carries the data table's keep settings (`keepMinCommits` 20 / `keepMaxCommits` 30 by
 * default; the MDT keeps one more of each). Bad options → `INVALID_ARGUMENT`.
 */
export function planMetadataArchival(mdt: Timeline, data: Timeline, options: MetadataArchivalOptions = {}): ArchivalPlan {
  const { keepMinCommits } = metadataArchivalLimits(mdt, options);
  const maxDeltaCommits = positive('compactionMaxDeltaCommits', options.compactionMaxDeltaCommits, 10);
  const commits = completedCommits(mdt);
  if (!metadataArchivalDue(mdt, options)) return { instants: [], files: [] };

  const candidates: string[] = [];
  const pending = mdt.pending().find((i) => PENDING_WRITE_ACTIONS.has(i.action));
  if (pending) candidates.push(commits.filter((c) => lt(c.requestedTime, pending.requestedTime)).at(-1)?.requestedTime ?? pending.requestedTime);
  const forCompaction = retainedForCompaction(mdt, maxDeltaCommits);
  if (forCompaction) candidates.push(forCompaction.requestedTime);
  const forData = retainedForDataTable(data);
  if (forData) candidates.push(forData.requestedTime);
  const stop = candidates.reduce<string | undefined>((a, b) => (a === undefined || lt(b, a) ? b : a), undefined);
  const savepoint = mdt.savepoints()[0]?.requestedTime;

  const archived = commits
    .filter((c) => (stop === undefined || lt(c.requestedTime, stop)) && (savepoint === undefined || lt(c.requestedTime, savepoint)))
    .slice(0, commits.length - keepMinCommits);
  const last = archived.at(-1);
  if (!last) return { instants: [], files: [] };
  const services = mdt.completed().filter((i) => (i.action === 'clean' || i.action === 'rollback') && lt(i.requestedTime, last.requestedTime));
  const instants = [...archived, ...services].sort((a, b) => compareInstantTimes(a.requestedTime, b.requestedTime));
  return { instants, files: archivalPlanFiles(mdt, instants) };
}
