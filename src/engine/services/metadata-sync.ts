// Table services mirrored in the metadata table (issue 10): the MDT deltacommit named after a data clean or a
// data compaction, written under the commit lock right before that instant completes (hudi-v9-write.md §4.2;
// Java's HoodieBackedTableMetadataWriter.update for HoodieCleanMetadata and for a compaction's commit metadata).
// A clean appends `files` tombstones and column-stats tombstones (metadata/metadata-clean-records.ts); a
// compaction appends what a write of its new base files appends — `files`, their column stats, the touched
// partitions' stats, nothing for `record_index` (keys stay in their groups). The data instant then completes
// later than the MDT deltacommit. A crash in between leaves a pending data instant whose MDT deltacommit does not
// count (Java's valid-instant rule); the re-run of the clean or compaction finds its MDT deltacommit completed
// and completes the data instant (writeMetadataDeltacommit is idempotent).
import type { TableConfig } from '../../config/table-config.js';
import { parseMetadataPartitions } from '../../metadata/metadata-partitions.js';
import type { MetadataWriteInput, RecordIndexUpsert } from '../../metadata/metadata-write-records.js';
import { withoutReplaced } from '../../file-group/replaced-view.js';
import type { Storage } from '../../storage/storage.js';
import { parseCommitMetadata } from '../../timeline/commit-metadata.js';
import { parseInstantTime } from '../../timeline/instant-time.js';
import type { Clock } from '../clock.js';
import { loadTableState } from '../context.js';
import type { MetadataTable } from '../metadata/metadata-table.js';
import type { TableState } from '../table-state.js';
import { compareInstantTimes } from '../../timeline/instant.js';
import { metadataTableTimeline } from './archival.js';

/** Does the table keep a metadata table lakelet writes to (v8/v9 listing metadata partitions)? */
export function hasMetadataTable(state: Pick<TableState, 'config'>): boolean {
  return state.config.version >= 8 && parseMetadataPartitions(state.config.properties.get('hoodie.table.metadata.partitions')).length > 0;
}

/** `clock`, but never earlier than one millisecond after the instant time `floor` (a completion after the MDT's). */
export function clockAfter(clock: Clock, floor: string | undefined): Clock {
  if (floor === undefined) return clock;
  const min = parseInstantTime(floor).getTime() + 1;
  return { now: () => Math.max(clock.now(), min), sleep: (ms) => clock.sleep(ms) };
}

/** The MDT as of now (a fresh data timeline: Java's valid-instant rule), with each listed partition's file-group count. */
async function openCurrent(storage: Storage, config: TableConfig): Promise<{ state: TableState; mdt: MetadataTable; fileGroupCounts: Record<string, number> } | undefined> {
  const state = await loadTableState(storage);
  const { openMetadataTable } = await import('../metadata/lazy.js');
  const mdt = await openMetadataTable(storage, { dataConfig: config, dataTimeline: state.timeline });
  if (!mdt) return undefined;
  const fileGroupCounts: Record<string, number> = {};
  for (const p of mdt.partitions) fileGroupCounts[p] = (await mdt.latestSlices(p)).length;
  return { state, mdt, fileGroupCounts };
}

/**
 * The MDT deltacommit of clean `instant` (call under the commit lock, after its files are deleted, before it
 * completes). Returns the MDT completion time (the clean's completion must be later), or undefined when the
 * table has no MDT.
 */
export async function cleanToMetadata(state: TableState, instant: string, deletedFiles: NonNullable<MetadataWriteInput['deletedFiles']>, deletedPartitions: readonly string[], lockHeld: () => Promise<void>, clock: Clock): Promise<string | undefined> {
  if (!hasMetadataTable(state)) return undefined;
  const current = await openCurrent(state.storage, state.config);
  if (!current) return undefined;
  const { mdt, fileGroupCounts } = current;
  const { cleanMetadataRecords, columnsToIndex, writeMetadataDeltacommit } = await import('../metadata/lazy.js');
  const columns = columnsToIndex(await current.state.schemaAsOf(undefined), { populateMetaFields: state.config.populateMetaFields });
  const writes = cleanMetadataRecords({ partitions: mdt.partitions, fileGroupCounts, deletedFiles, deletedPartitions, columns });
  await lockHeld();
  return (await writeMetadataDeltacommit({ storage: state.storage, dataConfig: state.config, metadataTable: mdt, instantTime: instant, writes, clock })).completionTime;
}

/** What a clustering adds to its MDT deltacommit: its records' new locations, the file groups it replaces. */
export interface ClusteringMetadataChanges {
  recordIndex: { upserts: readonly RecordIndexUpsert[]; deletes: readonly string[] };
  replaced: ReadonlyMap<string, readonly string[]>;
}

/**
 * The MDT deltacommit of data compaction (or clustering, with `changes`) `instant` whose completed-file bytes are
 * `metadata` (call under the commit lock, before it completes). Returns the MDT completion time, or undefined
 * when the table has no MDT.
 */
export async function compactionToMetadata(state: TableState, instant: string, metadata: Uint8Array, lockHeld: () => Promise<void>, clock: Clock, changes?: ClusteringMetadataChanges): Promise<string | undefined> {
  if (!hasMetadataTable(state)) return undefined;
  const current = await openCurrent(state.storage, state.config);
  if (!current) return undefined;
  const { mdt } = current;
  const { metadataWriteInput, metadataWriteRecords, writeMetadataDeltacommit } = await import('../metadata/lazy.js');
  const writeStats = Object.values(parseCommitMetadata(metadata, instant).partitionToWriteStats).flat();
  const input = await metadataWriteInput({
    storage: state.storage, metadataTable: mdt, instantTime: instant,
    timelineTimezone: state.config.properties.get('hoodie.table.timeline.timezone'),
    schema: await current.state.schemaAsOf(undefined),
    populateMetaFields: state.config.populateMetaFields,
    view: changes ? withoutReplaced(await current.state.fileSystemView(), changes.replaced) : await current.state.fileSystemView(),
    writeStats,
    recordIndex: changes?.recordIndex ?? { upserts: [], deletes: [] },
  });
  await lockHeld();
  return (await writeMetadataDeltacommit({ storage: state.storage, dataConfig: state.config, metadataTable: mdt, instantTime: instant, writes: metadataWriteRecords(input), clock })).completionTime;
}

/**
 * The completed MDT compaction that folded in the MDT deltacommit of one of the data instants `targets`, if any
 * (Java's validateRollback): its base files hold what that deltacommit added, so rolling the data instant back
 * by deleting its MDT logs would leave it in the MDT — such a rollback or restore is refused.
 */
export async function metadataCompactionAfter(storage: Storage, config: TableConfig, targets: readonly string[]): Promise<string | undefined> {
  if (config.version < 8 || targets.length === 0) return undefined;
  const timeline = await metadataTableTimeline(storage, config);
  if (!timeline) return undefined;
  const wanted = new Set(targets);
  const folded = timeline.completed().filter((i) => i.action === 'deltacommit' && wanted.has(i.requestedTime));
  return timeline.completed().find((c) => c.action === 'commit' && folded.some((d) => compareInstantTimes(d.completionTime ?? d.requestedTime, c.requestedTime) < 0))?.requestedTime;
}
