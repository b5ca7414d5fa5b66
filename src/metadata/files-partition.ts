// The `files` partition (hudi-v9-write.md §4.3): the `__all_partitions__` record and one file-list record per
// data partition (`.` when non-partitioned) mapping file names to {size, isDeleted}; Hudi's merge of two such
// records (newer wins per file, a tombstone deletes, sizes take the max — HoodieMetadataPayload's
// combineFileSystemMetadata); and the merged records turned into the data table's listing.
import { corruptFile } from '../errors.js';
import { partitionIdentifier, NON_PARTITIONED_NAME } from './keys.js';
import { emptyMetadataRecord, METADATA_RECORD_TYPE, type HoodieMetadataRecord, type MetadataFileInfo } from './metadata-record.js';

/** Key of the record listing the data table's partitions. */
export const ALL_PARTITIONS_KEY = '__all_partitions__';

/** The data table's files per partition path (`""` = non-partitioned): file name → size in bytes. */
export type MetadataListing = Map<string, Map<string, number>>;

/** What one data instant changed in one partition, for the `files` records. */
export interface PartitionFilesChange {
  /** Data partition path (`""` when non-partitioned). */
  partitionPath: string;
  /** Files the instant added (base and log files alike): name → size (> 0). */
  added?: Readonly<Record<string, number>>;
  /** Files the instant removed (a clean, a rollback): names, written as tombstones. */
  deleted?: readonly string[];
}

/**
 * The `files` records of one instant: `__all_partitions__` naming every touched partition with `{size 0,
 * isDeleted}` (`deletedPartitions` are marked deleted), then one file-list record per touched partition.
 */
export function filesPartitionRecords(changes: readonly PartitionFilesChange[], deletedPartitions: readonly string[] = []): HoodieMetadataRecord[] {
  const all = emptyMetadataRecord(ALL_PARTITIONS_KEY, METADATA_RECORD_TYPE.ALL_PARTITIONS);
  const partitions: Record<string, MetadataFileInfo> = {};
  for (const c of changes) partitions[partitionIdentifier(c.partitionPath)] = { size: 0, isDeleted: false };
  for (const p of deletedPartitions) partitions[partitionIdentifier(p)] = { size: 0, isDeleted: true };
  all.filesystemMetadata = partitions;
  const out = [all];
  for (const c of changes) {
    const files: Record<string, MetadataFileInfo> = {};
    for (const [name, size] of Object.entries(c.added ?? {})) files[name] = { size, isDeleted: false };
    for (const name of c.deleted ?? []) files[name] = { size: 0, isDeleted: true };
    const record = emptyMetadataRecord(partitionIdentifier(c.partitionPath), METADATA_RECORD_TYPE.FILE_LIST);
    record.filesystemMetadata = files;
    out.push(record);
  }
  return out;
}

/**
 * Merge a newer file map into an older one (Java's combineFileSystemMetadata): the older entries, then per newer
 * entry — a tombstone removes a listed file (and is dropped), or stays as a tombstone when the file was not listed
 * (so a later merge with an older base still deletes it); a live entry takes the larger of the two sizes.
 */
export function mergeFileInfos(older: Readonly<Record<string, MetadataFileInfo>>, newer: Readonly<Record<string, MetadataFileInfo>>): Record<string, MetadataFileInfo> {
  const out = new Map<string, MetadataFileInfo>(Object.entries(older));
  for (const [name, info] of Object.entries(newer)) {
    const old = out.get(name);
    if (old === undefined) out.set(name, { ...info });
    else if (info.isDeleted) {
      if (old.isDeleted) out.set(name, { ...info });
      else out.delete(name);
    } else out.set(name, { size: Math.max(info.size, old.size), isDeleted: false });
  }
  return toRecord(out);
}

function toRecord(m: Map<string, MetadataFileInfo>): Record<string, MetadataFileInfo> {
  const out: Record<string, MetadataFileInfo> = {};
  for (const [k, v] of m) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

/** The data partition path a `files` key names (`.` → `""`). */
export function partitionPathOfFilesKey(key: string): string {
  return key === NON_PARTITIONED_NAME ? '' : key;
}

/**
 * The data table's listing from the merged `files` records (one per key), as Java lists it: the live partitions
 * of `__all_partitions__`, each with the live files of its file-list record (tombstones left out; no record →
 * no files). File-list records of partitions `__all_partitions__` does not name are not listed (validation
 * reports them); without an `__all_partitions__` record every file-list record is. A record of another type →
 * `CORRUPT_FILE` naming `path`.
 */
export function metadataListing(records: Iterable<HoodieMetadataRecord>, path?: string): MetadataListing {
  let partitions: Record<string, MetadataFileInfo> | undefined;
  const fileLists = new Map<string, Record<string, MetadataFileInfo>>();
  for (const r of records) {
    if (r.key === ALL_PARTITIONS_KEY && r.type === METADATA_RECORD_TYPE.ALL_PARTITIONS) partitions = r.filesystemMetadata ?? {};
    else if (r.type === METADATA_RECORD_TYPE.FILE_LIST) fileLists.set(r.key, r.filesystemMetadata ?? {});
    else throw corruptFile(`metadata: the files partition holds a record of type ${r.type} under ${JSON.stringify(r.key)}`, path);
  }
  const keys = partitions === undefined ? [...fileLists.keys()] : Object.entries(partitions).filter(([, i]) => !i.isDeleted).map(([k]) => k);
  const listing: MetadataListing = new Map();
  for (const key of keys) {
    const entries = new Map<string, number>();
    for (const [name, info] of Object.entries(fileLists.get(key) ?? {})) if (!info.isDeleted) entries.set(name, info.size);
    listing.set(partitionPathOfFilesKey(key), entries);
  }
  return listing;
}
