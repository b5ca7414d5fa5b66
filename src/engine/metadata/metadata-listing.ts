// The data-file listing a reader's file-system view is built from (hudi-format.md §4.3 step 2): from the
// metadata table's `files` partition (`listing: 'metadata'`, one MDT read instead of a listing of every
// partition) when the table lists `files` as built, else from storage. An MDT that cannot be opened or read, or
// whose `files` slice lacks a log of a valid MDT deltacommit (a host that hides dot-files, a half-copied table),
// is not trusted: the listing falls back to storage with a `METADATA_FALLBACK` warning, as hudi-rs does when its
// MDT fails to initialise (Java raises instead; the MDT is a derived accelerator and storage is the truth).
import { isLakeletError } from '../../errors.js';
import { compareInstantTimes } from '../../timeline/instant.js';
import { isMetadataInitInstant, METADATA_PARTITION, parseMetadataPartitions } from '../../metadata/metadata-partitions.js';
import type { TableConfig } from '../../config/table-config.js';
import type { FileInfo, Storage } from '../../storage/storage.js';
import type { Timeline } from '../../timeline/timeline.js';
import type { MetadataFileSlice } from '../../metadata/metadata-file-slices.js';
import type { MetadataTable } from './metadata-table.js';

/** Where a reader's data-file listing comes from: the MDT's `files` partition (when built) or storage. */
export type ListingMode = 'metadata' | 'storage';

/** A read fell back from the metadata table to storage listing (the MDT was unreadable or incomplete). */
export interface MetadataFallbackWarning {
  code: 'METADATA_FALLBACK';
  message: string;
  /** The MDT path that failed, relative to the MDT root (`.` when not known). */
  path: string;
  /** Always 0: the warning names no byte region (present so every read warning has the same fields). */
  offset: number;
  /** Always 0. */
  length: number;
}

/** A data-file listing and where it came from. */
export interface DataListing {
  files: FileInfo[];
  source: ListingMode;
  /** Set when `metadata` was asked for and the MDT could not be trusted. */
  warning?: MetadataFallbackWarning;
  /** The MDT the listing was read from (reused by the record-index and stats reads of the same snapshot). */
  metadataTable?: MetadataTable;
}

/** Does the data table list the MDT `files` partition as built (`hoodie.table.metadata.partitions`)? */
export function hasMetadataFilesPartition(config: TableConfig): boolean {
  return config.version >= 8 && parseMetadataPartitions(config.properties.get('hoodie.table.metadata.partitions')).includes(METADATA_PARTITION.FILES);
}

/**
 * The `files` partition's latest slice holds a log of every valid MDT deltacommit newer than its base (each data
 * write, clean and rollback appends one to `files`). A missing one means the folder listing is incomplete (nginx's
 * autoindex hides the `.`-named logs), so the listing would be stale: undefined when complete, else the reason.
 */
async function missingFilesLog(mdt: MetadataTable): Promise<{ message: string; path: string } | undefined> {
  const slices = await mdt.latestSlices(METADATA_PARTITION.FILES);
  if (slices.length !== 1) return { message: `the files partition has ${slices.length} file groups (expected 1)`, path: METADATA_PARTITION.FILES };
  const slice = slices[0] as (typeof slices)[number];
  if (!slice.baseFile) return { message: 'the files partition has no base file', path: METADATA_PARTITION.FILES };
  const base = slice.baseFile.instantTime;
  const logged = new Set(slice.logFiles.map((l) => l.instantTime));
  for (const i of mdt.timeline.completed()) {
    if (i.action !== 'deltacommit' || compareInstantTimes(i.requestedTime, base) <= 0 || isMetadataInitInstant(i.requestedTime) || !mdt.isValidInstant(i.requestedTime)) continue;
    if (!logged.has(i.requestedTime)) return { message: `no log of MDT deltacommit ${i.requestedTime} is listed in the files partition`, path: slice.baseFile.path };
  }
  return undefined;
}

/**
 * The data files of the table as the view needs them: from the MDT `files` partition when `mode` is `metadata`
 * and the table (version 8 or 9) lists it, else `storageListing()`. On an MDT that cannot be opened, read or
 * trusted, the storage listing with a {@link MetadataFallbackWarning}.
 */
export async function loadDataListing(
  storage: Storage,
  config: TableConfig,
  timeline: Timeline,
  mode: ListingMode,
  storageListing: () => Promise<FileInfo[]>,
): Promise<DataListing> {
  if (mode === 'storage' || !hasMetadataFilesPartition(config)) return { files: await storageListing(), source: 'storage' };
  let reason: { message: string; path: string };
  try {
    // The MDT code loads only here, for a table that lists its files in the MDT (./lazy.ts).
    const { openMetadataTable, metadataListingFiles, readMetadataListing } = await import('./lazy.js');
    const opened = await openMetadataTable(storage, { dataConfig: config, dataTimeline: timeline });
    const mdt = opened && withCachedSlices(opened);
    const incomplete = mdt ? await missingFilesLog(mdt) : { message: 'the metadata table could not be opened', path: '.' };
    if (mdt && !incomplete) {
      const listing = await readMetadataListing(storage, { metadataTable: mdt });
      if (listing) return { files: metadataListingFiles(listing), source: 'metadata', metadataTable: mdt };
    }
    reason = incomplete ?? { message: 'the files partition is not readable', path: METADATA_PARTITION.FILES };
  } catch (err) {
    if (!isLakeletError(err)) throw err;
    const context = err.context as { path?: unknown };
    reason = { message: err.message, path: typeof context.path === 'string' ? context.path : METADATA_PARTITION.FILES };
  }
  return { files: await storageListing(), source: 'storage', warning: fallbackWarning(reason) };
}

/** The MDT with each partition's latest slices listed once (the listing, its check and the skipping reads share them). */
function withCachedSlices(mdt: MetadataTable): MetadataTable {
  const slices = new Map<string, Promise<MetadataFileSlice[]>>();
  return {
    ...mdt,
    latestSlices(partition: string): Promise<MetadataFileSlice[]> {
      let s = slices.get(partition);
      if (!s) slices.set(partition, (s = mdt.latestSlices(partition)));
      return s;
    },
  };
}

/** The warning of a fallback to storage listing. */
export function fallbackWarning(reason: { message: string; path: string }): MetadataFallbackWarning {
  return { code: 'METADATA_FALLBACK', message: `metadata: listing from storage instead of the metadata table (${reason.message})`, path: reason.path, offset: 0, length: 0 };
}
