// The catalog of the tables under a storage root: list, register, refresh after a commit, drop (unregister,
// or delete the table's files too). Entries live in the versioned catalog file (catalog-file.ts).
import { LakeletError } from '../errors.js';
import { TableState } from '../engine/table-state.js';
import { avroSchemaToJson } from '../format/avro/schema.js';
import { normalizePath, type Storage } from '../storage/storage.js';
import { prefixedStorage } from '../storage/prefixed.js';
import { readCatalog, updateCatalog, type CatalogEntry } from './catalog-file.js';
import { partitionFieldNames } from './partition-values.js';
import { syncSnapshot } from './sync-snapshot.js';

/** Options of {@link registerTable}. */
export interface RegisterTableOptions {
  /** The catalog name (default `hoodie.table.name`). */
  name?: string;
}

/** Options of {@link dropTable}. */
export interface DropTableOptions {
  /** Also delete every file of the table's folder (default false: unregister only). */
  deleteFiles?: boolean;
}

/** The entry of the table a state describes (partitions, schema and latest instant as of that state). */
export async function catalogEntryOf(state: TableState, path: string, name: string): Promise<CatalogEntry> {
  const snap = await syncSnapshot(state, undefined);
  const { config } = state;
  const fields = partitionFieldNames(config.partitionFields);
  return {
    name,
    path,
    tableName: config.name,
    type: config.tableType,
    version: config.version,
    schema: avroSchemaToJson(snap.schema),
    partitionFields: fields,
    partitions: fields.length === 0 ? [] : snap.partitions,
    latestInstant: snap.latest?.requestedTime ?? null,
    latestCompletionTime: snap.latest?.completionTime ?? null,
  };
}

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name)) {
    throw new LakeletError('INVALID_ARGUMENT', `catalog: a table name is letters, digits, '_', '.', '-' (not starting with '.' or '-'), got ${JSON.stringify(name)}`, { field: 'name', value: name });
  }
  return name;
}

/** Put `entry` in `tables` (replacing the one of its path); a name taken by another path → `CONFLICT`. */
function placeEntry(tables: CatalogEntry[], entry: CatalogEntry, keep: (old: CatalogEntry) => Partial<CatalogEntry> = () => ({})): CatalogEntry[] {
  const other = tables.find((t) => t.name === entry.name && t.path !== entry.path);
  if (other) throw new LakeletError('CONFLICT', `catalog: the name ${JSON.stringify(entry.name)} is taken by the table at ${JSON.stringify(other.path)}`, { path: entry.path, value: entry.name });
  const old = tables.find((t) => t.path === entry.path);
  return [...tables.filter((t) => t.path !== entry.path), { ...entry, ...(old ? keep(old) : {}) }];
}

/** The tables of the catalog under `storage`'s root, sorted by name (empty when it has no catalog). */
export async function listTables(storage: Storage): Promise<CatalogEntry[]> {
  return (await readCatalog(storage)).tables;
}

/**
 * Register the table in the folder `path` of `storage` (or refresh its entry): reads its config, schema,
 * partitions and latest instant. Not a Hudi table → `INVALID_TABLE`/`NOT_FOUND`; a name another path holds → `CONFLICT`.
 */
export async function registerTable(storage: Storage, path: string, options: RegisterTableOptions = {}): Promise<CatalogEntry> {
  const folder = normalizePath(path);
  const state = await TableState.load(prefixedStorage(storage, folder));
  const entry = await catalogEntryOf(state, folder, checkName(options.name ?? state.config.name));
  return updateCatalog(storage, (tables) => ({ tables: placeEntry(tables, entry, (old) => (old.lastSync ? { lastSync: old.lastSync } : {})), result: entry }));
}

/**
 * Refresh the entry of the table at `path` after a commit (registering it under `name`, default its table
 * name, when absent); `lastSync` updates the recorded Hive sync. Returns the entry as stored.
 */
export async function refreshCatalogEntry(storage: Storage, path: string, state: TableState, options: { name?: string; lastSync?: CatalogEntry['lastSync'] } = {}): Promise<CatalogEntry> {
  const folder = normalizePath(path);
  const fresh = await catalogEntryOf(state, folder, '');
  return updateCatalog(storage, (tables) => {
    const old = tables.find((t) => t.path === folder);
    const entry: CatalogEntry = { ...fresh, name: old?.name ?? checkName(options.name ?? state.config.name) };
    const lastSync = options.lastSync ?? old?.lastSync;
    if (lastSync) entry.lastSync = lastSync;
    return { tables: placeEntry(tables, entry), result: entry };
  });
}

/** The catalog entry of the table at `path`, if registered. */
export async function catalogEntryAt(storage: Storage, path: string): Promise<CatalogEntry | undefined> {
  const folder = normalizePath(path);
  return (await listTables(storage)).find((t) => t.path === folder);
}

/**
 * Remove a table from the catalog; with `deleteFiles`, then delete every file below its folder. An unknown
 * name → `NOT_FOUND`. Returns the removed entry.
 */
export async function dropTable(storage: Storage, name: string, options: DropTableOptions = {}): Promise<CatalogEntry> {
  const removed = await updateCatalog(storage, (tables) => {
    const entry = tables.find((t) => t.name === name);
    if (!entry) throw new LakeletError('NOT_FOUND', `catalog: no table named ${JSON.stringify(name)} in the catalog of ${storage.label}`, { value: name });
    return { tables: tables.filter((t) => t !== entry), result: entry };
  });
  if (options.deleteFiles) {
    if (removed.path === '') throw new LakeletError('INVALID_ARGUMENT', `catalog: the table ${JSON.stringify(name)} is the storage root itself; its files were not deleted`, { value: name });
    for (const f of await storage.list(removed.path, { recursive: true })) await storage.delete(f.path);
  }
  return removed;
}
