// File groups and file slices (hudi-format.md §4.2): a group is every file with one (partition, fileId);
// a slice is one base file plus the log files that apply on top of it.

/** A base (columnar) file of a slice. */
export interface BaseFile {
  /** Path relative to the table root. */
  path: string;
  name: string;
  fileId: string;
  partitionPath: string;
  /** Requested time of the write that produced it. */
  instantTime: string;
  size: number;
}

/** A log file of a slice (merge-on-read). */
export interface LogFile {
  path: string;
  name: string;
  fileId: string;
  partitionPath: string;
  /** The instant in the name: v6 the slice's base instant, v8+ the deltacommit that wrote it. */
  instantTime: string;
  version: number;
  writeToken: string | undefined;
  size: number;
  /** v8+: completion time of the deltacommit that wrote it. */
  completionTime: string | undefined;
}

/** One version of a file group: a base file (absent for log-only slices) and the logs on top of it. */
export interface FileSlice {
  partitionPath: string;
  fileId: string;
  /** The base instant that keys the slice. */
  baseInstantTime: string;
  baseFile: BaseFile | undefined;
  logFiles: LogFile[];
  /**
   * Hudi's `.cdc` log files written with this slice's base file (same instant): the changes that made it. Set only
   * when there are some; readers skip them, the cleaner removes them with the slice.
   */
  cdcFiles?: LogFile[];
}

/** All slices of one (partition, fileId), oldest first. */
export interface FileGroup {
  partitionPath: string;
  fileId: string;
  slices: FileSlice[];
}

/** The `partition/fileId` key of a file group. */
export function fileGroupKey(partitionPath: string, fileId: string): string {
  return `${partitionPath}\u0000${fileId}`;
}
