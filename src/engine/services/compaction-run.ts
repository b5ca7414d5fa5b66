// Running compaction plans (scheduled by compaction.ts): each planned slice's base file and logs merged into a
// new base file at the compaction instant (records keep their commit time and seqno), completed as
// `<c>.commit` with `compacted: true` under the commit lock. One runner at a time holds a plan (its
// heartbeat); interrupted compactions are re-run. Loaded only when a merge-on-read table compacts.
import { LakeletError, isLakeletError } from '../../errors.js';
import type { FileSlice } from '../../file-group/file-slice.js';
import { avroSchemaJson } from '../../format/avro/schema.js';
import { withoutMetaFields } from '../../schema/table-schema.js';
import { orderingSpec } from '../../merge/ordering.js';
import type { Storage } from '../../storage/storage.js';
import type { WriteStatInput } from '../../timeline/commit-metadata-writer.js';
import { commitMetadataBytes } from '../../timeline/commit-metadata-avro.js';
import { parseCompactionPlan, type CompactionOperation, type CompactionPlan } from '../../timeline/compaction-plan.js';
import { deleteMarkers, markedFiles } from '../commit/commit-protocol.js';
import { instantFilePath, markerPath, partitionFilePath } from '../../layout.js';
import { instantTransition } from '../commit/transitions.js';
import { withCommitLock } from '../commit/commit-lock.js';
import { compactionToMetadata, clockAfter } from './metadata-sync.js';
import { withPlanHeartbeat } from './plan-heartbeat.js';
import { runPendingPlans } from './pending-plans.js';
import { readSliceLogs, type SliceReadContext } from '../read/file-slice-reader.js';
import { wireLogVisibility } from '../../merge/slice-merge.js';
import { mergeBucket } from '../write/merge-handle.js';
import { cdcLoggingModeOf } from '../../config/cdc-config.js';
import { HEARTBEAT_TIMEOUT_MS, heartbeatExpired } from '../commit/heartbeat.js';
import { loadTimeline, type TableState } from '../table-state.js';
import type { EngineContext } from '../context.js';
import { systemClock } from '../clock.js';
import type { CompactionResult, CompactionRunOptions } from './compaction.js';

/**
 * Run every pending compaction, oldest first (a crashed one starts over). A plan another runner is running
 * (its heartbeat is live), completed or dropped meanwhile is skipped.
 */
export async function runPendingCompactions(ctx: EngineContext, options: CompactionRunOptions): Promise<CompactionResult[]> {
  const pending = (await ctx.snapshot()).timeline.pending().filter((i) => i.action === 'compaction').map((i) => i.requestedTime);
  return runPendingPlans(pending, (instant) => instant, (instant) => runCompaction(ctx, instant, options));
}

/**
 * Execute one pending compaction plan. The run holds the plan through the compaction's heartbeat (created
 * with writeIfAbsent; a live one held by another runner → `CONFLICT`), and completes under the commit lock,
 * only if the plan is still pending (`ABORTED` when a rollback dropped it meanwhile).
 */
export async function runCompaction(ctx: EngineContext, instant: string, options: CompactionRunOptions): Promise<CompactionResult> {
  const { storage } = ctx;
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const state = await ctx.snapshot();
  ctx.invalidate(); // a run changes the timeline (or a concurrent one did): later steps list it again
  const { config } = state;
  const planPath = instantFilePath(config, instant, 'compaction', 'REQUESTED');
  const plan = parseCompactionPlan(await storage.read(planPath), planPath);
  return withPlanHeartbeat(storage, instant, 'compaction', { clock, timeoutMs }, (beat) => execute(state, instant, plan, options, beat));
}

async function execute(state: TableState, instant: string, plan: CompactionPlan, options: CompactionRunOptions, beat: () => Promise<void>): Promise<CompactionResult> {
  const { storage, config } = state;
  const transition = instantTransition(storage, config, instant, 'compaction');
  const clock = options.clock ?? systemClock;
  // Start over: files an interrupted run left behind are removed first.
  for (const f of await markedFiles(storage, instant)) await storage.delete(f);
  await deleteMarkers(storage, instant);
  await transition.markInflight();
  const operations = await liveInputs(state, instant, plan.operations);
  const schema = await state.schemaAsOf(undefined);
  const ctx = {
    storage, config, timeline: state.timeline, asOf: undefined,
    merge: { mode: config.recordMergeMode, partialUpdateMode: config.properties.get('hoodie.table.partial.update.mode'), ...orderingSpec(config.orderingFields, schema) },
    onWarning: () => undefined,
  };
  const stats = new Map<string, WriteStatInput[]>();
  let records = 0;
  let logs = 0;
  for (const [taskId, op] of operations.entries()) {
    await beat();
    const stat = await compactOperation(storage, ctx, op, instant, taskId, schema, options);
    stats.set(op.partitionPath, [...(stats.get(op.partitionPath) ?? []), stat]);
    records += stat.numWrites;
    logs += op.deltaFilePaths.length;
  }
  const metadata = commitMetadataBytes(config.timelineLayoutVersion, {
    partitionToWriteStats: stats,
    compacted: true,
    extraMetadata: { schema: avroSchemaJson(withoutMetaFields(schema)) },
    operationType: 'COMPACT',
  });
  await beat();
  const timeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const ownerGone = (o: string) => heartbeatExpired(storage, o, timeoutMs, clock);
  await withCommitLock(storage, instant, async (held) => {
    const timeline = await loadTimeline(storage, config);
    if (timeline.completedAt(instant)) throw new LakeletError('CONFLICT', `compaction: ${instant} was completed by another run meanwhile`, { instant });
    if (!timeline.files.some((f) => f.requestedTime === instant && f.action === 'compaction' && f.state === 'REQUESTED')) {
      for (const f of await markedFiles(storage, instant)) await storage.delete(f);
      throw new LakeletError('ABORTED', `compaction: plan ${instant} was dropped (rolled back) while it ran; nothing of it was committed`, { instant });
    }
    // With a metadata table, its deltacommit for this compaction completes first (services/metadata-sync.ts).
    const floor = await compactionToMetadata(state, instant, metadata, held, clock);
    await held();
    // A create whose acknowledgement was lost (it throws, yet the file is there) is ours: only the holder of
    // the plan and the commit lock creates it.
    if (!(await transition.complete(metadata, { landed: 'exists', clock: clockAfter(clock, floor) }))) {
      throw new LakeletError('CONFLICT', `compaction: ${instant} was completed by another run meanwhile`, { instant });
    }
  }, { ownerGone, clock });
  return { instant, fileGroups: operations.length, recordsWritten: records, logFilesCompacted: logs };
}

/**
 * The plan's operations without the log files that are gone and that no completed commit wrote: logs of a
 * write that aborted after an older lakelet planned them (their blocks were never committed). A planned file
 * that a completed commit wrote and storage lacks is `NOT_FOUND` — lost data is never compacted away.
 */
async function liveInputs(state: TableState, instant: string, operations: readonly CompactionOperation[]): Promise<CompactionOperation[]> {
  const { storage } = state;
  const missing = new Set<string>();
  for (const op of operations) {
    for (const name of op.deltaFilePaths) {
      const path = partitionFilePath(op.partitionPath, name);
      try {
        await storage.head(path);
      } catch (err) {
        if (!isLakeletError(err, 'NOT_FOUND')) throw err;
        missing.add(path);
      }
    }
  }
  if (missing.size === 0) return [...operations];
  const committed = new Set<string>();
  for (const w of state.timeline.completedWrites()) {
    const md = await state.commitMetadata(w);
    for (const stats of Object.values(md.partitionToWriteStats)) for (const s of stats) if (s.path) committed.add(s.path);
  }
  for (const path of missing) {
    if (committed.has(path)) throw new LakeletError('NOT_FOUND', `compaction: plan ${instant} merges ${path}, which a completed commit wrote and storage lacks`, { instant, path });
  }
  return operations.map((op) => ({ ...op, deltaFilePaths: op.deltaFilePaths.filter((name) => !missing.has(partitionFilePath(op.partitionPath, name))) }));
}

async function compactOperation(
  storage: Storage,
  ctx: SliceReadContext,
  op: CompactionOperation,
  instant: string,
  taskId: number,
  schema: Awaited<ReturnType<TableState['schemaAsOf']>>,
  options: CompactionRunOptions,
): Promise<WriteStatInput> {
  const pathOf = (name: string) => partitionFilePath(op.partitionPath, name);
  const slice: FileSlice = {
    partitionPath: op.partitionPath,
    fileId: op.fileId,
    baseInstantTime: op.baseInstantTime,
    baseFile: op.dataFilePath ? { path: pathOf(op.dataFilePath), name: op.dataFilePath, fileId: op.fileId, partitionPath: op.partitionPath, instantTime: op.baseInstantTime, size: 0 } : undefined,
    logFiles: op.deltaFilePaths.map((name, i) => ({ path: pathOf(name), name, fileId: op.fileId, partitionPath: op.partitionPath, instantTime: op.baseInstantTime, version: i + 1, writeToken: undefined, size: 0, completionTime: undefined })),
  };
  // This thread reads the logs (a pending writer's log that is gone is skipped) and which writes count; the
  // merge handle merges the slice and writes the result as it is (records keep their commit time and seqno):
  // merged and encoded on the worker pool when there is one, inline otherwise.
  const logs = await readSliceLogs(ctx, slice);
  const written = await mergeBucket({
    storage,
    instantTime: instant,
    taskId,
    partitionPath: op.partitionPath,
    fileId: op.fileId,
    base: slice.baseFile,
    slice: { logs, visibility: wireLogVisibility(ctx.timeline, ctx.asOf), merge: ctx.merge },
    updates: new Map(),
    inserts: [],
    schema,
    mergeMode: ctx.merge.mode,
    orderingFields: ctx.merge.orderingFields,
    orderingKinds: ctx.merge.orderingKinds,
    writer: { codec: options.codec, rowGroupRows: options.rowGroupRows, bloomFilter: options.bloomFilter },
    beforeWrite: (path) => storage.write(markerPath(instant, path, 'CREATE'), new Uint8Array(0)),
    pool: options.pool,
    cdc: cdcLoggingModeOf(ctx.config.properties), // Hudi's compaction logs the compacted slice's changes too
  });
  return {
    ...written.stat,
    prevCommit: op.baseInstantTime,
    prevBaseFile: op.dataFilePath ?? undefined,
    totalLogFilesCompacted: op.deltaFilePaths.length,
    totalLogSizeCompacted: op.metrics.TOTAL_LOG_FILES_SIZE ?? 0,
    totalUpdatedRecordsCompacted: written.stat.numWrites,
  };
}

