// The take-vector of a columnar copy-on-write merge: for each row of one old row group, keep it, replace it with
// the fresh version of an incoming record, or drop it (a delete); then the output batch built column by column
// from the old vectors and the incoming records, with no row object for any row, kept or fresh.
import { invalidArgument } from '../errors.js';
import type { ColumnBatch } from '../format/parquet/column-batch.js';
import { isPhysical, markPhysical } from '../format/parquet/physical-vector.js';
import { FILE_NAME, freshField, RECORD_KEY, type FreshMeta } from './fresh-columns.js';
import type { HoodieRecord } from './hoodie-record.js';

/** How one old row group goes into the new file (see {@link planTake}). */
export interface TakePlan {
  /** Per output row: `t >= 0` copies old row `t`; `t < 0` writes `fresh[-t - 1]`. */
  take: Int32Array;
  /** The records replacing stored rows, in output order. */
  fresh: HoodieRecord[];
  /** Every old row is kept, in order (the old vectors can be passed through). */
  identity: boolean;
  updated: number;
  deleted: number;
}

/** What {@link planTake} needs to decide a row: the updates and the merge rules. */
export interface TakeRules {
  /** Records for keys of this file group: upserts and deletes. */
  updates: ReadonlyMap<string, HoodieRecord>;
  /**
   * Whether `incoming` replaces the stored row, given the stored row's ordering values (read from the batch's
   * vectors of `orderingFields`; undefined when the file has no such column).
   */
  incomingWins(stored: readonly unknown[], incoming: HoodieRecord): boolean;
  /** Whether the rule needs the stored ordering values (event-time ordering); otherwise they are not read. */
  needsOrdering: boolean;
  orderingFields: readonly string[];
  /** Receives each key that stays in the file (kept or replaced), in output order; undefined to skip. */
  onKey?: ((key: string) => void) | undefined;
}

/**
 * Decide keep / replace / drop for every row of `batch` (one old row group). A delete without an ordering value
 * (delete(), a partition move) applies by arrival; otherwise the incoming record (upsert or delete) applies when
 * `incomingWins` says so.
 */
export function planTake(batch: ColumnBatch, rules: TakeRules): TakePlan {
  const n = batch.length;
  const keys = batch.columns[RECORD_KEY];
  const ordering = rules.needsOrdering ? rules.orderingFields.map((f) => batch.columns[f]) : [];
  const take = new Int32Array(n);
  const fresh: HoodieRecord[] = [];
  let out = 0;
  let updated = 0;
  let deleted = 0;
  const stored = (i: number): unknown[] => ordering.map((v) => v?.[i]);
  for (let i = 0; i < n; i++) {
    const key = String(keys?.[i]);
    const incoming = rules.updates.get(key);
    if (incoming !== undefined) {
      if (incoming.isDelete) {
        if (incoming.ordering.length === 0 || rules.incomingWins(stored(i), incoming)) {
          deleted++;
          continue;
        }
      } else if (rules.incomingWins(stored(i), incoming)) {
        fresh.push(incoming);
        take[out++] = -fresh.length;
        updated++;
        rules.onKey?.(key);
        continue;
      }
    }
    take[out++] = i;
    rules.onKey?.(key);
  }
  return { take: take.subarray(0, out), fresh, identity: out === n && fresh.length === 0, updated, deleted };
}

/**
 * The output batch of a planned row group, for the fields `names`: kept rows copy the old vectors' values (their
 * commit time and seqno unchanged) with `_hoodie_file_name` set to `meta.fileName`; replaced rows take their
 * record's values, stamped by `meta` with seqnos from `firstSeq`. An old vector read physically (stored bytes,
 * physical-vector.ts) stays physical: its fresh values go through `physicalOf(name)`, the writer's converter.
 */
export function takeBatch(batch: ColumnBatch, plan: TakePlan, names: readonly string[], meta: FreshMeta, firstSeq: number, physicalOf?: (name: string) => ((value: unknown) => unknown) | undefined): ColumnBatch {
  const { take, fresh } = plan;
  const n = take.length;
  const columns: Record<string, ArrayLike<unknown>> = {};
  for (const name of names) {
    const old = batch.columns[name];
    if (plan.identity && name !== FILE_NAME) {
      if (old !== undefined) columns[name] = old;
      continue;
    }
    const get = freshField(name, meta, firstSeq);
    if (old !== undefined && isPhysical(old)) {
      columns[name] = takePhysical(old, plan, name, (j) => get(fresh[j] as HoodieRecord, j), physicalOf);
      continue;
    }
    const typed = old !== undefined && name !== FILE_NAME ? takeTyped(old, plan, (j) => get(fresh[j] as HoodieRecord, j)) : undefined;
    if (typed !== undefined) {
      columns[name] = typed;
      continue;
    }
    const vector: unknown[] = new Array(n);
    if (name === FILE_NAME) {
      for (let k = 0; k < n; k++) {
        const t = take[k] as number;
        vector[k] = t >= 0 ? meta.fileName : get(fresh[-t - 1] as HoodieRecord, -t - 1);
      }
    } else {
      for (let k = 0; k < n; k++) {
        const t = take[k] as number;
        vector[k] = t >= 0 ? old?.[t] : get(fresh[-t - 1] as HoodieRecord, -t - 1);
      }
    }
    columns[name] = vector;
  }
  return { length: n, columns };
}

/** The output vector of a physical old vector: kept rows' stored bytes, fresh values converted by the writer's converter. */
function takePhysical(old: ArrayLike<unknown>, plan: TakePlan, name: string, freshValue: (j: number) => unknown, physicalOf: ((name: string) => ((value: unknown) => unknown) | undefined) | undefined): unknown[] {
  const convert = physicalOf?.(name);
  if (convert === undefined) throw invalidArgument(`take: column "${name}" was read physically but the writer has no physical converter for it`, { field: name });
  const { take } = plan;
  const n = take.length;
  const out: unknown[] = new Array(n);
  for (let k = 0; k < n; k++) {
    const t = take[k] as number;
    out[k] = t >= 0 ? old[t] : convert(freshValue(-t - 1));
  }
  return markPhysical(out);
}

type TypedVector = BigInt64Array | Float64Array | Float32Array | Int32Array;

/** A fresh value as the typed store of `out` holds it (what the base-file writer's converter would make), else undefined. */
function storable(out: TypedVector, v: unknown): number | bigint | undefined {
  if (out instanceof BigInt64Array) {
    if (typeof v === 'bigint') return v >= -(2n ** 63n) && v < 2n ** 63n ? v : undefined;
    return typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : undefined;
  }
  if (out instanceof Int32Array) return typeof v === 'number' && (v | 0) === v ? v : undefined;
  return typeof v === 'number' ? v : undefined;
}

/**
 * The output vector of a typed old vector (a fixed-width column without nulls) as the same typed array: kept rows
 * copied as raw words (no number or BigInt per value), fresh rows stored as the writer's converter would. Undefined
 * when the vector is not typed or a fresh value does not fit (null, another type): the caller then builds a plain
 * array, and the writer converts (or refuses) each value as before.
 */
function takeTyped(old: ArrayLike<unknown>, plan: TakePlan, freshValue: (j: number) => unknown): TypedVector | undefined {
  if (!(old instanceof BigInt64Array || old instanceof Float64Array || old instanceof Float32Array || old instanceof Int32Array)) return undefined;
  const { take } = plan;
  const n = take.length;
  const out = new (old.constructor as new (n: number) => TypedVector)(n);
  const words = old.BYTES_PER_ELEMENT / 4;
  const from = new Int32Array(old.buffer, old.byteOffset, old.length * words);
  const to = new Int32Array(out.buffer, 0, n * words);
  for (let k = 0; k < n; k++) {
    const t = take[k] as number;
    if (t >= 0) {
      to[k * words] = from[t * words] as number;
      if (words === 2) to[k * words + 1] = from[t * words + 1] as number;
      continue;
    }
    const v = storable(out, freshValue(-t - 1));
    if (v === undefined) return undefined;
    out[k] = v as never;
  }
  return out;
}

/**
 * Row objects as a batch of the fields `names`; with `fileName`, every row's `_hoodie_file_name` is that name
 * (already-merged rows moving into the new file), without it the rows' own values are used.
 */
export function rowsBatch(rows: readonly Record<string, unknown>[], names: readonly string[], fileName?: string): ColumnBatch {
  const columns: Record<string, ArrayLike<unknown>> = {};
  for (const name of names) {
    columns[name] = name === FILE_NAME && fileName !== undefined ? new Array(rows.length).fill(fileName) : rows.map((r) => r[name]);
  }
  return { length: rows.length, columns };
}
