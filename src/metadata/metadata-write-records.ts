// What one data instant appends to the metadata table (hudi-v9-write.md §4.4): per MDT partition the table
// lists, the records for each file group that receives any — `files` from the write stats (new base and log
// files, sizes from fileSizeInBytes, the max when a file is named twice) and tombstones of removed files;
// `record_index` upserts for inserted or moved keys and DELETE-block records for deleted keys; `column_stats` of
// the new files and `partition_stats` of the touched partitions (stats the caller computed, column-stats.ts).
// Pure: the MDT writer only encodes the HFILE_DATA / DELETE blocks and does the I/O.
import { invalidArgument, unsupported } from '../errors.js';
import type { DeleteRecordInput } from '../format/log/delete-block.js';
import { baseName } from '../layout.js';
import type { WriteStat } from '../timeline/commit-metadata.js';
import type { ColumnStatsMetadata } from './column-stats-codec.js';
import { columnStatsRecords, partitionStatsRecords } from './column-stats.js';
import { filesPartitionRecords, type PartitionFilesChange } from './files-partition.js';
import { metadataFileGroupIndex } from './keys.js';
import type { HoodieMetadataRecord } from './metadata-record.js';
import { METADATA_PARTITION, metadataFileGroupId } from './metadata-partitions.js';
import { recordIndexDelete, recordIndexRecord } from './record-index.js';

/** A key the data instant placed (inserted, or moved to another file group). */
export interface RecordIndexUpsert {
  key: string;
  partitionPath: string;
  fileId: string;
}

/** What a data instant changed, as the MDT record builders need it. */
export interface MetadataWriteInput {
  /** The MDT partitions the data table lists (`hoodie.table.metadata.partitions`). */
  partitions: readonly string[];
  /** File groups per MDT partition (found by listing the MDT; defaults: files 1). */
  fileGroupCounts: Readonly<Record<string, number>>;
  /** The data instant's write stats (files written). */
  writeStats?: readonly WriteStat[];
  /** Files the instant removed (a clean), per data partition. */
  deletedFiles?: readonly { partitionPath: string; fileNames: readonly string[] }[];
  /** Data partitions the instant dropped (delete_partition): marked deleted in `__all_partitions__`. */
  deletedPartitions?: readonly string[];
  /** Record-index changes: needed when `record_index` is listed. */
  recordIndex?: { upserts: readonly RecordIndexUpsert[]; deletes: readonly string[] };
  /** Epoch millis of the data instant in the table's timeline zone (record_index instantTime). */
  instantMillis?: number;
  /** Column stats of each new file: needed when `column_stats` is listed. */
  columnStats?: readonly { partitionPath: string; stats: readonly ColumnStatsMetadata[] }[];
  /** Per touched partition, the column stats of every file of its latest slices: needed for `partition_stats`. */
  partitionStats?: readonly { partitionPath: string; fileStats: readonly ColumnStatsMetadata[] }[];
}

/** The records one MDT file group receives from a data instant. */
export interface MetadataFileGroupWrite {
  partition: string;
  /** File-group number within the partition. */
  fileGroup: number;
  /** Its file id (`files-0000-0`, `record-index-0004-0`, …). */
  fileId: string;
  /** Upserts for the HFILE_DATA block, sorted by key bytes. */
  upserts: HoodieMetadataRecord[];
  /** Keys for the DELETE block. */
  deletes: DeleteRecordInput[];
}

const utf8 = new TextEncoder();
/** Sorts records by their keys' UTF-8 bytes (stable), each key encoded once rather than on every comparison. */
function sortByKeyBytes(records: HoodieMetadataRecord[]): void {
  const keyed = records.map((r) => ({ r, k: utf8.encode(r.key) }));
  keyed.sort(({ k: x }, { k: y }) => {
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
    return x.length - y.length;
  });
  for (const [i, { r }] of keyed.entries()) records[i] = r;
}

/** The `files` changes of write stats and removed files, one per touched partition in first-seen order. */
export function filesChanges(writeStats: readonly WriteStat[], deleted: MetadataWriteInput['deletedFiles'] = []): PartitionFilesChange[] {
  const added = new Map<string, Record<string, number>>();
  const removed = new Map<string, string[]>();
  for (const s of writeStats) {
    if (s.path === undefined) continue;
    const files = added.get(s.partitionPath) ?? {};
    const name = baseName(s.path);
    files[name] = Math.max(files[name] ?? 0, s.fileSizeInBytes);
    added.set(s.partitionPath, files);
  }
  for (const d of deleted) removed.set(d.partitionPath, [...(removed.get(d.partitionPath) ?? []), ...d.fileNames]);
  const partitions = [...new Set([...added.keys(), ...removed.keys()])];
  return partitions.map((p) => ({ partitionPath: p, added: added.get(p) ?? {}, deleted: removed.get(p) ?? [] }));
}

const MAINTAINED: ReadonlySet<string> = new Set([METADATA_PARTITION.FILES, METADATA_PARTITION.RECORD_INDEX, METADATA_PARTITION.COLUMN_STATS, METADATA_PARTITION.PARTITION_STATS]);

/**
 * The MDT records of one data instant, per file group that receives any (see the file header). A listed MDT
 * partition lakelet does not maintain (bloom filters, secondary and expression indexes) → `UNSUPPORTED`; a
 * listed partition whose input is missing, or a file-group count that is not positive → `INVALID_ARGUMENT`
 * (an index is maintained completely or not at all).
 */
export function metadataWriteRecords(input: MetadataWriteInput): MetadataFileGroupWrite[] {
  const out = new Map<string, MetadataFileGroupWrite>();
  const target = (partition: string, key: string): MetadataFileGroupWrite => {
    const count = input.fileGroupCounts[partition] ?? (partition === METADATA_PARTITION.FILES ? 1 : undefined);
    if (count === undefined || !Number.isInteger(count) || count < 1) throw invalidArgument(`metadata: no file-group count for the ${partition} partition`, { field: `fileGroupCounts.${partition}`, value: count });
    const g = metadataFileGroupIndex(key, count);
    const id = `${partition}\u0000${g}`;
    let w = out.get(id);
    if (!w) out.set(id, (w = { partition, fileGroup: g, fileId: metadataFileGroupId(partition, g), upserts: [], deletes: [] }));
    return w;
  };
  const need = <T>(partition: string, v: T | undefined, what: string): T => {
    if (v === undefined) throw invalidArgument(`metadata: the ${partition} partition is listed but the write gave no ${what}`, { field: what });
    return v;
  };
  for (const partition of input.partitions) {
    if (!MAINTAINED.has(partition)) throw unsupported(`metadata: lakelet does not maintain the ${partition} metadata partition`, { field: 'hoodie.table.metadata.partitions', value: partition });
    let records: HoodieMetadataRecord[] = [];
    if (partition === METADATA_PARTITION.FILES) records = filesPartitionRecords(filesChanges(input.writeStats ?? [], input.deletedFiles), input.deletedPartitions);
    else if (partition === METADATA_PARTITION.RECORD_INDEX) {
      const ri = need(partition, input.recordIndex, 'recordIndex');
      const millis = ri.upserts.length > 0 ? need(partition, input.instantMillis, 'instantMillis') : 0;
      records = ri.upserts.map((u) => recordIndexRecord(u.key, u.partitionPath, u.fileId, millis));
      const placed = new Set(ri.upserts.map((u) => u.key)); // a key deleted and placed again is an upsert
      for (const key of ri.deletes) if (!placed.has(key)) target(partition, key).deletes.push(recordIndexDelete(key));
    } else if (partition === METADATA_PARTITION.COLUMN_STATS) {
      records = need(partition, input.columnStats, 'columnStats').flatMap((f) => columnStatsRecords(f.partitionPath, f.stats));
    } else {
      records = need(partition, input.partitionStats, 'partitionStats').filter((p) => p.fileStats.length > 0).flatMap((p) => partitionStatsRecords(p.partitionPath, p.fileStats));
    }
    for (const r of records) target(partition, r.key).upserts.push(r);
  }
  const writes = [...out.values()];
  for (const w of writes) sortByKeyBytes(w.upserts);
  return writes.sort((a, b) => (a.partition < b.partition ? -1 : a.partition > b.partition ? 1 : a.fileGroup - b.fileGroup));
}
