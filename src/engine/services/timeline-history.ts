// Writing archived instants into a layout-2 timeline's LSM history (Hudi's LSMTimelineWriter, then
// deleteArchivedActions and compactAndClean), shared by the data table's archival (services/archival.ts) and the
// metadata table's (engine/metadata/metadata-archival.ts): the new layer-0 parquet file, `manifest_<N+1>`,
// `_version_` = N+1, then the instant files deleted — pending states first, completed ones in ascending order —
// then layer compaction and the history clean.
import type { ArchivalPlan } from '../../plan/archival-plan.js';
import { baseName, historyFilePath, historyManifestPath, historyVersionPath, type ArchiveLocation } from '../../layout.js';
import type { Storage } from '../../storage/storage.js';
import { completedAction, type Instant } from '../../timeline/instant.js';
import { applyLsmCompaction, lsmVersionsToKeep, planLsmClean, planLsmCompaction, type LsmCompactionOptions } from '../../timeline/lsm-compaction.js';
import { encodeLsmManifest, encodeLsmVersion, lsmFileName, type LsmManifest } from '../../timeline/lsm-files.js';
import { decodeLsmFile, encodeLsmFile, lsmInstantRow, type LsmInstantRow, type TimelineFileBytes } from '../../timeline/lsm-instant.js';
import { latestHistoryVersion, readHistoryManifest } from '../read/archived-fallback.js';

/** Pending states first (a completed file removed first would leave what looks like a failed write), completed ones in ascending order. */
export async function deleteInstantFiles(storage: Storage, instantPath: (i: Instant) => string, plan: ArchivalPlan): Promise<void> {
  for (const f of plan.files.filter((x) => x.state !== 'COMPLETED')) await storage.delete(instantPath(f));
  for (const f of plan.files.filter((x) => x.state === 'COMPLETED')) await storage.delete(instantPath(f));
}

/** The history rows of the plan's instants, by requested time, from their timeline files' bytes. */
async function historyRows(storage: Storage, instantPath: (i: Instant) => string, plan: ArchivalPlan): Promise<LsmInstantRow[]> {
  const read = async (f: Instant | undefined): Promise<TimelineFileBytes | undefined> => (f ? { instant: f, bytes: await storage.read(instantPath(f)) } : undefined);
  const rows: LsmInstantRow[] = [];
  for (const i of plan.instants) {
    const own = plan.files.filter((f) => f.requestedTime === i.requestedTime && completedAction(f.action) === i.action);
    const completed = (await read(own.find((f) => f.state === 'COMPLETED'))) ?? { instant: i, bytes: await storage.read(instantPath(i)) };
    rows.push(lsmInstantRow({ completed, requested: await read(own.find((f) => f.state === 'REQUESTED')), inflight: await read(own.find((f) => f.state === 'INFLIGHT')) }));
  }
  return rows.sort((a, b) => (a.instantTime < b.instantTime ? -1 : a.instantTime > b.instantTime ? 1 : 0));
}

/** Write `manifest` as snapshot `version`, then point `_version_` at it (the step that publishes it). */
async function publishSnapshot(storage: Storage, config: ArchiveLocation, manifest: LsmManifest, version: number, held: () => Promise<void>): Promise<void> {
  await held();
  await storage.write(historyManifestPath(config, version), new TextEncoder().encode(encodeLsmManifest(manifest)));
  await storage.write(historyVersionPath(config), new TextEncoder().encode(encodeLsmVersion(version)));
}

/** A timeline being archived into its layout-2 history: the data table's, or the metadata table's own. */
export interface HistoryTarget {
  storage: Storage;
  /** The history folder (`…/timeline/history`). */
  history: ArchiveLocation;
  /** Path of a file of the active timeline. */
  instantPath(instant: Instant): string;
  /** Called once the new snapshot is published, before any instant file is deleted. */
  published?(): void;
  /** Run after the archived instant files are deleted (the data table's markers go then). */
  afterDelete?(): Promise<void>;
}

/**
 * Archive the plan's instants into a layout-2 history (Hudi's LSMTimelineWriter, then deleteArchivedActions and
 * compactAndClean), under the commit lock (`held` confirms it before each publishing write): a new layer-0
 * parquet file of their rows, `manifest_<N+1>` listing it, `_version_` = N+1 — readers see the new snapshot only
 * from here — then the instant files deleted (pending states first, completed ones in ascending order), then
 * layer compaction and the history clean. A crash at any step leaves every instant readable in the active
 * timeline, the history or both; a re-run that finds its file already listed goes on with the deletions.
 */
export async function writeToHistory(target: HistoryTarget, plan: ArchivalPlan, compaction: LsmCompactionOptions, held: () => Promise<void>): Promise<void> {
  const { storage, history: config } = target;
  const rows = await historyRows(storage, (i) => target.instantPath(i), plan);
  const name = lsmFileName((rows[0] as LsmInstantRow).instantTime, (rows[rows.length - 1] as LsmInstantRow).instantTime, 0);
  let version = await latestHistoryVersion(storage, config);
  let manifest = await readHistoryManifest(storage, config, version);
  // Already listed: an earlier run published this very file and crashed before deleting the instant files.
  if (!manifest.files.some((f) => f.fileName === name)) {
    const bytes = encodeLsmFile(rows);
    await storage.write(historyFilePath(config, name), bytes); // replaces a file a crashed run left unlisted
    manifest = { files: [...manifest.files, { fileName: name, fileLen: bytes.length }] };
    version = version < 0 ? 1 : version + 1; // versions start at 1
    await publishSnapshot(storage, config, manifest, version, held);
  }
  target.published?.();
  await deleteInstantFiles(storage, (i) => target.instantPath(i), plan);
  await target.afterDelete?.();

  let compactions = 0;
  for (let layer = 0; ; layer++) {
    const step = planLsmCompaction(manifest, layer, compaction);
    if (!step) break;
    const merged: LsmInstantRow[] = [];
    for (const source of step.sources) {
      const path = historyFilePath(config, source);
      merged.push(...(await decodeLsmFile(await storage.read(path), path)));
    }
    const bytes = encodeLsmFile(merged);
    await storage.write(historyFilePath(config, step.target), bytes);
    manifest = applyLsmCompaction(manifest, step, bytes.length);
    await publishSnapshot(storage, config, manifest, ++version, held);
    compactions++;
  }

  const names = (await storage.list(config.archivePath)).filter((f) => f.kind === 'file').map((f) => baseName(f.path));
  const keep = lsmVersionsToKeep(names, compactions);
  if (!keep) return;
  const kept = new Map<number, LsmManifest>();
  for (const v of keep) kept.set(v, await readHistoryManifest(storage, config, v));
  const clean = planLsmClean(names, kept);
  for (const n of [...clean.manifests, ...clean.dataFiles]) await storage.delete(historyFilePath(config, n));
}
