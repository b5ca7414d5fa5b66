// A whole ListObjectsV2 listing as FileInfo entries: follows continuation tokens, turns objects into files and
// common prefixes into directories (relative to the store's root), skips folder markers. Shared by the S3 store
// and by httpStorage's listing of public buckets; each brings its own request for one page.
import { LakeletError } from '../errors.js';
import { byPath } from './listing.js';
import { parseListResult } from './s3-xml.js';
import type { FileInfo } from './storage.js';

/** What one listing needs: the key prefix listed, the store root's key prefix, and how to fetch one page. */
export interface S3ListingRequest {
  /** The store's label, for messages. */
  label: string;
  /** The directory listed (store-relative), named in errors. */
  dir: string;
  /** Key prefix of the listed directory (`''` or ending in `/`). */
  keyPrefix: string;
  /** Key prefix of the store's root, cut from every key (`''` or ending in `/`). */
  rootPrefix: string;
  /** The XML body of the page after `token` (the first page when undefined); failed answers throw. */
  page: (token: string | undefined) => Promise<string>;
}

/** Every file and directory of a listing, sorted by path; a page that is not a ListBucketResult → `STORAGE`. */
export async function listS3Objects(r: S3ListingRequest): Promise<FileInfo[]> {
  const out: FileInfo[] = [];
  const seen = new Set<string>();
  let token: string | undefined;
  do {
    const xml = await r.page(token);
    let page;
    try {
      page = parseListResult(xml);
    } catch (err) {
      throw new LakeletError('STORAGE', `storage(${r.label}): listing ${JSON.stringify(r.keyPrefix)} gave no ListBucketResult: ${(err as Error).message}`, { path: r.dir }, { cause: err });
    }
    for (const obj of page.objects) {
      if (!obj.key.startsWith(r.keyPrefix) || obj.key.endsWith('/')) continue; // folder markers are not files
      const info: FileInfo = { path: obj.key.slice(r.rootPrefix.length), size: obj.size, kind: 'file' };
      if (obj.lastModified !== undefined) info.lastModified = obj.lastModified;
      out.push(info);
    }
    for (const pre of page.prefixes) {
      if (pre.startsWith(r.keyPrefix)) out.push({ path: pre.slice(r.rootPrefix.length).replace(/\/+$/, ''), size: 0, kind: 'directory' });
    }
    if (page.nextToken !== undefined && seen.has(page.nextToken)) {
      throw new LakeletError('STORAGE', `storage(${r.label}): listing ${JSON.stringify(r.keyPrefix)} repeats a continuation token`, { path: r.dir });
    }
    token = page.nextToken;
    if (token !== undefined) seen.add(token);
  } while (token !== undefined);
  return out.filter((e) => e.path !== '').sort(byPath);
}
