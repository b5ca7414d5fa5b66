// The table as it will be once a pending write commits, for pre-commit validators: a TableState whose timeline
// holds the write's instant as completed (with the commit metadata it is about to write) and whose listing is
// taken after the write's files landed, so snapshot reads see the pending files as committed.
import { resolveQuery, executeRead, type ReadOptions } from '../read/query.js';
import { listDataFiles, TableState } from '../table-state.js';
import { parseCommitMetadata, type CommitMetadata } from '../../timeline/commit-metadata.js';
import { completedAction, instantFileName, type Action, type Instant } from '../../timeline/instant.js';
import { Timeline } from '../../timeline/timeline.js';
import { timelineFilePath } from '../../layout.js';
import { completionTimeFor } from '../commit/instant-request.js';

/** Options of a pending-snapshot read: columns, filters and limit as a snapshot query takes them. */
export type PendingReadOptions = Pick<ReadOptions, 'columns' | 'filters' | 'limit'>;

/** The table as it would read after the pending commit: what user validators get as `newSnapshot`. */
export interface PendingSnapshot {
  /** The pending write's instant time. */
  readonly instant: string;
  /** Rows of the snapshot (meta columns included, as `Table.rows`), after the pending commit. */
  rows(options?: PendingReadOptions): AsyncGenerator<Record<string, unknown>>;
  /** The number of rows of the snapshot after the pending commit (exact: every live record is read, keys only). */
  count(options?: Pick<ReadOptions, 'filters'>): Promise<number>;
}

/** A state that answers the pending instant's commit metadata itself (every other instant from `base`). */
class PendingState extends TableState {
  constructor(
    private readonly base: TableState,
    timeline: Timeline,
    private readonly pending: { instantTime: string; metadata: CommitMetadata },
  ) {
    super(base.storage, base.config, timeline, async (s) => ({ files: await listDataFiles(s.storage), source: 'storage' }));
  }

  override commitMetadata(instant: Instant): Promise<CommitMetadata> {
    if (instant.requestedTime === this.pending.instantTime) return Promise.resolve(this.pending.metadata);
    return this.base.commitMetadata(instant);
  }
}

/**
 * The snapshot `state` (the table the write started from) would read once `instantTime` (action `action`)
 * completes with the commit file `metadata`. Files are listed from storage afresh (the write's files included).
 */
export function pendingSnapshot(state: TableState, instantTime: string, action: Action, metadata: Uint8Array, now: Date): PendingSnapshot {
  // Layout 2 orders writes by completion time: the pending one completes after everything on the timeline.
  const completionTime = state.config.timelineLayoutVersion === 2 ? completionTimeFor(instantTime, state.timeline.files, now) : undefined;
  const fileName = completionTime === undefined ? instantFileName(instantTime, action, 'COMPLETED') : `${instantTime}_${completionTime}.${completedAction(action)}`;
  const completed: Instant = { requestedTime: instantTime, action: completedAction(action), state: 'COMPLETED', completionTime, fileName };
  const timeline = new Timeline([...state.timeline.files, completed]);
  const path = timelineFilePath(state.config, completed);
  const view = new PendingState(state, timeline, { instantTime, metadata: parseCommitMetadata(metadata, path) });
  const rows = async function* (options: PendingReadOptions = {}): AsyncGenerator<Record<string, unknown>> {
    yield* executeRead(view, await resolveQuery(view, { ...options, listing: 'storage' }));
  };
  return {
    instant: instantTime,
    rows,
    async count(options = {}) {
      let n = 0;
      for await (const _ of rows({ ...options, columns: ['_hoodie_record_key'] })) n++;
      return n;
    },
  };
}
