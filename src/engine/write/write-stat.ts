// The one WriteStat builder of the write handles (merge handle, append handle, compaction): the written file,
// its record counts and bytes, plus the log or compaction fields of that kind of write; and what a bucket wrote.
import type { WriteStatInput } from '../../timeline/commit-metadata-writer.js';

/** What one bucket (a merge handle's base file or an append handle's log file) wrote. */
export interface BucketResult {
  stat: WriteStatInput;
  inserted: number;
  updated: number;
  deleted: number;
  /** Keys now in the bucket's base file, when asked for (in-memory index upkeep); empty for log writes. */
  keys: string[];
}

/** The file a handle wrote. */
export interface WrittenFile {
  fileId: string;
  /** Table-relative path of the file. */
  path: string;
  partitionPath: string;
  /** Instant of the group's previous base file (the slice's base instant for logs); undefined for a new group. */
  prevCommit: string | undefined;
  /** Bytes written. */
  bytes: number;
}

/** Record counts of a write stat. */
export interface WriteCounts {
  numWrites: number;
  numDeletes: number;
  numUpdateWrites: number;
  numInserts: number;
}

/** The fields only a log append or a compaction sets (HoodieDeltaWriteStat, compaction metrics). */
export type WriteStatExtras = Pick<WriteStatInput,
  'totalLogRecords' | 'totalLogBlocks' | 'logVersion' | 'logOffset' | 'baseFile' | 'logFiles'
  | 'totalLogFilesCompacted' | 'totalLogSizeCompacted' | 'totalUpdatedRecordsCompacted'>;

/** Build the write stat of one written file. */
export function writeStat(file: WrittenFile, counts: WriteCounts, extras: WriteStatExtras = {}): WriteStatInput {
  return {
    fileId: file.fileId,
    path: file.path,
    partitionPath: file.partitionPath,
    prevCommit: file.prevCommit,
    ...counts,
    totalWriteBytes: file.bytes,
    fileSizeInBytes: file.bytes,
    ...extras,
  };
}
