// The commit protocol (hudi-format.md §3, DESIGN.md §2): requested → inflight → completed timeline files,
// markers for every data file written, a conflict check against commits completed meanwhile, and the
// completed file created with writeIfAbsent — the single point that makes a write visible.
import { LakeletError } from '../errors.js';
import { fileGroupKey } from '../file-group/file-slice.js';
import type { Storage } from '../storage/storage.js';
import { parseCommitMetadata } from '../timeline/commit-metadata.js';
import { compareInstantTimes, type Action } from '../timeline/instant.js';
import { nextInstantTime } from '../timeline/instant-time.js';
import type { TableState } from './table-state.js';
import { loadTimeline } from './table-state.js';

/** Folder of a write's markers. */
export function markerDir(instantTime: string): string {
  return `.hoodie/.temp/${instantTime}`;
}

/** The marker path of a data file written by `instantTime`. */
export function markerPath(instantTime: string, dataPath: string, type: 'CREATE' | 'MERGE' | 'APPEND' = 'CREATE'): string {
  return `${markerDir(instantTime)}/${dataPath}.marker.${type}`;
}

/** Timeline file names of a layout-1 write instant. */
export function instantFileNames(instantTime: string, action: Action): { requested: string; inflight: string; completed: string } {
  return {
    requested: `${instantTime}.${action}.requested`,
    inflight: action === 'commit' ? `${instantTime}.inflight` : `${instantTime}.${action}.inflight`,
    completed: `${instantTime}.${action}`,
  };
}

/** A write in progress. */
export interface InflightWrite {
  instantTime: string;
  action: Action;
  /** Requested times of the completed writes the writer saw when it started. */
  seenCompleted: ReadonlySet<string>;
}

/** A fresh instant time, later than every instant of the timeline (any action, any state). */
export function newInstantTime(state: TableState, now = new Date()): string {
  let latest: string | undefined;
  for (const i of state.timeline.instants) if (latest === undefined || compareInstantTimes(i.requestedTime, latest) > 0) latest = i.requestedTime;
  return nextInstantTime(latest, now);
}

/** Write `<t>.<action>.requested`. */
export async function startWrite(state: TableState, action: Action, requested: Uint8Array = new Uint8Array(0), now?: Date): Promise<InflightWrite> {
  const instantTime = newInstantTime(state, now);
  const names = instantFileNames(instantTime, action);
  const created = await state.storage.writeIfAbsent(`${state.config.timelinePath}/${names.requested}`, requested);
  if (!created) throw new LakeletError('CONFLICT', `commit: instant ${instantTime} was requested by another writer`, { instant: instantTime });
  return { instantTime, action, seenCompleted: new Set(state.timeline.completedWrites().map((i) => i.requestedTime)) };
}

/** Write the inflight file (the workload profile). */
export async function markInflight(state: TableState, write: InflightWrite, profile: Uint8Array): Promise<void> {
  await state.storage.write(`${state.config.timelinePath}/${instantFileNames(write.instantTime, write.action).inflight}`, profile);
}

/**
 * Check for conflicts with writes completed since this one started (a completed write touching one of
 * `touchedGroups` → `CONFLICT`), then create the completed instant file atomically and drop the markers.
 */
export async function completeWrite(storage: Storage, state: TableState, write: InflightWrite, metadata: Uint8Array, touchedGroups: ReadonlySet<string>): Promise<void> {
  const timeline = await loadTimeline(storage, state.config);
  for (const other of timeline.completedWrites()) {
    if (write.seenCompleted.has(other.requestedTime) || other.requestedTime === write.instantTime) continue;
    const path = `${state.config.timelinePath}/${other.fileName}`;
    const md = parseCommitMetadata(await storage.read(path), path);
    const theirs = new Set<string>();
    for (const [partition, stats] of Object.entries(md.partitionToWriteStats)) for (const s of stats) theirs.add(fileGroupKey(s.partitionPath || partition, s.fileId));
    for (const [partition, ids] of Object.entries(md.partitionToReplaceFileIds)) for (const id of ids) theirs.add(fileGroupKey(partition, id));
    for (const g of touchedGroups) {
      if (theirs.has(g)) {
        throw new LakeletError('CONFLICT', `commit: instant ${write.instantTime} conflicts with ${other.requestedTime}, which changed the same file group ${g.replace('\u0000', '/')}`, { instant: write.instantTime, value: other.requestedTime });
      }
    }
  }
  const completed = `${state.config.timelinePath}/${instantFileNames(write.instantTime, write.action).completed}`;
  if (!(await storage.writeIfAbsent(completed, metadata))) {
    throw new LakeletError('CONFLICT', `commit: ${completed} already exists`, { instant: write.instantTime, path: completed });
  }
  await deleteMarkers(storage, write.instantTime);
}

/** Remove a write's marker folder (best effort is fine: leftover markers are harmless). */
export async function deleteMarkers(storage: Storage, instantTime: string): Promise<void> {
  for (const f of await storage.list(markerDir(instantTime), { recursive: true })) await storage.delete(f.path);
}

/** Data files a write recorded in its markers. */
export async function markedFiles(storage: Storage, instantTime: string): Promise<string[]> {
  const dir = `${markerDir(instantTime)}/`;
  return (await storage.list(markerDir(instantTime), { recursive: true }))
    .map((f) => f.path.slice(dir.length).replace(/\.marker\.(CREATE|MERGE|APPEND)$/, ''))
    .filter((p) => p.length > 0);
}
