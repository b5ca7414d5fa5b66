// The write pipeline of copy-on-write tables (DESIGN.md §3): roll back failed writes, build and dedupe
// records, tag them with the index, profile and bucket the workload, merge each bucket into a new base
// file, and commit (replacecommit for overwrites). A failure after the commit started is rolled back.
import { avroSchemaJson } from '../../format/avro/schema.js';
import { LakeletError, isLakeletError } from '../../errors.js';
import type { TableConfig } from '../../config/table-config.js';
import { fileGroupKey, type FileSlice } from '../../file-group/file-slice.js';
import { withMetaFields } from '../../schema/table-schema.js';
import { orderingSpec } from '../../merge/ordering.js';
import { DEDUPE_KERNEL_MIN_RECORDS, dedupeRecords } from '../../merge/dedupe.js';
import { SORT_KERNEL_MIN_RECORDS, sortByPartitionAndKey } from '../../merge/sort-records.js';
import { mainThreadKernels } from '../kernels.js';
import { isGlobalIndex } from '../../index/index-type.js';
import { planWorkload } from '../../plan/workload.js';
import { serializeCommitMetadata, serializeWorkloadProfile, type WriteStatInput } from '../../timeline/commit-metadata-writer.js';
import type { Action } from '../../timeline/instant.js';
import { serializeRequestedReplaceMetadata } from '../../timeline/replace-metadata.js';
import { completeWrite, markInflight, startWrite, writeTransition, type InflightWrite } from '../commit/commit-protocol.js';
import { heartbeatExpired } from '../commit/heartbeat.js';
import { discardAttempt, recordingStorage } from './written-files.js';
import { pendingCompactionGroups, writeBuckets, type BucketResult } from './bucket-writer.js';
import type { HoodieRecord } from '../../merge/hoodie-record.js';
import { createIndex } from './index-factory.js';
import type { InMemoryIndex } from './in-memory-index.js';
import { rollbackFailedWrites } from '../services/rollback.js';
import { dropInterruptedSavepoints } from '../services/savepoint.js';
import { finishPendingRestores } from '../services/restore.js';
import { TableState } from '../table-state.js';
import type { EngineContext } from '../context.js';
import { checkTableMaintainable } from '../table-support.js';
import type { ResolvedWriteOptions, WriteOptions } from './write-options.js';
import { buildRecords, collectRows, type WriteInput } from './records.js';
import { prepareSchema } from './write-schema.js';
import { runTableServices, type WriteWarning } from '../services/post-commit.js';

/** Hudi's write operation types. */
export type WriteOperation = 'UPSERT' | 'INSERT' | 'BULK_INSERT' | 'DELETE' | 'INSERT_OVERWRITE' | 'INSERT_OVERWRITE_TABLE' | 'DELETE_PARTITION';

/** What a write did. The write is committed: every field describes a completed instant. */
export interface WriteResult {
  /** The commit's instant time. */
  instant: string;
  operation: WriteOperation;
  stats: { inserted: number; updated: number; deleted: number; filesWritten: number; bytesWritten: number; partitions: string[]; replacedFileGroups: number };
  /**
   * Post-commit steps (inline compaction, clean, archival, record-index update) that failed after the commit:
   * the write itself succeeded and must not be retried. Empty when every step succeeded.
   */
  warnings: WriteWarning[];
}

/** What one write call asks for. */
export interface WriteRequest {
  operation: WriteOperation;
  input?: WriteInput;
  /** DELETE: record keys (strings) instead of rows. */
  keys?: readonly string[];
  /** INSERT_OVERWRITE / DELETE_PARTITION: the partitions to replace. */
  partitions?: readonly string[];
  /** Options of this write, over the table-level ones of the engine context. */
  options?: WriteOptions;
  /** The IN_MEMORY index the table keeps between writes (its key map is updated in place). */
  inMemoryIndex?: InMemoryIndex;
  now?: Date;
}

const REPLACE_OPS = new Set<WriteOperation>(['INSERT_OVERWRITE', 'INSERT_OVERWRITE_TABLE', 'DELETE_PARTITION']);

/**
 * Run one write against the table of `ctx`. It resolves once the completed instant exists, even when a
 * post-commit service then fails (that failure is a warning on the result); it rejects only when the write
 * did not commit, and then leaves nothing behind (or a pending instant the next writer rolls back). A table
 * lakelet cannot maintain → `UNSUPPORTED` before anything is written.
 */
export async function write(ctx: EngineContext, request: WriteRequest): Promise<WriteResult> {
  const { options, release } = ctx.writeOptions(request.options);
  try {
    const input = request.input === undefined ? [] : await collectRows(request.input);
    const { result, tableType } = await commitWithRetries(ctx, request, options, input);
    // Committed. Services run once, outside the conflict retry: nothing from here on can fail the write.
    result.warnings.push(...(await runTableServices(ctx, tableType, options)));
    return result;
  } finally {
    await release();
  }
}

/** The write's attempts: one, plus one per lost conflict while `retryOnConflict` allows. */
async function commitWithRetries(ctx: EngineContext, request: WriteRequest, options: ResolvedWriteOptions, input: Record<string, unknown>[]): Promise<{ result: WriteResult; tableType: string }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await writeOnce(ctx, request, options, input);
    } catch (err) {
      ctx.invalidate(); // the attempt may have changed the timeline (its instant, a rollback) before it failed
      // Lost a conflict with a concurrent writer: this attempt left no trace; start over if allowed.
      if (!isLakeletError(err, 'CONFLICT') || attempt >= options.retryOnConflict) throw err;
    }
  }
}

async function writeOnce(ctx: EngineContext, request: WriteRequest, options: ResolvedWriteOptions, input: Record<string, unknown>[]): Promise<{ result: WriteResult; tableType: string }> {
  const { storage } = ctx;
  // A write always starts from the table as it is now; the start-up steps share that state, listed again only
  // when one of them changed the timeline.
  let loaded = await ctx.load();
  await checkTableMaintainable(loaded, 'write');
  if ((await finishPendingRestores(loaded, request.now ? { now: request.now } : {})).length > 0) loaded = await ctx.reload();
  if ((await dropInterruptedSavepoints(loaded)) > 0) loaded = await ctx.reload();
  if ((await rollbackFailedWrites(loaded, request.now, options.heartbeatTimeoutMs, options.clock)).length > 0) loaded = await ctx.reload();
  // Every call of the attempt goes through a recorder: if it does not commit, it deletes what it wrote.
  const recorder = recordingStorage(storage);
  const state = new TableState(recorder.storage, loaded.config, loaded.timeline);
  const { config } = state;
  if (!config.populateMetaFields) throw new LakeletError('UNSUPPORTED', 'write: tables without meta fields (hoodie.populate.meta.fields=false) cannot be written yet', { field: 'hoodie.populate.meta.fields' });
  const op = request.operation;
  options.onProgress({ phase: 'prepare', done: 0, total: 0 });

  // 1. Records (validated before anything is written: bad input leaves the table untouched).
  let rows = input;
  const { schema, keyGenerator, schemaChanged } = await prepareSchema(state, op === 'DELETE' ? [] : rows, options);
  const { orderingFields, orderingKinds } = orderingSpec(config.orderingFields, schema);
  let records: HoodieRecord[];
  if (op === 'DELETE') {
    records = request.keys
      ? request.keys.map((k, index) => deleteByKey(k, index))
      : rows.map((raw, index) => deleteByRow(raw, index, keyGenerator));
  } else {
    records = await buildRecords(rows, { schema, keyGenerator, orderingFields });
  }
  rows = []; // the validated records are all that is needed from here on
  const global = isGlobalIndex(options.index);
  const dedupe = op === 'UPSERT' ? options.combineBeforeUpsert : op === 'INSERT' ? options.combineBeforeInsert : op === 'DELETE';
  // Kernels are loaded only for a batch large enough to use them.
  if (dedupe) records = dedupeRecords(records, global, orderingKinds, records.length >= DEDUPE_KERNEL_MIN_RECORDS ? await mainThreadKernels(options.kernels) : undefined);
  options.onProgress({ phase: 'prepare', done: records.length, total: records.length });

  for (const p of request.partitions ?? []) checkPartitionPath(config, p);

  // 2. Start the commit.
  const isReplace = REPLACE_OPS.has(op);
  const action: Action = isReplace ? 'replacecommit' : config.tableType === 'MERGE_ON_READ' ? 'deltacommit' : 'commit';
  const inflight = await startWrite(state, action, isReplace ? serializeRequestedReplaceMetadata({}) : new Uint8Array(0), request.now, options.clock, options.heartbeatTimeoutMs);
  let result: WriteResult;
  try {
    result = await execute(state, inflight, op, records, request, options, { schema, orderingFields, orderingKinds, global });
  } catch (err) {
    // Undo what this write left behind (it never completed); if that fails too, the next writer rolls it back.
    await discardAttempt(storage, inflight, recorder.written).catch(() => undefined);
    throw err;
  }
  ctx.invalidate(); // committed: the timeline has a new instant
  if (schemaChanged) {
    await schemaChanged(); // only a committed write gives the table its create schema
    ctx.invalidate({ config: true });
  }
  return { result, tableType: config.tableType };
}

function deleteByKey(key: string, index: number): HoodieRecord {
  if (typeof key !== 'string' || key === '') throw new LakeletError('INVALID_ARGUMENT', `delete: key ${index} is empty or not a string`, { row: index, value: key });
  return { recordKey: key, partitionPath: '', data: {}, ordering: [], isDelete: true, index };
}

function deleteByRow(raw: Record<string, unknown>, index: number, keyGenerator: { recordKey(r: Record<string, unknown>): string; partitionPath(r: Record<string, unknown>): string }): HoodieRecord {
  try {
    return { recordKey: keyGenerator.recordKey(raw), partitionPath: keyGenerator.partitionPath(raw), data: {}, ordering: [], isDelete: true, index };
  } catch (err) {
    if (err instanceof LakeletError) throw new LakeletError(err.code, `row ${index}: ${err.message}`, { ...err.context, row: index }, { cause: err });
    throw err;
  }
}

interface SchemaInfo {
  schema: import('../../format/avro/schema.js').AvroRecordSchema;
  orderingFields: string[];
  orderingKinds: import('../../schema/compare.js').OrderingKind[];
  global: boolean;
}

async function execute(state: TableState, inflight: InflightWrite, op: WriteOperation, records: HoodieRecord[], request: WriteRequest, options: ResolvedWriteOptions, info: SchemaInfo): Promise<WriteResult> {
  const { storage, config } = state;
  const view = await state.fileSystemView();
  const slices = view.latestSlices();
  const sliceOf = new Map<string, FileSlice>(slices.map((s) => [fileGroupKey(s.partitionPath, s.fileId), s]));

  // 3. Tag: where do the incoming keys live now? (Only upserts and deletes look; everything else is an insert.)
  const index = createIndex(options.index, request.inMemoryIndex);
  const { updates, inserts } = await index.tag({ state, operation: op, records, byKey: request.keys !== undefined, slices, sliceOf, merge: info, options });
  if (op === 'BULK_INSERT') sortByPartitionAndKey(inserts, inserts.length >= SORT_KERNEL_MIN_RECORDS ? await mainThreadKernels(options.kernels) : undefined);
  const replaced = REPLACE_OPS.has(op) ? replacedGroups(op, slices, records, request.partitions) : new Map<string, string[]>();

  // 4. Profile and bucket.
  const pendingCompactions = config.tableType === 'MERGE_ON_READ' ? await pendingCompactionGroups(state) : new Map<string, string>();
  const sizing = { ...options, recordSizeEstimate: await averageRecordSize(state, options.smallFileLimit, options.recordSizeEstimate) };
  const plan = planWorkload({ operation: op, tableType: config.tableType, slices, updates, inserts, pendingCompactions, sizing, newFileId: () => `${crypto.randomUUID()}-0` });
  const routedInserts = plan.insertsByBucket;
  await markInflight(state, inflight, serializeWorkloadProfile(plan.profile));

  // 5. Write: a new base file per bucket (merge-on-read: updates of existing groups go to log files).
  const results = await writeBuckets({
    state,
    view,
    instantTime: inflight.instantTime,
    buckets: plan.buckets,
    sliceOf,
    updates,
    inserts: routedInserts,
    schema: withMetaFields(info.schema),
    orderingFields: info.orderingFields,
    orderingKinds: info.orderingKinds,
    options,
    pendingCompactions,
  });

  // 6. Commit.
  options.onProgress({ phase: 'commit', done: 0, total: 1 });
  const partitionToWriteStats = new Map<string, WriteStatInput[]>();
  for (const r of results) partitionToWriteStats.set(r.stat.partitionPath, [...(partitionToWriteStats.get(r.stat.partitionPath) ?? []), r.stat]);
  if (op === 'DELETE_PARTITION') for (const p of replaced.keys()) if (!partitionToWriteStats.has(p)) partitionToWriteStats.set(p, []);
  const metadata = serializeCommitMetadata({
    partitionToWriteStats,
    partitionToReplaceFileIds: REPLACE_OPS.has(op) ? replaced : undefined,
    compacted: false,
    extraMetadata: { schema: avroSchemaJson(info.schema) },
    operationType: op,
  });
  const touched = new Set<string>([...plan.buckets.map((b) => fileGroupKey(b.partitionPath, b.fileId))]);
  for (const [p, ids] of replaced) for (const id of ids) touched.add(fileGroupKey(p, id));
  // A writer whose heartbeat went silent past the timeout (a stalled process, a frozen tab) may have been
  // taken for failed and rolled back: as Hudi, it does not commit then.
  if (options.heartbeatTimeoutMs > 0 && (await heartbeatExpired(storage, inflight.instantTime, options.heartbeatTimeoutMs, options.clock))) {
    throw new LakeletError('ABORTED', `commit: the heartbeat of instant ${inflight.instantTime} was silent for more than ${options.heartbeatTimeoutMs} ms (the writer stalled), so other writers may have rolled it back; nothing of it was committed`, { instant: inflight.instantTime });
  }
  try {
    await completeWrite(storage, state, inflight, metadata, touched, options.heartbeatTimeoutMs);
  } catch (err) {
    // The completed file may have landed with its acknowledgement lost: then the write has succeeded.
    if (!(await completedFileExists(state, inflight))) throw err;
    await inflight.heartbeat.stop().catch(() => undefined);
  }
  // The commit is visible: index upkeep that fails is a warning (the next write catches the index up).
  const warnings = await index.update({ state, instantTime: inflight.instantTime, replacing: REPLACE_OPS.has(op), updates, buckets: plan.buckets, insertsByBucket: routedInserts, replaced, results, sliceOf, merge: info, options });
  options.onProgress({ phase: 'commit', done: 1, total: 1 });

  const sum = (f: (r: BucketResult) => number) => results.reduce((a, r) => a + f(r), 0);
  return {
    instant: inflight.instantTime,
    operation: op,
    stats: {
      inserted: sum((r) => r.inserted),
      updated: sum((r) => r.updated),
      deleted: sum((r) => r.deleted),
      filesWritten: results.length,
      bytesWritten: sum((r) => r.stat.totalWriteBytes),
      partitions: [...new Set(results.map((r) => r.stat.partitionPath))].sort(),
      replacedFileGroups: [...replaced.values()].reduce((a, ids) => a + ids.length, 0),
    },
    warnings,
  };
}

/** Does this write's completed instant file exist? (Only this writer creates it: its instant is its own.) */
async function completedFileExists(state: TableState, inflight: InflightWrite): Promise<boolean> {
  try {
    await state.storage.head(writeTransition(state.storage, state, inflight).path('COMPLETED'));
    return true;
  } catch {
    return false;
  }
}

/** A partition path given by the caller must fit the table's partitioning (`INVALID_ARGUMENT` otherwise). */
function checkPartitionPath(config: TableConfig, path: string): void {
  const fields = config.partitionFields;
  const segments = path === '' ? [] : path.split('/');
  const ok = segments.length === fields.length && segments.every((seg, i) => seg !== '' && seg !== '.' && seg !== '..' && (!config.hiveStylePartitioning || seg.startsWith(`${fields[i]}=`)));
  if (!ok) {
    const shape = fields.length === 0 ? "'' (the table is not partitioned)" : fields.map((f) => (config.hiveStylePartitioning ? `${f}=<value>` : `<${f}>`)).join('/');
    throw new LakeletError('INVALID_ARGUMENT', `write: partition path ${JSON.stringify(path)} does not fit the table's partitioning ${shape}`, { value: path });
  }
}

/** Live file groups an overwrite replaces, per partition. */
function replacedGroups(op: WriteOperation, slices: readonly FileSlice[], records: readonly HoodieRecord[], partitions: readonly string[] | undefined): Map<string, string[]> {
  const targets = op === 'INSERT_OVERWRITE_TABLE'
    ? undefined
    : new Set(partitions ?? records.map((r) => r.partitionPath));
  const out = new Map<string, string[]>();
  for (const p of targets ?? []) out.set(p, []);
  for (const s of slices) {
    if (targets && !targets.has(s.partitionPath)) continue;
    out.set(s.partitionPath, [...(out.get(s.partitionPath) ?? []), s.fileId]);
  }
  return out;
}

/**
 * Bytes per record from the latest commit that wrote more than the small-file limit (as Hudi estimates
 * it; smaller commits are dominated by footers and bloom filters), else the configured estimate.
 */
async function averageRecordSize(state: TableState, smallFileLimit: number, fallback: number): Promise<number> {
  const writes = state.timeline.completedWrites();
  for (let i = writes.length - 1; i >= 0 && i >= writes.length - 10; i--) {
    const md = await state.commitMetadata(writes[i]!);
    let bytes = 0;
    let records = 0;
    for (const stats of Object.values(md.partitionToWriteStats)) for (const s of stats) { bytes += s.totalWriteBytes; records += s.numWrites; }
    if (records > 0 && bytes > smallFileLimit) return Math.max(1, Math.ceil(bytes / records));
  }
  return fallback;
}
