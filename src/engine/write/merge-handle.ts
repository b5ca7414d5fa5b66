// The copy-on-write merge handle: writes one bucket of a write — rewrites a file group's latest base
// file row group by row group with updates merged in, deletes dropped and inserts appended, or starts a
// new file group. Untouched rows keep their commit time and seqno; every row gets the new file name.
import type { RecordMergeMode } from '../../config/table-config.js';
import { microsToWire } from '../../schema/timestamp-micros.js';
import type { BaseFile } from '../../file-group/file-slice.js';
import { baseFileName } from '../../file-group/file-names.js';
import type { AvroRecordSchema } from '../../format/avro/schema.js';
import { BaseFileWriter, type BaseFileWriterOptions } from '../../format/parquet/write.js';
import { readParquetFooter, readParquetRows, type AsyncBuffer } from '../../format/parquet/read.js';
import { compareValues, type ComparableKind } from '../../expr/filter.js';
import type { Storage } from '../../storage/storage.js';
import type { WriteStatInput } from '../../timeline/commit-metadata-writer.js';
import type { WorkerPool } from '../../worker/pool.js';
import { ownBuffer, type MergeFileGroupSpec } from '../../worker/worker-api.js';
import type { HoodieRecord } from '../../merge/hoodie-record.js';
import { storageBuffer } from '../../storage/async-buffer.js';

/** Everything one bucket's write needs. */
export interface MergeBucketInput {
  storage: Storage;
  instantTime: string;
  /** Task partition id: goes into the write token and the seqnos. */
  taskId: number;
  partitionPath: string;
  fileId: string;
  /** The group's latest base file; undefined for a new file group. */
  base: BaseFile | undefined;
  /** Records for keys that live in this group: upserts and deletes. */
  updates: ReadonlyMap<string, HoodieRecord>;
  /** New records for this group. */
  inserts: readonly HoodieRecord[];
  /** The table schema with meta fields. */
  schema: AvroRecordSchema;
  mergeMode: RecordMergeMode;
  orderingFields: readonly string[];
  orderingKinds: readonly { kind: ComparableKind; scale: number }[];
  writer: Omit<BaseFileWriterOptions, 'schema'>;
  /** Called with the new file's path before it is written (markers). */
  beforeWrite: (path: string) => Promise<void>;
  /** Return the keys now in the file (the in-memory index needs them; others skip the cost). */
  collectKeys?: boolean;
  /**
   * Run the decode/merge/encode in this worker pool (the main thread only reads the old file and writes
   * the new one). Ignored when it has size 0 or the writer has compressor functions (they cannot cross).
   */
  pool?: WorkerPool | undefined;
}

/** What one bucket wrote. */
export interface MergeBucketResult {
  stat: WriteStatInput;
  inserted: number;
  updated: number;
  deleted: number;
  /** Keys now in the file, when `collectKeys` (for in-memory index upkeep). */
  keys: string[];
}

/** The merged base file of one file group, before it is written. */
export interface MergedFileGroup {
  bytes: Uint8Array;
  rowCount: number;
  inserted: number;
  updated: number;
  deleted: number;
  keys: string[];
}

/** Does the incoming record replace the stored one? (event-time ordering: greater or equal ordering wins) */
function incomingWins(spec: MergeFileGroupSpec, stored: Record<string, unknown>, incoming: HoodieRecord): boolean {
  if (spec.mergeMode !== 'EVENT_TIME_ORDERING' || spec.orderingFields.length === 0) return true;
  for (let i = 0; i < spec.orderingFields.length; i++) {
    const k = spec.orderingKinds[i] ?? { kind: 'string' as const, scale: 0 };
    const c = compareValues(k.kind, k.scale, incoming.ordering[i], stored[spec.orderingFields[i] as string]);
    if (c === undefined) return true;
    if (c !== 0) return c > 0;
  }
  return true;
}

/**
 * The pure part of a bucket write (no storage): merge the old base file (`file`, read row group by row group;
 * undefined for a new group) with the updates and inserts and encode the new base file. Runs in a worker
 * or inline; both give identical bytes.
 */
export async function mergeFileGroupRows(spec: MergeFileGroupSpec, file: AsyncBuffer | undefined, compressors?: BaseFileWriterOptions['compressors']): Promise<MergedFileGroup> {
  const name = spec.fileName;
  const writer = new BaseFileWriter({ ...spec.writer, ...(compressors ? { compressors } : {}), schema: spec.schema });
  const keys: string[] = [];
  let seq = 0;
  let inserted = 0;
  let updated = 0;
  let deleted = 0;
  const fresh = (r: HoodieRecord): Record<string, unknown> => ({
    _hoodie_commit_time: spec.instantTime,
    _hoodie_commit_seqno: `${spec.instantTime}_${spec.taskId}_${seq++}`,
    _hoodie_record_key: r.recordKey,
    _hoodie_partition_path: spec.partitionPath,
    _hoodie_file_name: name,
    ...r.data,
  });

  if (file) {
    const path = spec.basePath ?? name;
    const footer = await readParquetFooter(file, path);
    let start = 0;
    for (const count of footer.rowGroupRows) {
      const rows = await readParquetRows(file, footer, path, { rowStart: start, rowEnd: start + count });
      start += count;
      const out: Record<string, unknown>[] = [];
      for (const row of rows) {
        const key = String(row._hoodie_record_key);
        const incoming = spec.updates.get(key);
        if (incoming?.isDelete && (incoming.ordering.length === 0 || incomingWins(spec, row, incoming))) {
          deleted++;
          continue;
        }
        if (incoming && !incoming.isDelete && incomingWins(spec, row, incoming)) {
          out.push(fresh(incoming));
          updated++;
        } else {
          row._hoodie_file_name = name;
          out.push(row);
        }
        if (spec.collectKeys) keys.push(key);
      }
      writer.write(out);
    }
  }
  const inserts: Record<string, unknown>[] = [];
  for (const r of spec.inserts) {
    inserts.push(fresh(r));
    if (spec.collectKeys) keys.push(r.recordKey);
    inserted++;
  }
  writer.write(inserts);
  const bytes = writer.finish();
  return { bytes, rowCount: writer.rowCount, inserted, updated, deleted, keys };
}

/** Write one bucket: merge into the existing base file (if any) and write the new base file. */
export async function mergeBucket(input: MergeBucketInput): Promise<MergeBucketResult> {
  const writeToken = `${input.taskId}-0-0`;
  const name = baseFileName(input.fileId, writeToken, input.instantTime);
  const path = input.partitionPath === '' ? name : `${input.partitionPath}/${name}`;
  const { compressors, ...wire } = input.writer;
  const spec: MergeFileGroupSpec = {
    instantTime: input.instantTime,
    taskId: input.taskId,
    partitionPath: input.partitionPath,
    fileName: name,
    ...(input.base ? { basePath: input.base.path } : {}),
    updates: input.updates,
    inserts: input.inserts,
    schema: input.schema,
    mergeMode: input.mergeMode,
    orderingFields: input.orderingFields,
    orderingKinds: input.orderingKinds,
    writer: wire,
    collectKeys: input.collectKeys ?? false,
  };
  let merged: MergedFileGroup;
  const pool = input.pool && input.pool.size > 0 && !compressors ? input.pool : undefined;
  if (pool) {
    // Main thread: read the old file whole and hand it over; the worker decodes, merges and encodes.
    const base = input.base ? ownBuffer(await input.storage.read(input.base.path)) : undefined;
    // Microsecond timestamps cross as markers: a cloned MicrosDate would arrive without its microseconds.
    const r = await pool.run('mergeFileGroup', { ...microsToWire(spec), ...(base ? { base } : {}) }, base ? [base] : []);
    merged = { ...r, bytes: new Uint8Array(r.bytes) };
  } else {
    const file = input.base ? await storageBuffer(input.storage, input.base.path, input.base.size || undefined) : undefined;
    merged = await mergeFileGroupRows(spec, file, compressors);
  }
  const { bytes } = merged;
  await input.beforeWrite(path);
  await input.storage.write(path, bytes);
  return {
    stat: {
      fileId: input.fileId,
      path,
      partitionPath: input.partitionPath,
      prevCommit: input.base?.instantTime,
      numWrites: merged.rowCount,
      numDeletes: merged.deleted,
      numUpdateWrites: merged.updated,
      numInserts: merged.inserted,
      totalWriteBytes: bytes.length,
      fileSizeInBytes: bytes.length,
    },
    inserted: merged.inserted,
    updated: merged.updated,
    deleted: merged.deleted,
    keys: merged.keys,
  };
}
