// Finding a table inside a bigger store: the folder holding `.hoodie/hoodie.properties` (the shallowest
// one, so a table's own metadata table under `.hoodie/metadata` is never mistaken for it).
import { LakeletError } from '../errors.js';
import { prefixedStorage } from '../storage/prefixed.js';
import type { Storage } from '../storage/storage.js';

const MARKER = '.hoodie/hoodie.properties';

/** The folder (relative to the store root, `''` for the root itself) of the shallowest Hudi table in `storage`. */
export async function findTableRoot(storage: Storage): Promise<string> {
  const top = await storage.list('');
  if (top.some((e) => e.path === '.hoodie')) {
    const hoodie = await storage.list('.hoodie');
    if (hoodie.some((e) => e.path === MARKER)) return '';
  }
  const files = await storage.list('', { recursive: true });
  const roots = files
    .filter((f) => f.path.endsWith(`/${MARKER}`) && !f.path.startsWith('__MACOSX/'))
    .map((f) => f.path.slice(0, -(MARKER.length + 1)))
    .filter((root) => !root.split('/').includes('.hoodie'))
    .sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  const root = roots[0];
  if (root === undefined) throw new LakeletError('INVALID_TABLE', `table: no Hudi table (no ${MARKER}) in ${storage.label}`, { path: MARKER });
  return root;
}

/** A view of `storage` rooted at its shallowest Hudi table. */
export async function tableStorage(storage: Storage): Promise<Storage> {
  return prefixedStorage(storage, await findTableRoot(storage));
}
