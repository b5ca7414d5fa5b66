// The archived timeline, whichever layout wrote it: archived entries (layout 1's HoodieArchivedMetaEntry records
// in `archive-log.ts`, layout 2's LSM history rows in `lsm-instant.ts`) and the deduplicated view of the archived
// instants with their commit metadata.
import type { CleanerPlan, CleanMetadata } from './clean-metadata.js';
import type { CommitMetadata } from './commit-metadata.js';
import { compareInstantTimes, TIMELINE_ACTIONS, type Action, type Instant, type InstantState } from './instant.js';

export { COMMIT_METADATA_AVRO_SCHEMA, REPLACE_COMMIT_METADATA_AVRO_SCHEMA } from './archive-log-schemas.js';
export { ARCHIVE_FILE_PREFIX, archiveFileName, archiveFileVersion, encodeArchiveFile, parseArchiveFile, type ArchiveEntryInput } from './archive-log.js';

/** One archived timeline file (`HoodieArchivedMetaEntry`) or history row (`HoodieLSMTimelineInstant`), interpreted. */
export interface ArchivedEntry {
  commitTime: string;
  /** When the instant completed (layout 2 history rows; layout 1 archives do not record it). */
  completionTime?: string | undefined;
  /** The action as archived (`commit`, `deltacommit`, `replacecommit`, `clean`, `rollback`, `compaction`, …). */
  actionType: string;
  state: InstantState;
  /** Commit metadata of commit/deltacommit/replacecommit entries (completed, or an inflight workload profile). */
  commitMetadata: CommitMetadata | undefined;
  cleanMetadata: CleanMetadata | undefined;
  cleanerPlan: CleanerPlan | undefined;
  /** The decoded record. */
  raw: Record<string, unknown>;
}

const ACTIONS: ReadonlySet<string> = new Set(TIMELINE_ACTIONS);

/**
 * Archived instants, deduplicated (an instant archived twice after a crash counts once: the first entry given
 * wins). Pure.
 */
export class ArchivedTimeline {
  /** Completed archived instants, oldest first. */
  readonly instants: readonly Instant[];
  private readonly byTime = new Map<string, { instant: Instant; entry: ArchivedEntry }>();

  constructor(entries: readonly ArchivedEntry[]) {
    for (const e of entries) {
      if (e.state !== 'COMPLETED' || !ACTIONS.has(e.actionType)) continue;
      const action = e.actionType as Action;
      const completionTime = e.completionTime || undefined;
      const fileName = completionTime === undefined ? `${e.commitTime}.${action}` : `${e.commitTime}_${completionTime}.${action}`;
      const instant: Instant = { requestedTime: e.commitTime, action, state: 'COMPLETED', completionTime, fileName };
      if (!this.byTime.has(e.commitTime)) this.byTime.set(e.commitTime, { instant, entry: e });
    }
    this.instants = [...this.byTime.values()].map((x) => x.instant).sort((a, b) => compareInstantTimes(a.requestedTime, b.requestedTime));
  }

  /** Completed archived commits, deltacommits and replacecommits, oldest first. */
  completedWrites(): Instant[] {
    return this.instants.filter((i) => i.action === 'commit' || i.action === 'deltacommit' || i.action === 'replacecommit');
  }

  /** The archived completed instant with this requested time. */
  completedAt(requestedTime: string): Instant | undefined {
    return this.byTime.get(requestedTime)?.instant;
  }

  /** Commit metadata of an archived completed write, if archived with it. */
  commitMetadata(requestedTime: string): CommitMetadata | undefined {
    return this.byTime.get(requestedTime)?.entry.commitMetadata;
  }

  /** Clean metadata of an archived completed clean. */
  cleanMetadata(requestedTime: string): CleanMetadata | undefined {
    return this.byTime.get(requestedTime)?.entry.cleanMetadata;
  }
}
