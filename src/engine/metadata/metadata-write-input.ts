// Gathering what metadata/metadata-write-records.ts needs for one data instant, before the data instant completes
// (the MDT deltacommit completes first): the MDT partitions and their file-group counts (listed), the record-index
// instant millis in the table's timeline zone, column stats of every file the instant wrote (parquet footers; log
// files from their records), and per touched partition the stats of its latest slices once the instant's files
// are on top of the committed ones (a new base file starts a new slice, a new log joins its group's slice).
// The files partition also lists the `.cdc` log files a write stat names in its cdcStats (as Hudi's
// convertMetadataToFilesPartitionRecords does), so listings through the MDT (the cleaner's) see them.
import { baseName } from '../../layout.js';
import type { AvroRecordSchema } from '../../format/avro/schema.js';
import { scanLogBlocks } from '../../format/log/block.js';
import { decodeAvroDataBlock } from '../../format/log/content.js';
import { readParquetFooter } from '../../format/parquet/read.js';
import type { FileSystemView } from '../../file-group/file-system-view.js';
import { parseBaseFileName, parseLogFileName } from '../../file-group/file-names.js';
import type { ColumnStatsMetadata } from '../../metadata/column-stats-codec.js';
import { columnStatsFromParquetFooter, columnStatsFromValues, columnsToIndex } from '../../metadata/column-stats.js';
import { METADATA_PARTITION } from '../../metadata/metadata-partitions.js';
import type { MetadataWriteInput, RecordIndexUpsert } from '../../metadata/metadata-write-records.js';
import { instantEpochMillisInZone } from '../../metadata/record-index.js';
import { storageBuffer } from '../../storage/async-buffer.js';
import type { Storage } from '../../storage/storage.js';
import type { WriteStat } from '../../timeline/commit-metadata.js';
import type { MetadataTable } from './metadata-table.js';

/** What the data write knows about its instant. */
export interface MetadataWriteContext {
  /** The data table's storage (rooted at the table). */
  storage: Storage;
  /** The opened MDT ({@link openMetadataTable}). */
  metadataTable: MetadataTable;
  /** The data instant (requested time). */
  instantTime: string;
  /** `hoodie.table.timeline.timezone` of the data table (unset = LOCAL). */
  timelineTimezone: string | undefined;
  /** The table schema with meta fields when the table has them. */
  schema: AvroRecordSchema;
  /** Whether the table writes the `_hoodie_*` columns. */
  populateMetaFields: boolean;
  /** The committed file-system view before the instant (partition stats start from its latest slices). */
  view: FileSystemView;
  /** Read `view` as of this instant (default: its latest slices). */
  viewAsOf?: string;
  /** The instant's write stats. */
  writeStats: readonly WriteStat[];
  /** Keys the instant placed or moved, and keys it deleted (needed when `record_index` is listed). */
  recordIndex?: { upserts: readonly RecordIndexUpsert[]; deletes: readonly string[] };
  /** Files the instant removed (a clean), per partition. */
  deletedFiles?: MetadataWriteInput['deletedFiles'];
  /** Partitions the instant dropped. */
  deletedPartitions?: readonly string[];
}

/** One file's column stats: its parquet footer, or (log files) its data records' values (the validator recomputes them the same way). */
export async function fileColumnStats(storage: Storage, path: string, columns: readonly string[], schema: AvroRecordSchema, version: 8 | 9): Promise<ColumnStatsMetadata[]> {
  const name = baseName(path);
  if (parseBaseFileName(name)) return columnStatsFromParquetFooter(await readParquetFooter(await storageBuffer(storage, path), path), { fileName: name, columns, schema, version });
  const records = scanLogBlocks(await storage.read(path), path).blocks.filter((b) => b.type === 'AVRO_DATA').flatMap((b) => decodeAvroDataBlock(b, path).records);
  return columns.map((c) => columnStatsFromValues(name, c, schema.fields.find((f) => f.name === c)?.type ?? { type: 'null' }, records.map((r) => r[c] ?? null), version));
}

/**
 * The file paths of a partition's latest slices once the instant's files are added: committed slices from `view`,
 * a new base file replacing its group's slice, a new log file joining its group's latest slice.
 */
export function latestFilesWith(view: FileSystemView, partitionPath: string, written: readonly WriteStat[], asOf?: string): string[] {
  const groups = new Map<string, string[]>();
  for (const s of view.latestSlices({ asOf, partitionFilter: (p) => p === partitionPath })) groups.set(s.fileId, [...(s.baseFile ? [s.baseFile.path] : []), ...s.logFiles.map((l) => l.path)]);
  for (const w of written) {
    if (w.partitionPath !== partitionPath || w.path === undefined) continue;
    const name = baseName(w.path);
    const log = parseLogFileName(name);
    const fileId = log?.fileId ?? parseBaseFileName(name)?.fileId ?? w.fileId;
    groups.set(fileId, log ? [...(groups.get(fileId) ?? []), w.path] : [w.path]);
  }
  return [...groups.values()].flat();
}

/**
 * The write stats the files partition takes: `writeStats`, then one per `.cdc` file a stat's `cdcStats` names
 * (table-relative path → bytes; Hudi adds them to the partition's files record after the stat's own file).
 */
export function withCdcFileStats(writeStats: readonly WriteStat[]): WriteStat[] {
  const out = [...writeStats];
  for (const s of writeStats) {
    const cdc = s.raw?.cdcStats;
    if (cdc === null || typeof cdc !== 'object') continue;
    for (const [path, size] of Object.entries(cdc as Record<string, unknown>)) {
      out.push({ fileId: s.fileId, path, partitionPath: s.partitionPath, prevCommit: undefined, numWrites: 0, numDeletes: 0, numUpdateWrites: 0, numInserts: 0, totalWriteBytes: 0, fileSizeInBytes: Number(size) || 0, logFiles: [], baseFile: undefined, raw: {} });
    }
  }
  return out;
}

/** The {@link MetadataWriteInput} of one data instant (reads footers and log files; see the file header). */
export async function metadataWriteInput(ctx: MetadataWriteContext): Promise<MetadataWriteInput> {
  const mdt = ctx.metadataTable;
  const fileGroupCounts: Record<string, number> = {};
  for (const p of mdt.partitions) fileGroupCounts[p] = (await mdt.latestSlices(p)).length;
  const input: MetadataWriteInput = {
    partitions: mdt.partitions,
    fileGroupCounts,
    writeStats: withCdcFileStats(ctx.writeStats),
    instantMillis: instantEpochMillisInZone(ctx.instantTime, ctx.timelineTimezone),
    ...(ctx.recordIndex ? { recordIndex: ctx.recordIndex } : {}),
    ...(ctx.deletedFiles ? { deletedFiles: ctx.deletedFiles } : {}),
    ...(ctx.deletedPartitions ? { deletedPartitions: ctx.deletedPartitions } : {}),
  };
  const wantsColumns = mdt.partitions.includes(METADATA_PARTITION.COLUMN_STATS);
  const wantsPartitions = mdt.partitions.includes(METADATA_PARTITION.PARTITION_STATS);
  if (!wantsColumns && !wantsPartitions) return input;
  const columns = columnsToIndex(ctx.schema, { populateMetaFields: ctx.populateMetaFields });
  const cache = new Map<string, Promise<ColumnStatsMetadata[]>>();
  const statsOf = (path: string): Promise<ColumnStatsMetadata[]> => {
    let s = cache.get(path);
    if (!s) cache.set(path, (s = fileColumnStats(ctx.storage, path, columns, ctx.schema, mdt.version)));
    return s;
  };
  const written = ctx.writeStats.filter((s) => s.path !== undefined);
  const touched = [...new Set(written.map((s) => s.partitionPath))];
  if (wantsColumns) {
    input.columnStats = await Promise.all(touched.map(async (p) => ({ partitionPath: p, stats: (await Promise.all(written.filter((s) => s.partitionPath === p).map((s) => statsOf(s.path as string)))).flat() })));
  }
  if (wantsPartitions) {
    input.partitionStats = await Promise.all(touched.map(async (p) => ({ partitionPath: p, fileStats: (await Promise.all(latestFilesWith(ctx.view, p, written, ctx.viewAsOf).map(statsOf))).flat() })));
  }
  return input;
}
