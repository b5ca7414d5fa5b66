// Tagging: finds the current file group of each incoming record key with the chosen index — bloom
// (key ranges + bloom probes from base-file footers, then an exact key check), simple (read keys),
// their global variants (across partitions), or in-memory (a key map kept by the table between writes).
import { parseBloomFilter, BLOOM_FILTER_FOOTER_KEY, BLOOM_FILTER_TYPE_FOOTER_KEY } from '../format/bloom-filter.js';
import { readParquetFooter, readParquetRows } from '../format/parquet.js';
import type { FileSlice } from '../file-group/file-slice.js';
import { bloomCandidates, isGlobalIndex, lookupKey, type IndexType, type RecordLocation } from '../index/record-index.js';
import type { Storage } from '../storage/storage.js';
import { storageBuffer } from './storage-buffer.js';

/** A key to look up. */
export interface KeyToTag {
  recordKey: string;
  partitionPath: string;
}

/** Lookup result: `lookupKey(global, partition, key)` → current location. */
export type TagMap = Map<string, RecordLocation>;

/** Reads the live record keys of a file slice (merge-on-read slices with logs: after merging them). */
export type SliceKeyReader = (slice: FileSlice) => Promise<string[]>;

/** Keys of one base file, read from its `_hoodie_record_key` column. */
export async function readBaseFileKeys(storage: Storage, slice: FileSlice): Promise<string[]> {
  const base = slice.baseFile;
  if (!base) return [];
  const file = await storageBuffer(storage, base.path, base.size || undefined);
  const footer = await readParquetFooter(file, base.path);
  const rows = await readParquetRows(file, footer, base.path, { columns: ['_hoodie_record_key'] });
  return rows.map((r) => String(r._hoodie_record_key));
}

function locationOf(slice: FileSlice): RecordLocation {
  return { partitionPath: slice.partitionPath, fileId: slice.fileId, baseInstantTime: slice.baseInstantTime };
}

/**
 * Find where the given keys live among the latest `slices` of the table. Non-global indexes only look in
 * the key's own partition; global ones everywhere (the result is keyed by the record key alone).
 */
export async function tagLocations(storage: Storage, slices: readonly FileSlice[], keys: readonly KeyToTag[], type: IndexType, readKeys: SliceKeyReader = (s) => readBaseFileKeys(storage, s)): Promise<TagMap> {
  const global = isGlobalIndex(type);
  const out: TagMap = new Map();
  if (keys.length === 0) return out;
  const wanted = new Map<string, string[]>(); // partition ('' for global) → keys
  for (const k of keys) {
    const bucket = global ? '' : k.partitionPath;
    let list = wanted.get(bucket);
    if (!list) wanted.set(bucket, (list = []));
    list.push(k.recordKey);
  }
  for (const slice of slices) {
    if (!slice.baseFile) continue;
    const candidates = wanted.get(global ? '' : slice.partitionPath);
    if (!candidates || candidates.length === 0) continue;
    let probe = candidates;
    if (type === 'BLOOM' || type === 'GLOBAL_BLOOM') {
      const file = await storageBuffer(storage, slice.baseFile.path, slice.baseFile.size || undefined);
      const footer = await readParquetFooter(file, slice.baseFile.path);
      const kv = footer.keyValues;
      const bloomText = kv[BLOOM_FILTER_FOOTER_KEY];
      const bloom = bloomText ? parseBloomFilter(bloomText, kv[BLOOM_FILTER_TYPE_FOOTER_KEY], { path: slice.baseFile.path }) : undefined;
      probe = bloomCandidates({ minKey: kv.hoodie_min_record_key, maxKey: kv.hoodie_max_record_key, bloom }, candidates);
      if (probe.length === 0) continue;
    }
    const present = new Set(probe);
    for (const key of await readKeys(slice)) {
      if (present.has(key)) out.set(lookupKey(global, slice.partitionPath, key), locationOf(slice));
    }
  }
  return out;
}

/** Build a full key → location map of the table (the in-memory index's state). */
export async function buildKeyMap(slices: readonly FileSlice[], readKeys: SliceKeyReader): Promise<TagMap> {
  const out: TagMap = new Map();
  for (const slice of slices) for (const key of await readKeys(slice)) out.set(key, locationOf(slice));
  return out;
}
