// Dedupe of a write's records (DESIGN.md §3 step 3, Hudi's combineBeforeUpsert): one record per key (per
// partition and key, or per key alone under a global index), the greatest ordering value winning, ties to the
// later record. Large batches with one numeric ordering field run on the `dedupeKeepMax` kernel.
import type { Kernels, OrderingValues, PackedKeys } from '../kernels/kernels.js';
import { packKeys } from '../kernels/kernels.js';
import { preciseMillis, type OrderingKind } from '../schema/compare.js';
import type { HoodieRecord } from './hoodie-record.js';
import { newerWins } from './ordering.js';

/**
 * Batch size from which the kernel path is taken: below it, packing the keys costs more than the kernel saves.
 * Measured in Node 20, WASM SIMD build, partition+key dedupe of uuid-like keys (bench/kernels-in-write.mjs): the
 * kernel path is ~0.6x the JS path's speed at 500-4,000 records, ~1.4-1.65x faster at 10,000-100,000.
 */
export const DEDUPE_KERNEL_MIN_RECORDS = 8192;

const SAFE = 2n ** 53n;
const ANY_SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The dedupe key of a record: its key alone under a global index, else partition and key. */
function dedupeKey(r: HoodieRecord, global: boolean): string {
  return global ? r.recordKey : `${r.partitionPath}\u0000${r.recordKey}`;
}

/**
 * Keep one record per key: the greatest ordering value wins, a later record wins ties and incomparable pairs
 * (a missing value). The kept records come in input order. With `kernels` and at least
 * {@link DEDUPE_KERNEL_MIN_RECORDS} records whose ordering is one numeric, bigint or date field (or none), the
 * kernel's `dedupeKeepMax` does the work; it returns exactly what the JS path returns. `minRecords` moves the
 * threshold (tests and benchmarks).
 */
export function dedupeRecords(records: readonly HoodieRecord[], global: boolean, orderingKinds: readonly OrderingKind[], kernels?: Kernels, minRecords = DEDUPE_KERNEL_MIN_RECORDS): HoodieRecord[] {
  if (kernels && records.length >= minRecords) {
    const kept = dedupeWithKernel(records, global, orderingKinds, kernels);
    if (kept) return kept;
  }
  return dedupeJs(records, global, orderingKinds);
}

/** The JS path (also the reference the kernel path is tested against). */
export function dedupeJs(records: readonly HoodieRecord[], global: boolean, orderingKinds: readonly OrderingKind[]): HoodieRecord[] {
  const kept = new Map<string, number>();
  for (let i = 0; i < records.length; i++) {
    const r = records[i] as HoodieRecord;
    const key = dedupeKey(r, global);
    const current = kept.get(key);
    if (current === undefined || newerWins(orderingKinds, r.ordering, (records[current] as HoodieRecord).ordering)) kept.set(key, i);
  }
  const keep = new Uint8Array(records.length);
  for (const i of kept.values()) keep[i] = 1;
  const out: HoodieRecord[] = [];
  for (let i = 0; i < records.length; i++) if (keep[i] === 1) out.push(records[i] as HoodieRecord);
  return out;
}

/**
 * {@link dedupeRecords} for a thread that must stay responsive: the kernel path's stages (ordering values, keys,
 * packing through `pack`, e.g. in chunks) are separated by `turn()`, an event-loop turn. Same result.
 */
export async function dedupeRecordsInTurns(records: readonly HoodieRecord[], global: boolean, orderingKinds: readonly OrderingKind[], kernels: Kernels | undefined, pack: (keys: readonly string[]) => Promise<PackedKeys>, turn: () => Promise<void>): Promise<HoodieRecord[]> {
  if (kernels && records.length >= DEDUPE_KERNEL_MIN_RECORDS) {
    const values = orderingValues(records, orderingKinds);
    await turn();
    const keys = values && kernelKeys(records, global);
    if (values && keys) {
      await turn();
      const packed = await pack(keys);
      return keptRecords(records, kernels.dedupeKeepMax(packed, values));
    }
  }
  return dedupeJs(records, global, orderingKinds);
}

/** The kernel path, or undefined when the batch does not fit it (the caller then takes the JS path). */
function dedupeWithKernel(records: readonly HoodieRecord[], global: boolean, kinds: readonly OrderingKind[], kernels: Kernels): HoodieRecord[] | undefined {
  const values = orderingValues(records, kinds);
  const keys = values && kernelKeys(records, global);
  if (!values || !keys) return undefined;
  return keptRecords(records, kernels.dedupeKeepMax(packKeys(keys), values));
}

/** The dedupe keys the kernel compares, or undefined when one holds a lone surrogate. */
function kernelKeys(records: readonly HoodieRecord[], global: boolean): string[] | undefined {
  const keys: string[] = new Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const key = dedupeKey(records[i] as HoodieRecord, global);
    // UTF-8 packing turns every lone surrogate into '?': two such keys would collide. Rare; the JS path is exact.
    if (ANY_SURROGATE.test(key) && LONE_SURROGATE.test(key)) return undefined;
    keys[i] = key;
  }
  return keys;
}

const keptRecords = (records: readonly HoodieRecord[], kept: ArrayLike<number>): HoodieRecord[] => Array.from(kept, (i) => records[i] as HoodieRecord);

/**
 * The single ordering value of each record as the kernel compares it (IEEE `<`, ties and NaN to the later
 * record): numbers as they are, bigints as doubles when every one is exact as a double (else as int64),
 * dates as the epoch milliseconds compareValues uses. A missing value (deletes) is NaN: every comparison with
 * it goes to the later record, as compareValues' "incomparable" does. Undefined when the values do not fit.
 */
function orderingValues(records: readonly HoodieRecord[], kinds: readonly OrderingKind[]): OrderingValues | undefined {
  if (kinds.length === 0) return new Float64Array(records.length); // no ordering: the later record always wins
  if (kinds.length > 1) return undefined;
  const kind = (kinds[0] as OrderingKind).kind;
  const out = new Float64Array(records.length);
  if (kind === 'number' || kind === 'date') {
    for (let i = 0; i < records.length; i++) {
      const r = records[i] as HoodieRecord;
      if (r.ordering.length > 1) return undefined;
      const v = r.ordering[0];
      if (v === undefined || v === null) out[i] = NaN;
      else if (kind === 'number' && typeof v === 'number') out[i] = v;
      else if (kind === 'date' && v instanceof Date) out[i] = preciseMillis(v);
      else return undefined;
    }
    return out;
  }
  if (kind !== 'bigint') return undefined;
  let exact = true;
  let missing = false;
  for (const r of records) {
    if (r.ordering.length > 1) return undefined;
    const v = r.ordering[0];
    if (v === undefined || v === null) missing = true;
    else if (typeof v !== 'bigint' || BigInt.asIntN(64, v) !== v) return undefined;
    else if (v > SAFE || v < -SAFE) exact = false;
  }
  if (exact) {
    for (let i = 0; i < records.length; i++) {
      const v = (records[i] as HoodieRecord).ordering[0];
      out[i] = typeof v === 'bigint' ? Number(v) : NaN;
    }
    return out;
  }
  if (missing) return undefined; // int64 has no NaN for "missing"
  return BigInt64Array.from(records, (r) => r.ordering[0] as bigint);
}
