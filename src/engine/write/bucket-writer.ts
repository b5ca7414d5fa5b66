// Executes a write's buckets: copy-on-write buckets (and merge-on-read inserts) become new base files
// through the merge handle; merge-on-read updates and deletes become a new log file of the group's slice
// (the slice of a pending compaction when one is planned for the group).
import type { FileSystemView } from '../../file-group/file-system-view.js';
import { fileGroupKey, type FileSlice } from '../../file-group/file-slice.js';
import type { AvroRecordSchema } from '../../format/avro/schema.js';
import type { Bucket } from '../../plan/bucket-assignment.js';
import type { OrderingKind } from '../../schema/compare.js';
import { markerPath } from '../../layout.js';
import { mergeBucket } from './merge-handle.js';
import { cdcLoggingModeOf } from '../../config/cdc-config.js';
import type { BucketResult } from './write-stat.js';
import type { HoodieRecord } from '../../merge/hoodie-record.js';
import { appendLog, nextLogVersion } from './append-handle.js';
import type { TableState } from '../table-state.js';
import type { ResolvedWriteOptions } from './write-options.js';
import { ensurePartitionMetadata } from './write-schema.js';

export type { BucketResult };

/** Everything the buckets of one write share. */
export interface BucketWriteContext {
  state: TableState;
  view: FileSystemView;
  instantTime: string;
  buckets: readonly Bucket[];
  sliceOf: ReadonlyMap<string, FileSlice>;
  updates: ReadonlyMap<string, ReadonlyMap<string, HoodieRecord>>;
  /** Inserts routed to each bucket (by index). */
  inserts: readonly (readonly HoodieRecord[])[];
  /** Table schema with meta fields. */
  schema: AvroRecordSchema;
  orderingFields: readonly string[];
  orderingKinds: readonly OrderingKind[];
  options: ResolvedWriteOptions;
  /** Groups with a pending compaction → its instant. */
  pendingCompactions: ReadonlyMap<string, string>;
}

/**
 * Write every bucket; the bucket index is the task id in file names and seqnos. Without a worker pool the
 * buckets run one after another; with one, up to `pool.size` copy-on-write buckets merge in parallel (each
 * partition's metadata is still written before its first bucket). Results keep bucket order.
 */
export async function writeBuckets(ctx: BucketWriteContext): Promise<BucketResult[]> {
  const { state, options, instantTime } = ctx;
  const { storage, config } = state;
  const isMor = config.tableType === 'MERGE_ON_READ';
  const known = ctx.view.partitionPaths();
  const partitionsWritten = new Map<string, Promise<void>>();
  const allLogs = ctx.view.fileGroups().flatMap((g) => g.slices.flatMap((s) => s.logFiles));
  const pool = options.pool && options.pool.size > 0 ? options.pool : undefined;
  const total = ctx.buckets.length;
  let done = 0;

  const writeOne = async (taskId: number): Promise<BucketResult> => {
    const bucket = ctx.buckets[taskId] as Bucket;
    const key = fileGroupKey(bucket.partitionPath, bucket.fileId);
    let partitionReady = partitionsWritten.get(bucket.partitionPath);
    if (!partitionReady) {
      partitionReady = ensurePartitionMetadata(storage, known, bucket.partitionPath, instantTime);
      partitionsWritten.set(bucket.partitionPath, partitionReady);
    }
    await partitionReady;
    const slice = ctx.sliceOf.get(key);
    const groupUpdates = ctx.updates.get(key);
    if (isMor && slice && groupUpdates && groupUpdates.size > 0) {
      const pending = ctx.pendingCompactions.get(key);
      // v6 names a log after its slice's base instant (a pending compaction's for the slice it starts) and adds
      // a version; v8/v9 name every log after the deltacommit writing it, always version 1, baseFile "" and
      // only itself in logFiles (hudi-v9-write.md §3): the reader attaches it to a slice by completion time.
      const layout2 = config.timelineLayoutVersion === 2;
      const baseInstantTime = pending ?? slice.baseInstantTime;
      const previous = layout2 ? [] : allLogs.filter((l) => l.fileId === slice.fileId && l.partitionPath === slice.partitionPath && l.instantTime === baseInstantTime).map((l) => l.name).sort();
      return appendLog({
        storage,
        instantTime,
        taskId,
        partitionPath: bucket.partitionPath,
        fileId: bucket.fileId,
        baseInstantTime: layout2 ? instantTime : baseInstantTime,
        baseFileName: pending || layout2 ? '' : slice.baseFile?.name ?? '',
        version: layout2 ? 1 : nextLogVersion(allLogs.filter((l) => l.partitionPath === slice.partitionPath), slice.fileId, baseInstantTime),
        previousLogFiles: previous,
        records: [...groupUpdates.values()],
        schema: ctx.schema,
        beforeWrite: (path) => storage.write(markerPath(instantTime, path, 'APPEND'), new Uint8Array(0)),
      });
    }
    const base = bucket.kind === 'UPDATE' ? slice?.baseFile : undefined;
    return mergeBucket({
      storage,
      instantTime,
      taskId,
      partitionPath: bucket.partitionPath,
      fileId: bucket.fileId,
      base,
      updates: groupUpdates ?? new Map(),
      inserts: ctx.inserts[taskId] ?? [],
      schema: ctx.schema,
      mergeMode: config.recordMergeMode,
      orderingFields: ctx.orderingFields,
      orderingKinds: ctx.orderingKinds,
      writer: { codec: options.codec, rowGroupRows: options.rowGroupRows, bloomFilter: options.bloomFilter },
      beforeWrite: (path) => storage.write(markerPath(instantTime, path, base ? 'MERGE' : 'CREATE'), new Uint8Array(0)),
      collectKeys: options.index === 'IN_MEMORY',
      pool,
      cdc: cdcLoggingModeOf(config.properties),
    });
  };

  const results: BucketResult[] = [];
  if (!pool) {
    for (let taskId = 0; taskId < total; taskId++) {
      options.onProgress({ phase: 'write', done: taskId, total });
      results.push(await writeOne(taskId));
    }
  } else {
    // Up to pool.size buckets in flight. On a failure no new bucket starts, and the ones in flight finish
    // before the error propagates (the rollback must not race with their writes).
    options.onProgress({ phase: 'write', done: 0, total });
    let next = 0;
    let failure: { err: unknown } | undefined;
    const lane = async (): Promise<void> => {
      while (!failure && next < total) {
        const taskId = next++;
        try {
          results[taskId] = await writeOne(taskId);
          done++;
          if (done < total) options.onProgress({ phase: 'write', done, total });
        } catch (err) {
          failure ??= { err };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(pool.size, total) }, lane));
    if (failure) throw failure.err;
  }
  options.onProgress({ phase: 'write', done: total, total });
  return results;
}
