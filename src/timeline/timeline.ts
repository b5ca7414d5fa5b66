// The active timeline: every instant found in the timeline folder, collapsed to its latest state per
// requested time and action, with the views a reader needs (completed writes, as-of filtering, pending
// instants). A savepoint shares its requested time with the commit it savepoints: both are kept.
import { compareInstantTimes, completedAction, parseInstantFileName, WRITE_ACTIONS, type Instant } from './instant.js';

const STATE_RANK = { REQUESTED: 0, INFLIGHT: 1, COMPLETED: 2 } as const;
/** Actions that write data files (in any state): writes and the table services that become writes. */

/** One instant per (requested time, action as completed): `compaction.requested` and its `commit` are one. */
const instantKey = (i: Instant): string => `${i.requestedTime}.${completedAction(i.action)}`;

/** Of two instants with one requested time, the one lookups by time return: a write, else the first. */
const preferWrite = (a: Instant | undefined, b: Instant): Instant => (a === undefined || (!WRITE_ACTIONS.has(completedAction(a.action)) && WRITE_ACTIONS.has(completedAction(b.action))) ? b : a);

/** The active timeline of a table, ordered by requested time. */
export class Timeline {
  /** Every instant in its latest state, ordered by requested time (a write before a savepoint of the same time). */
  readonly instants: readonly Instant[];
  /** Every timeline file (all states), ordered by requested time then state. */
  readonly files: readonly Instant[];
  private readonly completedByTime: Map<string, Instant>;

  constructor(files: Instant[]) {
    this.files = [...files].sort((a, b) => compareInstantTimes(a.requestedTime, b.requestedTime) || STATE_RANK[a.state] - STATE_RANK[b.state]);
    const latest = new Map<string, Instant>();
    for (const f of this.files) {
      const prev = latest.get(instantKey(f));
      if (!prev || STATE_RANK[f.state] >= STATE_RANK[prev.state]) latest.set(instantKey(f), f);
    }
    const writeFirst = (i: Instant): number => (WRITE_ACTIONS.has(completedAction(i.action)) ? 0 : 1);
    this.instants = [...latest.values()].sort((a, b) => compareInstantTimes(a.requestedTime, b.requestedTime) || writeFirst(a) - writeFirst(b));
    this.completedByTime = new Map();
    for (const i of this.instants) if (i.state === 'COMPLETED') this.completedByTime.set(i.requestedTime, preferWrite(this.completedByTime.get(i.requestedTime), i));
  }

  /** Build a timeline from the names in a timeline folder; names that are not instants are ignored. */
  static fromFileNames(names: Iterable<string>): Timeline {
    const files: Instant[] = [];
    for (const n of names) {
      const i = parseInstantFileName(n);
      if (i) files.push(i);
    }
    return new Timeline(files);
  }

  /** Completed instants of any action. */
  completed(): Instant[] {
    return this.instants.filter((i) => i.state === 'COMPLETED');
  }

  /** Completed commits, deltacommits and replacecommits (compactions and clusterings included), oldest first. */
  completedWrites(): Instant[] {
    return this.instants.filter((i) => i.state === 'COMPLETED' && WRITE_ACTIONS.has(i.action));
  }

  /** Instants not completed yet (requested or inflight). */
  pending(): Instant[] {
    return this.instants.filter((i) => i.state !== 'COMPLETED');
  }

  /** The completed instant with this requested time, if any (the write when a savepoint shares the time). */
  completedAt(requestedTime: string): Instant | undefined {
    return this.completedByTime.get(requestedTime);
  }

  /** True when a completed write (commit, deltacommit, replacecommit) has this requested time. */
  isCompletedWrite(requestedTime: string): boolean {
    const i = this.completedByTime.get(requestedTime);
    return i !== undefined && WRITE_ACTIONS.has(i.action);
  }

  /**
   * True when the requested time is a completed write, or older than every write instant (any state) on the
   * timeline: such files belong to archived commits (Hudi's `containsOrBeforeTimelineStarts`). Archival keeps
   * the completed write before the oldest pending one, so files of pending writes never pass this test.
   */
  isCommittedWrite(requestedTime: string): boolean {
    return isCommittedWriteTime(requestedTime, (t) => this.isCompletedWrite(t), this.instants[0]?.requestedTime);
  }

  /**
   * When the completed instant with this requested time completed: layout 2 names it in the file, layout 1
   * has no completion time on disk (the requested time stands in). Undefined when no completed instant has it.
   */
  completionTimeOf(requestedTime: string): string | undefined {
    const i = this.completedByTime.get(requestedTime);
    return i === undefined ? undefined : i.completionTime ?? i.requestedTime;
  }

  /**
   * True when the write requested at `requestedTime` is committed (see {@link isCommittedWrite}) and completed at
   * or before the completion time `completedBy` (an archived write, older than the timeline, always did).
   */
  isCommittedWriteBy(requestedTime: string, completedBy: string): boolean {
    if (!this.isCommittedWrite(requestedTime)) return false;
    const completion = this.completionTimeOf(requestedTime);
    return completion === undefined || compareInstantTimes(completion, completedBy) <= 0;
  }

  /**
   * Completed writes whose completion time is in `(from, to]` (`to` undefined: no upper bound), ordered by
   * requested time: the instants of a completion-time incremental query (Hudi 1.x's `IncrementalQueryAnalyzer`
   * with an open-closed range).
   */
  writesCompletedIn(from: string, to: string | undefined): Instant[] {
    return this.completedWrites().filter((i) => {
      const c = i.completionTime ?? i.requestedTime;
      return compareInstantTimes(c, from) > 0 && (to === undefined || compareInstantTimes(c, to) <= 0);
    });
  }

  /**
   * A query bound given as an instant time, as a completion time: the requested time of a completed write
   * stands for the moment that write completed (Hudi's `CheckpointUtils.convertToCheckpointV2ForCommitTime`,
   * which its incremental sources apply to requested-time checkpoints on v8+ tables); any other time is taken
   * as a completion time already.
   */
  completionBound(time: string): string {
    const i = this.completedByTime.get(time);
    return i !== undefined && WRITE_ACTIONS.has(i.action) ? i.completionTime ?? i.requestedTime : time;
  }

  /** Of the writes completed by `completedBy`, the one requested last (the snapshot's schema is its). */
  latestWriteCompletedBy(completedBy: string): Instant | undefined {
    const writes = this.completedWrites().filter((i) => compareInstantTimes(i.completionTime ?? i.requestedTime, completedBy) <= 0);
    return writes[writes.length - 1];
  }

  /** The latest completed write, or undefined for a table without one. */
  latestWrite(): Instant | undefined {
    const writes = this.completedWrites();
    return writes[writes.length - 1];
  }

  /** The instant (any state) with this requested time, if any (the write when a savepoint shares the time). */
  get(requestedTime: string): Instant | undefined {
    let found: Instant | undefined;
    for (const i of this.instants) if (i.requestedTime === requestedTime) found = preferWrite(found, i);
    return found;
  }

  /** Completed savepoints, oldest first. */
  savepoints(): Instant[] {
    return this.instants.filter((i) => i.state === 'COMPLETED' && i.action === 'savepoint');
  }
}

/**
 * The committed-write rule on plain data (it also runs in workers, without a Timeline): a write counts when it
 * completed, or when it is older than `timelineStart`, the first instant of the active timeline of any action
 * (its commit was archived; rolling back every active write leaves their rollback instants, newer than every
 * archived write, as the start).
 */
export function isCommittedWriteTime(requestedTime: string, isCompleted: (t: string) => boolean, timelineStart: string | undefined): boolean {
  if (isCompleted(requestedTime)) return true;
  return timelineStart !== undefined && compareInstantTimes(requestedTime, timelineStart) < 0;
}
