// publishListing: writes the listing manifest `.hoodie/.aux/lakelet/listing.json` into a table directory, so
// the table can be read from static hosting that cannot list directories (httpStorage `listing: 'manifest'`).
import { mkdir, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LakeletError } from '../errors.js';
import { LISTING_MANIFEST_PATH, PROPERTIES_PATH } from '../layout.js';
import { listingManifest } from '../storage/listing-manifest.js';
import type { FileInfo } from '../storage/storage.js';

/** What {@link publishListing} wrote. */
export interface PublishResult {
  /** Absolute path of the manifest written. */
  manifestPath: string;
  /** Number of files listed. */
  files: number;
  /** Their total size in bytes. */
  bytes: number;
}

/**
 * Write the listing manifest of the table directory `dir`: every file below it (path relative to `dir`,
 * `/`-separated, size, modification time), sorted by path, the manifest itself excluded. Run it after
 * every write to the table before (or while) uploading it. A missing or non-directory `dir` → `NOT_FOUND`
 * / `INVALID_ARGUMENT`; a directory without `.hoodie/hoodie.properties` → `INVALID_TABLE`.
 */
export async function publishListing(dir: string): Promise<PublishResult> {
  let info;
  try {
    info = await stat(dir);
  } catch (err) {
    throw new LakeletError('NOT_FOUND', `publish: no such directory ${JSON.stringify(dir)}`, { path: dir }, { cause: err });
  }
  if (!info.isDirectory()) throw new LakeletError('INVALID_ARGUMENT', `publish: ${JSON.stringify(dir)} is not a directory`, { path: dir });
  try {
    await stat(join(dir, ...PROPERTIES_PATH.split('/')));
  } catch (err) {
    throw new LakeletError('INVALID_TABLE', `publish: ${JSON.stringify(dir)} is not a Hudi table root (no .hoodie/hoodie.properties)`, { path: dir }, { cause: err });
  }
  const files: FileInfo[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(join(dir, ...rel.split('/').filter(Boolean)), { withFileTypes: true });
    for (const e of entries) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(path);
      else if (e.isFile() && path !== LISTING_MANIFEST_PATH && !e.name.startsWith('.listing.json.tmp-')) {
        const s = await stat(join(dir, ...path.split('/')));
        files.push({ path, size: s.size, kind: 'file', lastModified: s.mtimeMs });
      }
    }
  };
  await walk('');
  const manifest = listingManifest(files);
  const target = join(dir, ...LISTING_MANIFEST_PATH.split('/'));
  const folder = join(target, '..');
  await mkdir(folder, { recursive: true });
  // Write beside it and rename, so a server never hands out half a manifest.
  const tmp = join(folder, `.listing.json.tmp-${process.pid}-${Date.now()}`);
  await writeFile(tmp, JSON.stringify(manifest));
  await rename(tmp, target);
  return { manifestPath: target, files: manifest.files.length, bytes: manifest.files.reduce((n, f) => n + f.size, 0) };
}
