// What a reader asks the metadata table (hudi-v9-write.md §4.5): the data table's file listing from `files`,
// record-key locations from `record_index` (point lookups in the file group each key hashes to), and a column's
// statistics from `column_stats` / `partition_stats` (prefix lookups on the column's hash). Each function opens
// the MDT itself unless given one; none is wired into TableState — the integrator calls them.
import { corruptFile } from '../../errors.js';
import type { ColumnStatsMetadata } from '../../metadata/column-stats-codec.js';
import { metadataListing, type MetadataListing } from '../../metadata/files-partition.js';
import { hashIdBase64, metadataFileGroupIndex } from '../../metadata/keys.js';
import type { MetadataFileSlice } from '../../metadata/metadata-file-slices.js';
import { METADATA_PARTITION, parseMetadataFileGroupId } from '../../metadata/metadata-partitions.js';
import { recordIndexFileId } from '../../metadata/record-index.js';
import type { FileInfo, Storage } from '../../storage/storage.js';
import { partitionFilePath } from '../../layout.js';
import { readMetadataSlice } from './metadata-slice-reader.js';
import { openMetadataTable, type MetadataTable, type OpenMetadataTableOptions } from './metadata-table.js';

/** Options of the metadata reads: the data table's config and timeline when already loaded, or an opened MDT. */
export interface MetadataReadOptions extends OpenMetadataTableOptions {
  /** An MDT opened by {@link openMetadataTable} (reused across reads of one snapshot). */
  metadataTable?: MetadataTable;
}

async function open(storage: Storage, options: MetadataReadOptions, partition: string): Promise<MetadataTable | undefined> {
  const mdt = options.metadataTable ?? (await openMetadataTable(storage, options));
  return mdt !== undefined && mdt.partitions.includes(partition) ? mdt : undefined;
}

/**
 * The data table's files per partition (`""` = non-partitioned; file name → size) from the MDT's `files`
 * partition, or undefined when the table has no MDT or does not list `files` as built. Needs the data table's
 * `storage` (rooted at the table) and, to avoid reading them again, its config and active timeline: MDT
 * deltacommits count only when their data instant completed (Java's rule). The listing names committed files
 * only; a caller still filters by its own snapshot instant (file names carry the writing instant), and files of
 * replaced file groups stay listed until a clean removes them (the file-system view hides them, as with storage).
 * {@link metadataListingFiles} turns it into the `FileInfo` list a `FileSystemView` is built from.
 */
export async function readMetadataListing(storage: Storage, options: MetadataReadOptions = {}): Promise<MetadataListing | undefined> {
  const mdt = await open(storage, options, METADATA_PARTITION.FILES);
  if (!mdt) return undefined;
  const records = (await Promise.all((await mdt.latestSlices(METADATA_PARTITION.FILES)).map((s) => readMetadataSlice(mdt, s)))).flat();
  return metadataListing(records, `${METADATA_PARTITION.FILES} partition of the metadata table`);
}

/** The listing as the storage-style file list a `FileSystemView` takes (paths relative to the table root, sorted). */
export function metadataListingFiles(listing: MetadataListing): FileInfo[] {
  const out: FileInfo[] = [];
  for (const [partition, files] of listing) for (const [name, size] of files) out.push({ path: partitionFilePath(partition, name), size, kind: 'file' });
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Where the record index puts a record key. */
export interface RecordIndexLocation {
  /** Data partition path (`""` when non-partitioned). */
  partitionPath: string;
  /** The data file group holding the key. */
  fileId: string;
  /** Epoch millis of the instant that wrote the key there. */
  instantTime: number | null;
}

/** The slices of a hashed partition, indexed by file-group number; gaps or foreign file ids → `CORRUPT_FILE`. */
function slicesByGroup(partition: string, slices: readonly MetadataFileSlice[]): MetadataFileSlice[] {
  const out: MetadataFileSlice[] = [];
  for (const s of slices) {
    const n = parseMetadataFileGroupId(partition, s.fileId);
    if (n === undefined) throw corruptFile(`metadata: file group ${JSON.stringify(s.fileId)} does not belong to the ${partition} partition`, s.baseFile?.path ?? s.logFiles[0]?.path);
    out[n] = s;
  }
  for (let i = 0; i < out.length; i++) if (out[i] === undefined) throw corruptFile(`metadata: the ${partition} partition has no file group ${i} of ${out.length}`, partition);
  return out;
}

/**
 * Record-index lookups: for each key present in `record_index`, its partition and file group. Keys are hashed
 * to their MDT file group (Java's String.hashCode rule over the listed group count) and looked up in that group's
 * HFiles only. Undefined when the table has no record index in its MDT.
 */
export async function lookupRecordIndex(storage: Storage, keys: Iterable<string>, options: MetadataReadOptions = {}): Promise<Map<string, RecordIndexLocation> | undefined> {
  const mdt = await open(storage, options, METADATA_PARTITION.RECORD_INDEX);
  if (!mdt) return undefined;
  const groups = slicesByGroup(METADATA_PARTITION.RECORD_INDEX, await mdt.latestSlices(METADATA_PARTITION.RECORD_INDEX));
  const found = new Map<string, RecordIndexLocation>();
  if (groups.length === 0) return found;
  const perGroup = new Map<number, string[]>();
  for (const key of new Set(keys)) {
    const g = metadataFileGroupIndex(key, groups.length);
    perGroup.set(g, [...(perGroup.get(g) ?? []), key]);
  }
  await Promise.all([...perGroup].map(async ([g, groupKeys]) => {
    const slice = groups[g] as MetadataFileSlice;
    for (const r of await readMetadataSlice(mdt, slice, { kind: 'keys', keys: groupKeys })) {
      const info = r.recordIndexMetadata;
      if (!info) continue;
      found.set(r.key, { partitionPath: info.partitionName ?? '', fileId: recordIndexFileId(info, slice.fileId), instantTime: info.instantTime });
    }
  }));
  return found;
}

/**
 * The live statistics of one column: per data file from `column_stats` (`partition: 'column_stats'`, the
 * default) or per data partition from `partition_stats`. Reads only the entries under the column's hash prefix
 * in every file group. Undefined when that MDT partition is not built.
 */
export async function readColumnStats(storage: Storage, column: string, options: MetadataReadOptions & { partition?: 'column_stats' | 'partition_stats' } = {}): Promise<ColumnStatsMetadata[] | undefined> {
  const partition = options.partition ?? METADATA_PARTITION.COLUMN_STATS;
  const mdt = await open(storage, options, partition);
  if (!mdt) return undefined;
  const prefix = hashIdBase64(column);
  const slices = await mdt.latestSlices(partition);
  const records = (await Promise.all(slices.map((s) => readMetadataSlice(mdt, s, { kind: 'prefix', prefix })))).flat();
  return records.map((r) => r.columnStatsMetadata).filter((s): s is ColumnStatsMetadata => s !== null && !s.isDeleted && s.columnName === column);
}
