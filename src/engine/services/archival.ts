// Archival of the active timeline (Hudi's HoodieTimelineArchiver), planned by plan/archival-plan.ts.
// Layout 1 (v6): the archived instants' files become HoodieArchivedMetaEntry records of a new
// `.hoodie/archived/.commits_.archive.<N>_1-0-1`. Layout 2 (v8/v9, Hudi's TimelineArchiverV2 + LSMTimelineWriter),
// under the commit lock: a new layer-0 parquet file in `.hoodie/timeline/history/`, then `manifest_<N+1>` listing
// it, then `_version_` = N+1 (readers see the new snapshot only from here), then layer compaction and the
// history clean. Either way the instant files are deleted last — requested and inflight first, completed in
// ascending order — so a crash at any step leaves every instant readable, in the active timeline, the archive, or
// (for a while) both; readers prefer the active copy. The layout-2 steps are services/timeline-history.ts's
// `writeToHistory`, which also archives the metadata table's own timeline (engine/metadata/metadata-archival.ts).
import type { TableConfig } from '../../config/table-config.js';
import { isLakeletError, LakeletError } from '../../errors.js';
import { planArchival, type ArchivalOptions, type ArchivalPlan, type LatestClean } from '../../plan/archival-plan.js';
import { parseProperties } from '../../config/properties.js';
import { archiveFilePath, baseName, METADATA_TABLE_DIR, PROPERTIES_PATH, timelineDir } from '../../layout.js';
import type { Storage } from '../../storage/storage.js';
import { archiveFileName, archiveFileVersion, encodeArchiveFile, type ArchiveEntryInput } from '../../timeline/archived-timeline.js';
import { parseCleanMetadata } from '../../timeline/clean-metadata.js';
import { decodeInstantFile } from '../../timeline/commit-metadata.js';
import type { Instant } from '../../timeline/instant.js';
import type { LsmCompactionOptions } from '../../timeline/lsm-compaction.js';
import { Timeline } from '../../timeline/timeline.js';
import { deleteMarkers } from '../commit/commit-protocol.js';
import { withCommitLock } from '../commit/commit-lock.js';
import { deleteInstantFiles, writeToHistory, type HistoryTarget } from './timeline-history.js';
import type { TableState } from '../table-state.js';
import type { EngineContext } from '../context.js';

export type { ArchivalOptions } from '../../plan/archival-plan.js';

/** The latest completed clean and its earliest commit to retain. */
export async function latestClean(state: TableState): Promise<LatestClean | undefined> {
  const cleans = state.timeline.completed().filter((i) => i.action === 'clean');
  const last = cleans[cleans.length - 1];
  if (!last) return undefined;
  const path = state.instantPath(last);
  const md = parseCleanMetadata(await state.storage.read(path), path);
  return { instantTime: last.requestedTime, earliestCommitToRetain: md.earliestCommitToRetain || undefined };
}

/**
 * The metadata table's active timeline when the table has one (`hoodie.table.metadata.partitions` lists
 * `files`, as Hudi's `isMetadataTableAvailable`), else undefined. Only the MDT's own properties (its timeline
 * folder) and timeline are read. An MDT without properties counts as one never compacted: nothing is archived.
 */
export async function metadataTableTimeline(storage: Storage, config: TableConfig): Promise<Timeline | undefined> {
  const partitions = (config.properties.get('hoodie.table.metadata.partitions') ?? '').split(',').map((p) => p.trim());
  if (!partitions.includes('files')) return undefined;
  let text: string;
  try {
    text = new TextDecoder().decode(await storage.read(`${METADATA_TABLE_DIR}/${PROPERTIES_PATH}`));
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND')) return new Timeline([]);
    throw err;
  }
  const folder = `${METADATA_TABLE_DIR}/${timelineDir(config.timelineLayoutVersion, parseProperties(text).get('hoodie.timeline.path'))}`;
  return Timeline.fromFileNames((await storage.list(folder)).filter((f) => f.kind === 'file').map((f) => baseName(f.path)));
}

async function planFor(state: TableState, options: ArchivalOptions): Promise<ArchivalPlan> {
  return planArchival(state.timeline, options, await latestClean(state), await metadataTableTimeline(state.storage, state.config));
}

/** Options of {@link archive} beyond the archival limits (tests tune the history's compaction). */
export interface ArchiveRunOptions extends ArchivalOptions {
  /** Layer compaction of the layout-2 history (default Hudi's: 10 files, 1 GB). */
  historyCompaction?: LsmCompactionOptions;
}

/**
 * Archive old completed instants (see {@link planArchival}). Returns the completed instants archived (none
 * when the active timeline holds no more than `keepMaxCommits` writes, or the metadata table was never
 * compacted). Bad options → `INVALID_ARGUMENT`.
 */
export async function archive(ctx: EngineContext, options: ArchiveRunOptions = {}): Promise<Instant[]> {
  const first = await ctx.snapshot();
  if (first.config.timelineLayoutVersion === 2) {
    if ((await planFor(first, options)).instants.length === 0) return [];
    // Under the commit lock: one archiver at a time builds on the latest manifest, on the timeline as it is now.
    return withCommitLock(ctx.storage, 'archival', async (held) => {
      ctx.invalidate();
      const state = await ctx.snapshot();
      const plan = await planFor(state, options);
      if (plan.instants.length === 0) return [];
      await writeToHistory(dataHistoryTarget(ctx, state, plan), plan, options.historyCompaction ?? {}, held);
      return plan.instants;
    });
  }
  const plan = await planFor(first, options);
  if (plan.instants.length === 0) return [];
  await archiveToLog(ctx, first, plan);
  return plan.instants;
}

/** Layout 1: one new archive log file, then the instant files go. */
async function archiveToLog(ctx: EngineContext, state: TableState, plan: ArchivalPlan): Promise<void> {
  const { storage } = ctx;
  const entries: ArchiveEntryInput[] = [];
  for (const f of plan.files) {
    const path = state.instantPath(f);
    const bytes = await storage.read(path);
    entries.push({ instant: f, content: bytes.length === 0 ? undefined : decodeInstantFile(bytes, path) });
  }
  const content = encodeArchiveFile(entries);
  const dir = state.config.archivePath;
  let version = await nextArchiveVersion(storage, dir);
  for (let attempt = 0; ; attempt++) {
    if (await storage.writeIfAbsent(archiveFilePath(state.config, archiveFileName(version)), content)) break;
    if (attempt >= 8) throw new LakeletError('CONFLICT', `archive: could not create an archive file in ${dir} (version ${version} and earlier are taken)`, { path: dir });
    version++;
  }
  ctx.invalidate();
  await deleteInstantFiles(storage, (i) => state.instantPath(i), plan);
  await deleteArchivedMarkers(storage, plan);
}

/** The next free archive file version (1 when there is none). */
async function nextArchiveVersion(storage: Storage, dir: string): Promise<number> {
  let max = 0;
  for (const f of await storage.list(dir)) {
    if (f.kind !== 'file') continue;
    const v = archiveFileVersion(baseName(f.path));
    if (v !== undefined && v > max) max = v;
  }
  return max + 1;
}

/** The data table's marker folders of the archived instants (Hudi's deleteAnyLeftOverMarkers). */
async function deleteArchivedMarkers(storage: Storage, plan: ArchivalPlan): Promise<void> {
  for (const i of plan.instants) {
    try {
      await deleteMarkers(storage, i.requestedTime);
    } catch (err) {
      if (!isLakeletError(err, 'NOT_FOUND')) throw err;
    }
  }
}

/** The data table's timeline as a history target: its snapshot invalidated on publishing, its markers deleted. */
function dataHistoryTarget(ctx: EngineContext, state: TableState, plan: ArchivalPlan): HistoryTarget {
  return {
    storage: state.storage,
    history: state.config,
    instantPath: (i) => state.instantPath(i),
    published: () => ctx.invalidate(),
    afterDelete: () => deleteArchivedMarkers(state.storage, plan),
  };
}
