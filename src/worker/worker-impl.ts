// The WorkerApi implementation: what runs inside each worker (and inline when the pool has size 0).
// Kernels (WASM or the JS twin) load lazily on first use, never at module top level (toolchain P8).
import { readHudiFooter } from '../format/parquet/hudi-footer.js';
import { partsBuffer } from '../format/parquet/byte-ranges.js';
import { bloomCandidates } from '../index/bloom-index.js';
import { bufferFromBytes, readParquetFooter } from '../format/parquet/read.js';
import { readParquetColumns } from '../format/parquet/read-columns.js';
import { mergeFileGroupRows } from '../merge/cow-merge.js';
import { compactSlice } from '../merge/slice-merge.js';
import type { Kernels } from '../kernels/kernels.js';
import { activeThreadKernels } from '../kernels/thread-kernels.js';
import { mergeSpecFromWire } from './record-wire.js';
import {
  ownBuffer,
  type CompactFileSliceRequest, type CompactFileSliceResult, type MergeFileGroupRequest, type MergeFileGroupResult, type TagFileRequest, type TagFileResult,
  type WorkerApi, type WorkerConfig, type WorkerKernels, type WorkerKernelsInfo,
} from './worker-api.js';

const decoder = new TextDecoder();

/** A fresh WorkerApi implementation with its own kernels (`config.kernels`, default `'auto'`). */
export function createWorkerApi(config: WorkerConfig = {}): WorkerApi {
  let source: WorkerKernels = config.kernels ?? 'auto';
  let kernels: Promise<Kernels> | undefined;
  const getKernels = (): Promise<Kernels> => {
    kernels ??= import('../kernels/wasm-kernels.js').then(({ loadKernels }) => {
      if (source === 'auto') return loadKernels();
      if (source === 'js') return loadKernels(new Uint8Array(0)); // invalid module → the JS twin
      return loadKernels(source);
    });
    return kernels;
  };

  // The base-file writer and reader take the thread's kernels synchronously (SNAPPY pages, bloom adds) and use JS
  // until a load lands: a merge waits for the worker's kernels first, unless it was configured to run JS.
  const threadKernels = async (): Promise<'wasm' | 'js'> => {
    if (source !== 'js') await getKernels();
    return activeThreadKernels() === undefined ? 'js' : 'wasm';
  };

  return {
    async configure(next: WorkerConfig): Promise<void> {
      if (next.kernels !== undefined) {
        source = next.kernels;
        kernels = undefined;
      }
    },

    async kernelsInfo(): Promise<WorkerKernelsInfo> {
      const k = await getKernels();
      return { kind: k.kind, variant: k.variant, ...(k.fallbackReason === undefined ? {} : { fallbackReason: k.fallbackReason }) };
    },

    async tagFile(req: TagFileRequest): Promise<TagFileResult> {
      const keyBytes = new Uint8Array(req.keys);
      const offsets = new Uint32Array(req.offsets);
      const count = Math.max(0, offsets.length - 1);
      const keys = Array.from({ length: count }, (_, i) => decoder.decode(keyBytes.subarray(offsets[i] ?? 0, offsets[i + 1] ?? 0)));
      const file = req.parts ? partsBuffer({ ...req.parts, bytes: new Uint8Array(req.file) }, req.path) : bufferFromBytes(new Uint8Array(req.file));
      const footer = await readParquetFooter(file, req.path);
      let candidates: number[] = keys.map((_, i) => i);
      let kind: TagFileResult['kernels'] = 'js';
      if (req.useBloom) {
        const hudi = readHudiFooter(footer.keyValues, { path: req.path });
        const k = hudi.bloom ? await getKernels() : undefined;
        // The result names the kernels only when they probed (some key passed the key range).
        const kernels = k && { bloomProbe: (...args: Parameters<Kernels['bloomProbe']>) => ((kind = k.kind), k.bloomProbe(...args)) };
        candidates = bloomCandidates(hudi, keys, { ...(kernels ? { kernels } : {}), packed: { bytes: keyBytes, offsets } });
      }
      let matched = candidates;
      if (req.exact && candidates.length > 0) {
        // The file's keys as one column vector, no row object per key.
        const stored = (await readParquetColumns(file, footer, req.path, { columns: ['_hoodie_record_key'] })).columns._hoodie_record_key ?? [];
        // The file's keys probe the (few) candidates, as the inline path does: no set of every stored key.
        const wanted = new Set(candidates.map((i) => keys[i] as string));
        const found = new Set<string>();
        for (let r = 0; r < stored.length; r++) {
          const key = String(stored[r]);
          if (wanted.has(key)) found.add(key);
        }
        matched = candidates.filter((i) => found.has(keys[i] as string));
      } else if (req.exact) {
        matched = [];
      }
      return { matched: Uint32Array.from(matched).buffer, candidates: candidates.length, kernels: kind };
    },

    async mergeFileGroup(req: MergeFileGroupRequest): Promise<MergeFileGroupResult> {
      const kernels = await threadKernels();
      const { base, ...spec } = req;
      const merged = await mergeFileGroupRows(mergeSpecFromWire(spec), base ? bufferFromBytes(new Uint8Array(base)) : undefined);
      return { ...merged, bytes: ownBuffer(merged.bytes), kernels };
    },

    async compactFileSlice(req: CompactFileSliceRequest): Promise<CompactFileSliceResult> {
      const kernels = await threadKernels();
      const { base, logs, visibility, merge, ...spec } = req;
      const files = logs.map((l) => ({ path: l.path, bytes: new Uint8Array(l.bytes) }));
      const compacted = await compactSlice(mergeSpecFromWire(spec), base ? bufferFromBytes(new Uint8Array(base)) : undefined, files, visibility, merge);
      return { ...compacted, bytes: ownBuffer(compacted.bytes), kernels };
    },
  };
}
