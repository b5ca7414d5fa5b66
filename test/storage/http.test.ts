// httpStorage from Node against nginx on loopback: fixture tables written into nginx's root and read through
// every listing mode (nginx JSON autoindex, the published manifest, S3 ListObjectsV2 on s3rver, auto) give
// the same snapshot, time-travel and incremental rows as the zip; the read-only contract; ranged reads only.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createTable, memoryStorage, openTable, type Storage } from '../../src/index.js';
import { main } from '../../src/node/cli/cli.js';
import { publishCommand } from '../../src/node/cli/publish.js';
import { publishListing } from '../../src/node/publish.js';
import type { FetchLike } from '../../src/storage/http-retry.js';
import { httpStorage, type HttpListing } from '../../src/storage/http.js';
import { LISTING_MANIFEST_PATH } from '../../src/layout.js';
import { s3Storage } from '../../src/storage/s3.js';
import { fixtureStorage } from '../helpers/fixtures.js';
import { tableReads } from '../helpers/table-reads.js';
import { S3RVER_CREDENTIALS } from '../servers/s3rver.js';
import { defineReadOnlyContract, lakeletError } from './contract.js';

const RUN = `http-${Date.now().toString(36)}`;

/** Copy every file of `source` into `dir` on disk. */
async function copyToDisk(source: Storage, dir: string): Promise<void> {
  for (const f of await source.list('', { recursive: true })) {
    const target = join(dir, ...f.path.split('/'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, await source.read(f.path));
  }
}

/** Write `files` under nginx's root at `rel` and return their URL. */
function serveFiles(rel: string, files: Record<string, string>): string {
  for (const [p, text] of Object.entries(files)) {
    const target = join(inject('NGINX_ROOT'), rel, ...p.split('/'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return `${inject('NGINX_URL')}/${rel}`;
}

/** A fetch counting requests and body bytes, per path. */
function counting(): { fetch: FetchLike; requests: { method: string; url: string; range: string | undefined; bytes: number }[] } {
  const requests: { method: string; url: string; range: string | undefined; bytes: number }[] = [];
  return {
    requests,
    fetch: async (url, init = {}) => {
      const res = await fetch(url, init);
      const body = init.method === 'HEAD' ? new ArrayBuffer(0) : await res.arrayBuffer();
      requests.push({ method: init.method ?? 'GET', url, range: (init.headers as Record<string, string> | undefined)?.range, bytes: body.byteLength });
      return new Response(init.method === 'HEAD' ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
    },
  };
}

const contractFiles = { '.hoodie/hoodie.properties': 'hoodie.table.name=t', 'p=1/a.parquet': 'PAR1 data PAR1', 'top.txt': 'top', 'sp ace/ü=1/x.txt': 'unicode' };
// nginx's autoindex never lists names starting with '.' (hard-coded; no directive changes it), so a recursive
// JSON listing from the root cannot see `.hoodie/…`: the nginx-json contract runs on files without dot-names.
// (Listing `.hoodie` itself works, which is all a copy-on-write table needs; see the MOR test below.)
const visibleFiles = { 'hoodie/hoodie.properties': 'hoodie.table.name=t', 'p=1/a.parquet': 'PAR1 data PAR1', 'top.txt': 'top', 'sp ace/ü=1/x.txt': 'unicode' };
for (const listing of ['nginx-json', 'auto'] as const) {
  defineReadOnlyContract(`httpStorage on nginx (${listing})`, visibleFiles, async () => ({ storage: httpStorage(serveFiles(`${RUN}/contract-${listing}`, visibleFiles), { listing }) }));
}
defineReadOnlyContract('httpStorage on s3rver (s3 listing, anonymous)', contractFiles, async () => {
  const prefix = `${RUN}/contract-s3-${Math.random().toString(36).slice(2)}`;
  const bucket = s3Storage({ endpoint: inject('S3_URL'), bucket: 'lake', prefix, region: 'us-east-1', credentials: S3RVER_CREDENTIALS });
  for (const [p, text] of Object.entries(contractFiles)) await bucket.write(p, new TextEncoder().encode(text));
  return { storage: httpStorage(`${inject('S3_URL')}/lake/${prefix}`, { listing: 's3' }) };
});
defineReadOnlyContract('httpStorage on nginx (manifest)', contractFiles, async () => {
  const url = serveFiles(`${RUN}/contract-manifest`, contractFiles);
  await publishListing(join(inject('NGINX_ROOT'), RUN, 'contract-manifest'));
  return { storage: httpStorage(url, { listing: 'manifest' }) };
});

const TABLES = ['sample_table/cow/v6_nonpartitioned.zip', 'sample_table/mor/parquet/v6_nonpartitioned.zip'];

describe.each(TABLES)('a fixture table over HTTP: %s', (zip) => {
  const name = zip.replace(/[/.]/g, '_');
  let expected: Awaited<ReturnType<typeof tableReads>>;
  let plainUrl: string;
  let publishedUrl: string;
  let s3Url: string;
  beforeAll(async () => {
    const source = await fixtureStorage(zip);
    expected = await tableReads(await openTable(source));
    await copyToDisk(source, join(inject('NGINX_ROOT'), RUN, name, 'plain'));
    const published = join(inject('NGINX_ROOT'), RUN, name, 'published');
    await copyToDisk(source, published);
    await publishListing(published);
    plainUrl = `${inject('NGINX_URL')}/${RUN}/${name}/plain`;
    publishedUrl = `${inject('NGINX_URL')}/${RUN}/${name}/published`;
    // The same table in the s3rver bucket, read anonymously over plain HTTP with ListObjectsV2 listings.
    const bucket = s3Storage({ endpoint: inject('S3_URL'), bucket: 'lake', prefix: `${RUN}/${name}`, region: 'us-east-1', credentials: S3RVER_CREDENTIALS });
    for (const f of await source.list('', { recursive: true })) await bucket.write(f.path, await source.read(f.path));
    s3Url = `${inject('S3_URL')}/lake/${RUN}/${name}`;
  });

  // nginx's JSON autoindex hides dot-files, and merge-on-read log files are named `.<fileId>_<instant>.log.<n>_…`:
  // over a bare nginx index a MOR table's logs are invisible, so MOR needs the manifest (or S3); see below.
  const nginxVisible = !zip.includes('/mor/');
  const cases: [string, () => string, HttpListing][] = [
    ...(nginxVisible ? [
      ['nginx JSON autoindex', () => plainUrl, 'nginx-json'],
      ['auto on a plain directory (→ nginx JSON)', () => plainUrl, 'auto'],
    ] as [string, () => string, HttpListing][] : []),
    ['the published manifest', () => publishedUrl, 'manifest'],
    ['auto on a published directory (→ manifest)', () => publishedUrl, 'auto'],
    ['S3 ListObjectsV2 (s3rver, anonymous)', () => s3Url, 's3'],
    ['auto on an S3 bucket (→ s3)', () => s3Url, 'auto'],
  ];
  it.each(cases)('snapshot, time travel and incremental through %s equal the zip', async (_label, url, listing) => {
    const table = await openTable(httpStorage(url(), { listing }));
    expect(await tableReads(table)).toEqual(expected);
  });

  // Defined for the merge-on-read table only (the copy-on-write one has no log files to miss).
  if (!nginxVisible) it('nginx JSON listings miss the dot-named log files that the manifest lists', async () => {
    const logs = (files: { path: string }[]) => files.filter((f) => /(^|\/)\.[^/]*\.log\./.test(f.path)).map((f) => f.path);
    const viaManifest = logs(await httpStorage(publishedUrl, { listing: 'manifest' }).list('', { recursive: true }));
    expect(viaManifest.length).toBeGreaterThan(0);
    expect(logs(await httpStorage(plainUrl, { listing: 'nginx-json' }).list('', { recursive: true }))).toEqual([]);
  });
});

describe('httpStorage', () => {
  it('reads footers and the needed row groups, not whole files', async () => {
    // One base file of 40 row groups: 40 000 rows, 1 000 per group, keys in order, a wide incompressible column.
    const mem = memoryStorage();
    const table = await createTable(mem, { name: 'wide', type: 'COPY_ON_WRITE', recordKey: 'key', rowGroupRows: 1000 });
    let x = 7;
    const noise = () => Array.from({ length: 8 }, () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0).toString(16).padStart(8, '0'))).join('');
    const rows = Array.from({ length: 40_000 }, (_, i) => ({ key: `k${String(i).padStart(6, '0')}`, name: `name-${i}`, payload: noise() + noise() }));
    await table.bulkInsert(rows);
    await copyToDisk(mem, join(inject('NGINX_ROOT'), RUN, 'wide'));
    const files = (await mem.list('', { recursive: true })).filter((f) => f.path.endsWith('.parquet'));
    expect(files).toHaveLength(1);
    const fileSize = (files[0] as { size: number }).size;

    const net = counting();
    const remote = await openTable(httpStorage(`${inject('NGINX_URL')}/${RUN}/wide`, { fetch: net.fetch }));
    const got = [];
    for await (const r of remote.rows({ columns: ['key', 'name'], filters: [['key', '>=', 'k025000'], ['key', '<', 'k025010']] })) got.push(r.key);
    expect(got.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `k0250${String(i).padStart(2, '0')}`));
    const parquetGets = net.requests.filter((r) => r.url.endsWith('.parquet') && r.method === 'GET');
    const fetched = parquetGets.reduce((n, r) => n + r.bytes, 0);
    // Every read of the parquet file is an explicit range; none asks for the whole file.
    expect(parquetGets.every((r) => r.range !== undefined && /^bytes=\d+-\d+$/.test(r.range))).toBe(true);
    expect(parquetGets.every((r) => r.bytes < fileSize)).toBe(true);
    // The footer read (the first, ending at the last byte) plus the key/name chunks of the one row group whose
    // key range matches: row-group statistics prune the other 39, and the payload column is never fetched.
    const footer = parquetGets[0] as { range: string; bytes: number };
    expect(footer.range.endsWith(`-${fileSize - 1}`)).toBe(true);
    const chunks = parquetGets.slice(1);
    expect(chunks.length).toBeLessThanOrEqual(2);
    expect(chunks.reduce((n, r) => n + r.bytes, 0)).toBeLessThan(fileSize / 40);
    expect(fetched).toBeLessThan(fileSize / 2);
  });

  it('HEAD and reads of a directory are NOT_FOUND; a missing directory lists as empty', async () => {
    const s = httpStorage(serveFiles(`${RUN}/dirs`, { 'd/x.txt': 'x' }), { listing: 'nginx-json' });
    expect((await lakeletError(s.head('d'))).code).toBe('NOT_FOUND');
    expect((await lakeletError(s.read('d'))).code).toBe('NOT_FOUND');
    expect(await s.list('nope')).toEqual([]);
    expect((await s.list('d'))[0]).toMatchObject({ path: 'd/x.txt', size: 1, kind: 'file' });
  });

  it('auto listing with no manifest, no index and no S3 → UNSUPPORTED naming the manifest', async () => {
    const fake: FetchLike = async (url) => (url.endsWith('/') ? new Response('<html>', { status: 403 }) : new Response('no', { status: 404 }));
    const err = await lakeletError(httpStorage('http://static.example/t', { fetch: fake }).list(''));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.message).toContain(LISTING_MANIFEST_PATH);
  });

  it('a broken manifest → CORRUPT_FILE; server errors → STORAGE after retries', async () => {
    const url = serveFiles(`${RUN}/broken`, { [LISTING_MANIFEST_PATH]: '{"files": 3}' });
    expect((await lakeletError(httpStorage(url, { listing: 'manifest' }).list(''))).code).toBe('CORRUPT_FILE');
    let calls = 0;
    const failing: FetchLike = async () => {
      calls++;
      return new Response('busy', { status: 503 });
    };
    const err = await lakeletError(httpStorage('http://static.example/t', { fetch: failing, retries: 2 }).read('a.parquet', { start: 0, end: 4 }));
    expect(err.code).toBe('STORAGE');
    expect(err.context.status).toBe(503);
    expect(calls).toBe(3);
  });
});

describe('publishListing and `lakelet publish`', () => {
  it('lists every file with its size, sorted, without itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lakelet-publish-'));
    await copyToDisk(await fixtureStorage('sample_table/cow/v6_nonpartitioned.zip'), dir);
    writeFileSync(join(dir, 'zz.txt'), 'abc');
    const first = await publishListing(dir);
    const again = await publishListing(dir); // re-publishing does not list the old manifest
    expect(again.files).toBe(first.files);
    const manifest = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(dir, ...LISTING_MANIFEST_PATH.split('/')), 'utf8'))) as { version: number; files: { path: string; size: number }[] };
    expect(manifest.version).toBe(1);
    const paths = manifest.files.map((f) => f.path);
    expect(paths).toEqual([...paths].sort());
    expect(paths).not.toContain(LISTING_MANIFEST_PATH);
    expect(manifest.files.find((f) => f.path === 'zz.txt')?.size).toBe(3);
    expect(paths).toContain('.hoodie/hoodie.properties');
  });

  it('publishCommand prints one line; bad arguments and non-tables fail', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lakelet-publish-'));
    await copyToDisk(await fixtureStorage('sample_table/cow/v6_nonpartitioned.zip'), dir);
    let out = '';
    const io = { stdout: { write: (s: string) => { out += s; } }, stderr: { write: () => undefined } };
    expect(await publishCommand([dir], io)).toBe(0);
    expect(out).toMatch(/^published \d+ files \(\d+ bytes\) in .*listing\.json\n$/);
    await expect(publishCommand([], io)).rejects.toThrow(/missing <dir>/);
    await expect(publishCommand([dir, 'extra'], io)).rejects.toThrow(/unexpected argument/);
    const empty = mkdtempSync(join(tmpdir(), 'lakelet-publish-'));
    await expect(publishCommand([empty], io)).rejects.toMatchObject({ code: 'INVALID_TABLE' });
    await expect(publishCommand([join(empty, 'missing')], io)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    out = '';
    expect(await publishCommand(['--help'], io)).toBe(0);
    expect(out).toContain('Usage: lakelet publish <dir>');
  });

  it('is reachable as `lakelet publish`', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lakelet-publish-'));
    await copyToDisk(await fixtureStorage('sample_table/cow/v6_nonpartitioned.zip'), dir);
    let out = '';
    const io = { stdout: { write: (s: string) => { out += s; return true; } }, stderr: { write: () => true } };
    expect(await main(['publish', dir], io)).toBe(0);
    expect(out).toMatch(/^published /);
  });
});
