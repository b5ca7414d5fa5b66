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

/** Options of {@link bloomCandidates}. */
export interface BloomCandidateOptions {
  /** Probe the filter with `kernels.bloomProbe` (WASM or its JS twin, same answers) instead of one key at a time. */
  kernels?: Pick<Kernels, 'bloomProbe'>;
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
  const { kernels } = options;
  if (!kernels) return candidates.filter((i) => bloom.mightContain(keys[i] as string));
  for (const i of candidates) if (keys[i] === '') bloom.mightContain(''); // throws, as the filter's own check does
  const batch = candidates.length === keys.length && options.packed ? options.packed : packKeys(candidates.map((i) => keys[i] as string));
  const hits = kernels.bloomProbe(bloom.bits, bloom.numBits, bloom.numHashes, batch, bloom.numRows);
  candidates = candidates.filter((_, j) => hits[j] === 1);
  return candidates;
}
