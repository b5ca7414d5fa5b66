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

/**
 * Records `[start, end)` as fresh rows of the fields `names`, seqnos from `firstSeq` (see {@link freshField}).
 * One pass over the records reads every plain data field and the keys while each record is in cache (a pass
 * per field touches every record object once per field), and sees which meta fields some record overrides;
 * meta fields nobody overrides are then generated without touching the records again.
 */
export function freshBatch(records: readonly HoodieRecord[], start: number, end: number, names: readonly string[], meta: FreshMeta, firstSeq: number): ColumnBatch {
  const n = end - start;
  const columns = new Map<string, ArrayLike<unknown>>();
  const dataNames: string[] = [];
  const dataOut: unknown[][] = [];
  const metaNames = names.filter((name) => (META_FIELDS as readonly string[]).includes(name));
  const overridden = new Set<string>();
  for (const name of names) {
    if (metaNames.includes(name) || name in Object.prototype) continue;
    const out: unknown[] = new Array(n);
    dataNames.push(name);
    dataOut.push(out);
    columns.set(name, out);
  }
  const keys: string[] | undefined = names.includes(RECORD_KEY as string) ? new Array(n) : undefined;
  const m = dataNames.length;
  for (let j = 0; j < n; j++) {
    const r = records[start + j] as HoodieRecord;
    const d = r.data;
    for (let k = 0; k < m; k++) (dataOut[k] as unknown[])[j] = d[dataNames[k] as string];
    if (keys) keys[j] = r.recordKey;
    for (const name of metaNames) if (hasOwn(d, name)) overridden.add(name);
  }
  for (const name of names) {
    if (columns.has(name)) continue;
    if (!metaNames.includes(name) || overridden.has(name)) columns.set(name, freshColumn(records, start, end, name, meta, firstSeq));
    else if (name === RECORD_KEY) columns.set(name, keys as string[]);
    else if (name === COMMIT_SEQNO) {
      const prefix = `${meta.instantTime}_${meta.taskId}_`;
      const out: string[] = new Array(n);
      for (let j = 0; j < n; j++) out[j] = prefix + String(firstSeq + j);
      columns.set(name, out);
    } else columns.set(name, new Array<unknown>(n).fill(freshConstant(name, meta)));
  }
  const ordered: Record<string, ArrayLike<unknown>> = {};
  for (const name of names) ordered[name] = columns.get(name) as ArrayLike<unknown>;
  return { length: n, columns: ordered };
}
