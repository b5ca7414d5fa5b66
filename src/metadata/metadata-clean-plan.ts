// The metadata table's own clean (Java's HoodieMetadataWriteUtils.createMetadataWriteConfig: KEEP_LATEST_COMMITS
// retaining DEFAULT_METADATA_CLEANER_COMMITS_RETAINED = 20 commits, run after the MDT compaction): the file slices
// an MDT compaction replaced, once a newer slice's base instant is at or before the earliest commit to retain.
// Slices are per file group: a base HFile of a completed MDT instant and the logs whose deltacommit completed
// before the next base's instant (hudi-v9-write.md §3); a group's latest slice is never cleaned, nor are files of
// instants the MDT timeline does not show completed (a crashed writer's, left to the rollback) — files of instants
// older than the active timeline are of archived, completed ones. Pure.
import { baseName } from '../layout.js';
import { parseBaseFileName, parseLogFileName } from '../file-group/file-names.js';
import { compareInstantTimes, type Instant } from '../timeline/instant.js';
import type { Timeline } from '../timeline/timeline.js';
import { metadataCommittedAt, type MetadataPartitionFile } from './metadata-file-slices.js';

/** Java's default number of MDT commits a clean retains. */
export const METADATA_CLEANER_COMMITS_RETAINED = 20;

/** What {@link planMetadataClean} decides. */
export interface MetadataCleanPlan {
  /** The oldest MDT commit whose snapshot stays readable (undefined: too few commits, nothing to clean). */
  earliestInstantToRetain: Instant | undefined;
  /** The latest completed MDT commit. */
  lastCompletedCommit: string;
  /** Per MDT partition, the files (paths as listed) to delete. */
  filesToDelete: Record<string, string[]>;
  /** Number of files to delete. */
  fileCount: number;
}

/**
 * Plan the MDT clean over each partition's folder listing (`files`: partition → its files, MDT paths as
 * listed) with the MDT timeline (see the file header).
 */
export function planMetadataClean(files: ReadonlyMap<string, readonly MetadataPartitionFile[]>, timeline: Timeline, retainCommits = METADATA_CLEANER_COMMITS_RETAINED): MetadataCleanPlan {
  const commits = timeline.completed().filter((i) => i.action === 'deltacommit' || i.action === 'commit').sort((a, b) => compareInstantTimes(a.requestedTime, b.requestedTime));
  const last = commits.at(-1)?.requestedTime ?? '';
  const earliest = commits.length > retainCommits ? commits[commits.length - retainCommits] : undefined;
  const out: MetadataCleanPlan = { earliestInstantToRetain: earliest, lastCompletedCommit: last, filesToDelete: {}, fileCount: 0 };
  if (!earliest) return out;
  const completion = (t: string): string | undefined => metadataCommittedAt(timeline, t);
  for (const [partition, listed] of files) {
    const groups = new Map<string, { bases: { path: string; instant: string }[]; logs: { path: string; completed: string }[] }>();
    const group = (id: string) => {
      let g = groups.get(id);
      if (!g) groups.set(id, (g = { bases: [], logs: [] }));
      return g;
    };
    for (const f of listed) {
      const name = baseName(f.path);
      const base = parseBaseFileName(name);
      if (base && base.extension === 'hfile') {
        if (completion(base.instantTime) !== undefined) group(base.fileId).bases.push({ path: f.path, instant: base.instantTime });
        continue;
      }
      const log = parseLogFileName(name);
      const done = log ? completion(log.instantTime) : undefined;
      if (log && done !== undefined) group(log.fileId).logs.push({ path: f.path, completed: done });
    }
    const doomed: string[] = [];
    for (const g of groups.values()) {
      // The newest base at or before the earliest retained commit: every slice before it is no longer read.
      const keep = g.bases.filter((b) => compareInstantTimes(b.instant, earliest.requestedTime) <= 0).sort((a, b) => compareInstantTimes(a.instant, b.instant)).at(-1);
      if (!keep) continue;
      for (const b of g.bases) if (compareInstantTimes(b.instant, keep.instant) < 0) doomed.push(b.path);
      for (const l of g.logs) if (compareInstantTimes(l.completed, keep.instant) < 0) doomed.push(l.path);
    }
    if (doomed.length > 0) {
      out.filesToDelete[partition] = doomed.sort();
      out.fileCount += doomed.length;
    }
  }
  return out;
}
