// Archival of the metadata table's own timeline (`.hoodie/metadata/.hoodie/timeline/` into its LSM history
// `…/timeline/history/`), the last of the MDT's table services as in Hudi's
// HoodieBackedTableMetadataWriter.performTableServices (clean, compaction, then `writeClient.archive()`), planned
// by plan/metadata-archival-plan.ts. Under the data table's commit lock (every MDT writer holds it), on the MDT
// and data timelines as they are then, it runs the same layout-2 steps as the data table's archival
// (services/timeline-history.ts `writeToHistory`): LSM file, manifest, `_version_`, then the instant files deleted
// (pending states first, completed ones oldest first), then the history's compaction and clean. A crash leaves
// each archived instant in the active timeline, the history or both; readers of the MDT count log blocks and base
// files of instants older than the MDT's active timeline as committed (Hudi's containsOrBeforeTimelineStarts).
import type { TableConfig } from '../../config/table-config.js';
import { isLakeletError } from '../../errors.js';
import { parseMetadataPartitions } from '../../metadata/metadata-partitions.js';
import { archiveDir, metadataTablePath, metadataTimelineDir } from '../../layout.js';
import { metadataArchivalDue, planMetadataArchival, type MetadataArchivalOptions } from '../../plan/metadata-archival-plan.js';
import type { ArchivalPlan } from '../../plan/archival-plan.js';
import type { Storage } from '../../storage/storage.js';
import type { Instant } from '../../timeline/instant.js';
import type { LsmCompactionOptions } from '../../timeline/lsm-compaction.js';
import type { Clock } from '../clock.js';
import { withCommitLock } from '../commit/commit-lock.js';
import { writeToHistory, type HistoryTarget } from '../services/timeline-history.js';
import { Timeline } from '../../timeline/timeline.js';
import { loadTableConfig, loadTimeline } from '../table-state.js';
import { openMetadataTable, type MetadataTable } from './metadata-table.js';

/** Options of {@link archiveMetadataTable}. */
export interface MetadataArchivalRunOptions extends MetadataArchivalOptions {
  /** Time source of the commit lock (default the system clock). */
  clock?: Clock;
  /** Layer compaction of the MDT's history (default Hudi's: 10 files, 1 GB). */
  historyCompaction?: LsmCompactionOptions;
  /** The data table's config when the caller has it (saves reading it for the check before the lock). */
  dataConfig?: TableConfig;
}

/** The MDT's history folder (relative to the data table): its `hoodie.timeline.path` and `hoodie.timeline.history.path`. */
export function metadataHistoryLocation(mdt: Pick<MetadataTable, 'properties'>): { archivePath: string } {
  return { archivePath: metadataTablePath(archiveDir(2, { timelineFolder: mdt.properties.get('hoodie.timeline.path'), historyFolder: mdt.properties.get('hoodie.timeline.history.path') })) };
}

/** The MDT's timeline as an archival target: its instant files and its history folder. */
function metadataHistoryTarget(mdt: MetadataTable): HistoryTarget {
  const timeline = metadataTimelineDir(2, mdt.properties.get('hoodie.timeline.path'));
  return { storage: mdt.storage, history: metadataHistoryLocation(mdt), instantPath: (i: Instant) => `${timeline}/${i.fileName}` };
}

/**
 * The data table's MDT and the MDT archival plan on the timelines as they are now (undefined: no MDT, or nothing
 * due). The MDT's own timeline decides first whether an archival is due at all (two storage calls on most commits).
 */
async function planNow(storage: Storage, options: MetadataArchivalOptions, dataConfig?: TableConfig): Promise<{ mdt: MetadataTable; plan: ArchivalPlan } | undefined> {
  const config = dataConfig ?? (await loadTableConfig(storage));
  if (config.timelineLayoutVersion !== 2 || config.version < 8) return undefined;
  if (!parseMetadataPartitions(config.properties.get('hoodie.table.metadata.partitions')).includes('files')) return undefined;
  try {
    // The MDT's properties and timeline only (its valid-instant rule, which needs the data timeline, is not used).
    const peek = await openMetadataTable(storage, { dataConfig: config, dataTimeline: new Timeline([]) });
    if (!peek || !metadataArchivalDue(peek.timeline, options)) return undefined;
  } catch (err) {
    if (isLakeletError(err, 'INVALID_TABLE')) return undefined; // no MDT properties: nothing to archive
    throw err;
  }
  const dataTimeline = await loadTimeline(storage, config);
  const mdt = await openMetadataTable(storage, { dataConfig: config, dataTimeline });
  if (!mdt) return undefined;
  return { mdt, plan: planMetadataArchival(mdt.timeline, dataTimeline, options) };
}

/**
 * Archive the oldest instants of the data table's metadata table timeline when Hudi's rules allow (see
 * plan/metadata-archival-plan.ts; `keepMinCommits`/`keepMaxCommits` are the data table's, the MDT keeps one
 * more of each). Returns the completed MDT instants archived — none when the table has no metadata table, its
 * timeline is short enough, or the data table's active instants still need them. Bad options → `INVALID_ARGUMENT`.
 */
export async function archiveMetadataTable(storage: Storage, options: MetadataArchivalRunOptions = {}): Promise<Instant[]> {
  const first = await planNow(storage, options, options.dataConfig);
  if (!first || first.plan.instants.length === 0) return [];
  // Under the commit lock: MDT deltacommits, compactions and cleans are written under it too, so the plan is made
  // on timelines no one changes meanwhile.
  return withCommitLock(storage, 'metadata-archival', async (held) => {
    const now = await planNow(storage, options);
    if (!now || now.plan.instants.length === 0) return [];
    await writeToHistory(metadataHistoryTarget(now.mdt), now.plan, options.historyCompaction ?? {}, held);
    return now.plan.instants;
  }, options.clock ? { clock: options.clock } : {});
}
