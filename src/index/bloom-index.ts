// The bloom index's pruning of one base file (Hudi's HoodieBloomIndex key-range then bloom-filter check): which
// incoming keys may be in the file, from its footer alone. The one copy, used inline and inside workers.
import type { HudiBloomFilter } from '../format/bloom-filter.js';
import { packKeys, type Kernels, type PackedKeys } from '../kernels/kernels.js';

/** What the bloom index knows of one base file before reading its keys (see `readHudiFooter`). */
export interface BaseFileKeyRange {
  /** `hoodie_min_record_key` / `hoodie_max_record_key`, when the footer has them. */
  minKey: string | undefined;
  maxKey: string | undefined;
  /** The footer's bloom filter, when there is one. */
  bloom: HudiBloomFilter | undefined;
}

/**
 * Keys passing a file's key range from which the inline tagging path probes its filter with the WASM kernel
 * rather than the filter's own check. Measured in Node 20, WASM SIMD build, uuid-like keys against default-sized
 * filters (60,000 entries, fpp 1e-9), keys packed once per partition, 2 loaded cores (bench/kernels-in-write.mjs,
 * "bloom probe"): the kernel is ~1.1-4x faster per file at 16-256 keys, ~4x at 512-1,000 and 5-10x beyond; the
 * threshold keeps small writes from paying the WASM module's one-time load (~45-50 ms).
 */
export const BLOOM_KERNEL_MIN_KEYS = 512;

/** Options of {@link bloomCandidates}. */
export interface BloomCandidateOptions {
  /** Probe the filter with `kernels.bloomProbe` (WASM or its JS twin, same answers) instead of one key at a time. */
  kernels?: Pick<Kernels, 'bloomProbe'>;
  /** Use `kernels` only when at least this many keys pass the key range (default 0: whenever given). */
  minKeys?: number;
  /** `keys` already packed (same order): probed as they are when every key passes the key range. */
  packed?: PackedKeys;
}

/**
 * Indices (ascending) of the `keys` that may be in a base file: inside its [min, max] key range (Java String
 * order = JS string order) and passing its bloom filter. A file without range or filter keeps every key; the
 * candidates still need the exact check against the file's keys. An empty key throws, as in Hudi.
 */
export function bloomCandidates(file: BaseFileKeyRange, keys: readonly string[], options: BloomCandidateOptions = {}): number[] {
  const { minKey, maxKey, bloom } = file;
  let candidates: number[] = [];
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (minKey !== undefined && key < minKey) continue;
    if (maxKey !== undefined && key > maxKey) continue;
    candidates.push(i);
  }
  if (!bloom || candidates.length === 0) return candidates;
  const { kernels, packed } = options;
  if (!kernels || candidates.length < (options.minKeys ?? 0)) return candidates.filter((i) => bloom.mightContain(keys[i] as string));
  for (const i of candidates) if (keys[i] === '') bloom.mightContain(''); // throws, as the filter's own check does
  const batch = candidates.length === keys.length && packed ? packed : packKeys(candidates.map((i) => keys[i] as string));
  const hits = kernels.bloomProbe(bloom.bits, bloom.numBits, bloom.numHashes, batch, bloom.numRows);
  candidates = candidates.filter((_, j) => hits[j] === 1);
  return candidates;
}
