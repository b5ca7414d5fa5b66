// The Table's reads, beyond resolving them: the state a read runs on (listed through the metadata table or
// storage), a `rows()` call resolved as a snapshot or incremental query, and a resolved read collected into an
// Arrow Table (Arrow loaded on first use; read warnings kept in its metadata).
import type { ArrowTable } from '../arrow/arrow.js';
import { executeRead, resolveIncremental, resolveQuery, type ResolvedRead } from '../engine/read/query.js';
import type { ReadWarning } from '../engine/read/file-slice-reader.js';
import { listDataFiles, type DataFileLister, type TableState } from '../engine/table-state.js';
import { fallbackWarning, hasMetadataFilesPartition, loadDataListing, type ListingMode } from '../engine/metadata/metadata-listing.js';
import { invalidArgument, isLakeletError } from '../errors.js';
import type { FileSliceOptions, RowsOptions } from '../types.js';

/** Lists a state's data files through its metadata table (falling back to storage, with a warning). */
const metadataLister: DataFileLister = (s) => loadDataListing(s.storage, s.config, s.timeline, 'metadata', () => listDataFiles(s.storage));

/** The metadata-listed twin of each snapshot (made once per snapshot, so its listing and view are cached). */
const METADATA_STATES = new WeakMap<TableState, TableState>();

/**
 * The state a read with `listing` runs on: the snapshot itself (storage-listed, what writes use) for `storage`
 * or a table without an MDT `files` partition; else its twin listed through the metadata table.
 */
export function readState(state: TableState, listing: ListingMode | undefined): TableState {
  if (listing !== undefined && listing !== 'metadata' && listing !== 'storage') {
    throw invalidArgument(`query: listing must be 'metadata' or 'storage', got ${JSON.stringify(listing)}`, { field: 'listing', value: listing });
  }
  if (listing === 'storage' || !hasMetadataFilesPartition(state.config)) return state;
  let twin = METADATA_STATES.get(state);
  if (!twin) METADATA_STATES.set(state, (twin = state.withLister(metadataLister)));
  return twin;
}

/** The storage-listed twin of a metadata-listed state whose MDT missed a committed file (made once). */
const FALLBACK_STATES = new WeakMap<TableState, Promise<TableState>>();

/**
 * Resolve a read on `state`; when it is listed through the metadata table and the view finds a file a completed
 * write names missing from that listing (`NOT_FOUND`: a stale `files` partition), resolve it again on a storage
 * listing with a `METADATA_FALLBACK` warning — storage is the truth (a file missing there fails as before).
 */
export async function resolveWithFallback(state: TableState, resolve: (s: TableState) => Promise<ResolvedRead>): Promise<ResolvedRead> {
  try {
    return await resolve(state);
  } catch (err) {
    if (!isLakeletError(err, 'NOT_FOUND') || (await state.listing()).source !== 'metadata') throw err;
    let fallback = FALLBACK_STATES.get(state);
    if (!fallback) {
      const path = typeof err.context.path === 'string' ? err.context.path : '.';
      fallback = listDataFiles(state.storage).then((files) => state.withListing({ files, source: 'storage', warning: fallbackWarning({ message: `the files partition does not list ${path}, which a completed write names`, path }) }));
      FALLBACK_STATES.set(state, fallback);
    }
    return resolve(await fallback);
  }
}

/** `rows()`'s query: incremental over `(from, to]` when `from` is given, else a snapshot query. */
export function resolveRowsRead(state: TableState, options: RowsOptions): Promise<ResolvedRead> {
  return options.from !== undefined ? resolveIncremental(state, { ...options, from: options.from }) : resolveQuery(state, options);
}

/** `fileSlices()`'s query: incremental over `(from, to]` when `from` is given, else a snapshot query. */
export function resolveSliceRead(state: TableState, options: FileSliceOptions): Promise<ResolvedRead> {
  return options.from !== undefined ? resolveIncremental(state, { from: options.from, to: options.to, filters: options.filters }) : resolveQuery(state, options);
}

/** Every row of `read` as an Arrow Table; warnings go to `onWarning` and into the schema metadata `lakelet.warnings`. */
export async function collectArrow(state: TableState, read: ResolvedRead, onWarning?: (w: ReadWarning) => void): Promise<ArrowTable> {
  const warnings: ReadWarning[] = [];
  const rows: Record<string, unknown>[] = [];
  for await (const row of executeRead(state, read, (w) => {
    warnings.push(w);
    onWarning?.(w);
  })) rows.push(row);
  const { arrowSchema, rowsToArrow } = await import('../arrow/arrow.js');
  const table = rowsToArrow(rows, arrowSchema(read.schema, read.columns));
  if (warnings.length > 0) table.schema.metadata.set('lakelet.warnings', JSON.stringify(warnings));
  return table;
}
