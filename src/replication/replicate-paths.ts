// Replication's view of a store's paths: which files are copied at all (markers, heartbeats, locks and temp
// files are not), which are timeline files of the data table or its metadata table, which belong to the
// archived timeline, and which are small mutable files compared by content. Pure.
import {
  baseName, COMMIT_LOCK_FENCE_DIR, COMMIT_LOCK_PATH, HEARTBEAT_DIR, INDEX_DEFS_PATH, isPartitionMetadataPath,
  LISTING_MANIFEST_PATH, MARKERS_DIR, METADATA_TABLE_DIR, parentPath, PROPERTIES_BACKUP_PATH, PROPERTIES_PATH, RECORD_INDEX_MANIFEST,
} from '../layout.js';
import { TEMP_FILE_MARKER } from '../storage/storage.js';
import { LSM_VERSION_FILE } from '../timeline/lsm-files.js';
import { parseInstantFileName, type Instant } from '../timeline/instant.js';

/** The two tables a store can hold: the data table at the root and its metadata table below `.hoodie/metadata`. */
export type ReplicatedTable = 'data' | 'metadata';

/** Where one table's timelines live, relative to the store root. */
export interface TableDirs {
  table: ReplicatedTable;
  /** The active timeline folder (`.hoodie`, `.hoodie/timeline`, `.hoodie/metadata/.hoodie/timeline`, …). */
  timelinePath: string;
  /** The archived timeline folder (layout 1 archive, layout 2 LSM history). */
  archivePath: string;
}

/**
 * What replication does with a path:
 * - `skip`: process-local state of writers (markers, heartbeats, commit lock, temp files, the listing manifest);
 * - `timeline`: an instant file of an active timeline, published in timeline order;
 * - `history` / `history-manifest` / `history-version`: the archived timeline's files, copied after the
 *   instants in that order (data files, then manifests, then the `_version_` pointer);
 * - `properties`: `hoodie.properties` (and its backup) of either table: written first when absent, otherwise
 *   replaced after the instants are published;
 * - `mutable`: other small files rewritten in place (index definitions, lakelet's record-index manifest),
 *   compared by content and replaced after the instants;
 * - `partition-metadata`, `data`: immutable files (base, log, cdc files, MDT files), copied before any instant.
 */
export type PathRole = 'skip' | 'timeline' | 'history' | 'history-manifest' | 'history-version' | 'properties' | 'mutable' | 'partition-metadata' | 'data';

const SKIPPED_DIRS = [MARKERS_DIR, HEARTBEAT_DIR, COMMIT_LOCK_FENCE_DIR];

/** The path relative to its own table's root (the metadata table's files lose their `.hoodie/metadata/` prefix). */
function tableRelative(path: string): string {
  return path.startsWith(`${METADATA_TABLE_DIR}/`) ? path.slice(METADATA_TABLE_DIR.length + 1) : path;
}

/** The role of `path` in a store whose tables keep their timelines in `dirs`. */
export function pathRole(path: string, dirs: readonly TableDirs[]): PathRole {
  const rel = tableRelative(path);
  if (path.includes(TEMP_FILE_MARKER) || rel === COMMIT_LOCK_PATH || path === LISTING_MANIFEST_PATH) return 'skip';
  if (SKIPPED_DIRS.some((d) => rel.startsWith(`${d}/`))) return 'skip';
  if (rel === PROPERTIES_PATH || rel === PROPERTIES_BACKUP_PATH) return 'properties';
  if (path === INDEX_DEFS_PATH || path === RECORD_INDEX_MANIFEST) return 'mutable';
  const parent = parentPath(path);
  for (const d of dirs) {
    if (parent === d.timelinePath && parseInstantFileName(baseName(path)) !== undefined) return 'timeline';
    if (path.startsWith(`${d.archivePath}/`)) {
      const name = baseName(path);
      if (name === LSM_VERSION_FILE) return 'history-version';
      return name.startsWith('manifest_') ? 'history-manifest' : 'history';
    }
  }
  return isPartitionMetadataPath(path) ? 'partition-metadata' : 'data';
}

/** Order of the pre-instant copies: partition metadata before the data files of its partition. */
export function dataCopyRank(role: PathRole): number {
  return role === 'partition-metadata' ? 0 : 1;
}

/** Order of the post-instant copies: archived timeline data, its manifests, its version pointer, then the rest. */
export function finishCopyRank(role: PathRole): number {
  return role === 'history' ? 0 : role === 'history-manifest' ? 1 : role === 'history-version' ? 2 : 3;
}

/** Is the file compared by its bytes (rewritten in place) rather than by its size (immutable under its name)? */
export function comparedByContent(role: PathRole): boolean {
  return role === 'properties' || role === 'mutable' || role === 'history-version';
}

/** The path of a timeline file of `table`. */
export function timelineFilePathOf(dirs: TableDirs, instant: Instant | string): string {
  return `${dirs.timelinePath}/${typeof instant === 'string' ? instant : instant.fileName}`;
}
