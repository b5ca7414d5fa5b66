// The one typed `WorkerApi` between the main thread and lakelet's workers: plain data and transferred
// ArrayBuffers only, no class instances. The main thread does storage I/O; workers decode, merge, encode and probe.
import type { LogScanWarning } from '../file-group/log-scanner.js';
import type { KernelsKind } from '../kernels/kernels.js';
import type { MergedFileGroup } from '../merge/cow-merge.js';
import type { RecordMergerOptions } from '../merge/record-merger.js';
import type { WireLogVisibility } from '../merge/slice-merge.js';
import type { WireMergeSpec } from './record-wire.js';
import type { ByteRange } from '../format/parquet/byte-ranges.js';

/**
 * How a worker loads its kernels: `'auto'` (the WASM build next to the kernels module, JS twin on failure),
 * `'js'` (force the JS twin), the module's bytes, or a URL to fetch. Bytes are copied to each worker.
 */
export type WorkerKernels = 'auto' | 'js' | ArrayBuffer | string;

/** Sent once to each worker before its first task. */
export interface WorkerConfig {
  kernels?: WorkerKernels;
}

/** Which kernels a worker (or the inline implementation) runs. */
export interface WorkerKernelsInfo {
  kind: KernelsKind;
  variant: 'simd' | 'scalar' | 'js';
  fallbackReason?: string;
}

/**
 * Tag one candidate base file. The main thread reads the whole file and transfers it; keys are the
 * incoming record keys packed as UTF-8 (`keys`) with `count + 1` u32 `offsets` (see `packKeys`).
 */
export interface TagFileRequest {
  /** Table-relative path, for error context. */
  path: string;
  /** The base file's bytes (transferred): the whole file, or with `parts` only the ranges it names. */
  file: ArrayBuffer;
  /**
   * `file` holds only these ranges of the file, back to back (format/parquet/byte-ranges.ts): the footer and, for
   * an exact tag, the record key column's chunks. Absent: `file` is the whole file.
   */
  parts?: { size: number; ranges: ByteRange[] };
  /** Packed UTF-8 key bytes (transferred). */
  keys: ArrayBuffer;
  /** `Uint32Array` offsets into `keys` (transferred). */
  offsets: ArrayBuffer;
  /** Prune by the footer's min/max record key and bloom filter (bloom indexes). */
  useBloom: boolean;
  /** Read `_hoodie_record_key` and keep exact matches; false returns the bloom candidates only. */
  exact: boolean;
}

/** What {@link WorkerApi.tagFile} found. */
export interface TagFileResult {
  /** `Uint32Array` of indices into the request's keys: matches (exact) or candidates (not exact). */
  matched: ArrayBuffer;
  /** Keys that passed key-range and bloom pruning. */
  candidates: number;
  /** Kernels that ran the bloom probe. */
  kernels: KernelsKind;
}

/** Merge one file group: the old base file's bytes (transferred) when there is one. */
export interface MergeFileGroupRequest extends WireMergeSpec {
  base?: ArrayBuffer;
}

/**
 * The new base file of a merged file group, as it crosses back: its bytes as a transferred ArrayBuffer, and
 * whether the worker's WASM kernels were in place when the merge began (its SNAPPY pages and bloom adds ran on them).
 */
export type MergeFileGroupResult = Omit<MergedFileGroup, 'bytes'> & { bytes: ArrayBuffer; kernels: 'wasm' | 'js' };

/**
 * Compact one file slice: the base file's bytes (transferred; none for a log-only slice), its log files' bytes
 * in log order (transferred) and which writes count, as plain data. The worker merges the slice and encodes
 * the merged rows as the new base file `fileName` (`updates`/`inserts` are empty).
 */
export interface CompactFileSliceRequest extends WireMergeSpec {
  base?: ArrayBuffer;
  logs: { path: string; bytes: ArrayBuffer }[];
  visibility: WireLogVisibility;
  merge: RecordMergerOptions;
}

/** A compacted slice's new base file (bytes transferred) and the corrupt log blocks its merge skipped. */
export type CompactFileSliceResult = MergeFileGroupResult & { warnings: LogScanWarning[] };

/**
 * The worker interface. Every method takes and returns structured-clone-friendly data; the pool transfers
 * the request's and result's ArrayBuffers. The same implementation runs inline when the pool has size 0.
 */
export interface WorkerApi {
  /** Set how kernels load (before any task; later calls replace kernels not yet loaded). */
  configure(config: WorkerConfig): Promise<void>;
  /** Which kernels this worker runs (loads them if needed). */
  kernelsInfo(): Promise<WorkerKernelsInfo>;
  /** Key-range + bloom pruning (WASM bloom probe) and the exact key check for one base file. */
  tagFile(request: TagFileRequest): Promise<TagFileResult>;
  /** Copy-on-write merge of one file group: decode old base file, merge, encode the new one. */
  mergeFileGroup(request: MergeFileGroupRequest): Promise<MergeFileGroupResult>;
  /** Compaction of one file slice: merge base file and logs, encode the new base file. */
  compactFileSlice(request: CompactFileSliceRequest): Promise<CompactFileSliceResult>;
}

/** Names of the task methods a pool runs. */
export type WorkerMethod = Exclude<keyof WorkerApi, 'configure'>;
/** The request type of a method. */
export type WorkerRequest<M extends WorkerMethod> = Parameters<WorkerApi[M]>[0];
/** The result type of a method. */
export type WorkerResult<M extends WorkerMethod> = Awaited<ReturnType<WorkerApi[M]>>;

/** ArrayBuffers of a result to transfer back to the caller. */
export function resultTransfers(result: unknown): ArrayBuffer[] {
  if (typeof result !== 'object' || result === null) return [];
  const r = result as { matched?: unknown; bytes?: unknown };
  const out: ArrayBuffer[] = [];
  if (r.matched instanceof ArrayBuffer) out.push(r.matched);
  if (r.bytes instanceof ArrayBuffer) out.push(r.bytes);
  return out;
}

/** The whole buffer behind `bytes`: the buffer itself when the view spans all of it, else a copy. */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  return bytes.slice().buffer as ArrayBuffer;
}
