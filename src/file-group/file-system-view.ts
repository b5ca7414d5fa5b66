// The file-system view: turns a storage listing plus the timeline into file groups and slices, and answers
// "latest slices as of T" (hudi-format.md §4.3) — T a requested time, or (layout 2) a completion time:
// uncommitted files dropped, replaced groups removed, logs attached by base instant (layout 1) or by
// deltacommit completion time (layout 2), junk ignored; and,
// given the completed writes' metadata, live files the timeline promises but storage lacks → NOT_FOUND.
import { baseName, isMetaPath, parentPath } from '../layout.js';
import type { FileInfo } from '../storage/storage.js';
import { compareInstantTimes } from '../timeline/instant.js';
import type { Timeline } from '../timeline/timeline.js';
import { checkLiveFiles, expectedGroups, type CommittedWrite, type ExpectedGroup } from './committed-files.js';
import { compareLogFiles, parseBaseFileName, parseLogFileName } from './file-names.js';
import { fileGroupKey, type BaseFile, type FileGroup, type FileSlice, type LogFile } from './file-slice.js';

/** A replacecommit's effect: which file groups it replaced, per partition. */
export interface ReplaceRecord {
  instantTime: string;
  partitionToReplaceFileIds: Record<string, string[]>;
}

/** What the view is built from. */
export interface FileSystemViewInput {
  /** Files below the table root (a recursive listing; `.hoodie/` entries are ignored). */
  files: readonly FileInfo[];
  timeline: Timeline;
  timelineLayoutVersion: 1 | 2;
  /** Completed replacecommits (insert overwrite, clustering) and their replaced groups. */
  replaced: readonly ReplaceRecord[];
  /**
   * The completed writes of the active timeline with their metadata. When given, {@link FileSystemView.latestSlices}
   * checks that every live file their write stats name is in `files` (`NOT_FOUND` naming it otherwise).
   */
  committed?: readonly CommittedWrite[] | undefined;
}

/** Options of {@link FileSystemView.latestSlices}. */
export interface SliceQuery {
  /** Instant T: only writes requested at or before it count (default: the latest). */
  asOf?: string | undefined;
  /** Keep only partitions this predicate accepts. */
  partitionFilter?: ((partitionPath: string) => boolean) | undefined;
  /** Leave log files out (read-optimized queries). */
  baseFilesOnly?: boolean | undefined;
  /**
   * Layout 2, completion-time reads: only writes completed at or before this completion time count (instead of
   * `asOf`). A slice whose base file's write completed later (a compaction pending at that time) is not chosen:
   * its visible logs are read on top of the slice before it, as Hudi merges a pending compaction's slice.
   */
  completedBy?: string | undefined;
}

const after = (a: string, b: string) => compareInstantTimes(a, b) > 0;

/** File groups and slices of a table at one listing. Pure: no I/O. */
export class FileSystemView {
  private readonly groups = new Map<string, FileGroup>();
  private readonly input: FileSystemViewInput;
  private readonly expected: Map<string, ExpectedGroup> | undefined;
  private readonly listed = new Set<string>();

  constructor(input: FileSystemViewInput) {
    this.input = input;
    const { timeline } = input;
    const logs: LogFile[] = [];
    const cdcFiles: LogFile[] = [];
    this.expected = input.committed ? expectedGroups(input.committed, input.timelineLayoutVersion) : undefined;
    for (const f of input.files) {
      if (f.kind !== 'file' || isMetaPath(f.path) || f.path.startsWith('__MACOSX/')) continue;
      if (this.expected) this.listed.add(f.path);
      const partitionPath = parentPath(f.path);
      const name = baseName(f.path);
      const base = parseBaseFileName(name);
      if (base) {
        if (base.extension !== 'parquet' || !timeline.isCommittedWrite(base.instantTime)) continue; // archived commits count
        const file: BaseFile = { path: f.path, name, fileId: base.fileId, partitionPath, instantTime: base.instantTime, size: f.size };
        const slice = this.sliceFor(partitionPath, base.fileId, base.instantTime);
        slice.baseFile = file;
        continue;
      }
      const log = parseLogFileName(name);
      if (log?.cdc && log.extension === 'log') cdcFiles.push({ path: f.path, name, fileId: log.fileId, partitionPath, instantTime: log.instantTime, version: log.version, writeToken: log.writeToken, size: f.size, completionTime: undefined });
      else if (log && log.extension === 'log') {
        let completionTime: string | undefined;
        if (input.timelineLayoutVersion === 2) {
          const instant = timeline.completedAt(log.instantTime);
          if (!instant) continue; // written by a write that never completed
          completionTime = instant.completionTime ?? instant.requestedTime;
        }
        logs.push({ path: f.path, name, fileId: log.fileId, partitionPath, instantTime: log.instantTime, version: log.version, writeToken: log.writeToken, size: f.size, completionTime });
      }
    }
    logs.sort((a, b) => compareInstantTimes(a.completionTime ?? a.instantTime, b.completionTime ?? b.instantTime) || a.version - b.version);
    for (const log of logs) this.attachLog(log);
    // A .cdc file goes with the committed base file of its instant (files of failed writes stay unattached).
    for (const cdc of cdcFiles) {
      const slice = this.groups.get(fileGroupKey(cdc.partitionPath, cdc.fileId))?.slices.find((s) => s.baseInstantTime === cdc.instantTime && s.baseFile);
      if (slice) (slice.cdcFiles ??= []).push(cdc);
    }
    for (const g of this.groups.values()) {
      g.slices.sort((a, b) => compareInstantTimes(a.baseInstantTime, b.baseInstantTime));
      for (const s of g.slices) s.logFiles.sort(layoutLogOrder(input.timelineLayoutVersion));
    }
  }

  /** Every file group, including replaced ones and every slice. */
  fileGroups(): FileGroup[] {
    return [...this.groups.values()];
  }

  /** Partition paths that hold at least one file group. */
  partitionPaths(): string[] {
    return [...new Set([...this.groups.values()].map((g) => g.partitionPath))].sort();
  }

  /**
   * Groups replaced by replacecommits requested at or before `asOf` (or, given `completedBy`, completed at or
   * before it) (keys from {@link fileGroupKey}).
   */
  replacedGroups(asOf?: string, completedBy?: string): Set<string> {
    const out = new Set<string>();
    for (const r of this.input.replaced) {
      if (asOf !== undefined && after(r.instantTime, asOf)) continue;
      if (completedBy !== undefined && !this.input.timeline.isCommittedWriteBy(r.instantTime, completedBy)) continue;
      for (const [partition, ids] of Object.entries(r.partitionToReplaceFileIds)) for (const id of ids) out.add(fileGroupKey(partition, id));
    }
    return out;
  }

  /**
   * The latest slice of every live file group as of T: the slice with the greatest base instant ≤ T, with
   * (layout 2) only the logs of deltacommits requested ≤ T. Groups replaced at or before T are left out.
   * Layout 2 with `completedBy`: as of that completion time instead (see {@link SliceQuery.completedBy}).
   * With `committed` input: a live file of the selected partitions missing from the listing → `NOT_FOUND`.
   */
  latestSlices(query: SliceQuery = {}): FileSlice[] {
    const { asOf, partitionFilter, baseFilesOnly } = query;
    const completedBy = this.input.timelineLayoutVersion === 2 ? query.completedBy : undefined;
    const replaced = this.replacedGroups(asOf, completedBy);
    const out: FileSlice[] = [];
    const chosenByGroup = new Map<string, FileSlice>();
    for (const [key, g] of this.groups) {
      if (replaced.has(key) || (partitionFilter && !partitionFilter(g.partitionPath))) continue;
      const picked = completedBy !== undefined ? this.sliceCompletedBy(g, completedBy, baseFilesOnly === true) : this.sliceAsOf(g, asOf, baseFilesOnly === true);
      if (!picked) continue;
      chosenByGroup.set(key, picked.chosen);
      const logFiles = baseFilesOnly ? [] : picked.logFiles;
      if (!picked.chosen.baseFile && logFiles.length === 0) continue;
      out.push({ ...picked.chosen, logFiles });
    }
    const visible = completedBy === undefined ? undefined : (t: string) => this.input.timeline.isCommittedWriteBy(t, completedBy);
    if (this.expected) checkLiveFiles({ expected: this.expected, listed: this.listed, chosen: chosenByGroup, replaced, asOf, visible, partitionFilter, baseFilesOnly: baseFilesOnly === true });
    return out.sort((a, b) => (a.partitionPath < b.partitionPath ? -1 : a.partitionPath > b.partitionPath ? 1 : a.fileId < b.fileId ? -1 : a.fileId > b.fileId ? 1 : 0));
  }

  /** The slice with the greatest base instant ≤ T, and (layout 2) its logs of deltacommits requested ≤ T. */
  private sliceAsOf(g: FileGroup, asOf: string | undefined, baseFilesOnly: boolean): { chosen: FileSlice; logFiles: LogFile[] } | undefined {
    let chosen: FileSlice | undefined;
    for (const s of g.slices) {
      if (asOf !== undefined && after(s.baseInstantTime, asOf)) break;
      if (baseFilesOnly && !s.baseFile) continue;
      chosen = s;
    }
    if (!chosen) return undefined;
    return { chosen, logFiles: chosen.logFiles.filter((l) => asOf === undefined || l.completionTime === undefined || !after(l.instantTime, asOf)) };
  }

  /**
   * Layout 2 as of completion time T: the latest slice whose base file's write completed by T (or a log-only
   * slice), with the logs completed by T of it and of every later slice (a compaction still pending at T:
   * Hudi's merged file slice), in completion order.
   */
  private sliceCompletedBy(g: FileGroup, completedBy: string, baseFilesOnly: boolean): { chosen: FileSlice; logFiles: LogFile[] } | undefined {
    const { timeline } = this.input;
    let at = -1;
    g.slices.forEach((s, n) => {
      if (s.baseFile ? timeline.isCommittedWriteBy(s.baseFile.instantTime, completedBy) : !baseFilesOnly && compareInstantTimes(s.baseInstantTime, completedBy) <= 0) at = n;
    });
    const chosen = g.slices[at];
    if (!chosen) return undefined;
    const logFiles = g.slices.slice(at).flatMap((s) => s.logFiles).filter((l) => compareInstantTimes(l.completionTime ?? l.instantTime, completedBy) <= 0);
    return { chosen, logFiles: logFiles.sort(layoutLogOrder(2)) };
  }

  private group(partitionPath: string, fileId: string): FileGroup {
    const key = fileGroupKey(partitionPath, fileId);
    let g = this.groups.get(key);
    if (!g) {
      g = { partitionPath, fileId, slices: [] };
      this.groups.set(key, g);
    }
    return g;
  }

  private sliceFor(partitionPath: string, fileId: string, baseInstantTime: string): FileSlice {
    const g = this.group(partitionPath, fileId);
    let s = g.slices.find((x) => x.baseInstantTime === baseInstantTime);
    if (!s) {
      s = { partitionPath, fileId, baseInstantTime, baseFile: undefined, logFiles: [] };
      g.slices.push(s);
    }
    return s;
  }

  /** Attach a log to the slice with the greatest base instant ≤ its key time, or start a log-only slice. */
  private attachLog(log: LogFile): void {
    const keyTime = log.completionTime ?? log.instantTime;
    const g = this.group(log.partitionPath, log.fileId);
    let target: FileSlice | undefined;
    for (const s of g.slices) {
      if (compareInstantTimes(s.baseInstantTime, keyTime) <= 0 && (!target || after(s.baseInstantTime, target.baseInstantTime))) target = s;
    }
    (target ?? this.sliceFor(log.partitionPath, log.fileId, log.instantTime)).logFiles.push(log);
  }
}

function layoutLogOrder(layout: 1 | 2) {
  const byName = compareLogFiles;
  // Layout 1: a slice may hold logs named after its own base instant and after a pending compaction's.
  if (layout === 1) return (a: LogFile, b: LogFile) => compareInstantTimes(a.instantTime, b.instantTime) || byName(a, b);
  return (a: LogFile, b: LogFile) => compareInstantTimes(a.completionTime ?? a.instantTime, b.completionTime ?? b.instantTime) || byName(a, b);
}
