// Archival of the v6 active timeline (hudi-format.md §3.5, Hudi's HoodieTimelineArchiver): plan with
// plan/archival-plan.ts, write the archived instants' timeline files as HoodieArchivedMetaEntry records into a
// new `.hoodie/archived/.commits_.archive.<N>_1-0-1`, then delete their timeline files — requested and inflight
// first, completed last. A crash in between leaves instants in both places; readers prefer the active copy.
import { isLakeletError, LakeletError } from '../../errors.js';
import { planArchival, type ArchivalOptions, type LatestClean } from '../../plan/archival-plan.js';
import { archiveFilePath, baseName } from '../../layout.js';
import type { Storage } from '../../storage/storage.js';
import { archiveFileName, archiveFileVersion, encodeArchiveFile, type ArchiveEntryInput } from '../../timeline/archived-timeline.js';
import { parseCleanMetadata } from '../../timeline/clean-metadata.js';
import { decodeInstantFile } from '../../timeline/commit-metadata.js';
import type { Instant } from '../../timeline/instant.js';
import { deleteMarkers } from '../commit/commit-protocol.js';
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

/**
 * Archive old completed instants (see {@link planArchival}). Returns the completed instants archived (none
 * when the active timeline holds no more than `keepMaxCommits` writes). Bad options → `INVALID_ARGUMENT`.
 */
export async function archive(ctx: EngineContext, options: ArchivalOptions = {}): Promise<Instant[]> {
  const { storage } = ctx;
  const state = await ctx.snapshot();
  if (state.config.timelineLayoutVersion !== 1) {
    throw new LakeletError('UNSUPPORTED', `archive: tables with timeline layout ${state.config.timelineLayoutVersion} (LSM history) are not archived by lakelet`, { value: state.config.timelineLayoutVersion });
  }
  const plan = planArchival(state.timeline, options, await latestClean(state));
  if (plan.instants.length === 0) return [];

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
  // Pending states first: a completed file removed first would leave what looks like a failed write.
  for (const f of plan.files.filter((x) => x.state !== 'COMPLETED')) await storage.delete(state.instantPath(f));
  for (const f of plan.files.filter((x) => x.state === 'COMPLETED')) await storage.delete(state.instantPath(f));
  for (const i of plan.instants) {
    try {
      await deleteMarkers(storage, i.requestedTime);
    } catch (err) {
      if (!isLakeletError(err, 'NOT_FOUND')) throw err;
    }
  }
  return plan.instants;
}
