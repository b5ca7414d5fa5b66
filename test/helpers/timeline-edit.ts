// Hand edits of a fixture copy's timeline, for tables no fixture has: instants dropped (as if never written),
// a layout-2 completed instant renamed to another completion time (overlapping writers), instant files added.
import type { Storage } from '../../src/storage/storage.js';
import { timelineFilePath } from '../../src/layout.js';
import { loadTableConfig } from '../../src/engine/table-state.js';
import { parseInstantFileName, type Instant } from '../../src/timeline/instant.js';

/** Every parsed instant file of the table's active timeline folder. */
export async function timelineFiles(storage: Storage): Promise<Instant[]> {
  const config = await loadTableConfig(storage);
  const out: Instant[] = [];
  for (const f of await storage.list(config.timelinePath)) {
    if (f.kind !== 'file') continue;
    const i = parseInstantFileName(f.path.slice(f.path.lastIndexOf('/') + 1));
    if (i) out.push(i);
  }
  return out;
}

/** Delete every timeline file (all states) of the instants whose requested time `drop` accepts. */
export async function dropInstants(storage: Storage, drop: (requestedTime: string) => boolean): Promise<void> {
  const config = await loadTableConfig(storage);
  for (const i of await timelineFiles(storage)) if (drop(i.requestedTime)) await storage.delete(timelineFilePath(config, i));
}

/** The completed file of the instant requested at `requestedTime`: its name and bytes (removed when `remove`). */
export async function completedFile(storage: Storage, requestedTime: string, remove = false): Promise<{ instant: Instant; bytes: Uint8Array }> {
  const config = await loadTableConfig(storage);
  const done = (await timelineFiles(storage)).filter((i) => i.requestedTime === requestedTime && i.state === 'COMPLETED');
  if (done.length !== 1) throw new Error(`timeline-edit: ${done.length} completed instants requested at ${requestedTime}`);
  const instant = done[0] as Instant;
  const bytes = await storage.read(timelineFilePath(config, instant));
  if (remove) await storage.delete(timelineFilePath(config, instant));
  return { instant, bytes };
}

/**
 * Layout 2: give the completed instant requested at `requestedTime` the completion time `completionTime` (its
 * completed file `<requested>_<completion>.<action>` renamed, bytes unchanged).
 */
export async function setCompletionTime(storage: Storage, requestedTime: string, completionTime: string): Promise<void> {
  const config = await loadTableConfig(storage);
  const { instant, bytes } = await completedFile(storage, requestedTime, true);
  await storage.write(timelineFilePath(config, `${requestedTime}_${completionTime}.${instant.action}`), bytes);
}

/** Write one timeline file by name (e.g. `<t>.logcompaction.requested`), empty unless bytes are given. */
export async function addTimelineFile(storage: Storage, fileName: string, bytes: Uint8Array = new Uint8Array(0)): Promise<void> {
  const config = await loadTableConfig(storage);
  await storage.write(timelineFilePath(config, fileName), bytes);
}
