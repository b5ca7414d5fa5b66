// The write pipeline (DESIGN.md §3), for copy-on-write and merge-on-read tables alike: one call per Hudi step —
// start (roll back failed writes), build records, dedupe, tag, profile and bucket, merge, commit — then the
// index upkeep and the post-commit services. An attempt that does not commit removes what it wrote.
import { fileGroupKey, type FileSlice } from '../../file-group/file-slice.js';
import { replacedFileGroups } from '../../index/tagging.js';
import type { HoodieRecord } from '../../merge/hoodie-record.js';
// Static, not lazy: as a lazy chunk the runner made the bundler split the write path into more chunks, which
// weighed more than the runner (test/bundle-size.test.ts).
import { runPreCommitValidators } from '../validators/validator.js';
import { withMetaFields } from '../../schema/table-schema.js';
import { isLakeletError } from '../../errors.js';
import type { EngineContext } from '../context.js';
import { runTableServices, type WriteWarning } from '../services/post-commit.js';
import { writeBuckets } from './bucket-writer.js';
import { commitWrite, writeResult, type WriteCommit, type WriteResult } from './commit-write.js';
import type { InMemoryIndex } from './in-memory-index.js';
import { createIndex } from './index-factory.js';
import { dedupesRecords, isReplaceOperation, type WriteOperation } from './operation.js';
import { profileAndBucket, touchedFileGroups } from './profile.js';
import { collectRows, dedupeWriteRecords, prepareRecords, type WriteInput } from './records.js';
import { prepareTable, startCommit } from './start.js';
import type { ResolvedWriteOptions, WriteOptions } from './write-options.js';
import { discardAttempt } from './written-files.js';
import { hasMetadataTable, metadataRecordIndexChanges } from './metadata-commit.js';
import { METADATA_MAINTAINED_OPERATIONS, type MaintenanceOperation } from '../table-support.js';

export type { WriteOperation, WriteResult };

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
    const { result, tableType, metadataTable } = await commitWithRetries(ctx, request, options, input);
    // Committed. Services run once, outside the conflict retry: nothing from here on can fail the write.
    result.warnings.push(...(await runTableServices(ctx, tableType, metadataTable ? servicesKeepingMetadata(options) : options)));
    // Then Hudi's HTTP commit callback (commitCallback option), bounded by its timeout; a failure is a warning.
    if (options.commitCallback) result.warnings.push(...(await (await import('../commit/write-callback.js')).runCommitCallback(ctx, result.instant, options)));
    return result;
  } finally {
    await release();
  }
}

/** The write's attempts: one, plus one per lost conflict while `retryOnConflict` allows. */
async function commitWithRetries(ctx: EngineContext, request: WriteRequest, options: ResolvedWriteOptions, input: Record<string, unknown>[]): Promise<WriteOutcome> {
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

/** A committed write: its result, the table type and whether the table keeps a metadata table. */
interface WriteOutcome {
  result: WriteResult;
  tableType: string;
  metadataTable: boolean;
}

/**
 * On a table with a metadata table, the post-commit services whose MDT side has not landed
 * (METADATA_MAINTAINED_OPERATIONS) are off: running them would leave the MDT stale.
 */
function servicesKeepingMetadata(options: ResolvedWriteOptions): ResolvedWriteOptions {
  const on = (op: MaintenanceOperation) => METADATA_MAINTAINED_OPERATIONS.has(op);
  return {
    ...options,
    compaction: { ...options.compaction, inline: options.compaction.inline && on('compact') },
    clean: { ...options.clean, automatic: options.clean.automatic && on('clean') },
    archive: { ...options.archive, automatic: options.archive.automatic && on('archive') },
  };
}

async function writeOnce(ctx: EngineContext, request: WriteRequest, options: ResolvedWriteOptions, input: Record<string, unknown>[]): Promise<WriteOutcome> {
  const op = request.operation;
  // A pool that will take this write's tasks (every task, or in Node's default pool a batch of its task size)
  // starts its workers now, so their start overlaps steps 1-3 instead of delaying the first tag or merge task.
  if (options.pool && input.length >= (options.poolInlineBelow?.records ?? 0)) options.pool.warm();
  // 1. The table as it is now, failed writes rolled back.
  const { state, written } = await prepareTable(ctx, options, request.now);
  options.onProgress({ phase: 'prepare', done: 0, total: 0 });
  // 2. Records, validated before anything is written (bad input leaves the table untouched).
  const prepared = await prepareRecords(state, request, input, options);
  // 3. Dedupe.
  const records = dedupesRecords(op, options) ? await dedupeWriteRecords(prepared.records, prepared.merge, options) : prepared.records;
  options.onProgress({ phase: 'prepare', done: records.length, total: records.length });

  const inflight = await startCommit(state, op, options, request.now);
  let committed: { commit: WriteCommit; updateIndex: () => Promise<WriteWarning[]> };
  try {
    const view = await state.fileSystemView();
    const slices = view.latestSlices();
    const sliceOf = new Map<string, FileSlice>(slices.map((s) => [fileGroupKey(s.partitionPath, s.fileId), s]));
    // 4. Tag: where do the incoming keys live now? (Only upserts and deletes look; the rest are inserts.)
    const index = createIndex(options.index, request.inMemoryIndex);
    const tagged = await index.tag({ state, operation: op, records, byKey: request.keys !== undefined, slices, sliceOf, merge: prepared.merge, options });
    const replaced = isReplaceOperation(op) ? replacedFileGroups(op === 'INSERT_OVERWRITE_TABLE' ? 'table' : 'partitions', slices, records, request.partitions) : new Map<string, string[]>();
    // 5. Profile and bucket; the profile goes into the inflight file.
    const { plan, pendingCompactions } = await profileAndBucket(state, inflight, op, tagged, slices, options, replaced);
    // 6. Merge: a new base file per bucket (merge-on-read: updates of existing groups go to log files).
    const results = await writeBuckets({
      state, view, instantTime: inflight.instantTime, buckets: plan.buckets, sliceOf, updates: tagged.updates, inserts: plan.insertsByBucket,
      schema: withMetaFields(prepared.merge.schema), orderingFields: prepared.merge.orderingFields, orderingKinds: prepared.merge.orderingKinds, options, pendingCompactions,
    });
    // 7. Commit.
    options.onProgress({ phase: 'commit', done: 0, total: 1 });
    const commit: WriteCommit = { operation: op, results, replaced, touched: touchedFileGroups(plan, replaced), schema: prepared.merge.schema };
    // Pre-commit validators (Hudi's hoodie.precommit.validators): a failure is ABORTED, rolled back below.
    if (options.validators.length > 0) {
      // unique() asks the write's own index where a batch's keys live (an upsert's tag, without progress).
      const quiet = { ...options, onProgress: () => undefined };
      const lookup = (rs: readonly HoodieRecord[]) => index.tag({ state, operation: 'UPSERT', records: rs, byKey: false, slices, sliceOf, merge: prepared.merge, options: quiet });
      await runPreCommitValidators(options.validators, { state, inflight, commit, records, options, lookup });
    }
    // What this write placed where: the metadata table's record index and the write's own index update from it.
    const placed = { state, instantTime: inflight.instantTime, replacing: isReplaceOperation(op), updates: tagged.updates, buckets: plan.buckets, insertsByBucket: plan.insertsByBucket, replaced, results, sliceOf, merge: prepared.merge, options };
    if (hasMetadataTable(state)) commit.recordIndexChanges = () => metadataRecordIndexChanges(placed);
    await commitWrite(state, inflight, commit, options);
    committed = { commit, updateIndex: () => index.update(placed) };
  } catch (err) {
    // Undo what this write left behind (it never completed); if that fails too, the next writer rolls it back.
    await discardAttempt(ctx.storage, inflight, written).catch(() => undefined);
    throw err;
  }
  // Committed: from here on nothing fails the write. Index upkeep that fails is a warning (the next write
  // catches the index up), and so is a progress callback that throws.
  const warnings = await committed.updateIndex();
  try {
    options.onProgress({ phase: 'commit', done: 1, total: 1 });
  } catch {
    // the caller's progress callback cannot undo a commit
  }
  await afterCommit(ctx, prepared.schemaChanged);
  return { result: writeResult(inflight.instantTime, committed.commit, warnings), tableType: state.config.tableType, metadataTable: hasMetadataTable(state) };
}

/** The snapshot is stale (a new instant); a table created without a schema gets its create schema now. */
async function afterCommit(ctx: EngineContext, schemaChanged: (() => Promise<void>) | undefined): Promise<void> {
  ctx.invalidate();
  if (!schemaChanged) return;
  await schemaChanged(); // only a committed write gives the table its create schema; it never throws
  ctx.invalidate({ config: true });
}
