// Clustering (issue 19): schedule a plan of small file groups (`<t>.clustering.requested` on v8/v9,
// `<t>.replacecommit.requested` with operation CLUSTER on v6; plan/clustering-plan.ts), then rewrite each group
// into new file groups sorted by the plan's columns (clustering-execute.ts) and complete a `replacecommit`
// (operation CLUSTER) whose `partitionToReplaceFileIds` names every input group. As compaction: scheduling and
// completion run under the commit lock, a plan is made only while no other write is pending, one runner holds a
// plan at a time (its heartbeat), and an interrupted run starts over (its files removed first, from its markers).
import { LakeletError } from '../../errors.js';
import { fileGroupKey } from '../../file-group/file-slice.js';
import { avroSchemaJson } from '../../format/avro/schema.js';
import { planClustering, SORT_AND_SIZE_EXECUTION_STRATEGY, type ClusteringOptions, type ClusteringPlan, type ClusteringSliceInput } from '../../plan/clustering-plan.js';
import { withoutMetaFields } from '../../schema/table-schema.js';
import { commitMetadataBytes } from '../../timeline/commit-metadata-avro.js';
import { clusteringPlanFromAvro, clusteringRequestedBytes, tableBaseUri } from '../../timeline/clustering-plan-avro.js';
import { WRITE_ACTIONS } from '../../timeline/instant.js';
import { systemClock } from '../clock.js';
import { withCommitLock } from '../commit/commit-lock.js';
import { deleteMarkers, markedFiles, newInstantTime } from '../commit/commit-protocol.js';
import { HEARTBEAT_TIMEOUT_MS, heartbeatExpired } from '../commit/heartbeat.js';
import { withPlanHeartbeat } from './plan-heartbeat.js';
import { runPendingPlans } from './pending-plans.js';
import { instantTransition } from '../commit/transitions.js';
import { reloadTimeline, type EngineContext } from '../context.js';
import { loadTimeline, type TableState } from '../table-state.js';
import { writeClusteredFiles, type ClusteredFiles, type ClusteringWriterOptions } from './clustering-execute.js';
import type { ScheduleOptions, ServiceTiming } from './compaction.js';
import { clockAfter, compactionToMetadata, hasMetadataTable } from './metadata-sync.js';
import { pendingClusterings, pendingClusteringGroups, type PendingClustering } from './pending-clustering.js';
import { pendingCompactionGroups } from './pending-compactions.js';

/** What a clustering did. */
export interface ClusteringResult {
  /** The clustering instant (its completed `replacecommit`). */
  instant: string;
  /** File groups the clustering replaced. */
  fileGroupsReplaced: number;
  /** New file groups it wrote. */
  fileGroupsWritten: number;
  recordsWritten: number;
  bytesWritten: number;
}

/** What clustering runs need: the base-file writer settings and the timing. */
export type ClusteringRunOptions = ClusteringWriterOptions & ServiceTiming;

/** The latest slices of `state` as clustering candidates, without log files of writes still pending (`uncommitted`). */
async function candidates(state: TableState, uncommitted: ReadonlySet<string>): Promise<ClusteringSliceInput[]> {
  return (await state.fileSystemView()).latestSlices().map((s) => ({
    partitionPath: s.partitionPath,
    fileId: s.fileId,
    ...(s.baseFile ? { baseFile: { path: s.baseFile.path, sizeBytes: s.baseFile.size } } : {}),
    logFiles: s.logFiles.filter((l) => !uncommitted.has(l.path)).map((l) => ({ path: l.path, sizeBytes: l.size })),
  }));
}

/**
 * Schedule a clustering plan when there are small file groups to rewrite; returns its instant, or undefined.
 * Runs under the commit lock; file groups under a pending compaction or clustering are left out. While another
 * write is pending and its writer alive, no plan is made (`whenWritesPending`, as compaction): a plan made beside
 * a live writer could miss its update. Sort columns the schema lacks are `INVALID_ARGUMENT`.
 */
export async function scheduleClustering(ctx: EngineContext, options: ClusteringOptions & ScheduleOptions = {}): Promise<string | undefined> {
  const { storage } = ctx;
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const first = await ctx.snapshot();
  const schema = await first.schemaAsOf(undefined);
  for (const c of options.sortColumns ?? []) {
    if (!schema.fields.some((f) => f.name === c)) throw new LakeletError('INVALID_ARGUMENT', `cluster: sort column ${JSON.stringify(c)} is not a column of the table (${withoutMetaFields(schema).fields.map((f) => f.name).join(', ')})`, { field: 'sortColumns', value: c });
  }
  const owner = newInstantTime(first, clock);
  const ownerGone = (o: string) => heartbeatExpired(storage, o, timeoutMs, clock);
  return withCommitLock(storage, owner, async (held) => {
    const state = await reloadTimeline(first);
    const clusterings = await pendingClusterings(state);
    const ours = new Set(clusterings.map((c) => c.instant));
    const pendingWrites = state.timeline.pending().filter((i) => WRITE_ACTIONS.has(i.action) && !ours.has(i.requestedTime));
    const uncommitted = new Set<string>();
    for (const w of pendingWrites) for (const f of await markedFiles(storage, w.requestedTime)) uncommitted.add(f);
    const excluded = new Set([...(await pendingCompactionGroups(state)).keys(), ...(await pendingClusteringGroups(state)).keys()]);
    // Slice paths absolute under the table's URI where the store has one (node-fs, S3), as Spark writes them.
    const uri = options.basePath === undefined ? tableBaseUri(storage.label) : undefined;
    const plan = planClustering(await candidates(state, uncommitted), excluded, uri === undefined ? options : { ...options, basePath: uri });
    if (!plan) return undefined;
    for (const w of pendingWrites) {
      if (await heartbeatExpired(storage, w.requestedTime, timeoutMs, clock)) continue;
      if (options.whenWritesPending !== 'conflict') return undefined;
      throw new LakeletError('CONFLICT', `cluster: write ${w.requestedTime} (${w.action}) is still in progress; a clustering is planned only when no other write is pending — retry when it has completed`, { instant: w.requestedTime });
    }
    const instant = newInstantTime(state, options.now ?? clock);
    await held();
    ctx.invalidate();
    const action = state.config.timelineLayoutVersion === 2 ? 'clustering' : 'replacecommit';
    const created = await instantTransition(storage, state.config, instant, action).request(clusteringRequestedBytes(plan, state.config.version));
    if (!created) throw new LakeletError('CONFLICT', `cluster: instant ${instant} already exists`, { instant });
    return instant;
  }, { ownerGone, clock });
}

/**
 * Run every pending clustering plan of Hudi's sort-and-size strategy, oldest first (a crashed one starts over);
 * each plan is read once. A plan another runner is running (its heartbeat is live), completed or dropped
 * meanwhile is skipped — except `required` (the plan an explicit cluster just scheduled), whose `CONFLICT` or
 * `ABORTED` is thrown, so the caller learns why it did not complete instead of reading "nothing to cluster".
 */
export async function runPendingClusterings(ctx: EngineContext, options: ClusteringRunOptions, required?: string): Promise<ClusteringResult[]> {
  const ours = (await pendingClusterings(await ctx.snapshot()))
    .map((pending) => ({ pending, plan: clusteringPlanFromAvro(pending.plan, pending.path) }))
    .filter((p) => p.plan.strategyClassName === SORT_AND_SIZE_EXECUTION_STRATEGY);
  return runPendingPlans(ours, (p) => p.pending.instant, (p) => runPlan(ctx, p.pending, p.plan, options), required);
}

/**
 * Execute one pending clustering plan. The run holds the plan through the clustering's heartbeat (a live one
 * held by another runner → `CONFLICT`) and completes under the commit lock, only if the plan is still pending
 * (`ABORTED` when it was rolled back meanwhile) and no write completed meanwhile changed one of its file groups
 * (`CONFLICT`: the run's files are removed, the plan stays pending and the next run reads the groups afresh).
 */
export async function runClustering(ctx: EngineContext, instant: string, options: ClusteringRunOptions): Promise<ClusteringResult> {
  const pending = (await pendingClusterings(await ctx.snapshot())).find((c) => c.instant === instant);
  if (!pending) throw notPending(instant);
  return runPlan(ctx, pending, clusteringPlanFromAvro(pending.plan, pending.path), options);
}

const notPending = (instant: string) => new LakeletError('ABORTED', `clustering: ${instant} is not a pending clustering (completed or rolled back meanwhile)`, { instant });

/** Run `pending` (its plan read before) on the table as it is now, if it is still pending. */
async function runPlan(ctx: EngineContext, pending: PendingClustering, plan: ClusteringPlan, options: ClusteringRunOptions): Promise<ClusteringResult> {
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const state = await ctx.snapshot();
  ctx.invalidate();
  const { instant } = pending;
  const current = state.timeline.get(instant);
  if (!current || current.state === 'COMPLETED' || !state.timeline.files.some((f) => f.requestedTime === instant && f.action === pending.action && f.state === 'REQUESTED')) throw notPending(instant);
  return withPlanHeartbeat(ctx.storage, instant, 'clustering', { clock, timeoutMs }, (beat) => execute(state, pending, plan, options, beat));
}

/** Remove the files a run of `instant` wrote (its markers name them), then the markers. */
async function discardFiles(state: TableState, instant: string): Promise<void> {
  for (const f of await markedFiles(state.storage, instant)) await state.storage.delete(f);
  await deleteMarkers(state.storage, instant);
}

async function execute(state: TableState, pending: PendingClustering, plan: ClusteringPlan, options: ClusteringRunOptions, beat: () => Promise<void>): Promise<ClusteringResult> {
  const { storage, config } = state;
  const { instant } = pending;
  const transition = instantTransition(storage, config, instant, pending.action);
  const clock = options.clock ?? systemClock;
  await discardFiles(state, instant); // start over: an interrupted run's files go first
  // And its MDT deltacommit (it names that run's files; a pending data instant's deltacommit counts for nobody).
  if (hasMetadataTable(state)) await (await import('../metadata/lazy.js')).discardMetadataDeltacommitOf(storage, config, instant);
  await transition.markInflight(); // empty, as Hudi writes a clustering's inflight file
  const files = await writeClusteredFiles(state, instant, plan, options, beat);
  const metadata = commitMetadataBytes(config.timelineLayoutVersion, {
    partitionToWriteStats: files.stats,
    partitionToReplaceFileIds: files.replaced,
    extraMetadata: { schema: avroSchemaJson(withoutMetaFields(await state.schemaAsOf(undefined))) },
    operationType: 'CLUSTER',
  });
  await beat();
  const timeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const ownerGone = (o: string) => heartbeatExpired(storage, o, timeoutMs, clock);
  await withCommitLock(storage, instant, async (held) => {
    const timeline = await loadTimeline(storage, config);
    if (timeline.completedAt(instant)) throw new LakeletError('CONFLICT', `clustering: ${instant} was completed by another run meanwhile`, { instant });
    if (!timeline.files.some((f) => f.requestedTime === instant && f.action === pending.action && f.state === 'REQUESTED')) {
      await discardFiles(state, instant);
      throw new LakeletError('ABORTED', `clustering: plan ${instant} was dropped (rolled back) while it ran; nothing of it was committed`, { instant });
    }
    await checkNoNewWrites(state, timeline, instant, files);
    const floor = await compactionToMetadata(state, instant, metadata, held, clock, { recordIndex: { upserts: files.locations, deletes: [] }, replaced: files.replaced });
    await held();
    if (!(await transition.complete(metadata, { landed: 'exists', clock: clockAfter(clock, floor) }))) {
      throw new LakeletError('CONFLICT', `clustering: ${instant} was completed by another run meanwhile`, { instant });
    }
  }, { ownerGone, clock });
  const { recordsWritten, bytesWritten, fileGroupsReplaced, fileGroupsWritten } = files;
  return { instant, fileGroupsReplaced, fileGroupsWritten, recordsWritten, bytesWritten };
}

/**
 * Under the commit lock: a write that completed after the groups were read (`state`) and changed one of them
 * would be lost by this replacecommit — the run's files are removed and it fails with `CONFLICT` (the plan
 * stays pending; a re-run reads the groups afresh).
 */
async function checkNoNewWrites(state: TableState, timeline: TableState['timeline'], instant: string, files: ClusteredFiles): Promise<void> {
  const seen = new Set(state.timeline.completedWrites().map((i) => i.requestedTime));
  const groups = new Set([...files.replaced].flatMap(([p, ids]) => ids.map((id) => fileGroupKey(p, id))));
  for (const other of timeline.completedWrites()) {
    if (seen.has(other.requestedTime)) continue;
    const md = await state.commitMetadata(other);
    const touched = [
      ...Object.entries(md.partitionToWriteStats).flatMap(([p, stats]) => stats.map((s) => fileGroupKey(s.partitionPath || p, s.fileId))),
      ...Object.entries(md.partitionToReplaceFileIds).flatMap(([p, ids]) => ids.map((id) => fileGroupKey(p, id))),
    ];
    const hit = touched.find((g) => groups.has(g));
    if (hit === undefined) continue;
    await discardFiles(state, instant);
    throw new LakeletError('CONFLICT', `clustering: ${other.requestedTime} changed file group ${hit.replace('\u0000', '/')} while clustering ${instant} rewrote it; nothing of the clustering was committed (it stays pending and re-runs)`, { instant, value: other.requestedTime });
  }
}

/**
 * Has the table taken `everyCommits` writes since its last clustering (Hudi's inline max commits)? Writes are
 * completed commits, deltacommits and replacecommits that are no table service (compaction, clustering).
 */
async function clusteringDue(state: TableState, everyCommits: number): Promise<boolean> {
  const services = new Set(state.timeline.files.filter((f) => f.action === 'compaction' || f.action === 'clustering' || f.action === 'logcompaction').map((f) => f.requestedTime));
  let writes = 0;
  for (const w of [...state.timeline.completedWrites()].reverse()) {
    if (state.timeline.files.some((f) => f.requestedTime === w.requestedTime && f.action === 'clustering')) return false;
    if (w.action === 'replacecommit' && (await state.commitMetadata(w)).operationType === 'CLUSTER') return false;
    if (!services.has(w.requestedTime) && ++writes >= everyCommits) return true;
  }
  return false;
}

/** Inline clustering after a committed write: when due, schedule a plan (none beside a live writer) and run the pending ones. */
export async function inlineClustering(ctx: EngineContext, options: ClusteringRunOptions & { clustering: { everyCommits: number | undefined; options: ClusteringOptions } }): Promise<ClusteringResult[]> {
  const every = options.clustering.everyCommits;
  if (every === undefined || !(await clusteringDue(await ctx.snapshot(), every))) return [];
  const timing = { clock: options.clock, heartbeatTimeoutMs: options.heartbeatTimeoutMs };
  await scheduleClustering(ctx, { ...options.clustering.options, ...timing });
  return runPendingClusterings(ctx, options);
}
