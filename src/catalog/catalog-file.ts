// The catalog file of a storage root: `.lakelet-catalog/catalog-<version>.json`, one immutable file per
// version. A change reads the latest version, applies itself and creates the next version with
// `writeIfAbsent` — the same atomic create the commit protocol completes instants with — retrying on the
// version a concurrent writer took first, so two writers of two tables never lose each other's entries.
import { corruptFile, LakeletError } from '../errors.js';
import type { Storage } from '../storage/storage.js';

/** Folder of the catalog below the storage root (hidden: table searches skip it). */
export const CATALOG_DIR = '.lakelet-catalog';
/** Versions kept behind the latest (older ones are deleted after a change). */
const KEEP_VERSIONS = 10;
/** Attempts of one change before it gives up with `CONFLICT`. */
const MAX_ATTEMPTS = 50;

/** One table of a catalog. */
export interface CatalogEntry {
  /** The catalog name (unique in the catalog; default `hoodie.table.name`). */
  name: string;
  /** The table's folder below the storage root (`''`: the root itself). */
  path: string;
  /** `hoodie.table.name`. */
  tableName: string;
  type: 'COPY_ON_WRITE' | 'MERGE_ON_READ';
  /** `hoodie.table.version`. */
  version: number;
  /** The table schema (Avro JSON), meta fields first when the table has them. */
  schema: unknown;
  partitionFields: string[];
  /** The partitions that exist (sorted; empty for a non-partitioned table). */
  partitions: string[];
  /** The latest completed write's instant time (null for a table never written). */
  latestInstant: string | null;
  /** Its completion time (timeline layout 2), else null. */
  latestCompletionTime: string | null;
  /** The last Hive sync pushed through `syncTo` (its `last_commit_time_sync`), when there was one. */
  lastSync?: { instant: string; completionTime: string | null };
}

/** The catalog as one version holds it. */
export interface CatalogContent {
  /** The file's version (0: no catalog file yet). */
  version: number;
  /** Entries sorted by name. */
  tables: CatalogEntry[];
}

const FILE_RE = /^catalog-(\d{8})\.json$/;
const fileName = (version: number) => `${CATALOG_DIR}/catalog-${String(version).padStart(8, '0')}.json`;

/** The versions present, ascending. */
async function versions(storage: Storage): Promise<number[]> {
  const out: number[] = [];
  for (const e of await storage.list(CATALOG_DIR)) {
    const m = FILE_RE.exec(e.path.slice(e.path.lastIndexOf('/') + 1));
    if (e.kind === 'file' && m) out.push(Number(m[1]));
  }
  return out.sort((a, b) => a - b);
}

function parseCatalog(bytes: Uint8Array, path: string, version: number): CatalogContent {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    throw corruptFile(`catalog: ${path} is not JSON (${(err as Error).message})`, path, undefined, err);
  }
  const tables = (json as { tables?: unknown }).tables;
  if (!Array.isArray(tables)) throw corruptFile(`catalog: ${path} has no "tables" list`, path);
  return { version, tables: tables as CatalogEntry[] };
}

/** The latest catalog of `storage` (version 0 and no tables when there is none). */
export async function readCatalog(storage: Storage): Promise<CatalogContent> {
  const all = await versions(storage);
  // Newest first: a version deleted by a concurrent trim between list and read falls back to a newer list.
  for (let i = all.length - 1; i >= 0; i--) {
    const v = all[i] as number;
    try {
      return parseCatalog(await storage.read(fileName(v)), fileName(v), v);
    } catch (err) {
      if (!(err instanceof LakeletError && err.code === 'NOT_FOUND')) throw err;
    }
  }
  return { version: 0, tables: [] };
}

/**
 * Apply `change` to the latest catalog and store the result as the next version. `change` gets a copy of the
 * entries and returns the new list and a result; it may run several times (once per lost race) and throw to
 * abort. A version created by a stale writer below the latest (its base trimmed meanwhile) counts as lost.
 */
export async function updateCatalog<T>(storage: Storage, change: (tables: CatalogEntry[]) => { tables: CatalogEntry[]; result: T }): Promise<T> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await readCatalog(storage);
    const { tables, result } = change(structuredClone(current.tables));
    const next = current.version + 1;
    const body = JSON.stringify({ tables: [...tables].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) }, null, 1);
    if (!(await storage.writeIfAbsent(fileName(next), new TextEncoder().encode(body)))) continue;
    const after = await versions(storage);
    if (after.some((v) => v > next)) continue; // created below a newer version: invisible, do it again on top
    for (const v of after) if (v < next - KEEP_VERSIONS) await storage.delete(fileName(v)).catch(() => undefined);
    return result;
  }
  throw new LakeletError('CONFLICT', `catalog: gave up after ${MAX_ATTEMPTS} attempts, other writers kept changing ${CATALOG_DIR} of ${storage.label}`, { path: CATALOG_DIR });
}
