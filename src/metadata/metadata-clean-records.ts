// What a data-table clean appends to the metadata table (Java's HoodieTableMetadataUtil.convertMetadataToRecords
// for HoodieCleanMetadata): `files` tombstones of the deleted files (and deleted partitions marked in
// `__all_partitions__`), and — when `column_stats` is listed — one deleted stats record per deleted file and indexed
// column (Java's HoodieColumnRangeMetadata.stub: no min/max, counts -1, isDeleted). Nothing for `record_index`
// (a clean removes no live key) or `partition_stats` (a clean never touches a partition's latest slices). Pure.
import { unsupported } from '../errors.js';
import type { ColumnStatsMetadata } from './column-stats-codec.js';
import { METADATA_PARTITION } from './metadata-partitions.js';
import { metadataWriteRecords, type MetadataFileGroupWrite, type MetadataWriteInput } from './metadata-write-records.js';

/** What {@link cleanMetadataRecords} needs. */
export interface CleanMetadataInput {
  /** The MDT partitions the data table lists. */
  partitions: readonly string[];
  /** File groups per MDT partition (found by listing the MDT). */
  fileGroupCounts: Readonly<Record<string, number>>;
  /** The files the clean deleted, per data partition (file names). */
  deletedFiles: NonNullable<MetadataWriteInput['deletedFiles']>;
  /** Data partitions the clean removed. */
  deletedPartitions?: readonly string[];
  /** The indexed columns (`columnsToIndex`): needed when `column_stats` is listed. */
  columns?: readonly string[];
}

/** The deleted column-stats entry of one (file, column), as Java's stub range writes it. */
export function deletedColumnStats(fileName: string, column: string): ColumnStatsMetadata {
  return { fileName, columnName: column, minValue: null, maxValue: null, valueCount: -1, nullCount: -1, totalSize: -1, totalUncompressedSize: -1, isDeleted: true, isTightBound: false, valueType: null };
}

/**
 * The MDT records of a clean, per receiving file group (see the file header). A listed partition lakelet does not
 * maintain → `UNSUPPORTED` naming it; `column_stats` listed without `columns` → `INVALID_ARGUMENT`.
 */
export function cleanMetadataRecords(input: CleanMetadataInput): MetadataFileGroupWrite[] {
  const maintained = new Set<string>([METADATA_PARTITION.FILES, METADATA_PARTITION.RECORD_INDEX, METADATA_PARTITION.COLUMN_STATS, METADATA_PARTITION.PARTITION_STATS]);
  for (const p of input.partitions) if (!maintained.has(p)) throw unsupported(`metadata: lakelet does not maintain the ${p} metadata partition`, { field: 'hoodie.table.metadata.partitions', value: p });
  const writes = input.partitions.includes(METADATA_PARTITION.FILES)
    ? metadataWriteRecords({ partitions: [METADATA_PARTITION.FILES], fileGroupCounts: input.fileGroupCounts, deletedFiles: input.deletedFiles, ...(input.deletedPartitions ? { deletedPartitions: input.deletedPartitions } : {}) })
    : [];
  if (!input.partitions.includes(METADATA_PARTITION.COLUMN_STATS)) return writes;
  // metadataWriteRecords places and sorts them; without `columns` it refuses the listed partition.
  const columns = input.columns;
  const columnStats = columns === undefined ? undefined : input.deletedFiles.map((d) => ({ partitionPath: d.partitionPath, stats: d.fileNames.flatMap((f) => columns.map((c) => deletedColumnStats(f, c))) }));
  return [...writes, ...metadataWriteRecords({ partitions: [METADATA_PARTITION.COLUMN_STATS], fileGroupCounts: input.fileGroupCounts, ...(columnStats ? { columnStats } : {}) })];
}
