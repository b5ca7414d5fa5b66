// Step 3 of a write, tagging (Hudi's HoodieIndex): the `Index` interface every index type implements — `tag`
// finds where incoming keys live and routes the records (updates per file group, partition moves, inserts,
// deletes by key), `update` keeps the index in step after the commit — and the live keys of a slice it reads.
import type { FileSlice } from '../../file-group/file-slice.js';
import type { IndexType, TagMap } from '../../index/index-type.js';
import { deletesAt, moveCandidates, requiresTagging, routeTagged, untagged, type GroupUpdates, type LocatedKey, type PartitionMoveDecision, type TaggedRecords } from '../../index/tagging.js';
import type { HoodieRecord } from '../../merge/hoodie-record.js';
import type { Bucket } from '../../plan/bucket-assignment.js';
import type { Storage } from '../../storage/storage.js';
import { readParquetFooter, readParquetRows } from '../../format/parquet/read.js';
import { storageBuffer } from '../../storage/async-buffer.js';
import type { OrderingKind } from '../../schema/compare.js';
import { readFileSlice } from '../read/file-slice-reader.js';
import type { WriteWarning } from '../services/post-commit.js';
import type { TableState } from '../table-state.js';
import { yielder } from '../yield.js';
import type { BucketResult } from './bucket-writer.js';
import { decidePartitionMoves } from './partition-move.js';
import type { ResolvedWriteOptions } from './write-options.js';

export type { TagMap, TaggedRecords };

/** What tagging needs from the write. */
export interface TagInput {
  /** The table state the write started from. */
  state: TableState;
  /** Hudi's operation type: only `UPSERT` and `DELETE` look keys up (the rest are inserts). */
  operation: string;
  /** The write's (deduplicated) records. */
  records: readonly HoodieRecord[];
  /** DELETE by record keys alone (no partitions): every file group holding a key gets its delete. */
  byKey: boolean;
  /** The latest file slices, and the same keyed by `fileGroupKey`. */
  slices: readonly FileSlice[];
  sliceOf: ReadonlyMap<string, FileSlice>;
  /** The ordering fields present in the schema and their kinds (partition moves, merged keys of log slices). */
  merge: { orderingFields: readonly string[]; orderingKinds: readonly OrderingKind[] };
  options: ResolvedWriteOptions;
}

/** What a committed write did, for index upkeep. */
export interface CommittedWrite {
  state: TableState;
  instantTime: string;
  /** An overwrite (insert overwrite, delete partition): whole file groups were replaced. */
  replacing: boolean;
  /** The tagged updates (deletes included) per file group, and the inserts of each bucket. */
  updates: GroupUpdates;
  buckets: readonly Bucket[];
  insertsByBucket: readonly (readonly HoodieRecord[])[];
  /** File groups replaced, per partition. */
  replaced: ReadonlyMap<string, readonly string[]>;
  /** What each bucket wrote (file group, keys written). */
  results: readonly BucketResult[];
  sliceOf: ReadonlyMap<string, FileSlice>;
  merge: TagInput['merge'];
  options: ResolvedWriteOptions;
}

/** A record-key index (Hudi's `HoodieIndex`: `tagLocation` and `updateLocation`). */
export interface Index {
  readonly type: IndexType;
  /** Route the write's records by where their keys live now. */
  tag(input: TagInput): Promise<TaggedRecords>;
  /** After the commit: keep the index in step. A failure is a warning (the commit stands), never a throw. */
  update(commit: CommittedWrite): Promise<WriteWarning[]>;
}

/** How an index finds keys; {@link tagWith} builds the routing on it. */
export interface KeyLocator {
  /** The current location of each record's key (`lookupKey(global, partition, key)` → location). */
  locate(records: readonly HoodieRecord[]): Promise<TagMap>;
  /** Every file group holding each key, in any partition (DELETE by key). Default: the keys of every slice. */
  locateEverywhere?(keys: readonly string[]): Promise<LocatedKey[]>;
}

/**
 * Tag the write's records with `locator`: writes that do not tag make inserts of everything; deletes by key
 * go to every group holding the key; otherwise the keys are looked up, a global index's partition moves are
 * decided by the stored record (Hudi's rule, see `decidePartitionMoves`), and the records routed.
 */
export async function tagWith(input: TagInput, global: boolean, locator: KeyLocator): Promise<TaggedRecords> {
  const { records, options } = input;
  if (!requiresTagging(input.operation)) return untagged(records);
  options.onProgress({ phase: 'index', done: 0, total: records.length });
  let tagged: TaggedRecords;
  if (input.byKey) {
    const keys = records.map((r) => r.recordKey);
    tagged = deletesAt(locator.locateEverywhere ? await locator.locateEverywhere(keys) : await keysInSlices(input, keys));
  } else {
    const tags = await locator.locate(records);
    const moves = global
      ? await decidePartitionMoves(input.state, input.sliceOf, moveCandidates(records, tags), input.merge)
      : new Map<HoodieRecord, PartitionMoveDecision>();
    tagged = await routeTagged(records, tags, global, moves, yielder(2000));
  }
  options.onProgress({ phase: 'index', done: records.length, total: records.length });
  return tagged;
}

/** Where each of `keys` lives, from the live keys of every latest slice. */
async function keysInSlices(input: TagInput, keys: readonly string[]): Promise<LocatedKey[]> {
  const wanted = new Set(keys);
  const readKeys = sliceKeyReaderFor(input.state, input.merge.orderingFields, input.merge.orderingKinds);
  const out: LocatedKey[] = [];
  for (const slice of input.slices) {
    for (const key of await readKeys(slice)) if (wanted.has(key)) out.push({ recordKey: key, partitionPath: slice.partitionPath, fileId: slice.fileId });
  }
  return out;
}

/** Reads the live record keys of a file slice (merge-on-read slices with logs: after merging them). */
export type SliceKeyReader = (slice: FileSlice) => Promise<string[]>;

/**
 * The live keys of a table's slices: a base file's key column, or for merge-on-read slices with logs the keys
 * left after merging them (deletes and partition moves in logs must not leave stale locations behind).
 */
export function sliceKeyReaderFor(state: TableState, orderingFields: readonly string[], orderingKinds: readonly OrderingKind[]): SliceKeyReader {
  const { storage, config } = state;
  return async (slice) => {
    if (slice.logFiles.length === 0) return readBaseFileKeys(storage, slice);
    const rows = await readFileSlice(
      { storage, config, timeline: state.timeline, asOf: undefined, merge: { mode: config.recordMergeMode, orderingFields, orderingKinds }, onWarning: () => undefined },
      slice,
      { columns: ['_hoodie_record_key', ...orderingFields], filters: [], baseOnly: false },
    );
    return rows.map((r) => String(r._hoodie_record_key));
  };
}

/** Keys of one base file, read from its `_hoodie_record_key` column. */
export async function readBaseFileKeys(storage: Storage, slice: FileSlice): Promise<string[]> {
  const base = slice.baseFile;
  if (!base) return [];
  const file = await storageBuffer(storage, base.path, base.size || undefined);
  const footer = await readParquetFooter(file, base.path);
  const rows = await readParquetRows(file, footer, base.path, { columns: ['_hoodie_record_key'] });
  return rows.map((r) => String(r._hoodie_record_key));
}
