// The copy-on-write merge handle: writes one bucket of a write — rewrites a file group's latest base
// file row group by row group with updates merged in, deletes dropped and inserts appended, or starts a
// new file group. Untouched rows keep their commit time and seqno; every row gets the new file name.
import type { RecordMergeMode } from '../config/table-config.js';
import type { BaseFile } from '../file-group/file-slice.js';
import { baseFileName } from '../file-group/file-names.js';
import type { AvroRecordSchema } from '../format/avro/schema.js';
import { BaseFileWriter, type BaseFileWriterOptions } from '../format/base-file-writer.js';
import { readParquetFooter, readParquetRows } from '../format/parquet.js';
import { compareValues, type ComparableKind } from '../plan/filters.js';
import type { Storage } from '../storage/storage.js';
import type { WriteStatInput } from '../timeline/commit-metadata-writer.js';
import type { HoodieRecord } from './hoodie-record.js';
import { storageBuffer } from './storage-buffer.js';

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

/** Does the incoming record replace the stored one? (event-time ordering: greater or equal ordering wins) */
function incomingWins(input: MergeBucketInput, stored: Record<string, unknown>, incoming: HoodieRecord): boolean {
  if (input.mergeMode !== 'EVENT_TIME_ORDERING' || input.orderingFields.length === 0) return true;
  for (let i = 0; i < input.orderingFields.length; i++) {
    const k = input.orderingKinds[i] ?? { kind: 'string' as const, scale: 0 };
    const c = compareValues(k.kind, k.scale, incoming.ordering[i], stored[input.orderingFields[i] as string]);
    if (c === undefined) return true;
    if (c !== 0) return c > 0;
  }
  return true;
}

/** Write one bucket: merge into the existing base file (if any) and write the new base file. */
export async function mergeBucket(input: MergeBucketInput): Promise<MergeBucketResult> {
  const writeToken = `${input.taskId}-0-0`;
  const name = baseFileName(input.fileId, writeToken, input.instantTime);
  const path = input.partitionPath === '' ? name : `${input.partitionPath}/${name}`;
  const writer = new BaseFileWriter({ ...input.writer, schema: input.schema });
  const keys: string[] = [];
  let seq = 0;
  let inserted = 0;
  let updated = 0;
  let deleted = 0;
  const fresh = (r: HoodieRecord): Record<string, unknown> => ({
    _hoodie_commit_time: input.instantTime,
    _hoodie_commit_seqno: `${input.instantTime}_${input.taskId}_${seq++}`,
    _hoodie_record_key: r.recordKey,
    _hoodie_partition_path: input.partitionPath,
    _hoodie_file_name: name,
    ...r.data,
  });

  if (input.base) {
    const file = await storageBuffer(input.storage, input.base.path, input.base.size || undefined);
    const footer = await readParquetFooter(file, input.base.path);
    let start = 0;
    for (const count of footer.rowGroupRows) {
      const rows = await readParquetRows(file, footer, input.base.path, { rowStart: start, rowEnd: start + count });
      start += count;
      const out: Record<string, unknown>[] = [];
      for (const row of rows) {
        const key = String(row._hoodie_record_key);
        const incoming = input.updates.get(key);
        if (incoming?.isDelete && (incoming.ordering.length === 0 || incomingWins(input, row, incoming))) {
          deleted++;
          continue;
        }
        if (incoming && !incoming.isDelete && incomingWins(input, row, incoming)) {
          out.push(fresh(incoming));
          updated++;
        } else {
          row._hoodie_file_name = name;
          out.push(row);
        }
        if (input.collectKeys) keys.push(key);
      }
      writer.write(out);
    }
  }
  const inserts: Record<string, unknown>[] = [];
  for (const r of input.inserts) {
    inserts.push(fresh(r));
    if (input.collectKeys) keys.push(r.recordKey);
    inserted++;
  }
  writer.write(inserts);
  const bytes = writer.finish();
  await input.beforeWrite(path);
  await input.storage.write(path, bytes);
  return {
    stat: {
      fileId: input.fileId,
      path,
      partitionPath: input.partitionPath,
      prevCommit: input.base?.instantTime,
      numWrites: writer.rowCount,
      numDeletes: deleted,
      numUpdateWrites: updated,
      numInserts: inserted,
      totalWriteBytes: bytes.length,
      fileSizeInBytes: bytes.length,
    },
    inserted,
    updated,
    deleted,
    keys,
  };
}
