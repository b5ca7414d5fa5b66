// The cleaner (hudi-format.md §12.9, Hudi's CleanActionExecutor): finish interrupted cleans, plan a clean
// (plan/clean-plan.ts) and run it — `<t>.clean.requested` (plan), `<t>.clean.inflight` (the plan again, as Hudi
// writes it), delete the files (idempotent), then the completed `<t>.clean` (HoodieCleanMetadata). Every
// clean also removes orphan files (engine/orphan-files.ts): crashed writes' temp files, aborted writes' files.
// On a table with a metadata table, the clean's MDT deltacommit (services/metadata-sync.ts) completes first,
// under the commit lock.
import { baseName, instantFilePath, partitionMetadataPath } from '../../layout.js';
import type { ReplaceRecord } from '../../file-group/file-system-view.js';
import { planClean, type CleanPlanOptions, type CleanPlanResult, type PendingCompactionSlice } from '../../plan/clean-plan.js';
import type { Instant } from '../../timeline/instant.js';
import { parseCleanerPlan, serializeCleanerPlan, serializeCleanMetadata, type CleanerPlan, type CleaningPolicy, type CleanPartitionMetadata } from '../../timeline/clean-metadata.js';
import { parseCompactionPlan } from '../../timeline/compaction-plan.js';
import { systemClock, type Clock } from '../clock.js';
import { instantTransition, requestNewInstant } from '../commit/transitions.js';
import { withCommitLock } from '../commit/commit-lock.js';
import { heartbeatExpired, HEARTBEAT_TIMEOUT_MS } from '../commit/heartbeat.js';
import { cleanToMetadata, clockAfter, hasMetadataTable } from './metadata-sync.js';
import { removeOrphanFiles } from './orphan-files.js';
import { savepointedFiles } from './savepoint.js';
import type { TableState } from '../table-state.js';
import type { EngineContext } from '../context.js';

/** Options of {@link clean} (Hudi's defaults in parentheses). */
export interface CleanOptions {
  /** Cleaning policy (`KEEP_LATEST_COMMITS`). */
  policy?: CleaningPolicy;
  /** KEEP_LATEST_COMMITS: snapshots of this many latest commits stay readable (10). */
  retainCommits?: number;
  /** KEEP_LATEST_FILE_VERSIONS: slices kept per file group (3). */
  retainFileVersions?: number;
  /** KEEP_LATEST_BY_HOURS: snapshots of the commits of the last this many hours stay readable (24). */
  retainHours?: number;
  /** The clock (instant time of the clean, KEEP_LATEST_BY_HOURS cutoff). */
  now?: Date;
  /** The time source orphan-file removal ages files by (the write's clock; default the system clock). */
  clock?: Clock;
  /**
   * Writers' heartbeat timeout (60 000): a temp file or a file of an aborted write is removed only once it is
   * older than this, so a write still in progress never loses a file.
   */
  heartbeatTimeoutMs?: number;
}

/** What a clean did. */
export interface CleanResult {
  /** Orphan files removed (temp files of crashed writes, files of aborted writes), when there were any. */
  orphanFilesDeleted?: string[];
  /** The clean instant. */
  instant: string;
  /** Files deleted (base and log files). */
  filesDeleted: number;
  /** The oldest commit whose snapshot is still readable (undefined when the plan had none). */
  earliestInstantToRetain: string | undefined;
}

/** Completed replacecommits and the groups they replaced. */
async function replaceRecords(state: TableState): Promise<ReplaceRecord[]> {
  const out: ReplaceRecord[] = [];
  for (const i of state.timeline.completedWrites()) {
    if (i.action !== 'replacecommit') continue;
    out.push({ instantTime: i.requestedTime, partitionToReplaceFileIds: (await state.commitMetadata(i)).partitionToReplaceFileIds });
  }
  return out;
}

/** The slices pending compaction plans start from. */
async function pendingCompactionSlices(state: TableState): Promise<PendingCompactionSlice[]> {
  const out: PendingCompactionSlice[] = [];
  for (const i of state.timeline.pending()) {
    if (i.action !== 'compaction' && i.action !== 'logcompaction') continue;
    const path = instantFilePath(state.config, i.requestedTime, i.action, 'REQUESTED');
    const plan = parseCompactionPlan(await state.storage.read(path), path);
    for (const op of plan.operations) out.push({ partitionPath: op.partitionPath, fileId: op.fileId, baseInstantTime: op.baseInstantTime });
  }
  return out;
}

/** Run a planned clean from its inflight state: delete the files (idempotent), then complete it. */
async function executeClean(state: TableState, instant: string, plan: CleanerPlan, started: number, timing: { clock?: Clock; heartbeatTimeoutMs?: number } = {}): Promise<CleanResult> {
  const { storage, config } = state;
  const partitions: Record<string, CleanPartitionMetadata> = {};
  let deleted = 0;
  for (const [partition, files] of Object.entries(plan.filePathsToBeDeletedPerPartition)) {
    const names: string[] = [];
    for (const f of files) {
      await storage.delete(f.filePath);
      names.push(baseName(f.filePath));
      deleted++;
    }
    partitions[partition] = { partitionPath: partition, policy: plan.policy, deletePathPatterns: names, successDeleteFiles: names, failedDeleteFiles: [], isPartitionDeleted: false };
  }
  for (const p of plan.partitionsToBeDeleted) {
    // The data files are gone with the plan's files; the partition marker goes last.
    await storage.delete(partitionMetadataPath(p));
    const entry = (partitions[p] ??= { partitionPath: p, policy: plan.policy, deletePathPatterns: [], successDeleteFiles: [], failedDeleteFiles: [], isPartitionDeleted: true });
    entry.isPartitionDeleted = true;
  }
  const earliest = plan.earliestInstantToRetain?.timestamp;
  const metadata = serializeCleanMetadata({
    startCleanTime: instant,
    timeTakenInMillis: Math.max(0, Date.now() - started),
    totalFilesDeleted: deleted,
    earliestCommitToRetain: earliest ?? '',
    lastCompletedCommitTimestamp: plan.lastCompletedCommitTimestamp,
    partitionMetadata: partitions,
  });
  const transition = instantTransition(storage, config, instant, 'clean');
  if (!hasMetadataTable(state)) {
    // Another process finishing the same pending clean may have completed it already: that is fine.
    await transition.complete(metadata);
    return { instant, filesDeleted: deleted, earliestInstantToRetain: earliest };
  }
  // With a metadata table: its deltacommit for this clean, then the clean's completion, under the commit lock.
  const clock = timing.clock ?? systemClock;
  const timeoutMs = timing.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  await withCommitLock(storage, instant, async (held) => {
    if (await transition.exists('COMPLETED')) return; // finished by another process meanwhile
    const deletedFiles = Object.entries(partitions).map(([partitionPath, p]) => ({ partitionPath, fileNames: p.successDeleteFiles }));
    const floor = await cleanToMetadata(state, instant, deletedFiles, plan.partitionsToBeDeleted, held, clock);
    await held();
    await transition.complete(metadata, { clock: clockAfter(clock, floor) });
  }, { clock, ownerGone: (o) => heartbeatExpired(storage, o, timeoutMs, clock) });
  return { instant, filesDeleted: deleted, earliestInstantToRetain: earliest };
}

/** Finish cleans a crash interrupted (requested or inflight) on the timeline of `state`: re-run their plans. */
export async function finishPendingCleans(state: TableState, timing: { clock?: Clock; heartbeatTimeoutMs?: number } = {}): Promise<CleanResult[]> {
  const out: CleanResult[] = [];
  for (const { instant, bytes, plan } of await pendingCleans(state)) {
    const transition = instantTransition(state.storage, state.config, instant.requestedTime, 'clean');
    if (instant.state === 'REQUESTED') await transition.markInflight(bytes);
    out.push(await executeClean(state, instant.requestedTime, plan, Date.now(), timing));
  }
  return out;
}

/** The cleans pending on the timeline of `state` (a crash interrupted them), oldest first, with their plans. Reads only. */
export async function pendingCleans(state: TableState): Promise<{ instant: Instant; bytes: Uint8Array; plan: CleanerPlan }[]> {
  const out: { instant: Instant; bytes: Uint8Array; plan: CleanerPlan }[] = [];
  for (const instant of state.timeline.pending()) {
    if (instant.action !== 'clean') continue;
    const requested = instantTransition(state.storage, state.config, instant.requestedTime, 'clean').path('REQUESTED');
    const bytes = await state.storage.read(requested);
    out.push({ instant, bytes, plan: parseCleanerPlan(bytes, requested) });
  }
  return out;
}

/**
 * The clean {@link clean} plans on `state` at `now` (and `Table.cleanPlan` shows without running it): the
 * policy and retention of `options` over the file-system view, with the savepointed files, the completed
 * replacecommits' groups and the slices pending compactions start from kept as the planner needs. Reads only.
 */
export async function cleanPlanOf(state: TableState, options: CleanOptions, now: Date): Promise<CleanPlanResult> {
  const planOptions: CleanPlanOptions = { policy: options.policy ?? 'KEEP_LATEST_COMMITS', now };
  if (options.retainCommits !== undefined) planOptions.retainCommits = options.retainCommits;
  if (options.retainFileVersions !== undefined) planOptions.retainFileVersions = options.retainFileVersions;
  if (options.retainHours !== undefined) planOptions.retainHours = options.retainHours;
  return planClean(await state.fileSystemView(), state.timeline, planOptions, await savepointedFiles(state), await replaceRecords(state), await pendingCompactionSlices(state));
}

/**
 * Clean the table: finish interrupted cleans, then plan one with the given policy and, when it deletes
 * anything, run it. Returns the new clean (or the last interrupted clean finished), or undefined when there
 * was nothing to clean (then no instant is written). Writers should not run concurrently (hold the table's
 * write lock): a clean never deletes a slice a query of a retained commit or the latest snapshot reads.
 * Then it removes orphan files older than `heartbeatTimeoutMs` by `clock` (see `planOrphanFiles`), listed in
 * the result's `orphanFilesDeleted` (when a clean instant was written or finished). `clock` and
 * `heartbeatTimeoutMs` default to the context's; the table state is the context's snapshot.
 */
export async function clean(ctx: EngineContext, options: CleanOptions = {}): Promise<CleanResult | undefined> {
  const clock = options.clock ?? ctx.clock;
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? ctx.heartbeatTimeoutMs;
  const result = await cleanFileVersions(ctx, { ...options, clock, heartbeatTimeoutMs });
  const orphans = await removeOrphanFiles(ctx, { now: clock.now(), minAgeMs: heartbeatTimeoutMs });
  if (orphans.length > 0 && result) result.orphanFilesDeleted = orphans;
  return result;
}

/** The clean proper: finish interrupted cleans, then plan and run one. */
async function cleanFileVersions(ctx: EngineContext, options: CleanOptions): Promise<CleanResult | undefined> {
  const { storage } = ctx;
  let state = await ctx.snapshot();
  const timing = { ...(options.clock && { clock: options.clock }), ...(options.heartbeatTimeoutMs !== undefined && { heartbeatTimeoutMs: options.heartbeatTimeoutMs }) };
  const finished = await finishPendingCleans(state, timing);
  const started = Date.now();
  if (finished.length > 0) state = await ctx.reload();
  const now = options.now ?? new Date((options.clock ?? systemClock).now());
  const plan = await cleanPlanOf(state, options, now);
  if (plan.fileCount === 0) return finished[finished.length - 1];

  const bytes = serializeCleanerPlan({
    earliestInstantToRetain: plan.earliestInstantToRetain,
    lastCompletedCommitTimestamp: plan.lastCompletedCommitTimestamp,
    policy: plan.policy,
    filePathsToBeDeletedPerPartition: plan.filesToDelete,
    partitionsToBeDeleted: plan.partitionsToDelete,
  });
  const transition = await requestNewInstant(storage, state.config, 'clean', bytes, {
    now,
    ...(options.clock && { clock: options.clock }),
    ...(options.heartbeatTimeoutMs !== undefined && { heartbeatTimeoutMs: options.heartbeatTimeoutMs }),
  });
  ctx.invalidate();
  await transition.markInflight(bytes);
  return executeClean(state, transition.instantTime, parseCleanerPlan(bytes, transition.path('REQUESTED')), started, timing);
}
