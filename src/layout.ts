// Every path inside a Hudi table (hudi-format.md §1), relative to the table root: hoodie.properties, the active
// and archived timeline folders and their instant files, markers, heartbeats, the commit lock, lakelet's `.aux`
// files and partition metadata. The one place a path is built; pure (strings in, strings out).
import { completedAction, instantFileName, type Action, type InstantState } from './timeline/instant.js';
import { LSM_VERSION_FILE, lsmManifestFileName } from './timeline/lsm-files.js';

/** The table's metadata folder: everything that is not a data file lives below it. */
export const HOODIE_DIR = '.hoodie';

/** The table config. */
export const PROPERTIES_PATH = `${HOODIE_DIR}/hoodie.properties`;

/** The metadata table's folder (itself a merge-on-read Hudi table). */
export const METADATA_TABLE_DIR = `${HOODIE_DIR}/metadata`;

/** Is `path` the metadata folder or inside it (not a data file, not a partition)? */
export function isMetaPath(path: string): boolean {
  return path === HOODIE_DIR || path.startsWith(`${HOODIE_DIR}/`);
}

/**
 * Is `path` in the metadata folder of the table at the store's root, or of a table in a folder below it (a
 * store holding several tables)?
 */
export function isMetaPathOfAnyTable(path: string): boolean {
  return isMetaPath(path) || path.includes(`/${HOODIE_DIR}/`);
}

/**
 * The active timeline's folder: `.hoodie` (layout 1, table version 6) or `.hoodie/<hoodie.timeline.path>`
 * (layout 2, v8+; default `timeline`).
 */
export function timelineDir(layoutVersion: number, timelineFolder?: string): string {
  return layoutVersion === 2 ? `${HOODIE_DIR}/${timelineFolder || 'timeline'}` : HOODIE_DIR;
}

/** The `hoodie.properties` folders the archived timeline's location depends on (empty or unset: Hudi's defaults). */
export interface ArchiveFolders {
  /** `hoodie.archivelog.folder` (layout 1; default `archived`). */
  archiveFolder?: string | undefined;
  /** `hoodie.timeline.path` (layout 2; default `timeline`). */
  timelineFolder?: string | undefined;
  /** `hoodie.timeline.history.path` (layout 2; default `history`). */
  historyFolder?: string | undefined;
}

/**
 * The archived timeline's folder: `.hoodie/<archivelog folder>` (layout 1) or the LSM history inside the
 * timeline folder, `.hoodie/<timeline>/<history>` (layout 2).
 */
export function archiveDir(layoutVersion: number, folders: ArchiveFolders = {}): string {
  return layoutVersion === 2
    ? `${timelineDir(2, folders.timelineFolder)}/${folders.historyFolder || 'history'}`
    : `${HOODIE_DIR}/${folders.archiveFolder || 'archived'}`;
}

/** Where a table's archived timeline lives: a `TableConfig` fits. */
export interface ArchiveLocation {
  /** The archived timeline's folder ({@link archiveDir}). */
  archivePath: string;
}

/** Path of the archive file `fileName` (e.g. `.commits_.archive.1_1-0-1`). */
export function archiveFilePath(table: ArchiveLocation, fileName: string): string {
  return `${table.archivePath}/${fileName}`;
}

/** Path of a file in the layout-2 history (`.hoodie/timeline/history/<name>`: data files, manifests). */
export function historyFilePath(table: ArchiveLocation, fileName: string): string {
  return `${table.archivePath}/${fileName}`;
}

/** Path of the layout-2 history's manifest of snapshot `version` (`…/history/manifest_<N>`). */
export function historyManifestPath(table: ArchiveLocation, version: number): string {
  return historyFilePath(table, lsmManifestFileName(version));
}

/** Path of the layout-2 history's version file (`…/history/_version_`). */
export function historyVersionPath(table: ArchiveLocation): string {
  return historyFilePath(table, LSM_VERSION_FILE);
}

/** Where a table's timeline lives: a `TableConfig` fits. */
export interface TimelineLocation {
  /** The active timeline's folder ({@link timelineDir}). */
  timelinePath: string;
}

/** Path of the timeline file `fileName` (an instant's file name, or an `Instant` carrying it). */
export function timelineFilePath(table: TimelineLocation, fileName: string | { fileName: string }): string {
  return `${table.timelinePath}/${typeof fileName === 'string' ? fileName : fileName.fileName}`;
}

/** Path of one state's timeline file of an instant (layout-1 names, see `instantFileName`). */
export function instantFilePath(table: TimelineLocation, instantTime: string, action: Action, state: InstantState): string {
  return timelineFilePath(table, instantFileName(instantTime, action, state));
}

/**
 * Path of a layout-2 (v8/v9) completed instant file `<t>_<c>.<completed action>` — requested time t, completion
 * time c; a compaction completes as `commit`, a clustering as `replacecommit` (hudi-v9-write.md §1).
 */
export function completedInstantFilePath(table: TimelineLocation, instantTime: string, action: Action, completionTime: string): string {
  return timelineFilePath(table, `${instantTime}_${completionTime}.${completedAction(action)}`);
}

/** Folder of every write's markers. */
export const MARKERS_DIR = `${HOODIE_DIR}/.temp`;

/** Hudi's marker types: a base file created, a base file merged (rewritten), a log file appended to. */
export type MarkerType = 'CREATE' | 'MERGE' | 'APPEND';

const MARKER_SUFFIX = /\.marker\.(CREATE|MERGE|APPEND)$/;

/** Folder of one write's markers. */
export function markerDir(instantTime: string): string {
  return `${MARKERS_DIR}/${instantTime}`;
}

/** The marker of the data file `dataPath` written by `instantTime`. */
export function markerPath(instantTime: string, dataPath: string, type: MarkerType = 'CREATE'): string {
  return `${markerDir(instantTime)}/${dataPath}.marker.${type}`;
}

/** A path below {@link MARKERS_DIR}, split: whose marker it is, and the data file it names. */
export interface ParsedMarkerPath {
  /** The instant of the marker folder. */
  instant: string;
  /** The path below the instant's folder. */
  file: string;
  /** The data file the marker names; undefined when `file` has no marker suffix (e.g. Spark's `MARKERS0`). */
  dataPath: string | undefined;
}

/** Split a path below {@link MARKERS_DIR} (undefined for other paths and for the instant folders themselves). */
export function parseMarkerPath(path: string): ParsedMarkerPath | undefined {
  const root = `${MARKERS_DIR}/`;
  if (!path.startsWith(root)) return undefined;
  const rest = path.slice(root.length);
  const slash = rest.indexOf('/');
  if (slash < 0) return undefined;
  const file = rest.slice(slash + 1);
  const dataPath = file.replace(MARKER_SUFFIX, '');
  return { instant: rest.slice(0, slash), file, dataPath: dataPath === file ? undefined : dataPath };
}

/** Folder of the writers' heartbeat files. */
export const HEARTBEAT_DIR = `${HOODIE_DIR}/.heartbeat`;

/** The heartbeat file of the write (or compaction run) `instantTime`. */
export function heartbeatPath(instantTime: string): string {
  return `${HEARTBEAT_DIR}/${instantTime}`;
}

/** The commit lock file (lakelet's; see engine/commit/commit-lock.ts). */
export const COMMIT_LOCK_PATH = `${HOODIE_DIR}/.lakelet-commit.lock`;

/** Folder of the commit lock's break fences (`<generation>.<k>`, one winner per lock generation). */
export const COMMIT_LOCK_FENCE_DIR = `${HOODIE_DIR}/.lakelet-commit-lock-fences`;

/** lakelet's own folder inside Hudi's auxiliary folder (other engines ignore it). */
export const LAKELET_AUX_DIR = `${HOODIE_DIR}/.aux/lakelet`;

/** The listing manifest `lakelet publish` writes for static hosts that cannot list folders. */
export const LISTING_MANIFEST_PATH = `${LAKELET_AUX_DIR}/listing.json`;

/** Folder of the record-level index (its manifest and shards). */
export const RECORD_INDEX_DIR = `${LAKELET_AUX_DIR}/record-index`;

/** The record-level index's manifest (names the current shard files). */
export const RECORD_INDEX_MANIFEST = `${RECORD_INDEX_DIR}/manifest.json`;

/** Path of a file of the record-level index (a shard file name). */
export function recordIndexFilePath(fileName: string): string {
  return `${RECORD_INDEX_DIR}/${fileName}`;
}

/** Name of the file that marks a folder as a partition (java.util.Properties text). */
export const PARTITION_METADATA_FILE = '.hoodie_partition_metadata';

/** Path of a file in a partition (`''`: the table root of a non-partitioned table). */
export function partitionFilePath(partitionPath: string, fileName: string): string {
  return partitionPath === '' ? fileName : `${partitionPath}/${fileName}`;
}

/** Path of a partition's metadata file. */
export function partitionMetadataPath(partitionPath: string): string {
  return partitionFilePath(partitionPath, PARTITION_METADATA_FILE);
}

/** Is `path` a partition metadata file? */
export function isPartitionMetadataPath(path: string): boolean {
  return baseName(path) === PARTITION_METADATA_FILE;
}

/** The last segment of a `/`-separated path. */
export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

/** Everything before the last segment (`''` for a top-level entry): a file's partition path. */
export function parentPath(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Path (relative to the data table) of a file inside the metadata table, given its MDT-relative path. */
export function metadataTablePath(mdtRelativePath: string): string {
  return `${METADATA_TABLE_DIR}/${mdtRelativePath}`;
}

/** The metadata table's timeline folder (relative to the data table), from the MDT's `hoodie.timeline.path`. */
export function metadataTimelineDir(layoutVersion: number, timelineFolder?: string): string {
  return metadataTablePath(timelineDir(layoutVersion, timelineFolder));
}

/** The index definitions file of a v9 table with a metadata table (`hoodie.table.index.defs.path`). */
export const INDEX_DEFS_PATH = `${HOODIE_DIR}/.index_defs/index.json`;

/** The backup Hudi writes while it changes hoodie.properties (readers use it while the main file is missing). */
export const PROPERTIES_BACKUP_PATH = `${PROPERTIES_PATH}.backup`;
