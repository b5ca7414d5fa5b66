// httpStorage in headless Chromium: fixture tables PUT to nginx (WebDAV) and s3rver from the page, then read
// cross-origin through nginx's JSON index, the listing manifest and an anonymous S3 listing; snapshot, time
// travel and incremental rows must equal a read of the same zip in the page.
import { describe, expect, inject, it } from 'vitest';
import { openTable, tableStorage, zipStorage, type Storage } from '../../src/index.js';
import { httpStorage, type HttpListing } from '../../src/storage/http.js';
import { listingManifest } from '../../src/storage/listing-manifest.js';
import { LISTING_MANIFEST_PATH } from '../../src/layout.js';
import { s3Storage } from '../../src/storage/s3.js';
import { fetchFixture } from '../helpers/fixtures.browser.js';
import { tableReads } from '../helpers/table-reads.js';
import { defineReadOnlyContract } from './contract.js';

const RUN = `browser-http-${Date.now().toString(36)}`;
const enc = (s: string) => new TextEncoder().encode(s);

/** PUT every file of `source` under `url` (nginx creates the folders). */
async function putAll(source: Storage, url: string, extra: [string, Uint8Array][] = []): Promise<void> {
  const files: [string, Uint8Array][] = [];
  for (const f of await source.list('', { recursive: true })) files.push([f.path, await source.read(f.path)]);
  for (const [path, bytes] of [...files, ...extra]) {
    const res = await fetch(`${url}/${path.split('/').map(encodeURIComponent).join('/')}`, { method: 'PUT', body: new Uint8Array(bytes) });
    if (!res.ok) throw new Error(`PUT ${path}: HTTP ${res.status}`);
  }
}

async function withManifest(source: Storage): Promise<[string, Uint8Array][]> {
  return [[LISTING_MANIFEST_PATH, enc(JSON.stringify(listingManifest(await source.list('', { recursive: true }))))]];
}

const files = { 'hoodie/hoodie.properties': 'hoodie.table.name=t', 'p=1/a.parquet': 'PAR1 data PAR1', 'top.txt': 'top' };
defineReadOnlyContract('httpStorage on nginx (browser, nginx-json)', files, async () => {
  const url = `${inject('NGINX_URL')}/${RUN}/contract-${Math.random().toString(36).slice(2)}`;
  for (const [p, t] of Object.entries(files)) expect((await fetch(`${url}/${p}`, { method: 'PUT', body: t })).ok).toBe(true);
  return { storage: httpStorage(url, { listing: 'nginx-json' }) };
});

describe.each(['sample_table/cow/v6_nonpartitioned.zip', 'sample_table/mor/parquet/v6_nonpartitioned.zip'])('%s over HTTP from the browser', (zip) => {
  const name = zip.replace(/[/.]/g, '_');
  it('reads the same rows as the zip through every listing', async () => {
    expect(new URL(inject('NGINX_URL')).origin).not.toBe(location.origin);
    const source = await tableStorage(zipStorage(await fetchFixture(zip), { label: zip }));
    const expected = await tableReads(await openTable(source));
    const nginxUrl = `${inject('NGINX_URL')}/${RUN}/${name}`;
    await putAll(source, nginxUrl, await withManifest(source));
    const prefix = `${RUN}/${name}`;
    const bucket = s3Storage({ endpoint: inject('S3_URL'), bucket: 'lake', prefix, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    for (const f of await source.list('', { recursive: true })) await bucket.write(f.path, await source.read(f.path));
    const modes: [string, HttpListing][] = [[nginxUrl, 'manifest'], [nginxUrl, 'auto'], [`${inject('S3_URL')}/lake/${prefix}`, 's3']];
    // nginx's JSON index hides dot-files such as merge-on-read log files: only copy-on-write reads through it.
    if (!zip.includes('/mor/')) modes.push([nginxUrl, 'nginx-json']);
    for (const [url, listing] of modes) {
      expect(await tableReads(await openTable(httpStorage(url, { listing }))), `${listing} ${url}`).toEqual(expected);
    }
  });
});
