// The files completed writes of the active timeline name in their write stats, and the check that the live
// ones exist: the latest slice (as of T) of each non-replaced file group — its base file, and the log files
// completed deltacommits wrote onto it. Older slices (cleaned) and archived commits are not checked.
import { LakeletError } from '../errors.js';
import { baseName } from '../layout.js';
import { compareInstantTimes } from '../timeline/instant.js';
import type { CommitMetadata } from '../timeline/commit-metadata.js';
import { parseBaseFileName, parseLogFileName } from './file-names.js';
import { fileGroupKey, type FileSlice } from './file-slice.js';

/** A completed write of the active timeline and the data files its write stats name. */
export interface CommittedWrite {
  /** Requested time of the write. */
  instantTime: string;
  /** Layout 2: its completion time (logs attach to slices by it). */
  completionTime: string | undefined;
  metadata: CommitMetadata;
}

/** A base file or log file a completed write produced. */
interface ExpectedFile {
  path: string;
  /** Requested time of the write that produced it. */
  writtenBy: string;
  /** Base files: their instant. Logs: the time that keys their slice (layout 1 the name's instant, layout 2 the completion time). */
  sliceTime: string;
}

/** What the timeline says one file group holds. */
export interface ExpectedGroup {
  partitionPath: string;
  fileId: string;
  bases: ExpectedFile[];
  logs: ExpectedFile[];
}

const newer = (a: string, b: string) => compareInstantTimes(a, b) > 0;

/** Group the files named by the write stats of `writes` by file group. Pure. */
export function expectedGroups(writes: readonly CommittedWrite[], timelineLayoutVersion: 1 | 2): Map<string, ExpectedGroup> {
  const out = new Map<string, ExpectedGroup>();
  for (const w of writes) {
    for (const [partition, stats] of Object.entries(w.metadata.partitionToWriteStats)) {
      for (const s of stats) {
        if (!s.path || !s.fileId) continue;
        const name = baseName(s.path);
        const partitionPath = s.partitionPath || partition;
        const base = parseBaseFileName(name);
        const log = base ? undefined : parseLogFileName(name);
        if (!base && (!log || log.extension !== 'log' || log.cdc)) continue;
        const key = fileGroupKey(partitionPath, s.fileId);
        let g = out.get(key);
        if (!g) {
          g = { partitionPath, fileId: s.fileId, bases: [], logs: [] };
          out.set(key, g);
        }
        if (base) g.bases.push({ path: s.path, writtenBy: w.instantTime, sliceTime: base.instantTime });
        else if (log) g.logs.push({ path: s.path, writtenBy: w.instantTime, sliceTime: timelineLayoutVersion === 2 ? w.completionTime ?? w.instantTime : log.instantTime });
      }
    }
  }
  return out;
}

/** What {@link checkLiveFiles} compares. */
export interface LiveFileCheck {
  expected: ReadonlyMap<string, ExpectedGroup>;
  /** Paths of every data file in the listing. */
  listed: ReadonlySet<string>;
  /** The slice the view chose for each group as of T (before dropping empty ones), by group key. */
  chosen: ReadonlyMap<string, FileSlice>;
  replaced: ReadonlySet<string>;
  asOf: string | undefined;
  /** Completion-time reads: which writes count (replaces the `asOf` comparison when given). */
  visible?: ((writtenBy: string) => boolean) | undefined;
  partitionFilter: ((partitionPath: string) => boolean) | undefined;
  /** Read-optimized: only base files matter. */
  baseFilesOnly: boolean;
}

/**
 * Throw `NOT_FOUND` naming the first live file the timeline promises and storage lacks (the context lists them
 * all): per non-replaced group in the selected partitions, the newest base file written at or before T —
 * unless the view holds a newer base — and the logs that deltacommits at or before T wrote onto that slice.
 */
export function checkLiveFiles(c: LiveFileCheck): void {
  const missing: string[] = [];
  for (const [key, g] of c.expected) {
    if (c.replaced.has(key) || (c.partitionFilter && !c.partitionFilter(g.partitionPath))) continue;
    const inRange = (f: ExpectedFile) => (c.visible ? c.visible(f.writtenBy) : c.asOf === undefined || !newer(f.writtenBy, c.asOf));
    let latest: ExpectedFile | undefined;
    for (const b of g.bases) if (inRange(b) && (!latest || newer(b.sliceTime, latest.sliceTime))) latest = b;
    const chosen = c.chosen.get(key);
    const chosenBase = chosen?.baseFile ? chosen.baseInstantTime : undefined;
    if (latest && !c.listed.has(latest.path) && !(chosenBase !== undefined && newer(chosenBase, latest.sliceTime))) missing.push(latest.path);
    if (c.baseFilesOnly) continue;
    const sliceStart = chosenBase !== undefined && (!latest || !newer(latest.sliceTime, chosenBase)) ? chosenBase : latest?.sliceTime;
    for (const l of g.logs) {
      if (!inRange(l) || (sliceStart !== undefined && newer(sliceStart, l.sliceTime))) continue;
      if (!c.listed.has(l.path)) missing.push(l.path);
    }
  }
  if (missing.length === 0) return;
  const [first] = missing;
  throw new LakeletError(
    'NOT_FOUND',
    `file-system view: ${first} is missing from storage, but the timeline says it is live (written by a completed commit${c.asOf === undefined ? '' : ` as of ${c.asOf}`})` +
      (missing.length > 1 ? `; ${missing.length - 1} more live file${missing.length > 2 ? 's are' : ' is'} missing` : ''),
    { path: first, missing, ...(c.asOf === undefined ? {} : { instant: c.asOf }) },
  );
}
