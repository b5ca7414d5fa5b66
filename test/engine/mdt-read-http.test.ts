// A snapshot over HTTP listed through the metadata table vs through storage, counting requests: a v9 table
// with an MDT and 45 partitions (a copy of the v9 COW fixture, 40 partitions added by lakelet's writer) served
// from nginx with a published manifest and from bare nginx. With the manifest the MDT gives the same answer
// (and costs its own reads, while the manifest lists everything in one request); bare nginx hides the MDT's
// dot-named log files, so the metadata listing is refused as incomplete and the read falls back to storage
// (with a warning) instead of returning a stale listing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { openTable, type Storage } from '../../src/index.js';
import { publishListing } from '../../src/node/publish.js';
import type { FetchLike } from '../../src/storage/http-retry.js';
import { httpStorage, type HttpListing } from '../../src/storage/http.js';
import { collect } from '../helpers/fixtures.js';
import { manyPartitionTable } from './mdt-read-table.js';
import type { ReadWarning } from '../../src/engine/read/file-slice-reader.js';

const RUN = `mdt-http-${Date.now().toString(36)}`;

async function copyToDisk(source: Storage, dir: string): Promise<void> {
  for (const f of await source.list('', { recursive: true })) {
    const target = join(dir, ...f.path.split('/'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, await source.read(f.path));
  }
}

/** A fetch counting requests. */
function counting(): { fetch: FetchLike; count: () => number } {
  let n = 0;
  return { fetch: (url, init) => { n++; return fetch(url, init); }, count: () => n };
}

const json = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));

/** Requests of opening the table and planning a snapshot (the listing), then of reading every row. */
async function measure(url: string, listing: HttpListing, mode: 'metadata' | 'storage') {
  const net = counting();
  const warnings: ReadWarning[] = [];
  const table = await openTable(httpStorage(url, { listing, fetch: net.fetch }), { listing: mode });
  const slices = await table.fileSlices();
  const planned = net.count();
  const rows = (await collect(table.rows({ onWarning: (w) => warnings.push(w) }))).map(json).sort();
  return { planned, total: net.count(), slices: slices.length, rows, warnings };
}

describe('a snapshot over HTTP through the metadata table', () => {
  let publishedUrl = '';
  let plainUrl = '';
  let partitions = 0;
  beforeAll(async () => {
    const mem = await manyPartitionTable(40);
    partitions = new Set((await (await openTable(mem, { listing: 'storage' })).fileSlices()).map((s) => s.partitionPath)).size;
    const published = join(inject('NGINX_ROOT'), RUN, 'published');
    await copyToDisk(mem, published);
    await publishListing(published);
    publishedUrl = `${inject('NGINX_URL')}/${RUN}/published`;
    await copyToDisk(mem, join(inject('NGINX_ROOT'), RUN, 'plain'));
    plainUrl = `${inject('NGINX_URL')}/${RUN}/plain`;
  }, 120_000);

  it('reads the listing from the MDT over a published manifest, same rows and slices as listing storage', async () => {
    expect(partitions).toBe(45); // the fixture's 5 partitions and the 40 new ones
    const meta = await measure(publishedUrl, 'manifest', 'metadata');
    const storage = await measure(publishedUrl, 'manifest', 'storage');
    const folders = await measure(plainUrl, 'nginx-json', 'storage');
    // Reported, not asserted as a ratio: the manifest is one request for every folder, so the MDT's own reads
    // (properties, timeline, files folder, HFile, logs) cost more than it; listing folder by folder costs one
    // request per directory level of every partition.
    console.log(`${partitions} partitions: plan ${meta.planned} requests via the MDT, ${storage.planned} via the manifest, ${folders.planned} listing nginx folders; snapshot ${meta.total} / ${storage.total} / ${folders.total}`);
    expect(meta.warnings).toEqual([]);
    expect(meta.rows).toEqual(storage.rows);
    expect(meta.rows).toHaveLength(45);
    expect(meta.slices).toBe(storage.slices);
    expect(folders.planned).toBeGreaterThan(partitions); // one list per partition folder at least
  });

  it('falls back to storage on bare nginx, whose index hides the MDT log files', async () => {
    const meta = await measure(plainUrl, 'nginx-json', 'metadata');
    const storage = await measure(plainUrl, 'nginx-json', 'storage');
    expect(meta.rows).toEqual(storage.rows);
    expect(meta.warnings.map((w) => w.code)).toEqual(['METADATA_FALLBACK']);
    expect(storage.warnings).toEqual([]);
  });
});
