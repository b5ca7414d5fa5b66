// Orphan files: temp files of writes that crashed before publishing (`<name>.lakelet-tmp-*`), and data files
// and markers of writes that were aborted or rolled back while their writer kept going. `planOrphanFiles`
// decides (pure); `removeOrphanFiles` lists, loads the timeline and deletes. The cleaner calls it.
import { joinPath, TEMP_FILE_MARKER, type FileInfo } from '../../storage/storage.js';
import { parseBaseFileName } from '../../file-group/file-names.js';
import { baseName, instantFilePath, isMetaPath, MARKERS_DIR, parseMarkerPath } from '../../layout.js';
import { parseCompactionPlan } from '../../timeline/compaction-plan.js';
import { compareInstantTimes } from '../../timeline/instant.js';
import type { Timeline } from '../../timeline/timeline.js';
import { savepointedFiles } from './savepoint.js';
import type { TableState } from '../table-state.js';
import type { EngineContext } from '../context.js';

/** Actions that write data files. */
const WRITE_ACTIONS = new Set(['commit', 'deltacommit', 'replacecommit', 'compaction', 'logcompaction', 'clustering']);

/** What {@link planOrphanFiles} decides from. */
export interface OrphanPlanInput {
  /** Every file of the table, temp files included — listed BEFORE the timeline was loaded. */
  files: readonly FileInfo[];
  /** The active timeline, loaded after the listing. */
  timeline: Timeline;
  /** Paths that stay whatever else holds: write stats of completed commits, pending compaction plans, savepoints. */
  keep: ReadonlySet<string>;
  /** The time now (epoch ms, from the write's clock). */
  now: number;
  /** A file younger than this (ms since its last modification) may belong to a write in progress: the heartbeat timeout. */
  minAgeMs: number;
}

/** What to delete, in this order: temp files, data files, then the markers that named them. */
export interface OrphanPlan {
  tempFiles: string[];
  dataFiles: string[];
  markers: string[];
}

/**
 * Plan the removal of orphan files. A file counts only when its last modification is known and older than
 * `minAgeMs` (a write in progress refreshes its heartbeat within that time, and its instant is on the timeline);
 * `minAgeMs` 0 (single-writer use, heartbeat timeout 0) counts every file whatever its age:
 * - a temp file of an unfinished write (`*.lakelet-tmp-*`, anywhere in the table);
 * - a base file written by an instant that is not on the active timeline in any state (rolled back, or removed
 *   by an aborted write) yet later than the earliest active write — older instants may be archived commits;
 * - a data file named by the markers of such an instant, and those markers themselves.
 * Nothing in `keep` is deleted, and nothing a pending instant or a completed commit of the active timeline wrote.
 */
export function planOrphanFiles(input: OrphanPlanInput): OrphanPlan {
  const { files, timeline, keep, now, minAgeMs } = input;
  // minAgeMs 0 is single-writer use (every pending write counts as failed): nothing can be in progress.
  const old = (f: FileInfo): boolean => minAgeMs <= 0 || (f.lastModified !== undefined && now - f.lastModified > minAgeMs);
  const active = new Set(timeline.instants.map((i) => i.requestedTime));
  let earliestWrite: string | undefined;
  for (const i of timeline.instants) {
    if (WRITE_ACTIONS.has(i.action) && (earliestWrite === undefined || compareInstantTimes(i.requestedTime, earliestWrite) < 0)) earliestWrite = i.requestedTime;
  }
  /** An instant whose files nobody can need: not on the timeline, and not possibly archived. */
  const dead = (instant: string): boolean => !active.has(instant) && earliestWrite !== undefined && compareInstantTimes(instant, earliestWrite) > 0;

  const byPath = new Map(files.map((f) => [f.path, f]));
  // Files the markers of instants still on the timeline name (pending writes) stay, whatever their names say.
  const marked = new Set<string>();
  for (const f of files) {
    const m = markerOf(f.path);
    if (m && !dead(m.instant) && m.named !== undefined) marked.add(m.named);
  }
  const plan: OrphanPlan = { tempFiles: [], dataFiles: [], markers: [] };
  const data = new Set<string>();
  const addData = (path: string): void => {
    const f = byPath.get(path);
    if (f && old(f) && !keep.has(path) && !marked.has(path) && !path.includes(TEMP_FILE_MARKER)) data.add(path);
  };
  for (const f of files) {
    if (baseName(f.path).includes(TEMP_FILE_MARKER)) {
      if (old(f)) plan.tempFiles.push(f.path);
      continue;
    }
    const m = markerOf(f.path);
    if (m) {
      if (!dead(m.instant) || !old(f)) continue;
      if (m.named !== undefined) addData(m.named);
      plan.markers.push(f.path);
      continue;
    }
    if (f.path.startsWith(`${MARKERS_DIR}/`)) continue;
    if (isMetaPath(f.path) || f.path.startsWith('__MACOSX/')) continue;
    const base = parseBaseFileName(baseName(f.path));
    if (base && dead(base.instantTime)) addData(f.path);
  }
  plan.dataFiles = [...data].sort();
  // A marker whose data file must stay (kept, or too young) stays too, so a later pass can decide again.
  plan.markers = plan.markers.filter((path) => {
    const named = markerOf(path)?.named;
    return named === undefined || !byPath.has(named) || data.has(named);
  });
  return plan;
}

/** A marker file's instant and the data file it names (undefined for other marker files, e.g. Spark's MARKERS0). */
function markerOf(path: string): { instant: string; named: string | undefined } | undefined {
  const marker = parseMarkerPath(path);
  return marker && { instant: marker.instant, named: marker.dataPath };
}

/** Paths no orphan removal may touch: files of completed commits' write stats, pending compaction plans and savepoints. */
async function keptFiles(state: TableState): Promise<Set<string>> {
  const keep = await savepointedFiles(state);
  for (const i of state.timeline.completedWrites()) {
    const md = await state.commitMetadata(i);
    for (const [partition, stats] of Object.entries(md.partitionToWriteStats)) {
      for (const s of stats) if (s.path) keep.add(s.path.includes('/') || partition === '' ? s.path : joinPath(partition, s.path));
    }
  }
  for (const i of state.timeline.pending()) {
    if (i.action !== 'compaction' && i.action !== 'logcompaction') continue;
    const path = instantFilePath(state.config, i.requestedTime, i.action, 'REQUESTED');
    for (const op of parseCompactionPlan(await state.storage.read(path), path).operations) {
      for (const name of [op.dataFilePath, ...op.deltaFilePaths]) if (name) keep.add(joinPath(op.partitionPath, baseName(name)));
    }
  }
  return keep;
}

/** Options of {@link removeOrphanFiles}. */
export interface OrphanFileOptions {
  /** The time now, epoch ms (the write's clock). */
  now: number;
  /** Minimum age of an orphan (ms): the heartbeat timeout of writers of this table. */
  minAgeMs: number;
}

/**
 * Delete the table's orphan files (see {@link planOrphanFiles}). The listing is taken before the timeline is
 * listed again, so a write that starts meanwhile cannot have files in it without its instant on the timeline.
 * Returns the paths deleted.
 */
export async function removeOrphanFiles(ctx: EngineContext, options: OrphanFileOptions): Promise<string[]> {
  const { storage } = ctx;
  const files = await storage.list('', { recursive: true, includeTemporary: true });
  const state = await ctx.reload();
  const plan = planOrphanFiles({ files, timeline: state.timeline, keep: await keptFiles(state), now: options.now, minAgeMs: options.minAgeMs });
  const deleted: string[] = [];
  for (const path of [...plan.tempFiles, ...plan.dataFiles, ...plan.markers]) {
    await storage.delete(path);
    deleted.push(path);
  }
  if (deleted.length > 0) ctx.invalidate(); // the snapshot's data listing may name them
  return deleted;
}
