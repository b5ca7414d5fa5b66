// The indexes that look keys up in base files (Hudi's HoodieBloomIndex / HoodieSimpleIndex and their global
// variants): bloom pruning of each candidate file by its footer (key range + bloom filter), then an exact check
// against the file's keys; inline, or one file per worker task when the write has a pool.
import { readHudiFooter } from '../../format/parquet/hudi-footer.js';
import { BLOOM_KERNEL_MIN_KEYS, bloomCandidates } from '../../index/bloom-index.js';
import { readParquetFooter } from '../../format/parquet/read.js';
import { readFileParts, readRanges } from '../../format/parquet/byte-ranges.js';
import type { FileSlice } from '../../file-group/file-slice.js';
import { isGlobalIndex, lookupKey, type IndexType, type RecordLocation, type TagMap } from '../../index/index-type.js';
import { type Kernels, type PackedKeys } from '../../kernels/kernels.js';
import type { Storage } from '../../storage/storage.js';
import type { WorkerPool } from '../../worker/pool.js';
import { ownBuffer } from '../../worker/worker-api.js';
import { storageBuffer } from '../../storage/async-buffer.js';
import { mainThreadKernels } from '../kernels.js';
import { yielder } from '../yield.js';
import { packKeysInChunks } from '../pack-keys.js';
import { readBaseFileKeys, sliceKeyReaderFor, tagWith, type Index, type SliceKeyReader } from './tag.js';

/** A key to look up. */
export interface KeyToTag {
  recordKey: string;
  partitionPath: string;
}

/** The BLOOM, GLOBAL_BLOOM, SIMPLE or GLOBAL_SIMPLE index: lookups in the latest base files, nothing to keep up. */
export function baseFileIndex(type: 'BLOOM' | 'GLOBAL_BLOOM' | 'SIMPLE' | 'GLOBAL_SIMPLE'): Index {
  return {
    type,
    tag: (input) => tagWith(input, isGlobalIndex(type), {
      locate: async (records) => {
        const { pool, kernels: choice } = input.options;
        // Inline bloom probes of large batches run on the calling thread's kernels (a pool's workers have their own).
        const inline = (type === 'BLOOM' || type === 'GLOBAL_BLOOM') && !(pool && pool.size > 0) && records.length >= BLOOM_KERNEL_MIN_KEYS;
        const kernels = inline ? await mainThreadKernels(choice) : undefined;
        return tagLocations(input.state.storage, input.slices, records, type, sliceKeyReaderFor(input.state, input.merge.orderingFields, input.merge.orderingKinds), pool, kernels);
      },
    }),
    update: async () => [],
  };
}

export function locationOf(slice: FileSlice): RecordLocation {
  return { partitionPath: slice.partitionPath, fileId: slice.fileId, baseInstantTime: slice.baseInstantTime };
}

/**
 * Find where the given keys live among the latest `slices` of the table. Non-global indexes only look in
 * the key's own partition; global ones everywhere (the result is keyed by the record key alone).
 * With a worker `pool`, each candidate base file is read here and tagged in a worker (key range, WASM bloom
 * probe, exact key check), files in parallel; slices with log files get their bloom candidates from a worker
 * and their live keys from `readKeys`. Inline, `kernels` probe the bloom filter of a file when at least
 * {@link BLOOM_KERNEL_MIN_KEYS} keys pass its key range. The result is the same with or without a pool or kernels.
 */
export async function tagLocations(
  storage: Storage, slices: readonly FileSlice[], keys: readonly KeyToTag[], type: IndexType,
  readKeys: SliceKeyReader = (s) => readBaseFileKeys(storage, s), pool?: WorkerPool, kernels?: Pick<Kernels, 'bloomProbe'>,
): Promise<TagMap> {
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
  const useBloom = type === 'BLOOM' || type === 'GLOBAL_BLOOM';
  if (pool && pool.size > 0) return tagInPool(storage, slices, wanted, global, useBloom, readKeys, pool);
  const packed = new Map<string, PackedKeys>(); // each partition's keys packed once, for every file probing all of them
  for (const slice of slices) {
    if (!slice.baseFile) continue;
    const bucket = global ? '' : slice.partitionPath;
    const candidates = wanted.get(bucket);
    if (!candidates || candidates.length === 0) continue;
    let probe = candidates;
    if (useBloom) {
      const file = await storageBuffer(storage, slice.baseFile.path, slice.baseFile.size || undefined);
      const footer = await readParquetFooter(file, slice.baseFile.path);
      let options = {};
      if (kernels && candidates.length >= BLOOM_KERNEL_MIN_KEYS) {
        let p = packed.get(bucket);
        if (!p) packed.set(bucket, (p = await packKeysInChunks(candidates)));
        options = { kernels, minKeys: BLOOM_KERNEL_MIN_KEYS, packed: p };
      }
      probe = bloomCandidates(readHudiFooter(footer.keyValues, { path: slice.baseFile.path }), candidates, options).map((i) => candidates[i] as string);
      if (probe.length === 0) continue;
    }
    const present = new Set(probe);
    for (const key of await readKeys(slice)) {
      if (present.has(key)) out.set(lookupKey(global, slice.partitionPath, key), locationOf(slice));
    }
  }
  return out;
}

const RECORD_KEY = '_hoodie_record_key';

/** Found keys of one slice (indices into its partition's key list, or key strings read on this thread). */
type SliceHits = { indices: Uint32Array } | { keys: string[] };

async function tagInPool(storage: Storage, slices: readonly FileSlice[], wanted: Map<string, string[]>, global: boolean, useBloom: boolean, readKeys: SliceKeyReader, pool: WorkerPool): Promise<TagMap> {
  const packed = new Map<string, Promise<{ bytes: Uint8Array; offsets: Uint32Array }>>();
  const packedFor = (bucket: string, list: string[]) => {
    let p = packed.get(bucket);
    if (!p) packed.set(bucket, (p = packKeysInChunks(list)));
    return p;
  };
  const tagSlice = async (slice: FileSlice): Promise<SliceHits | undefined> => {
    const base = slice.baseFile;
    const bucket = global ? '' : slice.partitionPath;
    const list = wanted.get(bucket);
    if (!base || !list || list.length === 0) return undefined;
    const withLogs = slice.logFiles.length > 0;
    // Live keys of slices with logs come from readKeys (log merging); only their bloom pruning moves.
    if (withLogs && !useBloom) {
      const present = new Set(list);
      return { keys: (await readKeys(slice)).filter((k) => present.has(k)) };
    }
    const p = await packedFor(bucket, list);
    // Only what the worker reads crosses: the footer (bloom filter, key range) and, for an exact tag, the record
    // key column's chunks; never the whole base file (most of a remote one's bytes would be fetched for nothing).
    const buffer = await storageBuffer(storage, base.path, base.size || undefined);
    const footer = await readParquetFooter(buffer, base.path);
    const parts = await readFileParts(buffer, readRanges(footer, buffer.byteLength, withLogs ? [] : [RECORD_KEY]));
    const file = ownBuffer(parts.bytes);
    const keyBytes = p.bytes.slice().buffer as ArrayBuffer;
    const offsets = p.offsets.slice().buffer as ArrayBuffer;
    const request = { path: base.path, file, parts: { size: parts.size, ranges: parts.ranges }, keys: keyBytes, offsets, useBloom, exact: !withLogs };
    const r = await pool.run('tagFile', request, [file, keyBytes, offsets]);
    const indices = new Uint32Array(r.matched);
    if (!withLogs || indices.length === 0) return { indices };
    const probe = new Set<string>();
    for (const i of indices) probe.add(list[i] as string);
    return { keys: (await readKeys(slice)).filter((k) => probe.has(k)) };
  };

  // Files in parallel (a few more in flight than workers, to overlap reads); merged in slice order.
  const hits: (SliceHits | undefined)[] = new Array(slices.length);
  let next = 0;
  let failure: { err: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (!failure && next < slices.length) {
      const i = next++;
      try {
        hits[i] = await tagSlice(slices[i] as FileSlice);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(pool.size + 1, slices.length) }, lane));
  if (failure) throw failure.err;

  const out: TagMap = new Map();
  const pause = yielder(2000);
  for (const [i, slice] of slices.entries()) {
    const h = hits[i];
    if (!h) continue;
    const loc = locationOf(slice);
    if ('keys' in h) {
      for (const key of h.keys) {
        await pause();
        out.set(lookupKey(global, slice.partitionPath, key), loc);
      }
    } else {
      const list = wanted.get(global ? '' : slice.partitionPath) ?? [];
      for (const idx of h.indices) {
        await pause();
        out.set(lookupKey(global, slice.partitionPath, list[idx] as string), loc);
      }
    }
  }
  return out;
}

