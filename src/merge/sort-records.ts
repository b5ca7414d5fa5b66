// The bulk-insert sort (Hudi's GLOBAL_SORT of bulk_insert): records grouped by partition path, partitions in
// order, each partition's records sorted by record key — in JS string order (UTF-16 code units), stable. Large
// partitions whose keys sort the same by UTF-8 bytes run on the `sortKeys` kernel.
import type { Kernels } from '../kernels/kernels.js';
import type { HoodieRecord } from './hoodie-record.js';

/**
 * Partition size from which the kernel sorts the keys. Measured in Node 20, WASM SIMD build, uuid-like keys
 * (bench/kernels-in-write.mjs): ~0.85x the JS sort's speed at 500 keys, ~1.6x faster at 1,000-4,000 and
 * ~1.4-2.7x at 10,000-100,000.
 */
export const SORT_KERNEL_MIN_RECORDS = 1024;

const FROM_SURROGATES = /[\uD800-\uFFFF]/;
const ANY_SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ABOVE_SURROGATES = /[\uE000-\uFFFF]/;

/**
 * Does UTF-8 byte order equal JS string order for these keys? UTF-8 byte order is code point order; UTF-16
 * code-unit order differs from it only between a surrogate pair (U+10000 and up) and a unit in U+E000..U+FFFF,
 * and a lone surrogate is not encoded as itself. So: yes when no key has a surrogate, or when none has a lone
 * surrogate and none has a character in U+E000..U+FFFF.
 */
export function byteOrderIsStringOrder(keys: readonly string[]): boolean {
  let surrogates = false;
  let high = false;
  for (const k of keys) {
    // Most keys have no unit at or above U+D800: one regex test settles them (V8 answers it for a one-byte
    // string without a scan; ~6x faster than a charCodeAt loop on uuid keys).
    if (!FROM_SURROGATES.test(k)) continue;
    if (ANY_SURROGATE.test(k)) {
      if (LONE_SURROGATE.test(k)) return false;
      surrogates = true;
    }
    if (!high && ABOVE_SURROGATES.test(k)) high = true;
    if (surrogates && high) return false;
  }
  return true;
}

/** JS string order of record keys. */
function byKey(a: HoodieRecord, b: HoodieRecord): number {
  return a.recordKey < b.recordKey ? -1 : a.recordKey > b.recordKey ? 1 : 0;
}

/**
 * Sort records in place by partition, then key: grouped by partition (partitions in string order), each group
 * sorted by key, equal keys in input order. With `kernels`, groups of at least {@link SORT_KERNEL_MIN_RECORDS}
 * whose keys sort the same by bytes use `kernels.sortKeys`; the result is identical either way. `minRecords`
 * moves the threshold (tests and benchmarks).
 */
export function sortByPartitionAndKey(records: HoodieRecord[], kernels?: Kernels, minRecords = SORT_KERNEL_MIN_RECORDS): void {
  const groups = new Map<string, HoodieRecord[]>();
  for (const r of records) {
    let g = groups.get(r.partitionPath);
    if (!g) groups.set(r.partitionPath, (g = []));
    g.push(r);
  }
  let i = 0;
  for (const p of [...groups.keys()].sort()) {
    const g = groups.get(p) as HoodieRecord[];
    const keys = kernels && g.length >= minRecords ? g.map((r) => r.recordKey) : undefined;
    if (kernels && keys && byteOrderIsStringOrder(keys)) {
      for (const j of kernels.sortKeys(keys)) records[i++] = g[j] as HoodieRecord;
    } else {
      g.sort(byKey);
      for (const r of g) records[i++] = r;
    }
  }
}
