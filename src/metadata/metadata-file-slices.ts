// The latest file slice of each file group of one metadata-table partition (hudi-v9-write.md §3, §4.2), from
// the partition folder's listing and the MDT timeline: base HFiles of completed MDT instants, log files of
// completed MDT deltacommits (instants older than the active timeline count as completed: archived) that are valid (Java's rule: their data instant completed, or a partition
// initialisation / MDT-own instant), each log joined to the slice whose base instant is the greatest one ≤ its
// completion time; logs ordered by completion time, then version and write token. Pure.
import { baseName } from '../layout.js';
import { compareLogFiles, parseBaseFileName, parseLogFileName } from '../file-group/file-names.js';
import { compareInstantTimes } from '../timeline/instant.js';
import type { Timeline } from '../timeline/timeline.js';

/** A file of an MDT partition folder (path relative to the MDT root). */
export interface MetadataPartitionFile {
  path: string;
  size: number;
}

/** A base HFile or log file of a metadata file slice. */
export interface MetadataSliceFile {
  path: string;
  name: string;
  /** The instant in the name (the writing deltacommit for logs, the compaction or init instant for bases). */
  instantTime: string;
  size: number;
  /** Completion time of that instant on the MDT timeline. */
  completionTime: string;
}

/** The latest slice of one MDT file group. */
export interface MetadataFileSlice {
  partition: string;
  fileId: string;
  baseFile: MetadataSliceFile | undefined;
  /** Log files on top of the base, oldest first. */
  logFiles: MetadataSliceFile[];
}

/** Inputs of {@link latestMetadataSlices}. */
export interface MetadataSliceInput {
  /** The MDT partition (`files`, `record_index`, …). */
  partition: string;
  /** Every file in the partition's folder. */
  files: readonly MetadataPartitionFile[];
  /** The MDT's own timeline. */
  timeline: Timeline;
  /** Java's valid-instant rule for MDT deltacommits (see the file header). */
  isValidInstant(instantTime: string): boolean;
}

/**
 * When the MDT write at `instantTime` completed, if it is committed: its completion time on the active timeline,
 * or — for an instant older than the active timeline's start, archived (Hudi's containsOrBeforeTimelineStarts) —
 * its requested time, which sorts it before every active instant as its completion did. Undefined otherwise.
 */
export function metadataCommittedAt(timeline: Timeline, instantTime: string): string | undefined {
  const done = timeline.completedAt(instantTime);
  if (done) return done.completionTime ?? done.requestedTime;
  return timeline.isCommittedWrite(instantTime) ? instantTime : undefined;
}

/** The latest slice of every file group of an MDT partition, sorted by file id (groups with no valid file left out). */
export function latestMetadataSlices(input: MetadataSliceInput): MetadataFileSlice[] {
  const bases = new Map<string, MetadataSliceFile[]>();
  const logs = new Map<string, (MetadataSliceFile & { version: number; writeToken: string | undefined })[]>();
  for (const f of input.files) {
    const name = baseName(f.path);
    const base = parseBaseFileName(name);
    if (base && base.extension === 'hfile') {
      const done = metadataCommittedAt(input.timeline, base.instantTime);
      if (done === undefined) continue; // a compaction still running, or one that failed
      const entry = { path: f.path, name, instantTime: base.instantTime, size: f.size, completionTime: done };
      bases.set(base.fileId, [...(bases.get(base.fileId) ?? []), entry]);
      continue;
    }
    const log = parseLogFileName(name);
    if (!log || log.extension !== 'log' || log.cdc) continue;
    const done = metadataCommittedAt(input.timeline, log.instantTime);
    if (done === undefined || !input.isValidInstant(log.instantTime)) continue;
    const entry = { path: f.path, name, instantTime: log.instantTime, size: f.size, completionTime: done, version: log.version, writeToken: log.writeToken };
    logs.set(log.fileId, [...(logs.get(log.fileId) ?? []), entry]);
  }
  const out: MetadataFileSlice[] = [];
  for (const fileId of new Set([...bases.keys(), ...logs.keys()])) {
    const base = (bases.get(fileId) ?? []).sort((a, b) => compareInstantTimes(a.instantTime, b.instantTime)).at(-1);
    const mine = (logs.get(fileId) ?? [])
      .filter((l) => base === undefined || compareInstantTimes(l.completionTime, base.instantTime) >= 0)
      .sort((a, b) => compareInstantTimes(a.completionTime, b.completionTime) || compareLogFiles(a, b));
    if (base === undefined && mine.length === 0) continue;
    out.push({ partition: input.partition, fileId, baseFile: base, logFiles: mine.map(({ version: _v, writeToken: _w, ...f }) => f) });
  }
  return out.sort((a, b) => (a.fileId < b.fileId ? -1 : a.fileId > b.fileId ? 1 : 0));
}
