// Finding a table inside a bigger store: the shallowest folder holding `.hoodie/hoodie.properties`,
// searched level by level (a few levels deep, skipping hidden folders), so a table's own metadata
// table under `.hoodie/metadata` is never mistaken for it and big trees are not walked whole.
import { LakeletError } from '../errors.js';
import { prefixedStorage } from '../storage/prefixed.js';
import type { Storage } from '../storage/storage.js';
import { baseName, HOODIE_DIR, PROPERTIES_PATH } from '../layout.js';

const MARKER = PROPERTIES_PATH;
/** How many folder levels below the store root are searched. */
export const TABLE_ROOT_SEARCH_DEPTH = 3;

const skipped = (name: string) => name.startsWith('.') || name === '__MACOSX' || name === 'node_modules';

/** The folder (relative to the store root, `''` for the root itself) of the shallowest Hudi table in `storage`. */
export async function findTableRoot(storage: Storage): Promise<string> {
  let level = [''];
  for (let depth = 0; depth <= TABLE_ROOT_SEARCH_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    const found: string[] = [];
    for (const dir of level) {
      const entries = await storage.list(dir);
      const hoodie = entries.find((e) => e.kind === 'directory' && e.path.endsWith(HOODIE_DIR) && e.path === (dir === '' ? HOODIE_DIR : `${dir}/${HOODIE_DIR}`));
      if (hoodie && (await storage.list(hoodie.path)).some((e) => e.path.endsWith(MARKER))) found.push(dir);
      for (const e of entries) {
        const name = baseName(e.path);
        if (e.kind === 'directory' && !skipped(name)) next.push(e.path);
      }
    }
    if (found.length > 0) return found.sort()[0] as string;
    level = next;
  }
  throw new LakeletError('INVALID_TABLE', `table: no Hudi table (no ${MARKER}) in ${storage.label} or ${TABLE_ROOT_SEARCH_DEPTH} folder levels below it`, { path: MARKER });
}

/** A view of `storage` rooted at its shallowest Hudi table. */
export async function tableStorage(storage: Storage): Promise<Storage> {
  return prefixedStorage(storage, await findTableRoot(storage));
}
