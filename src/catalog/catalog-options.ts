// The write options of the catalog step (`catalogSync`, `syncTo`): their types and their check. No run-time
// imports beyond errors, so write-options.ts can use it without pulling the catalog in.
import { LakeletError } from '../errors.js';
import type { Storage } from '../storage/storage.js';
import type { HiveSyncOptions } from './hive-sync.js';

/**
 * Where `catalogSync` keeps the table's entry. `true`: the catalog of the store the table's storage is a
 * `prefixedStorage` view of (as `openTable(tableStorage(root))` and `prefixedStorage(root, 'trips')` give),
 * at that prefix; a table at the root of its own store keeps it there (path `''`). Or name the root and path.
 */
export type CatalogSyncOption = boolean | { root: Storage; path: string; name?: string };

/** Receives the statements of one sync (throwing makes the step a warning; the statements are sent again next time). */
export type HiveStatementSink = (statements: string[]) => Promise<void>;

/**
 * `syncTo`: a function receiving the Hive statements since the last sync, or one with the sync's options
 * (`basePath` defaults to the table storage's label; set it to the path engines see, e.g. `s3a://…`).
 */
export type HiveSyncTarget = HiveStatementSink | ({ send: HiveStatementSink; basePath?: string } & Omit<HiveSyncOptions, 'since' | 'basePath'>);

/** Check the two options (INVALID_ARGUMENT naming the field). */
export function checkCatalogOptions(catalogSync: unknown, syncTo: unknown): void {
  if (catalogSync !== undefined && typeof catalogSync !== 'boolean') {
    const c = catalogSync as { root?: Storage; path?: unknown };
    if (typeof c !== 'object' || c === null || typeof c.root?.writeIfAbsent !== 'function' || typeof c.path !== 'string') {
      throw new LakeletError('INVALID_ARGUMENT', 'write: catalogSync must be true, false or { root: Storage, path: string, name? }', { field: 'catalogSync', value: String(catalogSync) });
    }
  }
  if (syncTo !== undefined && typeof syncTo !== 'function' && typeof (syncTo as { send?: unknown })?.send !== 'function') {
    throw new LakeletError('INVALID_ARGUMENT', 'write: syncTo must be a function (statements) => Promise<void> or { send, database?, basePath?, … }', { field: 'syncTo', value: String(syncTo) });
  }
}

