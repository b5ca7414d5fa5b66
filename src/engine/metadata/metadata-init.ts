// Initialising the metadata table of a new, empty v8/v9 table (hudi-v9-write.md §4.1, §4.2, §6.2; fixtures
// v9_timebasedkeygen_nonhivestyle, v9_nonpartitioned_rollback): the MDT's hoodie.properties, then one
// BULK_INSERT_PREPPED deltacommit per partition at the partition init instants in Hudi's order — `files` at
// 00000000000000000 (the 80-byte init log and a base HFile holding `__all_partitions__ → {}`, its write stat in the
// completed file); when the schema is known, `column_stats` (two groups); `record_index` (ten groups); for a
// partitioned table with column stats, `partition_stats` (one group) — init logs only, no write stats; each
// partition folder with its `.hoodie_partition_metadata`, and on v9 the index.json entries (record_index, and
// column_stats with its source columns). Every file is deterministic, so a retry rewrites the same bytes.
import { partitionMetadataText, metadataTableProperties } from '../../config/table-properties.js';
import { baseFileName, logFileName } from '../../file-group/file-names.js';
import { INDEX_DEFS_PATH, metadataTablePath, metadataTimelineDir, partitionMetadataPath, PROPERTIES_PATH } from '../../layout.js';
import { columnStatsDefinition, formatIndexDefinitions, recordIndexDefinition, type IndexDefinition } from '../../metadata/index-definitions.js';
import { initialFilesRecords, metadataBaseFileBytes, metadataInitLogBytes } from '../../metadata/metadata-log-blocks.js';
import { DEFAULT_FILE_GROUP_COUNT, METADATA_PARTITION, metadataFileGroupId, metadataPartitionInitInstant } from '../../metadata/metadata-partitions.js';
import { metadataRecordSchemaText } from '../../metadata/metadata-schema.js';
import type { Storage } from '../../storage/storage.js';
import { commitMetadataBytes } from '../../timeline/commit-metadata-avro.js';
import type { WriteStatInput } from '../../timeline/commit-metadata-writer.js';
import { systemClock, type Clock } from '../clock.js';
import { instantTransition } from '../commit/transitions.js';

/** What decides the partitions a new table's MDT starts with. */
export interface MetadataInitOptions {
  /** The columns column_stats indexes (columnsToIndex of the create schema); absent: no column or partition stats. */
  statsColumns?: readonly string[];
  /** Whether the data table is partitioned (partition_stats only then, as Hudi). */
  partitioned: boolean;
}

/** The partitions lakelet initialises on a new table, in Hudi's initialisation order. */
export function initialMetadataPartitions(options: MetadataInitOptions): string[] {
  const stats = options.statsColumns !== undefined && options.statsColumns.length > 0;
  return [
    METADATA_PARTITION.FILES,
    ...(stats ? [METADATA_PARTITION.COLUMN_STATS] : []),
    METADATA_PARTITION.RECORD_INDEX,
    ...(stats && options.partitioned ? [METADATA_PARTITION.PARTITION_STATS] : []),
  ];
}

/** Hudi's operation type of a partition initialisation deltacommit. */
const INIT_OPERATION = 'BULK_INSERT_PREPPED';
/** Write token of initialisation files (as Hudi's init logs). */
const INIT_TOKEN = '0-0-0';

/** What {@link initializeMetadataTable} did: the partitions to list in `hoodie.table.metadata.partitions`. */
export interface InitializedMetadataTable {
  partitions: string[];
  /** `hoodie.table.index.defs.path` to set (v9), if any. */
  indexDefsPath?: string;
}

/**
 * Create the MDT of a new, empty data table named `dataTableName` of `version` (see the file header). Call it
 * before the data table's hoodie.properties lists the partitions (readers then find a complete MDT).
 */
export async function initializeMetadataTable(storage: Storage, dataTableName: string, version: 8 | 9, options: MetadataInitOptions, clock: Clock = systemClock): Promise<InitializedMetadataTable> {
  const partitions = initialMetadataPartitions(options);
  const mdtProps = metadataTablePath(PROPERTIES_PATH);
  const now = new Date(clock.now());
  // Deterministic bytes on a retry: the comment time is fixed once written.
  try {
    await storage.head(mdtProps);
  } catch {
    await storage.write(mdtProps, new TextEncoder().encode(metadataTableProperties(dataTableName, version, now)));
  }
  const location = { timelinePath: metadataTimelineDir(2, 'timeline'), timelineLayoutVersion: 2 };
  const schema = metadataRecordSchemaText(version, { metaFields: false });
  for (const [offset, partition] of partitions.entries()) {
    const instant = metadataPartitionInitInstant(offset);
    const t = instantTransition(storage, location, instant, 'deltacommit');
    if (await t.exists('COMPLETED')) continue;
    await t.request(new Uint8Array(0));
    await t.markInflight(new Uint8Array(0));
    const partitionMeta = metadataTablePath(partitionMetadataPath(partition));
    await storage.writeIfAbsent(partitionMeta, new TextEncoder().encode(partitionMetadataText(instant, 1, now)));
    const stats: WriteStatInput[] = [];
    for (let g = 0; g < (DEFAULT_FILE_GROUP_COUNT[partition] ?? 1); g++) {
      const fileId = metadataFileGroupId(partition, g);
      await storage.write(metadataTablePath(`${partition}/${logFileName(fileId, instant, 1, INIT_TOKEN)}`), metadataInitLogBytes(instant));
      if (partition === METADATA_PARTITION.FILES) {
        const name = baseFileName(fileId, INIT_TOKEN, instant, 'hfile');
        const bytes = metadataBaseFileBytes(initialFilesRecords(), version, { createTime: 0 });
        await storage.write(metadataTablePath(`${partition}/${name}`), bytes);
        stats.push({ fileId, path: `${partition}/${name}`, partitionPath: partition, prevCommit: undefined, numWrites: 1, numDeletes: 0, numUpdateWrites: 0, numInserts: 1, totalWriteBytes: bytes.length, fileSizeInBytes: bytes.length });
      }
    }
    const completed = commitMetadataBytes(2, {
      partitionToWriteStats: stats.length > 0 ? new Map([[partition, stats]]) : new Map(),
      compacted: false,
      extraMetadata: { schema },
      operationType: INIT_OPERATION,
    });
    await t.complete(completed, { clock, landed: 'exists' });
  }
  if (version !== 9) return { partitions };
  const defs: [string, IndexDefinition][] = [['record_index', recordIndexDefinition()]];
  if (partitions.includes(METADATA_PARTITION.COLUMN_STATS)) defs.push(['column_stats', columnStatsDefinition(options.statsColumns ?? [])]);
  await storage.write(INDEX_DEFS_PATH, new TextEncoder().encode(formatIndexDefinitions(defs)));
  return { partitions, indexDefsPath: INDEX_DEFS_PATH };
}
