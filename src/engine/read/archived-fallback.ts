// Commit metadata of a completed instant read from its timeline file, falling back to the archived timeline
// when a concurrent archival moved it meanwhile (the archive file is written before the instant files are
// deleted, so a file missing from the active timeline is in the archive by the time its absence is seen).
import type { TableConfig } from '../../config/table-config.js';
import { isLakeletError } from '../../errors.js';
import { baseName, timelineFilePath } from '../../layout.js';
import type { Storage } from '../../storage/storage.js';
import { ArchivedTimeline, archiveFileVersion, parseArchiveFile } from '../../timeline/archived-timeline.js';
import { parseCommitMetadata, type CommitMetadata } from '../../timeline/commit-metadata.js';
import type { Instant } from '../../timeline/instant.js';

/**
 * Read the archived timeline as it is on storage now (v6 `.hoodie/archived/` files, in version order); empty
 * for timeline layout 2 (lakelet does not read LSM history, and never archives such tables).
 */
export async function loadArchivedTimeline(storage: Storage, config: TableConfig): Promise<ArchivedTimeline> {
  if (config.timelineLayoutVersion !== 1) return new ArchivedTimeline([]);
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
 * Commit metadata of the completed write `instant`: from its timeline file, or — when that file is missing —
 * from the archived timeline read afresh (a concurrent archival moved it). Still missing there (rolled back or
 * restored away, not archived): the original `NOT_FOUND`.
 */
export async function readCommitMetadataOrArchived(storage: Storage, config: TableConfig, instant: Instant): Promise<CommitMetadata> {
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
