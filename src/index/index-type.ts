// Record-key indexes: the index types a write can use, what a lookup returns (the current file group of
// a key), and the pure parts of the bloom index (key-range pruning and bloom probes per base file).
import type { HudiBloomFilter } from '../format/bloom-filter.js';

/**
 * Index types (Hudi's `hoodie.index.type`). Global indexes find a key in any partition. `RECORD_INDEX` is a
 * persistent key → file group index kept under `.hoodie/.aux/lakelet/record-index/` (global, like Hudi's).
 */
export type IndexType = 'BLOOM' | 'GLOBAL_BLOOM' | 'SIMPLE' | 'GLOBAL_SIMPLE' | 'IN_MEMORY' | 'RECORD_INDEX';

/** Every supported index type. */
export const INDEX_TYPES: readonly IndexType[] = ['BLOOM', 'GLOBAL_BLOOM', 'SIMPLE', 'GLOBAL_SIMPLE', 'IN_MEMORY', 'RECORD_INDEX'];

/** True for indexes that look a key up across partitions (a key then lives in one partition only). */
export function isGlobalIndex(type: IndexType): boolean {
  return type === 'GLOBAL_BLOOM' || type === 'GLOBAL_SIMPLE' || type === 'IN_MEMORY' || type === 'RECORD_INDEX';
}

/** Where a record currently lives. */
export interface RecordLocation {
  partitionPath: string;
  fileId: string;
  /** Instant of the latest base file holding it. */
  baseInstantTime: string;
}

/** The lookup key of a record: the key alone for global indexes, partition + key otherwise. */
export function lookupKey(global: boolean, partitionPath: string, recordKey: string): string {
  return global ? recordKey : `${partitionPath}\u0000${recordKey}`;
}

/** What the bloom index knows of one base file before reading its keys. */
export interface BaseFileKeyRange {
  /** `hoodie_min_record_key` / `hoodie_max_record_key`, when the footer has them. */
  minKey: string | undefined;
  maxKey: string | undefined;
  /** The parsed footer bloom filter, when there is one. */
  bloom: HudiBloomFilter | undefined;
}

/**
 * Keys that may be in a base file: inside its [min, max] key range (Java String order = JS string
 * order) and passing its bloom filter. Files without range or filter keep every key (checked exactly later).
 */
export function bloomCandidates(file: BaseFileKeyRange, keys: readonly string[]): string[] {
  const out: string[] = [];
  for (const key of keys) {
    if (file.minKey !== undefined && key < file.minKey) continue;
    if (file.maxKey !== undefined && key > file.maxKey) continue;
    if (file.bloom && !file.bloom.mightContain(key)) continue;
    out.push(key);
  }
  return out;
}
