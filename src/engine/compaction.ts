// Compaction of merge-on-read tables: schedule a plan (`<c>.compaction.requested`), then merge each planned
// slice's base file and logs into a new base file at the compaction instant (records keep their commit time
// and seqno) and complete it as `<c>.commit` with `compacted: true`. Interrupted compactions are re-run.
import { LakeletError } from '../errors.js';
import { baseFileName } from '../file-group/file-names.js';
import type { FileSlice } from '../file-group/file-slice.js';
import { avroSchemaJson } from '../format/avro/schema.js';
import { BaseFileWriter } from '../format/base-file-writer.js';
import { comparableKind, fieldType, withoutMetaFields } from '../format/schema.js';
import { planCompaction, type CompactionTrigger } from '../plan/compaction-schedule.js';
import type { Storage } from '../storage/storage.js';
import { serializeCommitMetadata, type WriteStatInput } from '../timeline/commit-metadata-writer.js';
import { parseCompactionPlan, serializeCompactionPlan, type CompactionOperation } from '../timeline/compaction-plan.js';
import { deleteMarkers, markedFiles, markerPath, newInstantTime } from './commit-protocol.js';
import { pendingCompactionGroups } from './bucket-writer.js';
import { readFileSlice } from './file-slice-reader.js';
import { TableState } from './table-state.js';
import type { ResolvedWriteOptions } from './write-config.js';
import { systemClock, type Clock } from './clock.js';

/** What a compaction did. */
export interface CompactionResult {
  instant: string;
  fileGroups: number;
  recordsWritten: number;
  logFilesCompacted: number;
}

/** The time source of table services: `now` pins the instant time (tests), else `clock` gives it. */
export interface ServiceTiming {
  clock?: Clock;
  now?: Date;
  /** Silence after which a pending write's heartbeat counts as stopped (default 60 s). */
  heartbeatTimeoutMs?: number;
}

/** Schedule a compaction when the trigger says so (or `force`); returns its instant, or undefined. */
export async function scheduleCompaction(storage: Storage, trigger: CompactionTrigger, force = false, timing: ServiceTiming = {}): Promise<string | undefined> {
  const now = timing.now ?? timing.clock ?? systemClock;
  const state = await TableState.load(storage);
  if (state.config.tableType !== 'MERGE_ON_READ') throw new LakeletError('UNSUPPORTED', 'compaction: only merge-on-read tables are compacted', { value: state.config.tableType });
  const pending = new Set((await pendingCompactionGroups(state)).keys());
  const operations = planCompaction((await state.fileSystemView()).latestSlices(), state.timeline, pending, trigger, force);
  if (!operations) return undefined;
  const instant = newInstantTime(state, now);
  const created = await storage.writeIfAbsent(`${state.config.timelinePath}/${instant}.compaction.requested`, serializeCompactionPlan({ operations }));
  if (!created) throw new LakeletError('CONFLICT', `compaction: instant ${instant} already exists`, { instant });
  return instant;
}

/** Run every pending compaction, oldest first (a crashed one starts over). */
export async function runPendingCompactions(storage: Storage, options: Pick<ResolvedWriteOptions, 'codec' | 'rowGroupRows' | 'bloomFilter'>): Promise<CompactionResult[]> {
  const results: CompactionResult[] = [];
  const state = await TableState.load(storage);
  for (const instant of state.timeline.pending().filter((i) => i.action === 'compaction')) {
    results.push(await runCompaction(storage, instant.requestedTime, options));
  }
  return results;
}

/** Execute one pending compaction plan. */
export async function runCompaction(storage: Storage, instant: string, options: Pick<ResolvedWriteOptions, 'codec' | 'rowGroupRows' | 'bloomFilter'>): Promise<CompactionResult> {
  const state = await TableState.load(storage);
  const { config } = state;
  const dir = config.timelinePath;
  const plan = parseCompactionPlan(await storage.read(`${dir}/${instant}.compaction.requested`), `${dir}/${instant}.compaction.requested`);
  // Start over: files an interrupted run left behind are removed first.
  for (const f of await markedFiles(storage, instant)) await storage.delete(f);
  await deleteMarkers(storage, instant);
  await storage.write(`${dir}/${instant}.compaction.inflight`, new Uint8Array(0));
  const schema = await state.schemaAsOf(undefined);
  const ordering = config.orderingFields.filter((f) => schema.fields.some((x) => x.name === f));
  const ctx = {
    storage, config, timeline: state.timeline, asOf: undefined,
    merge: { mode: config.recordMergeMode, orderingFields: ordering, orderingKinds: ordering.map((f) => comparableKind(fieldType(schema, f) ?? { type: 'string' })) },
    onWarning: () => undefined,
  };
  const stats = new Map<string, WriteStatInput[]>();
  let records = 0;
  let logs = 0;
  for (const [taskId, op] of plan.operations.entries()) {
    const stat = await compactOperation(storage, ctx, op, instant, taskId, schema, options);
    stats.set(op.partitionPath, [...(stats.get(op.partitionPath) ?? []), stat]);
    records += stat.numWrites;
    logs += op.deltaFilePaths.length;
  }
  const metadata = serializeCommitMetadata({
    partitionToWriteStats: stats,
    compacted: true,
    extraMetadata: { schema: avroSchemaJson(withoutMetaFields(schema)) },
    operationType: 'COMPACT',
  });
  if (!(await storage.writeIfAbsent(`${dir}/${instant}.commit`, metadata))) {
    throw new LakeletError('CONFLICT', `compaction: ${instant}.commit already exists`, { instant });
  }
  await deleteMarkers(storage, instant);
  return { instant, fileGroups: plan.operations.length, recordsWritten: records, logFilesCompacted: logs };
}

async function compactOperation(
  storage: Storage,
  ctx: Parameters<typeof readFileSlice>[0],
  op: CompactionOperation,
  instant: string,
  taskId: number,
  schema: Awaited<ReturnType<TableState['schemaAsOf']>>,
  options: Pick<ResolvedWriteOptions, 'codec' | 'rowGroupRows' | 'bloomFilter'>,
): Promise<WriteStatInput> {
  const prefix = op.partitionPath === '' ? '' : `${op.partitionPath}/`;
  const slice: FileSlice = {
    partitionPath: op.partitionPath,
    fileId: op.fileId,
    baseInstantTime: op.baseInstantTime,
    baseFile: op.dataFilePath ? { path: prefix + op.dataFilePath, name: op.dataFilePath, fileId: op.fileId, partitionPath: op.partitionPath, instantTime: op.baseInstantTime, size: 0 } : undefined,
    logFiles: op.deltaFilePaths.map((name, i) => ({ path: prefix + name, name, fileId: op.fileId, partitionPath: op.partitionPath, instantTime: op.baseInstantTime, version: i + 1, writeToken: undefined, size: 0, completionTime: undefined })),
  };
  const rows = await readFileSlice(ctx, slice, { columns: undefined, filters: [], baseOnly: false });
  const name = baseFileName(op.fileId, `${taskId}-0-0`, instant);
  const writer = new BaseFileWriter({ schema, codec: options.codec, rowGroupRows: options.rowGroupRows, bloomFilter: options.bloomFilter });
  for (const row of rows) row._hoodie_file_name = name;
  writer.write(rows);
  const bytes = writer.finish();
  const path = prefix + name;
  await storage.write(markerPath(instant, path, 'CREATE'), new Uint8Array(0));
  await storage.write(path, bytes);
  const logSize = op.metrics.TOTAL_LOG_FILES_SIZE ?? 0;
  return {
    fileId: op.fileId,
    path,
    partitionPath: op.partitionPath,
    prevCommit: op.baseInstantTime,
    numWrites: rows.length,
    numDeletes: 0,
    numUpdateWrites: 0,
    numInserts: 0,
    totalWriteBytes: bytes.length,
    fileSizeInBytes: bytes.length,
    totalLogFilesCompacted: op.deltaFilePaths.length,
    totalLogSizeCompacted: logSize,
    totalUpdatedRecordsCompacted: rows.length,
  };
}

/**
 * Drop a pending compaction plan (and any files a crashed run of it left): used when the writes it was
 * planned from are rolled back or restored away.
 */
export async function dropCompactionPlan(state: TableState, instant: string): Promise<void> {
  const { storage } = state;
  for (const f of await markedFiles(storage, instant)) await storage.delete(f);
  await deleteMarkers(storage, instant);
  const files = state.timeline.files.filter((f) => f.requestedTime === instant && f.action === 'compaction');
  // Inflight first, the plan last: a crash in between leaves a plan that is simply re-run or dropped again.
  for (const f of files.sort((a, b) => (a.state === 'REQUESTED' ? 1 : 0) - (b.state === 'REQUESTED' ? 1 : 0))) await storage.delete(state.instantPath(f));
}
