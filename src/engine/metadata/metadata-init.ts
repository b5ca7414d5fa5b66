// Initialising the metadata table of a new, empty v8/v9 table (hudi-v9-write.md §4.1, §4.2, §6.2; fixture
// v9_timebasedkeygen_nonhivestyle): the MDT's hoodie.properties, then one BULK_INSERT_PREPPED deltacommit per
// partition at the partition init instants — `files` at 00000000000000000 (the 80-byte init log and a base HFile
// holding `__all_partitions__ → {}`, its write stat in the completed file), `record_index` at 00000000000000001
// (ten 80-byte init logs, no write stats) — each partition folder with its `.hoodie_partition_metadata`, and on
// v9 the index.json `record_index` entry. Every file is deterministic, so a retry rewrites the same bytes.
import { partitionMetadataText, metadataTableProperties } from '../../config/table-properties.js';
import { baseFileName, logFileName } from '../../file-group/file-names.js';
import { INDEX_DEFS_PATH, metadataTablePath, metadataTimelineDir, partitionMetadataPath, PROPERTIES_PATH } from '../../layout.js';
import { formatIndexDefinitions, recordIndexDefinition } from '../../metadata/index-definitions.js';
import { initialFilesRecords, metadataBaseFileBytes, metadataInitLogBytes } from '../../metadata/metadata-log-blocks.js';
import { DEFAULT_FILE_GROUP_COUNT, METADATA_PARTITION, metadataFileGroupId, metadataPartitionInitInstant } from '../../metadata/metadata-partitions.js';
import { metadataRecordSchemaText } from '../../metadata/metadata-schema.js';
import type { Storage } from '../../storage/storage.js';
import { commitMetadataBytes } from '../../timeline/commit-metadata-avro.js';
import type { WriteStatInput } from '../../timeline/commit-metadata-writer.js';
import { systemClock, type Clock } from '../clock.js';
import { instantTransition } from '../commit/transitions.js';

/** The partitions lakelet initialises on a new table, in Hudi's initialisation order. */
export const INITIAL_METADATA_PARTITIONS: readonly string[] = [METADATA_PARTITION.FILES, METADATA_PARTITION.RECORD_INDEX];

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
export async function initializeMetadataTable(storage: Storage, dataTableName: string, version: 8 | 9, clock: Clock = systemClock): Promise<InitializedMetadataTable> {
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
  for (const [offset, partition] of INITIAL_METADATA_PARTITIONS.entries()) {
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
  if (version !== 9) return { partitions: [...INITIAL_METADATA_PARTITIONS] };
  await storage.write(INDEX_DEFS_PATH, new TextEncoder().encode(formatIndexDefinitions([['record_index', recordIndexDefinition()]])));
  return { partitions: [...INITIAL_METADATA_PARTITIONS], indexDefsPath: INDEX_DEFS_PATH };
}
