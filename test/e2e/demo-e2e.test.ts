// The demo end to end, over the BUILT app (vite build + vite preview, headless Chromium on a persistent
// profile): on OPFS, IndexedDB and the loopback S3 server the tests start, a merge-on-read table gets 10k
// generated rows, 1k updates and 100 deletes, every query type is checked (demo-flow.ts), it is compacted,
// the page reloads and finds the data intact; with the network off the page reloads from its service worker
// and keeps working (a first visit too, from the install's precache alone); on every store a fixture zip and
// a CSV file are imported, a table exported and imported again. Screenshots of every main view go to
// reports/screenshots/, the long tasks of the 10k write to reports/longtasks.json (reported, not asserted).
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { generateInUi, shownCount } from '../web/demo-browser.js';
import { builtDemo, DOCS_SCREENSHOTS, openBuiltPage, reportLongTasks } from './built-demo.js';
import { dataInOut } from './demo-data-flow.js';
import { demoFlow, reopen } from './demo-flow.js';

const demo = builtDemo();
afterAll(reportLongTasks);

/** Connect the page to the loopback S3 server's `lake` bucket under `prefix` (the keys stay in the tab). */
async function connectS3(page: Page, prefix: string): Promise<void> {
  await page.selectOption('#store-kind', 's3');
  await page.fill('#s3-endpoint', inject('S3_URL'));
  await page.fill('#s3-bucket', 'lake');
  await page.fill('#s3-prefix', prefix);
  await page.fill('#s3-access-key', 'S3RVER');
  await page.fill('#s3-secret', 'S3RVER');
  await page.click('#store-connect');
  await page.waitForSelector('#tables[data-listed][data-store="s3"]');
}

/** Connect the page to IndexedDB. */
async function connectIndexedDb(page: Page): Promise<void> {
  await page.selectOption('#store-kind', 'indexeddb');
  await page.waitForSelector('#tables[data-listed][data-store="indexeddb"]');
}

/**
 * With the network off: reload (the service worker serves the app), then `then` (reconnect the store,
 * reopen a table, write). The network is back on after it, passed or failed.
 */
async function offline(page: Page, then: (page: Page) => Promise<void>): Promise<void> {
  // Offline use needs this page served by the service worker (a new page may not be controlled yet).
  await page.waitForSelector('body[data-offline="ready"]', { state: 'attached', timeout: 60_000 });
  await demo.context.setOffline(true);
  try {
    await page.reload();
    await then(page);
  } finally {
    await demo.context.setOffline(false);
  }
}

/** Offline: reconnect with `connect` and find `name` with `count` rows, then `more` (still offline). */
const reopenOffline = (page: Page, name: string, count: number, connect: (page: Page) => Promise<void>, more?: () => Promise<void>) =>
  offline(page, async (p) => {
    await connect(p);
    expect(await reopen(p, name)).toBe(count);
    await more?.();
  });

describe('the built demo, end to end', () => {
  it('a first visit works offline once the service worker is ready: the reload runs from the cache alone', { timeout: 120_000 }, async () => {
    // Fresh profile, first page: its own scripts came from the network, so only the install's precache can
    // serve them offline (vite preview sends `Vary: Origin`; module script requests carry an Origin header).
    const page = await openBuiltPage(demo);
    await page.waitForSelector('body[data-offline="ready"]', { state: 'attached', timeout: 60_000 });
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    await offline(page, async (p) => {
      await p.waitForSelector('body[data-state="empty"] #tables[data-listed][data-store="opfs"]');
      await connectIndexedDb(p);
    });
    expect(failed).toEqual([]);
    expect(demo.errors).toEqual([]);
    await page.close();
  });

  it('OPFS: the flow, a reload, and offline use from the service worker', { timeout: 300_000 }, async () => {
    const page = await openBuiltPage(demo);
    // The service worker took control: the app shell and its WASM are cached.
    await page.waitForSelector('body[data-offline="ready"]', { timeout: 60_000 });
    const cached = await page.evaluate(async () => (await Promise.all((await caches.keys()).map(async (k) => (await (await caches.open(k)).keys()).map((r) => r.url)))).flat());
    expect(cached.some((u) => u.endsWith('.wasm'))).toBe(true);
    expect(cached.some((u) => u.endsWith('manifest.webmanifest'))).toBe(true);

    const { count } = await demoFlow(page, 'opfs', 'trips_e2e');
    if (DOCS_SCREENSHOTS) {
      await page.$eval('#view', (el) => el.scrollIntoView());
      await page.screenshot({ path: `${DOCS_SCREENSHOTS}/demo-overview.png` });
      await page.locator('section:has(> #query-title)').screenshot({ path: `${DOCS_SCREENSHOTS}/demo-query.png` });
    }

    await page.reload();
    await page.waitForSelector('#tables[data-listed]');
    expect(await reopen(page, 'trips_e2e')).toBe(count);

    // Offline: the page reloads from the cache and keeps reading and writing the table in OPFS.
    await reopenOffline(page, 'trips_e2e', count, (p) => p.waitForSelector('#tables[data-listed]').then(() => undefined), async () => {
      await generateInUi(page, 100, { updates: 0, seed: 21 });
      expect(await shownCount(page)).toBe(count + 100);
    });
    // Data in and out (back online): a fixture table zip and a CSV imported, a table exported and imported again.
    await dataInOut(page, `${inject('FIXTURES_DIR')}/sample_table/cow/v6_nonpartitioned.zip`);
    expect(demo.errors).toEqual([]);
    await page.close();
  });

  it('IndexedDB: the flow, a reload, offline use, and data in and out', { timeout: 300_000 }, async () => {
    const page = await openBuiltPage(demo);
    await connectIndexedDb(page);
    const { count } = await demoFlow(page, 'indexeddb', 'trips_idb');
    await reopenOffline(page, 'trips_idb', count, connectIndexedDb);
    await dataInOut(page, `${inject('FIXTURES_DIR')}/sample_table/cow/v6_nonpartitioned.zip`);
    expect(demo.errors).toEqual([]);
    await page.close();
  });

  it('S3 (the loopback server): the flow, the data intact after a reload, and data in and out', { timeout: 300_000 }, async () => {
    const page = await openBuiltPage(demo);
    const prefix = `e2e-${Date.now()}`;
    await connectS3(page, prefix);
    const { count } = await demoFlow(page, 's3', 'trips_s3');
    await page.reload();
    await page.waitForSelector('#tables[data-listed]');
    await connectS3(page, prefix); // the keys were the tab's only: a reload forgets them
    expect(await reopen(page, 'trips_s3')).toBe(count);
    await dataInOut(page, `${inject('FIXTURES_DIR')}/sample_table/cow/v6_nonpartitioned.zip`);
    expect(demo.errors).toEqual([]);
    await page.close();
  });
});
