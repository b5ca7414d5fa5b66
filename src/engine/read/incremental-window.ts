// The writes an incremental window `(from, to]` selects, shared by incremental queries (query.ts) and change
// data capture (cdc/): table version 6 ranges over requested times (Hudi 0.x), versions 8 and 9 over completion
// times (Hudi 1.x's `IncrementalQueryAnalyzer`, open-closed), reaching into the archived timeline when needed.
import { LakeletError } from '../../errors.js';
import type { IncrementalRangeType } from '../../plan/read-plan.js';
import type { CommitMetadata } from '../../timeline/commit-metadata.js';
import { compareInstantTimes, INIT_INSTANT_TIME, type Instant } from '../../timeline/instant.js';
import type { Timeline } from '../../timeline/timeline.js';
import type { TableState } from '../table-state.js';
import { withArchivedWrites } from './archived-fallback.js';
import { normalizeInstant } from './query-instant.js';

/** One completed write of a window, with its commit metadata. */
export interface WindowWrite {
  instant: Instant;
  metadata: CommitMetadata;
}

/** The resolved window of an incremental read. */
export interface IncrementalWindow {
  /** Which times the bounds and the window range over. */
  rangeType: IncrementalRangeType;
  /** The exclusive start (a completion time for `completionTime` windows). */
  from: string;
  /**
   * The inclusive end: `requestedTime` windows, the given bound or the latest write; `completionTime` windows,
   * the given bound as a completion time, or undefined (no upper bound).
   */
  to: string | undefined;
  /** The window's completed writes (compactions and clusterings included), ordered by requested time. */
  writes: WindowWrite[];
  /** The timeline the window was chosen from: the active one, merged with archived writes when it reaches them. */
  timeline: Timeline;
}

/** Do reads of this table choose writes by completion time (timeline layout 2: table versions 8 and 9)? */
export function byCompletionTime(state: TableState): boolean {
  return state.config.timelineLayoutVersion === 2;
}

/**
 * Resolve `(from, to]` against the table: `from` is required (`INVALID_ARGUMENT` naming `from` when absent or
 * later than `to`); the bounds take Hudi's instant forms (`normalizeInstant`).
 */
export async function incrementalWindow(state: TableState, fromValue: string | Date | undefined | null, toValue: string | Date | undefined): Promise<IncrementalWindow> {
  if (fromValue === undefined || fromValue === null) throw new LakeletError('INVALID_ARGUMENT', 'query: incremental reads need a `from` instant', { field: 'from' });
  const fromTime = normalizeInstant(fromValue, 'from');
  if (!byCompletionTime(state)) {
    const latest = state.timeline.latestWrite()?.requestedTime ?? INIT_INSTANT_TIME;
    const to = toValue === undefined ? latest : normalizeInstant(toValue, 'to');
    if (toValue !== undefined && compareInstantTimes(fromTime, to) > 0) {
      throw new LakeletError('INVALID_ARGUMENT', `query: from ${fromTime} is later than to ${to} (an incremental query reads (from, to])`, { field: 'from', value: fromTime });
    }
    return { rangeType: 'requestedTime', from: fromTime, to, writes: await state.writesInRange(fromTime, to), timeline: state.timeline };
  }
  const { timeline, archivedMetadata } = await withArchivedWrites(state, fromTime); // a range reaching into the archive
  const from = timeline.completionBound(fromTime);
  const to = toValue === undefined ? undefined : timeline.completionBound(normalizeInstant(toValue, 'to'));
  if (to !== undefined && compareInstantTimes(from, to) > 0) {
    throw new LakeletError('INVALID_ARGUMENT', `query: from ${from} is later than to ${to} (an incremental query reads completion times (from, to])`, { field: 'from', value: from });
  }
  const writes: WindowWrite[] = [];
  for (const instant of timeline.writesCompletedIn(from, to)) {
    writes.push({ instant, metadata: archivedMetadata(instant.requestedTime) ?? (await state.commitMetadata(instant)) });
  }
  return { rangeType: 'completionTime', from, to, writes, timeline };
}
