// The listing manifest `.hoodie/.aux/lakelet/listing.json`: every file below a table root with its size, for
// static hosts that list nothing. `lakelet publish` writes it; httpStorage lists from it.
import { LakeletError } from '../errors.js';
import { LISTING_MANIFEST_PATH } from '../layout.js';
import { byPath } from './listing.js';
import { normalizePath, type FileInfo } from './storage.js';

/** The listing manifest: every file below the table root with its size, sorted by path. */
export interface ListingManifest {
  version: 1;
  files: { path: string; size: number; lastModified?: number }[];
}

/**
 * The listing manifest of a table's files (paths relative to the table root): sorted by path, the manifest
 * itself left out. `publishListing` (lakelet/node) writes it for a directory; build it here for any store.
 */
export function listingManifest(files: readonly FileInfo[]): ListingManifest {
  const entries = files
    .filter((f) => f.kind === 'file' && normalizePath(f.path) !== LISTING_MANIFEST_PATH)
    .map((f) => {
      const e: ListingManifest['files'][number] = { path: normalizePath(f.path), size: f.size };
      if (f.lastModified !== undefined) e.lastModified = Math.round(f.lastModified);
      return e;
    });
  return { version: 1, files: entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}

/** Parse the manifest's bytes into the files it lists, sorted by path; a bad document → `CORRUPT_FILE`. */
export function parseListingManifest(bytes: Uint8Array, label: string): FileInfo[] {
  let doc: ListingManifest;
  try {
    doc = JSON.parse(new TextDecoder().decode(bytes)) as ListingManifest;
    if (doc.version !== 1 || !Array.isArray(doc.files)) throw new Error('expected {"version": 1, "files": [...]}');
  } catch (err) {
    throw new LakeletError('CORRUPT_FILE', `storage(${label}): listing manifest is not valid: ${(err as Error).message}`, { path: LISTING_MANIFEST_PATH }, { cause: err });
  }
  const out: FileInfo[] = [];
  for (const f of doc.files) {
    if (typeof f?.path !== 'string' || typeof f.size !== 'number') {
      throw new LakeletError('CORRUPT_FILE', `storage(${label}): listing manifest has a bad entry ${JSON.stringify(f)}`, { path: LISTING_MANIFEST_PATH });
    }
    const info: FileInfo = { path: normalizePath(f.path), size: f.size, kind: 'file' };
    if (typeof f.lastModified === 'number') info.lastModified = f.lastModified;
    out.push(info);
  }
  return out.sort(byPath);
}
