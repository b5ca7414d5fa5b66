// Data skipping through the metadata table (hudi-v9-write.md §4.5) for a query's filters: record-key equality /
// IN filters looked up in `record_index` (only the file groups holding those keys are read), and range filters
// tested against `column_stats` (a data file whose min/max cannot match is skipped; a file without stats is
// kept) and `partition_stats` (a partition that cannot match is pruned). Each index is used only when the data
// table lists it as built. The record index and partition stats describe the table as it is now, so they prune
// only snapshot reads of the latest state (not time travel, incremental or read-optimized reads, whose slices or
// rows may differ); per-file column stats hold for any query. The read plan applies the result
// (plan/read-plan.ts `DataSkipping`).
import type { ColumnStatsMetadata, WrappedValue } from '../../metadata/column-stats-codec.js';
import { METADATA_PARTITION } from '../../metadata/metadata-partitions.js';
import { fileGroupKey } from '../../file-group/file-slice.js';
import { rangeMayMatch, type CompiledFilter } from '../../expr/filter.js';
import type { DataSkipping } from '../../plan/read-plan.js';
import type { TableConfig } from '../../config/table-config.js';
import { lookupRecordIndex, readColumnStats } from './metadata-reads.js';
import type { MetadataTable } from './metadata-table.js';

/** The record keys a filter set pins the answer to (`_hoodie_record_key` or a simple record-key field, `=` / `IN`), if any. */
export function filteredRecordKeys(config: TableConfig, filters: readonly CompiledFilter[]): string[] | undefined {
  const simpleKey = config.recordKeyFields.length === 1 && ['SIMPLE', 'NON_PARTITION', 'TIMESTAMP'].includes(config.keyGeneratorType) ? config.recordKeyFields[0] : undefined;
  for (const f of filters) {
    if (f.op !== '=' && f.op !== 'IN') continue;
    const isKey = (f.field === '_hoodie_record_key' && config.populateMetaFields) || (f.field === simpleKey && (f.kind === 'string' || f.kind === 'bigint'));
    if (!isKey) continue;
    // Keys are the values' text (Java's toString of a string or a long); a null matches no row.
    return f.values.filter((v) => v !== null && v !== undefined && (typeof v === 'string' || typeof v === 'bigint')).map(String);
  }
  return undefined;
}

/** A min/max wrapper as a value a filter of `kind` compares with; undefined when the kinds do not line up. */
function statValue(kind: CompiledFilter['kind'], w: WrappedValue | null): unknown {
  if (w === null) return undefined;
  switch (w.wrapper) {
    case 'StringWrapper': return kind === 'string' ? w.value : undefined;
    case 'BooleanWrapper': return kind === 'boolean' ? w.value : undefined;
    case 'IntWrapper': case 'LongWrapper': case 'FloatWrapper': case 'DoubleWrapper':
      return kind === 'number' || kind === 'bigint' ? w.value : undefined;
    default: return undefined; // dates, timestamps, decimals, bytes, arrays: not compared (the file is kept)
  }
}

/** Can a file (or partition) with these statistics hold a row matching `f`? True when unsure. */
export function statsMayMatch(f: CompiledFilter, s: ColumnStatsMetadata): boolean {
  const min = statValue(f.kind, s.minValue);
  const max = statValue(f.kind, s.maxValue);
  if (min === undefined || max === undefined) return true;
  return rangeMayMatch(f, min, max);
}

/** Filters the stats can decide: a top-level column, a kind the stats' wrappers compare as. */
function statFilters(filters: readonly CompiledFilter[]): CompiledFilter[] {
  return filters.filter((f) => f.path.length === 1 && (f.kind === 'string' || f.kind === 'number' || f.kind === 'bigint' || f.kind === 'boolean'));
}

/** Names (file names in column_stats, partition paths in partition_stats) whose stats rule out some filter. */
async function excludedBy(mdt: MetadataTable, partition: 'column_stats' | 'partition_stats', filters: readonly CompiledFilter[]): Promise<Set<string> | undefined> {
  if (!mdt.partitions.includes(partition) || filters.length === 0) return undefined;
  const out = new Set<string>();
  for (const f of filters) {
    const stats = await readColumnStats(mdt.storage, f.field, { metadataTable: mdt, partition });
    for (const s of stats ?? []) if (s.fileName !== null && !statsMayMatch(f, s)) out.add(partition === 'partition_stats' && s.fileName === '.' ? '' : s.fileName);
  }
  return out;
}

/**
 * What the metadata table's indexes let a read skip for `filters`. `latest`: the read is a snapshot of the
 * latest state (merged, not read-optimized), where the record index and partition stats apply.
 */
export async function metadataSkipping(mdt: MetadataTable, config: TableConfig, filters: readonly CompiledFilter[], latest: boolean): Promise<DataSkipping> {
  const out: DataSkipping = {};
  if (filters.length === 0) return out;
  const keys = latest ? filteredRecordKeys(config, filters) : undefined;
  if (keys !== undefined && mdt.partitions.includes(METADATA_PARTITION.RECORD_INDEX)) {
    const found = await lookupRecordIndex(mdt.storage, keys, { metadataTable: mdt });
    if (found) out.fileGroups = new Set([...found.values()].map((l) => fileGroupKey(l.partitionPath, l.fileId)));
  }
  const ranged = statFilters(filters);
  const files = await excludedBy(mdt, METADATA_PARTITION.COLUMN_STATS as 'column_stats', ranged);
  if (files) out.excludedFiles = files;
  const partitions = latest ? await excludedBy(mdt, METADATA_PARTITION.PARTITION_STATS as 'partition_stats', ranged) : undefined;
  if (partitions) out.excludedPartitions = partitions;
  return out;
}
