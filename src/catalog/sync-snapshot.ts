// What a Hive sync reads of a table, gathered once from its state: config, schema now and as of the last sync,
// the partitions that exist, and the partitions added and dropped since the last sync — found as Hudi's
// HiveSyncTool finds them, from the commits after `last_commit_time_sync` (written partitions; replacecommits
// of DELETE_PARTITION for dropped ones), or from a full listing when that instant is older than the active
// timeline (or absent).
import type { TableConfig } from '../config/table-config.js';
import type { TableState } from '../engine/table-state.js';
import type { AvroRecordSchema } from '../format/avro/schema.js';
import { compareInstantTimes, type Instant } from '../timeline/instant.js';
import type { CommitMetadata } from '../timeline/commit-metadata.js';

/** A table's state as a sync sees it. */
export interface SyncSnapshot {
  config: TableConfig;
  /** The latest completed write (commit, deltacommit, replacecommit); undefined for a table never written. */
  latest: Instant | undefined;
  /** The table schema now (meta fields first when the table has them). */
  schema: AvroRecordSchema;
  /** The schema as of `since` (undefined without `since`, or when it could not be known). */
  schemaAtSince: AvroRecordSchema | undefined;
  /** Every partition that exists now (sorted; `''` is the non-partitioned table's one). */
  partitions: string[];
  /** Partitions to add: all of them on a full sync, else the ones new since `since`. */
  added: string[];
  /** Partitions dropped since `since` (empty on a full sync). */
  dropped: string[];
  /** True when the partitions came from a full listing (no `since`, or `since` older than the active timeline). */
  full: boolean;
  /** True when some completed write is not covered by the last sync (always on a full sync). */
  changed: boolean;
}

/** The last sync: Hudi's `last_commit_time_sync` and, on timeline layout 2, `last_commit_completion_time_sync`. */
export interface LastSync {
  instant: string;
  completionTime?: string | undefined;
}

const isDropPartition = (md: CommitMetadata) => (md.operationType ?? '').toUpperCase() === 'DELETE_PARTITION';

/** Partitions a write created (its write stats) and dropped (a DELETE_PARTITION replacecommit). */
function partitionEvents(md: CommitMetadata): { written: string[]; dropped: string[] } {
  if (isDropPartition(md)) return { written: [], dropped: Object.keys(md.partitionToReplaceFileIds) };
  return { written: Object.entries(md.partitionToWriteStats).filter(([, stats]) => stats.length > 0).map(([p]) => p), dropped: [] };
}

/** The state's partitions now: those holding file groups, less those whose latest event is a drop. */
async function currentPartitions(state: TableState, writes: readonly { md: CommitMetadata }[]): Promise<string[]> {
  const view = await state.fileSystemView();
  const lastEvent = new Map<string, 'written' | 'dropped'>();
  for (const { md } of writes) {
    const e = partitionEvents(md);
    for (const p of e.written) lastEvent.set(p, 'written');
    for (const p of e.dropped) lastEvent.set(p, 'dropped');
  }
  const live = new Set(view.partitionPaths().filter((p) => lastEvent.get(p) !== 'dropped'));
  // A partition written by a commit whose files a listing does not show yet (none in practice) still counts.
  for (const [p, e] of lastEvent) if (e === 'written') live.add(p);
  return [...live].sort();
}

/**
 * Is a write after the last sync? Requested after its instant, or (Hudi 1.x's getCommitsTimelineAfter, layout 2)
 * requested before it but completed after its completion time — a slower concurrent writer's commit.
 */
function afterSync(instant: Instant, last: LastSync): boolean {
  if (compareInstantTimes(instant.requestedTime, last.instant) > 0) return true;
  return last.completionTime !== undefined && instant.completionTime !== undefined && compareInstantTimes(instant.completionTime, last.completionTime) > 0;
}

/**
 * Gather a {@link SyncSnapshot} of `state` for a sync after `last` (the previous sync's
 * `last_commit_time_sync` and completion time; undefined for a first, full sync).
 */
export async function syncSnapshot(state: TableState, last: LastSync | undefined): Promise<SyncSnapshot> {
  const since = last?.instant;
  const completed = state.timeline.completedWrites();
  const writes = await Promise.all(completed.map(async (instant) => ({ instant, md: await state.commitMetadata(instant) })));
  const latest = completed[completed.length - 1];
  const schema = await state.schemaAsOf(undefined);
  const partitions = await currentPartitions(state, writes);
  const first = completed[0]?.requestedTime;
  const full = since === undefined || first === undefined || compareInstantTimes(since, first) < 0;
  if (full) {
    const schemaAtSince = since !== undefined && first !== undefined ? await state.schemaAsOf(since).catch(() => undefined) : undefined;
    return { config: state.config, latest, schema, schemaAtSince, partitions, added: partitions, dropped: [], full: true, changed: true };
  }
  const existed = new Set<string>();
  const written = new Set<string>();
  const dropped = new Set<string>();
  let changed = false;
  for (const { instant, md } of writes) {
    const e = partitionEvents(md);
    if (!afterSync(instant, last as LastSync)) {
      for (const p of e.written) existed.add(p);
      for (const p of e.dropped) existed.delete(p);
    } else {
      changed = true;
      for (const p of e.written) {
        written.add(p);
        dropped.delete(p);
      }
      for (const p of e.dropped) dropped.add(p);
    }
  }
  const now = new Set(partitions);
  return {
    config: state.config,
    latest,
    schema,
    schemaAtSince: await state.schemaAsOf(since),
    partitions,
    added: [...written].filter((p) => now.has(p) && !existed.has(p)).sort(),
    dropped: [...dropped].filter((p) => existed.has(p) && !now.has(p)).sort(),
    full: false,
    changed,
  };
}
