// The metadata table's own compaction (hudi-v9-write.md §4.2; Java's HoodieBackedTableMetadataWriter
// compactIfNecessary with the UnBoundedCompactionStrategy): when it is due — at least `maxDeltaCommits` (Java's
// `hoodie.metadata.compact.max.delta.commits`, 10) MDT deltacommits completed since the last MDT compaction, no
// MDT instant pending, no data instant pending (Java's validateTimelineBeforeSchedulingCompaction) — and the
// plan: one operation per file group of every MDT partition, over its latest slice (base HFile and every valid
// log), with the metrics Java records. Pure: the engine lists the slices and writes the files.
import { baseFileName } from '../file-group/file-names.js';
import type { CompactionOperation } from '../timeline/compaction-plan.js';
import { compareInstantTimes } from '../timeline/instant.js';
import type { Timeline } from '../timeline/timeline.js';
import type { MetadataFileSlice } from './metadata-file-slices.js';

/** Java's default of `hoodie.metadata.compact.max.delta.commits`. */
export const METADATA_COMPACT_MAX_DELTA_COMMITS = 10;

/** Why an MDT compaction is not scheduled now (or `due`). */
export type MetadataCompactionCheck =
  | { due: true; deltaCommitsSinceCompaction: number }
  | { due: false; reason: 'too-few-deltacommits' | 'metadata-instant-pending' | 'data-instant-pending'; instant?: string; deltaCommitsSinceCompaction: number };

/**
 * Is an MDT compaction due? Counts the MDT deltacommits completed after the last completed MDT compaction's
 * instant (`commit` on the MDT timeline; by completion time — their logs sit on top of its bases), partition
 * initialisations included. Blocked while any MDT
 * instant or any data instant is pending: a pending data write's MDT log would be left out of the new base (its
 * data instant does not count yet) and lost when it completes.
 */
export function metadataCompactionDue(mdtTimeline: Timeline, dataTimeline: Timeline, maxDeltaCommits = METADATA_COMPACT_MAX_DELTA_COMMITS): MetadataCompactionCheck {
  const completed = mdtTimeline.completed();
  const lastCompaction = completed.filter((i) => i.action === 'commit').map((i) => i.requestedTime).sort(compareInstantTimes).at(-1);
  // By completion time: a deltacommit that completed after compaction X put its logs on top of X's bases.
  const since = completed.filter((i) => i.action === 'deltacommit' && (lastCompaction === undefined || compareInstantTimes(i.completionTime ?? i.requestedTime, lastCompaction) > 0)).length;
  const mdtPending = mdtTimeline.pending()[0];
  if (mdtPending) return { due: false, reason: 'metadata-instant-pending', instant: mdtPending.requestedTime, deltaCommitsSinceCompaction: since };
  const dataPending = dataTimeline.pending()[0];
  if (dataPending) return { due: false, reason: 'data-instant-pending', instant: dataPending.requestedTime, deltaCommitsSinceCompaction: since };
  if (since < maxDeltaCommits) return { due: false, reason: 'too-few-deltacommits', deltaCommitsSinceCompaction: since };
  return { due: true, deltaCommitsSinceCompaction: since };
}

const MB = 1024 * 1024;
/** Java's write estimate for a slice without a base file: the default max base file size, 120 MB. */
const DEFAULT_MAX_FILE_SIZE_MB = 120;

/**
 * The compaction operation of one MDT file slice, as Java's plan generator writes it: partition = the MDT
 * partition, base instant = the slice's (the base file's instant, else its first log's — the partition's
 * initialisation instant), log file names oldest first, and the metrics (TOTAL_LOG_FILES, TOTAL_LOG_FILES_SIZE,
 * TOTAL_IO_READ_MB / TOTAL_IO_WRITE_MB / TOTAL_IO_MB in whole MB; the write estimate is the base size, or 120 MB).
 */
export function metadataCompactionOperation(slice: MetadataFileSlice): CompactionOperation {
  const logSize = slice.logFiles.reduce((n, l) => n + l.size, 0);
  const baseSize = slice.baseFile?.size ?? 0;
  const readMb = Math.floor(baseSize / MB) + Math.floor(logSize / MB);
  const writeMb = slice.baseFile ? Math.floor(baseSize / MB) : DEFAULT_MAX_FILE_SIZE_MB;
  const baseInstantTime = slice.baseFile?.instantTime ?? slice.logFiles[0]?.instantTime ?? '';
  return {
    baseInstantTime,
    deltaFilePaths: slice.logFiles.map((l) => l.name),
    dataFilePath: slice.baseFile?.name,
    fileId: slice.fileId,
    partitionPath: slice.partition,
    metrics: { TOTAL_LOG_FILES: slice.logFiles.length, TOTAL_IO_MB: readMb + writeMb, TOTAL_IO_READ_MB: readMb, TOTAL_LOG_FILES_SIZE: logSize, TOTAL_IO_WRITE_MB: writeMb },
  };
}

/** The plan's operations: every file group of every partition (partitions in the order given, groups by file id). */
export function metadataCompactionOperations(slicesPerPartition: readonly (readonly MetadataFileSlice[])[]): CompactionOperation[] {
  return slicesPerPartition.flatMap((slices) => [...slices].sort((a, b) => (a.fileId < b.fileId ? -1 : a.fileId > b.fileId ? 1 : 0)).map(metadataCompactionOperation));
}

/** The name of the base HFile an MDT compaction at `instantTime` writes for operation number `index`: `<fileId>_<index>-0-0_<t>.hfile`. */
export function metadataCompactedBaseFileName(fileId: string, index: number, instantTime: string): string {
  return baseFileName(fileId, `${index}-0-0`, instantTime, 'hfile');
}
