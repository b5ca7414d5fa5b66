// The post-commit catalog step of a write with `catalogSync` or `syncTo`: refresh the table's entry in the
// catalog of its storage root, and push the Hive statements of the commits since the last sync to `syncTo`
// (recording that sync, like Hudi's `last_commit_time_sync`, in the catalog entry).
import type { TableState } from '../engine/table-state.js';
import type { Instant } from '../timeline/instant.js';
import { prefixedOrigin } from '../storage/prefixed.js';
import type { Storage } from '../storage/storage.js';
import { catalogEntryAt, refreshCatalogEntry } from './catalog.js';
import type { CatalogEntry } from './catalog-file.js';
import { hiveSyncStatementsOf } from './hive-sync.js';
import type { CatalogSyncOption, HiveSyncTarget } from './catalog-options.js';

/** The catalog root and the table's path in it. */
function catalogPlace(option: Exclude<CatalogSyncOption, false>, table: Storage): { root: Storage; path: string; name?: string } {
  if (option !== true) return option;
  const origin = prefixedOrigin(table);
  return origin ? { root: origin.inner, path: origin.prefix } : { root: table, path: '' };
}

/**
 * The catalog step: with `catalogSync`, refresh the entry; with `syncTo`, send the statements since the last
 * sync (the entry's `lastSync`; without a catalog, the write before the latest) and record the sync.
 */
export async function syncCatalog(state: TableState, catalogSync: CatalogSyncOption | undefined, syncTo: HiveSyncTarget | undefined): Promise<void> {
  const place = catalogSync ? catalogPlace(catalogSync, state.storage) : undefined;
  let entry: CatalogEntry | undefined;
  if (place) entry = await refreshCatalogEntry(place.root, place.path, state, place.name === undefined ? {} : { name: place.name });
  if (!syncTo) return;
  const writes = state.timeline.completedWrites();
  const latest = writes[writes.length - 1];
  if (!latest) return;
  let since: string | undefined;
  let sinceCompletion: string | undefined;
  if (place) {
    const lastSync = (entry ?? (await catalogEntryAt(place.root, place.path)))?.lastSync;
    since = lastSync?.instant;
    sinceCompletion = lastSync?.completionTime ?? undefined;
  } else {
    // No record of the last sync: this write's own commit. It is the newest write that is not a compaction (an
    // inline compaction may have completed after it); the sync covers what came after the write before it.
    let i = writes.length - 1;
    while (i > 0 && (await state.commitMetadata(writes[i] as Instant)).compacted) i--;
    since = writes[i - 1]?.requestedTime;
    sinceCompletion = writes[i - 1]?.completionTime;
  }
  const { send, basePath, ...rest } = typeof syncTo === 'function' ? { send: syncTo, basePath: undefined } : syncTo;
  const statements = await hiveSyncStatementsOf(state, { ...rest, basePath: basePath ?? state.storage.label, ...(since === undefined ? {} : { since }), ...(sinceCompletion === undefined ? {} : { sinceCompletion }) });
  if (statements.length === 0) return; // nothing committed since the last sync
  await send(statements);
  if (place) await refreshCatalogEntry(place.root, place.path, state, { lastSync: { instant: latest.requestedTime, completionTime: latest.completionTime ?? null } });
}
