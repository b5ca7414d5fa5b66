// The columns of fresh rows — records a write stamps with its instant: the five meta fields generated (commit
// time, seqnos `<instant>_<taskId>_<n>`, the record key, partition path, file name) and each data field read per
// column, with no row object per record. Base files (merge/take.ts, merge/cow-merge.ts) and log data blocks
// (engine/write/append-handle.ts) are built from them.
import type { ColumnBatch } from '../format/parquet/column-batch.js';
import { META_FIELDS } from '../schema/table-schema.js';
import type { HoodieRecord } from './hoodie-record.js';

export const [COMMIT_TIME, COMMIT_SEQNO, RECORD_KEY, PARTITION_PATH, FILE_NAME] = META_FIELDS;

/** The meta values a write gives its fresh rows. */
export interface FreshMeta {
  instantTime: string;
  taskId: number;
  partitionPath: string;
  /** Every row's `_hoodie_file_name`: the new base file's name, or a log's file id. */
  fileName: string;
}

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** The value every fresh row gets for meta field `name` (undefined for the per-row ones and data fields). */
export function freshConstant(name: string, meta: FreshMeta): string | undefined {
  switch (name) {
    case COMMIT_TIME: return meta.instantTime;
    case PARTITION_PATH: return meta.partitionPath;
    case FILE_NAME: return meta.fileName;
    default: return undefined;
  }
}

/** Whether some record's data holds a field of meta name `name` (it then wins over the generated value). */
export function overridesMeta(records: readonly HoodieRecord[], name: string): boolean {
  return records.some((r) => hasOwn(r.data, name));
}

/**
 * The value of field `name` in fresh row `j` (record `r`, seqno number `firstSeq + j`): meta fields from `meta`,
 * the record key from the record, data fields from its data. A data field of a meta name wins, and a name of
 * Object.prototype's (e.g. "constructor") counts only as an own property: as in the spread `{ ...meta, ...data }`
 * rows were once built from.
 */
export function freshField(name: string, meta: FreshMeta, firstSeq: number): (r: HoodieRecord, j: number) => unknown {
  const own = (r: HoodieRecord): boolean => hasOwn(r.data, name);
  const constant = freshConstant(name, meta);
  if (constant !== undefined) return (r) => (own(r) ? r.data[name] : constant);
  switch (name) {
    case COMMIT_SEQNO: {
      const prefix = `${meta.instantTime}_${meta.taskId}_`;
      return (r, j) => (own(r) ? r.data[name] : prefix + String(firstSeq + j));
    }
    case RECORD_KEY: return (r) => (own(r) ? r.data[name] : r.recordKey);
    default:
      if (name in Object.prototype) return (r) => (own(r) ? r.data[name] : undefined);
      return (r) => r.data[name];
  }
}

/** Field `name` of records `[start, end)` as fresh rows (see {@link freshField}). */
export function freshColumn(records: readonly HoodieRecord[], start: number, end: number, name: string, meta: FreshMeta, firstSeq: number): unknown[] {
  const get = freshField(name, meta, firstSeq);
  const vector: unknown[] = new Array(end - start);
  for (let j = 0; j < end - start; j++) vector[j] = get(records[start + j] as HoodieRecord, j);
  return vector;
}

/** Records `[start, end)` as fresh rows of the fields `names`, seqnos from `firstSeq`. */
export function freshBatch(records: readonly HoodieRecord[], start: number, end: number, names: readonly string[], meta: FreshMeta, firstSeq: number): ColumnBatch {
  const columns: Record<string, ArrayLike<unknown>> = {};
  for (const name of names) columns[name] = freshColumn(records, start, end, name, meta, firstSeq);
  return { length: end - start, columns };
}
