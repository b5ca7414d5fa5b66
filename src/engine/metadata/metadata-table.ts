// Opening a data table's metadata table (`.hoodie/metadata`, hudi-v9-write.md §4): its own hoodie.properties
// (a MERGE_ON_READ table of HFiles, the data table's version) and timeline, the partitions the data table lists
// in `hoodie.table.metadata.partitions`, Java's valid-instant rule (an MDT deltacommit counts only when the data
// instant with its time completed, or it is a partition initialisation or an MDT compaction), and the latest
// file slices of an MDT partition.
import { parseProperties } from '../../config/properties.js';
import type { TableConfig } from '../../config/table-config.js';
import { LakeletError, isLakeletError, unsupported } from '../../errors.js';
import { baseName, METADATA_TABLE_DIR, PROPERTIES_PATH, timelineDir } from '../../layout.js';
import { latestMetadataSlices, type MetadataFileSlice } from '../../metadata/metadata-file-slices.js';
import { isMetadataInitInstant, parseMetadataPartitions } from '../../metadata/metadata-partitions.js';
import { metadataSchemaVersion, type MetadataSchemaVersion } from '../../metadata/metadata-schema.js';
import type { Storage } from '../../storage/storage.js';
import { compareInstantTimes } from '../../timeline/instant.js';
import { Timeline } from '../../timeline/timeline.js';
import { loadTableConfig, loadTimeline } from '../table-state.js';

/** An opened metadata table. */
export interface MetadataTable {
  /** The data table's storage (MDT paths are `.hoodie/metadata/…`, relative to the data table's root). */
  readonly storage: Storage;
  /** The MDT's `hoodie.properties`. */
  readonly properties: ReadonlyMap<string, string>;
  /** The MDT's own timeline. */
  readonly timeline: Timeline;
  /** The record schema generation (the table version, 8 or 9). */
  readonly version: MetadataSchemaVersion;
  /** The partitions the data table lists as built (`hoodie.table.metadata.partitions`). */
  readonly partitions: readonly string[];
  /** Java's rule: does the MDT instant at this time count? */
  isValidInstant(instantTime: string): boolean;
  /** The latest file slice of every file group of an MDT partition (listing its folder). */
  latestSlices(partition: string): Promise<MetadataFileSlice[]>;
}

/** What {@link openMetadataTable} may be given instead of reading it again. */
export interface OpenMetadataTableOptions {
  /** The data table's config (read from storage when absent). */
  dataConfig?: TableConfig;
  /** The data table's active timeline (listed when absent). */
  dataTimeline?: Timeline;
}

/**
 * Open the metadata table of the data table in `storage` (rooted at the data table). Undefined when the data
 * table lists no metadata partitions (no MDT to read). An MDT whose properties are missing → `INVALID_TABLE`;
 * one that is not a merge-on-read HFile table of the data table's version, or a data table version without an
 * MDT record schema (below 8) → `UNSUPPORTED` naming the property.
 */
export async function openMetadataTable(storage: Storage, options: OpenMetadataTableOptions = {}): Promise<MetadataTable | undefined> {
  const dataConfig = options.dataConfig ?? (await loadTableConfig(storage));
  const partitions = parseMetadataPartitions(dataConfig.properties.get('hoodie.table.metadata.partitions'));
  if (partitions.length === 0) return undefined;
  const version = metadataSchemaVersion(dataConfig.version);
  const dataTimeline = options.dataTimeline ?? (await loadTimeline(storage, dataConfig));
  const inMdt = (path: string): string => `${METADATA_TABLE_DIR}/${path}`;
  const propsPath = inMdt(PROPERTIES_PATH);
  let text: string;
  try {
    text = new TextDecoder().decode(await storage.read(propsPath));
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND')) throw new LakeletError('INVALID_TABLE', `metadata: the data table lists metadata partitions but ${propsPath} is missing`, { path: propsPath }, { cause: err });
    throw err;
  }
  const properties = parseProperties(text);
  const expect = (key: string, wanted: string): void => {
    const v = properties.get(key) ?? '';
    if (v.toUpperCase() !== wanted.toUpperCase()) throw unsupported(`metadata: ${propsPath} has ${key}=${JSON.stringify(v)}, lakelet reads ${wanted}`, { path: propsPath, field: key, value: v });
  };
  expect('hoodie.table.type', 'MERGE_ON_READ');
  expect('hoodie.table.base.file.format', 'HFILE');
  expect('hoodie.table.version', String(dataConfig.version));
  const timelineFolder = timelineDir(dataConfig.timelineLayoutVersion, properties.get('hoodie.timeline.path'));
  const timeline = Timeline.fromFileNames((await storage.list(inMdt(timelineFolder))).filter((e) => e.kind === 'file').map((e) => baseName(e.path)));
  const isValidInstant = validInstantRule(dataTimeline, timeline);
  return {
    storage,
    properties,
    timeline,
    version,
    partitions,
    isValidInstant,
    async latestSlices(partition: string): Promise<MetadataFileSlice[]> {
      const files = (await storage.list(inMdt(partition))).filter((e) => e.kind === 'file');
      return latestMetadataSlices({ partition, files, timeline, isValidInstant });
    },
  };
}

/**
 * Java's `getValidInstantTimestamps`: completed data instants of any action, instants older than the data
 * timeline's first one (archived data instants, which an MDT compaction has folded in), partition
 * initialisation instants, and the MDT's own completed compactions, rollbacks and restores.
 */
function validInstantRule(dataTimeline: Timeline, mdtTimeline: Timeline): (instantTime: string) => boolean {
  const valid = new Set(dataTimeline.completed().map((i) => i.requestedTime));
  for (const i of mdtTimeline.completed()) if (i.action === 'commit' || i.action === 'compaction' || i.action === 'rollback' || i.action === 'restore') valid.add(i.requestedTime);
  const start = dataTimeline.instants[0]?.requestedTime;
  return (t) => valid.has(t) || isMetadataInitInstant(t) || (start !== undefined && compareInstantTimes(t, start) < 0);
}
