// The metadata table's partitions and their file groups (hudi-v9-write.md §4.1): partition names, file-group ids
// `<prefix>NNNN-0` (Java's MetadataPartitionType file-id prefixes; secondary/expression indexes use the partition
// name with dashes), the default file-group counts, and the partition initialisation instants
// `00000000000000` + a 3-digit offset (`00000000000000000` for files, `…001`, `…002`, …).
import { invalidArgument } from '../errors.js';

/** The MDT partitions Hudi 1.x defines under fixed names. */
export const METADATA_PARTITION = {
  FILES: 'files',
  COLUMN_STATS: 'column_stats',
  PARTITION_STATS: 'partition_stats',
  RECORD_INDEX: 'record_index',
  BLOOM_FILTERS: 'bloom_filters',
} as const;

/** Prefix of partitions holding secondary indexes (`secondary_index_<name>`). */
export const SECONDARY_INDEX_PREFIX = 'secondary_index_';
/** Prefix of partitions holding expression indexes (`expr_index_<name>`). */
export const EXPRESSION_INDEX_PREFIX = 'expr_index_';

const FIXED_PREFIXES: Record<string, string> = {
  files: 'files-',
  column_stats: 'col-stats-',
  partition_stats: 'partition-stats-',
  record_index: 'record-index-',
  bloom_filters: 'bloom-filters-',
};

/**
 * The file-id prefix of an MDT partition's file groups: `files-`, `col-stats-`, `partition-stats-`,
 * `record-index-`, `bloom-filters-`, and for index partitions the name with `_` → `-` (e.g.
 * `secondary-index-rider-idx-`). Any other name → `INVALID_ARGUMENT` naming it.
 */
export function fileGroupIdPrefix(partition: string): string {
  const fixed = FIXED_PREFIXES[partition];
  if (fixed !== undefined) return fixed;
  if (partition.startsWith(SECONDARY_INDEX_PREFIX) || partition.startsWith(EXPRESSION_INDEX_PREFIX)) return `${partition.replace(/_/g, '-')}-`;
  throw invalidArgument(`metadata: ${JSON.stringify(partition)} is not a metadata table partition`, { field: 'partition', value: partition });
}

/** The file id of file group `index` (0-based) of an MDT partition: `<prefix><index, 4 digits>-0`. */
export function metadataFileGroupId(partition: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > 9999) throw invalidArgument(`metadata: file group index ${index} is out of range 0..9999`, { field: 'index', value: index });
  return `${fileGroupIdPrefix(partition)}${String(index).padStart(4, '0')}-0`;
}

/** The index of an MDT file id within its partition (`col-stats-0001-0` → 1), or undefined when it is not one of the partition's. */
export function parseMetadataFileGroupId(partition: string, fileId: string): number | undefined {
  const prefix = fileGroupIdPrefix(partition);
  if (!fileId.startsWith(prefix)) return undefined;
  const m = /^(\d{4})-(\d+)$/.exec(fileId.slice(prefix.length));
  return m ? Number(m[1]) : undefined;
}

/** Java's default file-group count of a partition when it is initialised (record index: its minimum, 10). */
export const DEFAULT_FILE_GROUP_COUNT: Readonly<Record<string, number>> = {
  files: 1,
  column_stats: 2,
  partition_stats: 1,
  record_index: 10,
  bloom_filters: 4,
};

/** Java's SOLO_COMMIT_TIMESTAMP: the 14 zero digits partition initialisation instants start with. */
const SOLO_COMMIT_TIMESTAMP = '00000000000000';

/** The initialisation instant of the MDT partition initialised `offset`-th (0 → `00000000000000000`). */
export function metadataPartitionInitInstant(offset: number): string {
  if (!Number.isInteger(offset) || offset < 0 || offset > 999) throw invalidArgument(`metadata: partition init offset ${offset} is out of range 0..999`, { field: 'offset', value: offset });
  return SOLO_COMMIT_TIMESTAMP + String(offset).padStart(3, '0');
}

/** Is `instantTime` a partition initialisation instant (`00000000000000` + 3 digits)? */
export function isMetadataInitInstant(instantTime: string): boolean {
  return instantTime.length === 17 && instantTime.startsWith(SOLO_COMMIT_TIMESTAMP);
}

/** The partitions `hoodie.table.metadata.partitions` lists (a comma list; empty or unset: none). */
export function parseMetadataPartitions(value: string | undefined): string[] {
  return (value ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '');
}
