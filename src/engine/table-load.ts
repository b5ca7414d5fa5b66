// Reading a table's parts from storage, before any state is built on them: the table config
// (`hoodie.properties`), the active timeline's listing, the data files below the root, and whether data files
// may have moved between two timeline listings. `TableState` (table-state.ts) is built from these.
import { parseTableConfig, type TableConfig } from '../config/table-config.js';
import { LakeletError, isLakeletError } from '../errors.js';
import { baseName, HOODIE_DIR, PROPERTIES_PATH } from '../layout.js';
import type { FileInfo, Storage } from '../storage/storage.js';
import { Timeline } from '../timeline/timeline.js';

/** Read and validate `.hoodie/hoodie.properties`; a missing file → `INVALID_TABLE` naming it. */
export async function loadTableConfig(storage: Storage): Promise<TableConfig> {
  let bytes: Uint8Array;
  try {
    bytes = await storage.read(PROPERTIES_PATH);
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND')) {
      throw new LakeletError('INVALID_TABLE', `table: not a Hudi table, ${PROPERTIES_PATH} is missing in ${storage.label}`, { path: PROPERTIES_PATH }, { cause: err });
    }
    throw err;
  }
  return parseTableConfig(new TextDecoder().decode(bytes), PROPERTIES_PATH);
}

/** List the active timeline folder. */
export async function loadTimeline(storage: Storage, config: TableConfig): Promise<Timeline> {
  const entries = await storage.list(config.timelinePath);
  return Timeline.fromFileNames(entries.filter((e) => e.kind === 'file').map((e) => baseName(e.path)));
}

/** Every file below the table root outside `.hoodie/` (and macOS junk folders). */
export async function listDataFiles(storage: Storage): Promise<FileInfo[]> {
  const top = await storage.list('');
  const out: FileInfo[] = [];
  for (const e of top) {
    if (e.kind === 'file') out.push(e);
    else if (e.path !== HOODIE_DIR && e.path !== '__MACOSX') for (const f of await storage.list(e.path, { recursive: true })) out.push(f);
  }
  return out;
}

/** Actions whose instants delete data files (writers' own new instants never do). */
const DELETING_ACTIONS = new Set(['clean', 'rollback', 'restore']);

/**
 * Could data files have been deleted legitimately between loading `loaded` and reading `now`? True when a
 * completed instant of `loaded` is gone (rolled back, restored, archived) or a clean, rollback or restore
 * instant appeared.
 */
export function filesMayHaveMoved(loaded: Timeline, now: Timeline): boolean {
  const present = new Set(now.instants.map((i) => i.fileName));
  if (loaded.instants.some((i) => i.state === 'COMPLETED' && !present.has(i.fileName))) return true;
  const before = new Set(loaded.instants.map((i) => i.fileName));
  return now.instants.some((i) => DELETING_ACTIONS.has(i.action) && !before.has(i.fileName));
}
