// The copy-on-write merge handle: writes one bucket of a write (or one compacted slice) as a new base file.
// The I/O half: read the old base file (and a compacted slice's logs), run the pure merge (merge/cow-merge.ts,
// merge/slice-merge.ts) inline or on the worker pool, write the marker and the new file, build its write stat.
import type { BaseFile } from '../../file-group/file-slice.js';
import { baseFileName } from '../../file-group/file-names.js';
import { partitionFilePath } from '../../layout.js';
import type { BaseFileWriterOptions } from '../../format/parquet/write.js';
import type { Storage } from '../../storage/storage.js';
import type { WorkerPool } from '../../worker/pool.js';
import { ownBuffer, type MergeFileGroupResult } from '../../worker/worker-api.js';
import { mergeSpecToWire, wireBuffers } from '../../worker/record-wire.js';
import { yielder, yieldToEventLoop } from '../yield.js';
import { mergeFileGroupRows, type MergedFileGroup, type MergeFileGroupSpec } from '../../merge/cow-merge.js';
import type { RecordMergerOptions } from '../../merge/record-merger.js';
import { compactSlice, type SliceLogFile, type WireLogVisibility } from '../../merge/slice-merge.js';
import { storageBuffer } from '../../storage/async-buffer.js';
import { writeStat, type BucketResult } from './write-stat.js';
import type { CdcSupplementalLoggingMode } from '../../config/cdc-config.js';

/** A compacted slice's logs (read by the caller) and how they merge onto the base file. */
export interface CompactedSliceInput {
  logs: SliceLogFile[];
  visibility: WireLogVisibility;
  merge: RecordMergerOptions;
}

/** Everything one bucket's write needs: the merge spec (less what the handle derives) and the I/O around it. */
export interface MergeBucketInput extends Omit<MergeFileGroupSpec, 'fileName' | 'basePath' | 'writer' | 'collectKeys'> {
  storage: Storage;
  fileId: string;
  /** The group's latest base file; undefined for a new file group. */
  base: BaseFile | undefined;
  writer: Omit<BaseFileWriterOptions, 'schema'>;
  /** Called with the new file's path before it is written (markers). */
  beforeWrite: (path: string) => Promise<void>;
  /** Return the keys now in the file (the in-memory index needs them; others skip the cost). */
  collectKeys?: boolean;
  /**
   * Run the decode/merge/encode in this worker pool (the main thread only reads the old file and writes
   * the new one). Ignored when it has size 0 or the writer has compressor functions (they cannot cross).
   */
  pool?: WorkerPool | undefined;
  /**
   * Compaction: `base` and these logs are merged as a file slice (merge/slice-merge.ts) and the merged rows
   * written as they are; `updates`/`inserts` are then empty. On the pool, the merge runs in the worker too.
   */
  slice?: CompactedSliceInput;
  /** CDC-enabled table: its logging mode; a merge into an existing base file then writes a `.cdc` log (cdc-logger.ts). */
  cdc?: CdcSupplementalLoggingMode | undefined;
}

/**
 * Run the pure merge of `spec` on the pool when one is usable (the old base file is read whole on this thread
 * and transferred, with a compacted slice's logs), else inline over a ranged buffer of the old base file.
 */
export async function mergeFileGroup(storage: Storage, spec: MergeFileGroupSpec, base: BaseFile | undefined, pool: WorkerPool | undefined, compressors?: BaseFileWriterOptions['compressors'], slice?: CompactedSliceInput): Promise<MergedFileGroup> {
  if (pool && pool.size > 0 && !compressors) {
    const bytes = base ? ownBuffer(await storage.read(base.path)) : undefined;
    // The read's continuation (its bytes made a buffer) ends here: the records become columns from the next turn.
    if (bytes) await yieldToEventLoop();
    // The records cross as columns (worker/record-wire.ts), their packed vectors transferred, not cloned.
    const wire = await mergeSpecToWire(spec, yielder(WIRE_YIELD_EVERY));
    const transfers = [...(bytes ? [bytes] : []), ...wireBuffers(wire.updates), ...wireBuffers(wire.inserts)];
    if (slice) {
      const logs = slice.logs.map((l) => ({ path: l.path, bytes: ownBuffer(l.bytes) }));
      const request = { ...wire, ...(bytes ? { base: bytes } : {}), logs, visibility: slice.visibility, merge: slice.merge };
      return mergedFromWorker(await pool.run('compactFileSlice', request, [...transfers, ...logs.map((l) => l.bytes)]));
    }
    return mergedFromWorker(await pool.run('mergeFileGroup', { ...wire, ...(bytes ? { base: bytes } : {}) }, transfers));
  }
  const file = base ? await storageBuffer(storage, base.path, base.size || undefined) : undefined;
  if (slice) return compactSlice(spec, file, slice.logs, slice.visibility, slice.merge, compressors);
  return mergeFileGroupRows(spec, file, compressors);
}

/** Records turned into columns for a worker between two turns of the event loop (a page stays responsive). */
const WIRE_YIELD_EVERY = 1024;

/** A worker's merge result as the inline merge returns it (the kernels it ran on stay behind). */
function mergedFromWorker<R extends MergeFileGroupResult>(r: R): Omit<R, 'bytes' | 'kernels'> & { bytes: Uint8Array } {
  const { bytes, kernels, ...rest } = r;
  void kernels;
  return { ...rest, bytes: new Uint8Array(bytes) };
}

/** Write one bucket: merge into the existing base file (if any) and write the new base file. */
export async function mergeBucket(input: MergeBucketInput): Promise<BucketResult> {
  const { storage, fileId, base, writer, beforeWrite, collectKeys, pool, slice, cdc, ...rest } = input;
  const name = baseFileName(fileId, `${input.taskId}-0-0`, input.instantTime);
  const path = partitionFilePath(input.partitionPath, name);
  const { compressors, ...wire } = writer;
  const spec: MergeFileGroupSpec = { ...rest, fileName: name, ...(base ? { basePath: base.path } : {}), writer: wire, collectKeys: collectKeys ?? false };
  const merged = await mergeFileGroup(storage, spec, base, pool, compressors, slice);
  await beforeWrite(path);
  await storage.write(path, merged.bytes);
  const stat = writeStat(
    { fileId, path, partitionPath: input.partitionPath, prevCommit: base?.instantTime, bytes: merged.bytes.length },
    { numWrites: merged.rowCount, numDeletes: merged.deleted, numUpdateWrites: merged.updated, numInserts: merged.inserted },
  );
  // Hudi's HoodieMergeHandleWithChangeLog: a new file group's changes are inferred from its base file instead.
  if (cdc && base) {
    // Loaded only for CDC-enabled tables.
    const { writeCdcLog } = await import('./cdc-logger.js');
    const cdcStats = await writeCdcLog({ storage, mode: cdc, instantTime: input.instantTime, partitionPath: input.partitionPath, fileId, writeToken: `${input.taskId}-0-0`, schema: input.schema, base, newPath: path, newBytes: merged.bytes });
    if (cdcStats) stat.raw = { cdcStats };
  }
  return { stat, inserted: merged.inserted, updated: merged.updated, deleted: merged.deleted, keys: merged.keys };
}
