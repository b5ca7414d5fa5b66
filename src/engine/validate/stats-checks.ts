// The validator's `column-stats` and `partition-stats` checks: per file of the latest slices, its statistics
// recomputed as the writer computes them (parquet footers for base files, record values for log files:
// metadata-write-input.ts' fileColumnStats over metadata/column-stats.ts) against the MDT's `column_stats`
// records, field by field; and per data partition the fold of those file stats (partitionStatsRecords) against
// `partition_stats`. A base file without rows has no stats (Hudi writes none); a log file without data records
// (a delete block only) may have none (not seen on a fixture: a missing entry is not reported, a present one is
// compared); a partition whose latest files hold no rows keeps whatever partition stats it had.
import { baseName } from '../../layout.js';
import type { ColumnStatsMetadata } from '../../metadata/column-stats-codec.js';
import { columnsToIndex, partitionStatsRecords } from '../../metadata/column-stats.js';
import { columnStatsKey } from '../../metadata/keys.js';
import { METADATA_PARTITION } from '../../metadata/metadata-partitions.js';
import { fileColumnStats } from '../metadata/metadata-write-input.js';
import type { TableState } from '../table-state.js';
import type { MetadataRecords } from './metadata-records.js';
import type { ValidationReport } from './validation-result.js';

/** A value as comparable text: keys sorted, bigints and bytes spelled out, -0 kept apart from 0. */
export function canonical(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (v instanceof Uint8Array) return `0x${[...v].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

const FIELDS: (keyof ColumnStatsMetadata)[] = ['fileName', 'columnName', 'minValue', 'maxValue', 'valueCount', 'nullCount', 'totalSize', 'totalUncompressedSize', 'isDeleted', 'isTightBound', 'valueType'];

/** The fields two stats differ in, as `field (MDT x, recomputed y)` phrases. */
function differences(mdt: ColumnStatsMetadata, ours: ColumnStatsMetadata): string[] {
  return FIELDS.filter((f) => canonical(mdt[f]) !== canonical(ours[f])).map((f) => `${f} (MDT ${canonical(mdt[f])}, recomputed ${canonical(ours[f])})`);
}

/** Live records of a stats partition by key (deleted ones left out). */
async function statsByKey(records: MetadataRecords, partition: string): Promise<Map<string, ColumnStatsMetadata>> {
  const out = new Map<string, ColumnStatsMetadata>();
  for (const { records: rs } of await records.of(partition)) for (const r of rs) if (r.columnStatsMetadata && !r.columnStatsMetadata.isDeleted) out.set(r.key, r.columnStatsMetadata);
  return out;
}

/** Which stats partitions to check. */
export interface StatsChecks {
  columnStats: boolean;
  partitionStats: boolean;
  /** Recomputed stats by file path, shared between calls (each file's footer or log is read once). */
  fileStats?: Map<string, Promise<ColumnStatsMetadata[]>>;
}

/** `column-stats` and `partition-stats` (see the file header), as `which` asks. */
export async function checkStats(state: TableState, records: MetadataRecords, which: StatsChecks, report: ValidationReport): Promise<void> {
  const schema = await state.schemaAsOf(undefined);
  const columns = columnsToIndex(schema, { populateMetaFields: state.config.populateMetaFields });
  const version = records.mdt.version;
  const slices = (await state.fileSystemView()).latestSlices();
  const perFile = which.fileStats ?? new Map<string, Promise<ColumnStatsMetadata[]>>();
  const statsOf = (path: string) => {
    let s = perFile.get(path);
    if (!s) perFile.set(path, (s = fileColumnStats(state.storage, path, columns, schema, version)));
    return s;
  };
  const filesOf = (s: (typeof slices)[number]) => [...(s.baseFile ? [s.baseFile.path] : []), ...s.logFiles.map((l) => l.path)];
  if (which.columnStats) {
    const mdt = await statsByKey(records, METADATA_PARTITION.COLUMN_STATS);
    for (const slice of slices) {
      for (const path of filesOf(slice)) {
        for (const ours of await statsOf(path)) {
          const column = ours.columnName ?? '';
          const theirs = mdt.get(columnStatsKey(column, slice.partitionPath, baseName(path)));
          if (theirs === undefined && ours.valueCount === 0 && slice.baseFile?.path !== path) continue; // a log without records
          if (theirs === undefined) report.add('column-stats', path, `column_stats has no entry for column ${JSON.stringify(column)} of this file`);
          else {
            const diff = differences(theirs, ours);
            if (diff.length > 0) report.add('column-stats', path, `column_stats of column ${JSON.stringify(column)} differ from the file: ${diff.join('; ')}`);
          }
        }
      }
    }
  }
  if (which.partitionStats) {
    const mdt = await statsByKey(records, METADATA_PARTITION.PARTITION_STATS);
    for (const partition of [...new Set(slices.map((s) => s.partitionPath))]) {
      if (partition === '') continue; // Hudi has no partition stats for a non-partitioned table
      const fileStats = (await Promise.all(slices.filter((s) => s.partitionPath === partition).flatMap(filesOf).map(statsOf))).flat();
      if (fileStats.length === 0) continue;
      for (const r of partitionStatsRecords(partition, fileStats)) {
        const ours = r.columnStatsMetadata as ColumnStatsMetadata;
        const theirs = mdt.get(r.key);
        const column = JSON.stringify(ours.columnName);
        if (theirs === undefined) report.add('partition-stats', partition, `partition_stats has no entry for column ${column} of this partition`);
        else {
          const diff = differences(theirs, ours);
          if (diff.length > 0) report.add('partition-stats', partition, `partition_stats of column ${column} differ from the latest slices' files: ${diff.join('; ')}`);
        }
      }
    }
  }
}
