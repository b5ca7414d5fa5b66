// Compaction scheduling (pure): whether a merge-on-read table is due for compaction — enough
// deltacommits since the last compaction, or enough log bytes — and which file slices the plan merges
// (only their committed log files: logs of pending writes are never a plan's input).
import type { FileSlice } from '../file-group/file-slice.js';
import { fileGroupKey } from '../file-group/file-slice.js';
import type { CompactionOperation } from '../timeline/compaction-plan.js';
import { compareInstantTimes } from '../timeline/instant.js';
import type { Timeline } from '../timeline/timeline.js';

/** When compaction is due (Hudi's `hoodie.compact.inline.trigger.strategy` NUM_OR_SIZE in miniature). */
export interface CompactionTrigger {
  /** Compact after this many deltacommits since the last compaction (Hudi's `max.delta.commits`, default 5). */
  deltaCommits: number;
  /** Or when the live slices' log files add up to this many bytes (default: no size trigger). */
  logBytes: number | undefined;
}

/** Deltacommits completed since the last completed compaction (a `commit` on a merge-on-read table). */
export function deltaCommitsSinceCompaction(timeline: Timeline): number {
  const writes = timeline.completedWrites();
  let last: string | undefined;
  for (const w of writes) if (w.action === 'commit') last = w.requestedTime;
  return writes.filter((w) => w.action === 'deltacommit' && (last === undefined || compareInstantTimes(w.requestedTime, last) > 0)).length;
}

/**
 * The operations of a compaction plan: every live slice with committed log files, except groups already in
 * a pending compaction. `uncommittedLogs` (storage paths) are the logs of writes still pending — as Hudi's
 * file-system view leaves out files of uncommitted instants, they are left out (their writer may still
 * abort and delete them, or be rolled back). Undefined when the trigger is not reached (unless `force`) or
 * nothing has committed logs.
 */
export function planCompaction(
  slices: readonly FileSlice[],
  timeline: Timeline,
  pendingGroups: ReadonlySet<string>,
  trigger: CompactionTrigger,
  force = false,
  uncommittedLogs: ReadonlySet<string> = new Set(),
): CompactionOperation[] | undefined {
  const candidates = slices
    .map((s) => (s.logFiles.some((l) => uncommittedLogs.has(l.path)) ? { ...s, logFiles: s.logFiles.filter((l) => !uncommittedLogs.has(l.path)) } : s))
    .filter((s) => s.logFiles.length > 0 && !pendingGroups.has(fileGroupKey(s.partitionPath, s.fileId)));
  if (candidates.length === 0) return undefined;
  const logBytes = candidates.reduce((n, s) => n + s.logFiles.reduce((m, l) => m + l.size, 0), 0);
  const due = force || deltaCommitsSinceCompaction(timeline) >= trigger.deltaCommits || (trigger.logBytes !== undefined && logBytes >= trigger.logBytes);
  if (!due) return undefined;
  return candidates.map((s) => {
    const size = s.logFiles.reduce((m, l) => m + l.size, 0);
    return {
      baseInstantTime: s.baseInstantTime,
      deltaFilePaths: s.logFiles.map((l) => l.name),
      dataFilePath: s.baseFile?.name,
      fileId: s.fileId,
      partitionPath: s.partitionPath,
      metrics: { TOTAL_LOG_FILES: s.logFiles.length, TOTAL_LOG_FILES_SIZE: size, TOTAL_IO_READ_MB: Math.ceil(((s.baseFile?.size ?? 0) + size) / 1048576) },
    };
  });
}
