// Reading the archived timeline from storage — layout 1's `.hoodie/archived/` log files, or layout 2's LSM
// history (`_version_` → `manifest_<N>` → the parquet files it lists, as Hudi's `LSMTimeline` reads it) — and
// commit metadata of a completed instant read from its timeline file, falling back to the archived timeline when
// a concurrent archival moved it meanwhile (archived copies are written before instant files are deleted, so a
// file missing from the active timeline is in the archive by the time its absence is seen).
import type { TableConfig } from '../../config/table-config.js';
import { isLakeletError } from '../../errors.js';
import { baseName, historyFilePath, historyManifestPath, historyVersionPath, timelineFilePath, type ArchiveLocation } from '../../layout.js';
import type { Storage } from '../../storage/storage.js';
import { ArchivedTimeline, archiveFileVersion, parseArchiveFile, type ArchivedEntry } from '../../timeline/archived-timeline.js';
import { parseCommitMetadata, type CommitMetadata } from '../../timeline/commit-metadata.js';
import { compareInstantTimes, type Instant } from '../../timeline/instant.js';
import { lsmManifestVersion, parseLsmManifest, parseLsmVersion, type LsmManifest } from '../../timeline/lsm-files.js';
import { decodeLsmFile, lsmArchivedEntry } from '../../timeline/lsm-instant.js';
import { Timeline } from '../../timeline/timeline.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** The version `_version_` names, or undefined when it is missing or unreadable (e.g. a crash while replacing it). */
async function versionFileVersion(storage: Storage, table: ArchiveLocation): Promise<number | undefined> {
  try {
    return parseLsmVersion(text(await storage.read(historyVersionPath(table))));
  } catch (err) {
    if (!isLakeletError(err, 'NOT_FOUND')) throw err;
    return undefined;
  }
}

/**
 * The history's latest snapshot version: what `_version_` says, else the newest manifest listed (Hudi's
 * `latestSnapshotVersion`); -1 when there is none.
 */
export async function latestHistoryVersion(storage: Storage, table: ArchiveLocation): Promise<number> {
  return (await versionFileVersion(storage, table)) ?? newestManifestVersion(storage, table);
}

/** The newest manifest's version in the history folder; -1 when there is none. */
async function newestManifestVersion(storage: Storage, table: ArchiveLocation): Promise<number> {
  let max = -1;
  for (const f of await storage.list(table.archivePath)) {
    const m = f.kind === 'file' ? lsmManifestVersion(baseName(f.path)) : undefined;
    if (m !== undefined && m > max) max = m;
  }
  return max;
}

/** The manifest of snapshot `version` (empty for -1, no snapshot yet). */
export async function readHistoryManifest(storage: Storage, table: ArchiveLocation, version: number): Promise<LsmManifest> {
  if (version < 0) return { files: [] };
  const path = historyManifestPath(table, version);
  return parseLsmManifest(text(await storage.read(path)), path);
}

/** Attempts at reading one snapshot while a concurrent archival's clean may delete an older one under us. */
const SNAPSHOT_ATTEMPTS = 4;

/** The entries of one snapshot: each listed file's rows, files in name (oldest-first) order. */
async function snapshotEntries(storage: Storage, table: ArchiveLocation, version: number): Promise<ArchivedEntry[]> {
  const manifest = await readHistoryManifest(storage, table, version);
  const entries: ArchivedEntry[] = [];
  for (const name of manifest.files.map((f) => f.fileName).sort()) {
    const path = historyFilePath(table, name);
    for (const row of await decodeLsmFile(await storage.read(path), path)) entries.push(lsmArchivedEntry(row, path));
  }
  return entries;
}

// A published snapshot never changes (a new version gets a new manifest), so the last one read per store and
// history folder is kept while `_version_` still names it: lookups of many archived instants read it once.
const published = new WeakMap<Storage, Map<string, { version: number; timeline: Promise<ArchivedTimeline> }>>();

/** The history's latest snapshot as an archived timeline. */
async function loadHistory(storage: Storage, table: ArchiveLocation): Promise<ArchivedTimeline> {
  for (let attempt = 1; ; attempt++) {
    try {
      const named = await versionFileVersion(storage, table);
      let cache = published.get(storage);
      const hit = named === undefined ? undefined : cache?.get(table.archivePath);
      if (hit && hit.version === named) return await hit.timeline;
      if (named === undefined) return new ArchivedTimeline(await snapshotEntries(storage, table, await newestManifestVersion(storage, table)));
      const timeline = snapshotEntries(storage, table, named).then((entries) => new ArchivedTimeline(entries));
      if (!cache) published.set(storage, (cache = new Map()));
      const entry = { version: named, timeline };
      cache.set(table.archivePath, entry);
      timeline.catch(() => {
        if (cache.get(table.archivePath) === entry) cache.delete(table.archivePath);
      });
      return await timeline;
    } catch (err) {
      // A manifest or file gone: a newer snapshot replaced the one read (its clean ran); read the newest again.
      if (!isLakeletError(err, 'NOT_FOUND') || attempt >= SNAPSHOT_ATTEMPTS) throw err;
    }
  }
}

/**
 * Read the archived timeline as it is on storage now: v6 `.hoodie/archived/` files in version order, or the
 * layout-2 history's latest snapshot.
 */
export async function loadArchivedTimeline(storage: Storage, config: TableConfig): Promise<ArchivedTimeline> {
  if (config.timelineLayoutVersion === 2) return loadHistory(storage, config);
  const files = (await storage.list(config.archivePath))
    .filter((f) => f.kind === 'file')
    .map((f) => ({ path: f.path, version: archiveFileVersion(baseName(f.path)) }))
    .filter((f): f is { path: string; version: number } => f.version !== undefined)
    .sort((a, b) => a.version - b.version);
  const entries = [];
  for (const f of files) for (const entry of parseArchiveFile(await storage.read(f.path), f.path)) entries.push(entry);
  return new ArchivedTimeline(entries);
}

/**
 * Commit metadata of an instant in the layout-2 history snapshot last read from this store, without a storage
 * call: the history holds the completed file's own bytes, so its copy is the instant file's content.
 */
async function knownArchivedMetadata(storage: Storage, config: TableConfig, requestedTime: string): Promise<CommitMetadata | undefined> {
  if (config.timelineLayoutVersion !== 2) return undefined;
  const hit = published.get(storage)?.get(config.archivePath);
  const timeline = hit ? await hit.timeline.catch(() => undefined) : undefined;
  return timeline?.completedAt(requestedTime) ? timeline.commitMetadata(requestedTime) : undefined;
}

/**
 * Commit metadata of the completed write `instant`: from the layout-2 history snapshot already read when it
 * holds the instant, else from its timeline file, or — when that file is missing — from the archived timeline
 * read afresh (a concurrent archival moved it). Still missing there (rolled back or
 * restored away, not archived): the original `NOT_FOUND`.
 */
export async function readCommitMetadataOrArchived(storage: Storage, config: TableConfig, instant: Instant): Promise<CommitMetadata> {
  const known = await knownArchivedMetadata(storage, config, instant.requestedTime);
  if (known) return known;
  const path = timelineFilePath(config, instant);
  let bytes: Uint8Array;
  try {
    bytes = await storage.read(path);
  } catch (err) {
    if (!isLakeletError(err, 'NOT_FOUND')) throw err;
    const archived = await loadArchivedTimeline(storage, config);
    const metadata = archived.completedAt(instant.requestedTime) ? archived.commitMetadata(instant.requestedTime) : undefined;
    if (metadata) return metadata;
    throw err;
  }
  return parseCommitMetadata(bytes, path);
}

/** What {@link withArchivedWrites} needs of a loaded table (a `TableState` fits). */
export interface ArchiveReader {
  readonly timeline: Timeline;
  archivedTimeline(): Promise<ArchivedTimeline>;
}

/**
 * The timeline a range starting at `from` selects writes from: the active one, plus — when `from` precedes the
 * completion of the active timeline's first completed write (or there is none) — the archived completed
 * instants not on it, with their completion times (layout 2), and the commit metadata of those archived writes
 * (undefined for active ones: read them from their files).
 */
export async function withArchivedWrites(state: ArchiveReader, from: string): Promise<{ timeline: Timeline; archivedMetadata(requestedTime: string): CommitMetadata | undefined }> {
  const first = state.timeline.completedWrites()[0];
  const none = { timeline: state.timeline, archivedMetadata: () => undefined };
  if (first !== undefined && compareInstantTimes(from, first.completionTime ?? first.requestedTime) >= 0) return none;
  const archived = await state.archivedTimeline();
  const extra = archived.instants.filter((i) => !state.timeline.completedAt(i.requestedTime));
  if (extra.length === 0) return none;
  const own = new Set(extra.map((i) => i.requestedTime));
  return {
    timeline: new Timeline([...state.timeline.files, ...extra]),
    archivedMetadata: (t) => (own.has(t) ? archived.commitMetadata(t) : undefined),
  };
}
