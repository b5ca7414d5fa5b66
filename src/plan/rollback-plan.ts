// The rollback planner (pure, hudi-format.md §4.3): which data files a rollback of one write removes — base
// files to delete and log files whose blocks a command block must hide — from the write's markers and, when it
// completed, its write stats; the `<r>.rollback.requested` plan of them, and the slices that get a command block.
import { parseBaseFileName, parseLogFileName } from '../file-group/file-names.js';
import { baseName, parentPath } from '../layout.js';
import type { CommitMetadata } from '../timeline/commit-metadata.js';
import type { InstantState } from '../timeline/instant.js';
import type { RollbackPlan, RollbackPlanInput } from '../timeline/rollback-metadata.js';

/** What a rollback removes: base files to delete, log files whose blocks a command block must hide. Sorted paths. */
export interface RollbackTargets {
  baseFiles: string[];
  logFiles: string[];
}

/** The write being rolled back. */
export interface RollbackTarget {
  requestedTime: string;
  action: string;
  state: InstantState;
}

/** A log file a command block hides; `.cdc` files are deleted like base files (they hold only the target's changes). */
const isLogPath = (path: string): boolean => {
  const log = parseLogFileName(baseName(path));
  return log !== undefined && !log.cdc;
};

/**
 * The data files a write produced: every marked file, and for a completed write also the files of its write
 * stats — base files it wrote (named with its instant time) and log files it appended to. Markers cover a
 * pending write; a completed one may have had its markers cleaned up already.
 */
export function rollbackTargets(target: Pick<RollbackTarget, 'requestedTime' | 'state'>, markedFiles: readonly string[], metadata: Pick<CommitMetadata, 'partitionToWriteStats'> | undefined): RollbackTargets {
  const files = new Set(markedFiles);
  if (target.state === 'COMPLETED' && metadata) {
    for (const stats of Object.values(metadata.partitionToWriteStats)) {
      for (const s of stats) {
        if (!s.path) continue;
        const base = parseBaseFileName(baseName(s.path));
        if (base ? base.instantTime === target.requestedTime : isLogPath(s.path)) files.add(s.path);
        const cdc = s.raw?.cdcStats; // the write's .cdc files (HoodieWriteStat.cdcStats: path → bytes)
        if (cdc !== null && typeof cdc === 'object') for (const p of cdc instanceof Map ? cdc.keys() : Object.keys(cdc)) if (typeof p === 'string') files.add(p);
      }
    }
  }
  const all = [...files].sort();
  return { baseFiles: all.filter((f) => !isLogPath(f)), logFiles: all.filter(isLogPath) };
}

/** The `<r>.rollback.requested` plan: one request per partition touched, its base files and log files. */
export function rollbackPlan(target: Pick<RollbackTarget, 'requestedTime' | 'action'>, targets: RollbackTargets): RollbackPlanInput {
  const partitions = new Set([...targets.baseFiles, ...targets.logFiles].map(parentPath));
  return {
    instantToRollback: { commitTime: target.requestedTime, action: target.action },
    rollbackRequests: [...partitions].sort().map((partitionPath) => ({
      partitionPath,
      filesToBeDeleted: targets.baseFiles.filter((f) => parentPath(f) === partitionPath),
      logBlocksToBeDeleted: Object.fromEntries(targets.logFiles.filter((f) => parentPath(f) === partitionPath).map((f) => [f, 0])),
    })),
  };
}

/** The targets a written plan names (to finish an interrupted rollback exactly as planned). */
export function targetsOfPlan(plan: Pick<RollbackPlan, 'rollbackRequests'>): RollbackTargets {
  return {
    baseFiles: plan.rollbackRequests.flatMap((r) => r.filesToBeDeleted),
    logFiles: plan.rollbackRequests.flatMap((r) => Object.keys(r.logBlocksToBeDeleted)),
  };
}

/** A file slice that gets a rollback command block, as the next log version of its log. */
export interface CommandBlockSlice {
  partitionPath: string;
  fileId: string;
  /** The slice's base instant (the instant in its log file names, v6). */
  baseInstantTime: string;
}

/** The distinct slices of `logFiles`, in first-seen order: each gets one command block. Non-log paths are ignored. */
export function commandBlockSlices(logFiles: readonly string[]): CommandBlockSlice[] {
  const out = new Map<string, CommandBlockSlice>();
  for (const path of logFiles) {
    const log = parseLogFileName(baseName(path));
    if (!log) continue;
    const partitionPath = parentPath(path);
    const key = `${partitionPath}\u0000${log.fileId}\u0000${log.instantTime}`;
    if (!out.has(key)) out.set(key, { partitionPath, fileId: log.fileId, baseInstantTime: log.instantTime });
  }
  return [...out.values()];
}
