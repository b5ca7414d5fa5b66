// The copy-on-write merge of one file group, pure (bytes in, bytes out): the old base file read row group by
// row group as column vectors, with updates merged in and deletes dropped by a take-vector (take.ts), inserts
// appended, encoded column by column as the new base file. Runs inline or inside a worker
// (worker/worker-impl.ts); both give identical bytes.
import type { RecordMergeMode } from '../config/table-config.js';
import type { AvroRecordSchema } from '../format/avro/schema.js';
import { BaseFileWriter, type BaseFileWriterOptions } from '../format/parquet/write.js';
import { readParquetFooter, type AsyncBuffer, type ParquetFooter } from '../format/parquet/read.js';
import { flatLeafElements, readParquetColumns } from '../format/parquet/read-columns.js';
import { physicalSignature } from '../format/parquet/physical-vector.js';
import type { ColumnBatch } from '../format/parquet/column-batch.js';
import type { HoodieRecord } from './hoodie-record.js';
import { newerWins, usesEventTime, type OrderingSpec } from './ordering.js';
import { FILE_NAME, freshBatch, RECORD_KEY, type FreshMeta } from './fresh-columns.js';
import { planTake, rowsBatch, takeBatch, type TakeRules } from './take.js';
import { footerSchema, schemaPromoter } from '../schema/promotion.js';

/**
 * The old file's columns that move to the new file as stored bytes (physical-vector.ts): flat string and decimal
 * columns whose stored form is the one the writer makes (same signature). The record key and the ordering fields
 * are read as values, since the merge compares them; `_hoodie_file_name` is rewritten anyway.
 */
export function physicalColumns(footer: ParquetFooter, writer: BaseFileWriter, columns: readonly string[], compared: readonly string[]): Set<string> {
  const elements = flatLeafElements(footer);
  const out = new Set<string>();
  for (const c of columns) {
    if (c === RECORD_KEY || c === FILE_NAME || compared.includes(c)) continue;
    const el = elements.get(c);
    const signature = el && physicalSignature(el);
    if (signature !== undefined && signature === writer.physicalLeaf(c)?.signature) out.add(c);
  }
  return out;
}

/** Inserted records turned into column vectors at a time. */
const INSERT_SLICE = 8192;

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
 * Merge the old base file (`file`, read row group by row group as column vectors; undefined for a new group) with
 * the updates and inserts and encode the new base file. Per old row group a take-vector (merge/take.ts) keeps,
 * replaces or drops each row and the output is built column by column, so untouched rows never become row
 * objects: they keep their commit time and seqno; updated and inserted rows get the new instant's (seqnos
 * numbered in output order); every row gets the new file name. Memory holds one old row group plus the updates.
 */
export async function mergeFileGroupRows(spec: MergeFileGroupSpec, file: AsyncBuffer | undefined, compressors?: BaseFileWriterOptions['compressors']): Promise<MergedFileGroup> {
  const name = spec.fileName;
  const writer = new BaseFileWriter({ ...spec.writer, ...(compressors ? { compressors } : {}), schema: spec.schema });
  const names = spec.schema.fields.map((f) => f.name);
  const eventTime = usesEventTime(spec.mergeMode, spec);
  const meta: FreshMeta = { instantTime: spec.instantTime, taskId: spec.taskId, partitionPath: spec.partitionPath, fileName: name };
  const keys: string[] = [];
  // Seqnos of fresh rows, numbered in output order: the replaced rows of each row group, then the inserts.
  let seq = 0;
  let updated = 0;
  let deleted = 0;
  const write = (batch: ColumnBatch): void => {
    if (batch.length > 0) writer.writeColumns(batch);
  };

  if (file) {
    const path = spec.basePath ?? name;
    const footer = await readParquetFooter(file, path);
    // The schema's fields and the ordering fields (compared against the stored rows) that the old file has.
    const wanted = new Set([...names, ...(eventTime ? spec.orderingFields : [])]);
    const columns = footer.columns.filter((c) => wanted.has(c));
    const rules: TakeRules = {
      updates: spec.updates,
      // Event-time ordering: the incoming record replaces the stored one unless its ordering value is smaller.
      incomingWins: (stored, incoming) => !eventTime || newerWins(spec.orderingKinds, incoming.ordering, stored as unknown[]),
      needsOrdering: eventTime,
      orderingFields: spec.orderingFields,
      onKey: spec.collectKeys ? (key) => keys.push(key) : undefined,
    };
    // A file written under an older schema: its values are promoted to the table's types (and the file rewritten in them).
    const promoter = schemaPromoter(spec.schema, footerSchema(footer.keyValues));
    const physical = promoter ? undefined : physicalColumns(footer, writer, columns, eventTime ? spec.orderingFields : []);
    const physicalOf = (column: string) => writer.physicalLeaf(column)?.convert;
    let start = 0;
    for (const count of footer.rowGroupRows) {
      const read = await readParquetColumns(file, footer, path, { columns, rowStart: start, rowEnd: start + count, physical });
      const batch = promoter ? promoter.batch(read) : read;
      start += count;
      const plan = planTake(batch, rules);
      updated += plan.updated;
      deleted += plan.deleted;
      write(takeBatch(batch, plan, names, meta, seq, physicalOf));
      seq += plan.fresh.length;
    }
  }
  if (spec.mergedRows) {
    if (spec.collectKeys) for (const row of spec.mergedRows) keys.push(String(row._hoodie_record_key));
    write(rowsBatch(spec.mergedRows, names, name));
  }
  // Inserts go in as columns, a slice at a time (no row object per record).
  const inserts = spec.inserts;
  if (spec.collectKeys) for (const r of inserts) keys.push(r.recordKey);
  for (let at = 0; at < inserts.length; at += INSERT_SLICE) {
    const end = Math.min(inserts.length, at + INSERT_SLICE);
    write(freshBatch(inserts, at, end, names, meta, seq));
    seq += end - at;
  }
  const inserted = inserts.length;
  const bytes = writer.finish();
  return { bytes, rowCount: writer.rowCount, inserted, updated, deleted, keys };
}
