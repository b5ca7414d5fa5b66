// Offline-first replication across two pages (headless Chromium driven by playwright-core, the library served
// by the demo's dev server): page 1 keeps a MOR table in OPFS and runs sync() against the loopback S3 server
// while the bucket is unreachable (its fetch fails) — the run's error goes to onError — then the browser's
// offline/online events say the network is back and sync pushes at once; page 2, in another browser (no shared
// OPFS), opens the bucket and reads the same rows.
import { expect, inject, test } from 'vitest';
import { launchChromium, persistentDemo, withLibrary } from '../web/demo-browser.js';

const demo = persistentDemo('lakelet-replicate-pages-');

const SCHEMA = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: ['null', 'long'], default: null }] };

/** JS (for the page) building the bucket's store: `a` holds endpoint and prefix; `f` an optional fetch. */
const bucket = `(l, a, f) => l.s3Storage({ endpoint: a.endpoint, bucket: 'lake', region: 'us-east-1', forcePathStyle: true, prefix: a.prefix, retries: 0, retryDelayMs: 1,
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, ...(f ? { fetch: f } : {}) })`;

test('written in OPFS while the bucket is unreachable, pushed by sync when back online, read by a second page', { timeout: 240_000 }, async () => {
  const args = { endpoint: inject('S3_URL'), prefix: `two-pages-${Date.now().toString(36)}`, folder: `replicate-pages-${Date.now().toString(36)}`, schema: SCHEMA };
  const page = await demo.context.newPage();
  const errors: Error[] = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(demo.url);
  const first = await withLibrary<{ errors: string[]; directions: string[]; published: number; rows: string[]; offlineRuns: number }>(page, `async (l, a) => {
    const bucket = ${bucket};
    const local = l.opfsStorage(a.folder);
    const table = await l.createTable(local, { name: 'rep', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: a.schema });
    const quiet = { compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false }, codec: 'UNCOMPRESSED' };
    await table.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }, { id: 'b', part: 'y', ts: 1, v: 2 }], quiet);
    await table.upsert([{ id: 'a', part: 'x', ts: 2, v: 10 }, { id: 'c', part: 'x', ts: 1, v: 3 }], quiet);
    await table.delete(['b'], quiet);
    let down = true;
    const flaky = (u, i) => (down ? Promise.reject(new TypeError('Failed to fetch')) : fetch(u, i));
    const errs = [];
    const directions = [];
    let published = 0;
    const handle = l.sync(local, bucket(l, a, flaky), { intervalMs: 3600000, onError: (e) => errs.push(e.code), onSync: (r) => { directions.push(r.direction); published += r.published.length; } });
    await handle.runNow(); // joins the first run, which cannot reach the bucket
    window.dispatchEvent(new Event('offline'));
    const offlineRuns = (await handle.runNow()) === undefined && !handle.running ? 0 : 1; // skipped while offline
    down = false;
    window.dispatchEvent(new Event('online')); // back: a run starts at once
    const ran = handle.running;
    await handle.runNow();
    await handle.stop();
    const rows = [];
    for await (const r of table.rows({ columns: ['id', 'v'] })) rows.push(r.id + '=' + r.v);
    return { errors: errs, directions: ran ? directions : [], published, rows: rows.sort(), offlineRuns };
  }`, args);
  expect(errors).toEqual([]);
  expect(first.errors).toEqual(['STORAGE']);
  expect(first.offlineRuns).toBe(0);
  expect(first.directions).toEqual(['push']);
  expect(first.published).toBe(3);
  expect(first.rows).toEqual(['a=10', 'c=3']);

  // A second page, in another browser: only the bucket is shared.
  const other = await launchChromium();
  try {
    const second = await other.newPage();
    second.on('pageerror', (e) => errors.push(e));
    await second.goto(demo.url);
    const read = await withLibrary<{ rows: string[]; commits: number }>(second, `async (l, a) => {
      const table = await l.openTable((${bucket})(l, a));
      const rows = [];
      for await (const r of table.rows({ columns: ['id', 'v'] })) rows.push(r.id + '=' + r.v);
      return { rows: rows.sort(), commits: table.commits.length };
    }`, args);
    expect(read).toEqual({ rows: first.rows, commits: 3 });
    expect(errors).toEqual([]);
  } finally {
    await other.close();
  }
});
