// The clean planner (Hudi's CleanPlanner, pure): which old file slices a clean deletes under the
// KEEP_LATEST_COMMITS, KEEP_LATEST_FILE_VERSIONS or KEEP_LATEST_BY_HOURS policy, and the oldest instant whose
// snapshot stays readable. Never deletes a latest slice, a savepointed file or a slice a pending compaction needs.
import { LakeletError } from '../errors.js';
import type { FileSystemView, ReplaceRecord } from '../file-group/file-system-view.js';
import { fileGroupKey, type FileGroup, type FileSlice } from '../file-group/file-slice.js';
import type { ActionInstant, CleaningPolicy } from '../timeline/clean-metadata.js';
import { compareInstantTimes, WRITE_ACTIONS } from '../timeline/instant.js';
import { formatInstantTime } from '../timeline/instant-time.js';
import type { Timeline } from '../timeline/timeline.js';

/** Options of {@link planClean} (Hudi's `hoodie.cleaner.*` settings and defaults). */
export interface CleanPlanOptions {
  policy: CleaningPolicy;
  /** KEEP_LATEST_COMMITS: commits whose snapshots stay readable (`hoodie.cleaner.commits.retained`, 10). */
  retainCommits?: number;
  /** KEEP_LATEST_FILE_VERSIONS: slices kept per file group (`hoodie.cleaner.fileversions.retained`, 3). */
  retainFileVersions?: number;
  /** KEEP_LATEST_BY_HOURS: hours of commits whose snapshots stay readable (`hoodie.cleaner.hours.retained`, 24). */
  retainHours?: number;
  /** The clock (KEEP_LATEST_BY_HOURS). */
  now: Date;
}

/** A file group's slice that a pending compaction will compact: it and later slices of the group stay. */
export interface PendingCompactionSlice {
  partitionPath: string;
  fileId: string;
  baseInstantTime: string;
}

/** What a clean will do. */
export interface CleanPlanResult {
  policy: CleaningPolicy;
  /**
   * The oldest completed write whose snapshot stays readable after the clean. For KEEP_LATEST_FILE_VERSIONS
   * (where Hudi leaves it unset) lakelet computes the instant from which every snapshot stays intact.
   */
  earliestInstantToRetain: ActionInstant | undefined;
  /** Requested time of the latest completed write when planned (`""` for none). */
  lastCompletedCommitTimestamp: string;
  /** Partition → paths (relative to the table root) of base and log files to delete, sorted. */
  filesToDelete: Record<string, string[]>;
  /** Partitions whose every file group goes away (all replaced): deleted entirely. */
  partitionsToDelete: string[];
  /** Number of files in {@link filesToDelete}. */
  fileCount: number;
}

const lt = (a: string, b: string): boolean => compareInstantTimes(a, b) < 0;
const PLAN_ACTIONS: ReadonlySet<string> = new Set(['commit', 'deltacommit', 'replacecommit', 'compaction', 'logcompaction', 'clustering']);

function positiveInt(name: string, v: number | undefined, fallback: number, min: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new LakeletError('INVALID_ARGUMENT', `clean: ${name} must be a whole number ≥ ${min}, got ${String(v)}`, { field: name, value: v });
  return v;
}

/** Files of a slice (base file first, then logs, then its `.cdc` files). */
function sliceFiles(s: FileSlice): string[] {
  return [...(s.baseFile ? [s.baseFile.path] : []), ...s.logFiles.map((l) => l.path), ...(s.cdcFiles ?? []).map((l) => l.path)];
}

function isSavepointed(s: FileSlice, savepointed: ReadonlySet<string>): boolean {
  if (savepointed.size === 0) return false;
  if (s.baseFile && (savepointed.has(s.baseFile.name) || savepointed.has(s.baseFile.path))) return true;
  return s.logFiles.some((l) => savepointed.has(l.name) || savepointed.has(l.path));
}

/**
 * The earliest commit to retain (Hudi's `CleanerUtils.getEarliestCommitToRetain`): KEEP_LATEST_COMMITS → the
 * `retainCommits`-th latest completed write, once there are more than that; KEEP_LATEST_BY_HOURS → the first
 * completed write at or after `now − retainHours`. Never later than the last completed write before the
 * earliest pending write or table service (so a pending compaction or write keeps what it started from).
 */
export function earliestCommitToRetain(timeline: Timeline, options: CleanPlanOptions): ActionInstant | undefined {
  const completed = timeline.completedWrites();
  let chosen: string | undefined;
  if (options.policy === 'KEEP_LATEST_COMMITS') {
    const retain = positiveInt('retainCommits', options.retainCommits, 10, 1);
    if (completed.length <= retain) return undefined;
    chosen = completed[completed.length - retain]?.requestedTime;
  } else if (options.policy === 'KEEP_LATEST_BY_HOURS') {
    const hours = options.retainHours ?? 24;
    if (typeof hours !== 'number' || !Number.isFinite(hours) || hours < 0) throw new LakeletError('INVALID_ARGUMENT', `clean: retainHours must be a number ≥ 0, got ${String(hours)}`, { field: 'retainHours', value: hours });
    const cutoff = formatInstantTime(new Date(options.now.getTime() - hours * 3_600_000));
    chosen = completed.find((i) => !lt(i.requestedTime, cutoff))?.requestedTime;
  } else {
    return undefined;
  }
  if (chosen === undefined) return undefined;
  const pending = timeline.pending().find((i) => PLAN_ACTIONS.has(i.action));
  if (pending && lt(pending.requestedTime, chosen)) {
    const before = completed.filter((i) => lt(i.requestedTime, pending.requestedTime));
    chosen = before[before.length - 1]?.requestedTime;
    if (chosen === undefined) return undefined;
  }
  const instant = timeline.completedAt(chosen);
  return { timestamp: chosen, action: instant?.action ?? 'commit', state: 'COMPLETED' };
}

/**
 * Plan a clean. `replaced` lists the completed replacecommits (instant and replaced groups); `savepointed`
 * holds the names (or table-relative paths) of files that completed savepoints protect; `pendingCompactions`
 * the slices pending compaction plans start from.
 *
 * KEEP_LATEST_COMMITS / KEEP_LATEST_BY_HOURS: per file group, slices with a base instant before the earliest
 * commit to retain are deleted except the group's latest slice and its latest slice before that commit (so
 * every retained commit stays readable); groups replaced before it are deleted entirely.
 * KEEP_LATEST_FILE_VERSIONS: the latest `retainFileVersions` slices of each live group stay; replaced groups
 * are deleted entirely.
 */
export function planClean(
  view: FileSystemView,
  timeline: Timeline,
  options: CleanPlanOptions,
  savepointed: ReadonlySet<string> = new Set(),
  replaced: readonly ReplaceRecord[] = [],
  pendingCompactions: readonly PendingCompactionSlice[] = [],
): CleanPlanResult {
  const policy = options.policy;
  if (policy !== 'KEEP_LATEST_COMMITS' && policy !== 'KEEP_LATEST_FILE_VERSIONS' && policy !== 'KEEP_LATEST_BY_HOURS') {
    throw new LakeletError('INVALID_ARGUMENT', `clean: unknown policy ${JSON.stringify(policy)} (KEEP_LATEST_COMMITS, KEEP_LATEST_FILE_VERSIONS or KEEP_LATEST_BY_HOURS)`, { field: 'policy', value: policy });
  }
  const retainVersions = positiveInt('retainFileVersions', options.retainFileVersions, 3, 1);
  const lastCompleted = timeline.latestWrite()?.requestedTime ?? '';
  const empty: CleanPlanResult = { policy, earliestInstantToRetain: undefined, lastCompletedCommitTimestamp: lastCompleted, filesToDelete: {}, partitionsToDelete: [], fileCount: 0 };

  // When was each group replaced (the earliest completed replacecommit naming it)?
  const replacedAt = new Map<string, string>();
  for (const r of replaced) {
    if (!timeline.isCompletedWrite(r.instantTime)) continue;
    for (const [p, ids] of Object.entries(r.partitionToReplaceFileIds)) {
      for (const id of ids) {
        const k = fileGroupKey(p, id);
        const prev = replacedAt.get(k);
        if (prev === undefined || lt(r.instantTime, prev)) replacedAt.set(k, r.instantTime);
      }
    }
  }
  const compactionBase = new Map<string, string>();
  for (const c of pendingCompactions) {
    const k = fileGroupKey(c.partitionPath, c.fileId);
    const prev = compactionBase.get(k);
    if (prev === undefined || lt(c.baseInstantTime, prev)) compactionBase.set(k, c.baseInstantTime);
  }
  const neededForCompaction = (s: FileSlice): boolean => {
    const base = compactionBase.get(fileGroupKey(s.partitionPath, s.fileId));
    return base !== undefined && !lt(s.baseInstantTime, base);
  };

  const ectr = earliestCommitToRetain(timeline, options);
  if (policy !== 'KEEP_LATEST_FILE_VERSIONS' && ectr === undefined) return empty;

  const deleted = new Map<string, FileSlice[]>(); // group key → slices deleted
  const del = (g: FileGroup, s: FileSlice) => {
    const k = fileGroupKey(g.partitionPath, g.fileId);
    (deleted.get(k) ?? (deleted.set(k, []).get(k) as FileSlice[])).push(s);
  };
  const groups = view.fileGroups();
  for (const g of groups) {
    const slices = [...g.slices].sort((a, b) => compareInstantTimes(b.baseInstantTime, a.baseInstantTime)); // newest first
    if (slices.length === 0) continue;
    const replacedTime = replacedAt.get(fileGroupKey(g.partitionPath, g.fileId));
    const replacedAndDue = replacedTime !== undefined && (policy === 'KEEP_LATEST_FILE_VERSIONS' || lt(replacedTime, (ectr as ActionInstant).timestamp));
    if (replacedAndDue) {
      for (const s of slices) if (!isSavepointed(s, savepointed)) del(g, s);
      continue;
    }
    if (policy === 'KEEP_LATEST_FILE_VERSIONS') {
      const candidates = slices.filter((s) => !neededForCompaction(s));
      let keep = retainVersions - (candidates.length < slices.length ? 1 : 0);
      for (const s of candidates) {
        if (keep > 0) {
          keep--;
          continue;
        }
        if (!isSavepointed(s, savepointed)) del(g, s);
      }
      continue;
    }
    const retainFrom = (ectr as ActionInstant).timestamp;
    const latest = slices[0]?.baseInstantTime;
    const latestBeforeRetained = slices.find((s) => lt(s.baseInstantTime, retainFrom))?.baseInstantTime;
    for (const s of slices) {
      if (s.baseInstantTime === latest || s.baseInstantTime === latestBeforeRetained) continue;
      if (isSavepointed(s, savepointed) || neededForCompaction(s)) continue;
      if (lt(s.baseInstantTime, retainFrom)) del(g, s);
    }
  }

  const filesToDelete: Record<string, string[]> = {};
  let fileCount = 0;
  for (const slices of deleted.values()) {
    for (const s of slices) {
      const files = sliceFiles(s);
      if (files.length === 0) continue;
      (filesToDelete[s.partitionPath] ??= []).push(...files);
      fileCount += files.length;
    }
  }
  if (fileCount === 0) return empty;
  for (const list of Object.values(filesToDelete)) list.sort();

  // Partitions every group of which disappears entirely.
  const partitionsToDelete: string[] = [];
  const byPartition = new Map<string, FileGroup[]>();
  for (const g of groups) byPartition.set(g.partitionPath, [...(byPartition.get(g.partitionPath) ?? []), g]);
  for (const [p, gs] of byPartition) {
    if (p === '') continue;
    const gone = gs.every((g) => (deleted.get(fileGroupKey(g.partitionPath, g.fileId))?.length ?? 0) === g.slices.length);
    if (gone) partitionsToDelete.push(p);
  }
  partitionsToDelete.sort();

  let earliest = ectr;
  if (policy === 'KEEP_LATEST_FILE_VERSIONS') {
    // The oldest instant from which every snapshot is intact: after each deleted slice's successor, and
    // after every replacecommit whose groups were deleted.
    let boundary: string | undefined;
    const raise = (t: string | undefined) => {
      if (t !== undefined && (boundary === undefined || lt(boundary, t))) boundary = t;
    };
    for (const g of groups) {
      const k = fileGroupKey(g.partitionPath, g.fileId);
      const gone = deleted.get(k);
      if (!gone || gone.length === 0) continue;
      const asc = [...g.slices].sort((a, b) => compareInstantTimes(a.baseInstantTime, b.baseInstantTime));
      const replacedTime = replacedAt.get(k);
      for (const s of gone) {
        const next = asc.find((x) => lt(s.baseInstantTime, x.baseInstantTime));
        raise(replacedTime !== undefined && (next === undefined || lt(replacedTime, next.baseInstantTime)) ? replacedTime : next?.baseInstantTime ?? replacedTime);
      }
    }
    if (boundary !== undefined) {
      const instant = timeline.completedAt(boundary);
      earliest = { timestamp: boundary, action: instant && WRITE_ACTIONS.has(instant.action) ? instant.action : 'commit', state: 'COMPLETED' };
    }
  }
  return { policy, earliestInstantToRetain: earliest, lastCompletedCommitTimestamp: lastCompleted, filesToDelete, partitionsToDelete, fileCount };
}
