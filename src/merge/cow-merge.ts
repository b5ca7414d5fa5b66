// The copy-on-write merge of one file group, pure (bytes in, bytes out): the old base file read row group by
// row group with updates merged in, deletes dropped and inserts appended, encoded as the new base file. Runs
// inline or inside a worker (worker/worker-impl.ts); both give identical bytes.
import type { RecordMergeMode } from '../config/table-config.js';
import type { AvroRecordSchema } from '../format/avro/schema.js';
import { BaseFileWriter, type BaseFileWriterOptions } from '../format/parquet/write.js';
import { readParquetFooter, readParquetRows, type AsyncBuffer } from '../format/parquet/read.js';
import type { HoodieRecord } from './hoodie-record.js';
import { newerWins, usesEventTime, type OrderingSpec } from './ordering.js';

/** Base-file writer settings that can cross a worker boundary (no compressor functions). */
export interface WireWriterOptions {
  codec?: 'GZIP' | 'SNAPPY' | 'ZSTD' | 'UNCOMPRESSED';
  rowGroupRows?: number;
  bloomFilter?: { numEntries?: number; fpp?: number; maxEntries?: number; type?: 'DYNAMIC_V0' | 'SIMPLE' } | false;
  populateMetaFields?: boolean;
}

/** Everything the copy-on-write merge of one file group needs, as plain data (see {@link mergeFileGroupRows}). */
export interface MergeFileGroupSpec extends OrderingSpec {
  instantTime: string;
  /** Task id: goes into seqnos. */
  taskId: number;
  partitionPath: string;
  /** Name of the new base file (every row's `_hoodie_file_name`). */
  fileName: string;
  /** Path of the old base file, for error context; undefined for a new file group. */
  basePath?: string;
  /** Records for keys that live in this group: upserts and deletes. */
  updates: ReadonlyMap<string, HoodieRecord>;
  /** New records for this group. */
  inserts: readonly HoodieRecord[];
  /**
   * Rows already merged (a compacted file slice, meta fields included): written after the base file's rows as
   * they are, keeping their commit time and seqno; only `_hoodie_file_name` becomes the new file's name.
   */
  mergedRows?: Record<string, unknown>[];
  /** The table schema with meta fields. */
  schema: AvroRecordSchema;
  mergeMode: RecordMergeMode;
  writer: WireWriterOptions;
  /** Return the keys now in the file. */
  collectKeys: boolean;
}

/** The merged base file of one file group, before it is written. */
export interface MergedFileGroup {
  bytes: Uint8Array;
  rowCount: number;
  inserted: number;
  updated: number;
  deleted: number;
  /** Keys now in the file, when `collectKeys` (else empty). */
  keys: string[];
}

/**
 * Merge the old base file (`file`, read row group by row group; undefined for a new group) with the updates
 * and inserts and encode the new base file. Untouched rows keep their commit time and seqno; updated and
 * inserted rows get the new instant's; every row gets the new file name.
 */
export async function mergeFileGroupRows(spec: MergeFileGroupSpec, file: AsyncBuffer | undefined, compressors?: BaseFileWriterOptions['compressors']): Promise<MergedFileGroup> {
  const name = spec.fileName;
  const writer = new BaseFileWriter({ ...spec.writer, ...(compressors ? { compressors } : {}), schema: spec.schema });
  const eventTime = usesEventTime(spec.mergeMode, spec);
  // Event-time ordering: the incoming record replaces the stored one unless its ordering value is smaller.
  const incomingWins = (stored: Record<string, unknown>, incoming: HoodieRecord): boolean =>
    !eventTime || newerWins(spec.orderingKinds, incoming.ordering, spec.orderingFields.map((f) => stored[f]));
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
        // A delete without an ordering value (delete(), a partition move) applies by arrival.
        if (incoming?.isDelete && (incoming.ordering.length === 0 || incomingWins(row, incoming))) {
          deleted++;
          continue;
        }
        if (incoming && !incoming.isDelete && incomingWins(row, incoming)) {
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
  if (spec.mergedRows) {
    for (const row of spec.mergedRows) {
      row._hoodie_file_name = name;
      if (spec.collectKeys) keys.push(String(row._hoodie_record_key));
    }
    writer.write(spec.mergedRows);
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
