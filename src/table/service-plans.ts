// Dry runs of the table services: what the next `Table.compact()` would compact and what the next
// `Table.clean()` would delete, planned by the same functions the services plan with
// (engine/services/compaction.ts `compactionSchedule`, engine/services/clean.ts `cleanPlanOf`) on the table
// loaded afresh — without writing anything or taking a lock.
import { instantFilePath, partitionFilePath } from '../layout.js';
import { loadTableState, type EngineContext } from '../engine/context.js';
import { cleanPlanOf, pendingCleans, type CleanOptions } from '../engine/services/clean.js';
import { compactionSchedule, requireMergeOnRead } from '../engine/services/compaction.js';
import { resolveWriteOptions, type WriteOptions } from '../engine/write/write-options.js';
import type { CleaningPolicy } from '../timeline/clean-metadata.js';
import { parseCompactionPlan, type CompactionOperation } from '../timeline/compaction-plan.js';

/** Options of `Table.compactionPlan`: those of `Table.compact` that decide its plan. */
export type CompactionPlanOptions = Pick<WriteOptions, 'compaction' | 'clock' | 'heartbeatTimeoutMs'> & {
  /** Plan every slice with committed logs whatever the trigger says (default true, as `compact()`). */
  force?: boolean;
};

/** One file slice the next compaction compacts. */
export interface PlannedCompactionSlice {
  partitionPath: string;
  fileId: string;
  /** The slice's base instant (the slice key). */
  baseInstantTime: string;
  /** Its base file (path from the table root), or undefined for a log-only slice. */
  baseFile: string | undefined;
  /** Its log files the compaction merges (paths from the table root), in order. */
  logFiles: string[];
  /** True: a pending compaction plan (`instant`) already holds it; false: the plan `compact()` would schedule now. */
  pending: boolean;
  /** The pending compaction's instant (undefined for the plan not made yet). */
  instant: string | undefined;
}

/** What the next `Table.compact()` would compact. */
export interface PlannedCompaction {
  /** Every slice it compacts: those of pending plans first (oldest plan first), then those of the plan it would schedule. */
  slices: PlannedCompactionSlice[];
  /**
   * Writes pending on the timeline, oldest first. Their logs are left out of the plan; while one of them is
   * alive (its heartbeat within the timeout) `compact()` would throw `CONFLICT` naming it instead of scheduling.
   */
  pendingWrites: string[];
}

/** What the next `Table.clean()` would delete. */
export interface PlannedClean {
  /** The policy of the new plan. */
  policy: CleaningPolicy;
  /** Pending (interrupted) cleans it finishes first, oldest first; their files are in {@link filesToDelete}. */
  pendingInstants: string[];
  /** Partition → base, log and `.cdc` files it deletes (paths from the table root, sorted). */
  filesToDelete: Record<string, string[]>;
  /** Partitions whose every file group goes, deleted entirely. */
  partitionsToDelete: string[];
  /** Number of files in {@link filesToDelete}. */
  fileCount: number;
  /** The oldest commit whose snapshot stays readable after the new plan (undefined: it keeps every commit). */
  earliestInstantToRetain: string | undefined;
}

function plannedSlice(op: CompactionOperation, instant: string | undefined): PlannedCompactionSlice {
  const path = (name: string) => partitionFilePath(op.partitionPath, name);
  return {
    partitionPath: op.partitionPath, fileId: op.fileId, baseInstantTime: op.baseInstantTime,
    baseFile: op.dataFilePath ? path(op.dataFilePath) : undefined,
    logFiles: op.deltaFilePaths.map(path),
    pending: instant !== undefined, instant,
  };
}

/** `Table.compactionPlan`: pending compaction plans' slices, then what `scheduleCompaction` would plan now. */
export async function compactionPlan(ctx: EngineContext, options: CompactionPlanOptions = {}): Promise<PlannedCompaction> {
  const state = await loadTableState(ctx.storage);
  requireMergeOnRead(state);
  const resolved = resolveWriteOptions(ctx.defaults, options);
  const slices: PlannedCompactionSlice[] = [];
  for (const i of state.timeline.pending()) {
    if (i.action !== 'compaction') continue;
    const path = instantFilePath(state.config, i.requestedTime, 'compaction', 'REQUESTED');
    for (const op of parseCompactionPlan(await ctx.storage.read(path), path).operations) slices.push(plannedSlice(op, i.requestedTime));
  }
  const { operations, pendingWrites } = await compactionSchedule(state, resolved.compaction, options.force ?? true);
  for (const op of operations ?? []) slices.push(plannedSlice(op, undefined));
  return { slices, pendingWrites: pendingWrites.map((w) => w.requestedTime) };
}

/** `Table.cleanPlan`: pending cleans' files, then the files of the clean `clean()` would plan now. */
export async function cleanPlan(ctx: EngineContext, options: CleanOptions = {}): Promise<PlannedClean> {
  const state = await loadTableState(ctx.storage);
  const merged: CleanOptions = { ...ctx.defaults.clean, ...options };
  const plan = await cleanPlanOf(state, merged, merged.now ?? new Date((merged.clock ?? ctx.clock).now()));
  const pending = await pendingCleans(state);
  const files: Record<string, string[]> = {};
  const partitions = [...plan.partitionsToDelete];
  for (const { plan: p } of pending) {
    for (const [partition, list] of Object.entries(p.filePathsToBeDeletedPerPartition)) (files[partition] ??= []).push(...list.map((f) => f.filePath));
    partitions.push(...p.partitionsToBeDeleted);
  }
  for (const [partition, list] of Object.entries(plan.filesToDelete)) (files[partition] ??= []).push(...list);
  const filesToDelete: Record<string, string[]> = {};
  let fileCount = 0;
  for (const partition of Object.keys(files).sort()) fileCount += (filesToDelete[partition] = [...new Set(files[partition])].sort()).length;
  return {
    policy: plan.policy,
    pendingInstants: pending.map((p) => p.instant.requestedTime),
    filesToDelete,
    partitionsToDelete: [...new Set(partitions)].sort(),
    fileCount,
    earliestInstantToRetain: plan.earliestInstantToRetain?.timestamp,
  };
}
