// The demo page's OPFS tables end to end: creates copy-on-write and merge-on-read tables in a persistent
// headless Chromium profile, writes through the Write panel and checks timeline, rows and persistence.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clickAndLog, createInUi, generateInUi, latestLog, launchPersistentChromium, openDemoPage, ready, shownCount, startDemoServer } from './demo-browser.js';

const COW_ZIP = `${inject('FIXTURES_DIR')}/sample_table/cow/v6_nonpartitioned.zip`;

let server: ViteDevServer;
let context: BrowserContext;
let url: string;
let profile: string;

/** A persistent profile: OPFS outlives reloads and browser restarts. */
const launch = () => launchPersistentChromium(profile, { width: 1280, height: 900 });

beforeAll(async () => {
  ({ server, url } = await startDemoServer());
  profile = await mkdtemp(join(tmpdir(), 'lakelet-demo-opfs-'));
  context = await launch();
});

afterAll(async () => {
  await context?.close();
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

/** A page with the demo loaded and its OPFS tables listed; page errors are collected. */
const openPage = () => openDemoPage(context, url, 'body[data-state="empty"] #tables[data-listed]', true);

async function createTable(page: Page, name: string, type: 'COPY_ON_WRITE' | 'MERGE_ON_READ'): Promise<void> {
  await createInUi(page, { name, type });
}

async function upsert(page: Page, n: number): Promise<Record<string, string>> {
  await generateInUi(page, n);
  return latestLog(page);
}

const click = clickAndLog;

/** `[requested, action, state]` of each timeline row. */
function timeline(page: Page): Promise<string[][]> {
  return page.$$eval('#timeline tbody tr', (trs) => trs.map((tr) => Array.from((tr as HTMLTableRowElement).cells, (c) => c.textContent ?? '').slice(0, 3)));
}

const recordCount = shownCount;
const shownRows = (page: Page) => page.$$eval('#rows-table tbody tr', (trs) => trs.length);
const writes = (tl: string[][], action: string) => tl.filter(([, a, s]) => a === action && s === 'completed');

describe('demo page: tables in OPFS', () => {
  it('creates a copy-on-write table, upserts, updates, savepoints and restores, and keeps it across reloads', { timeout: 300_000 }, async () => {
    const { page, errors } = await openPage();
    await createTable(page, 'trips_cow', 'COPY_ON_WRITE');
    expect(await page.textContent('#config')).toContain('COPY_ON_WRITE');
    expect(await page.isVisible('#tables-list tr[data-table="trips_cow"]')).toBe(true);
    expect(await recordCount(page)).toBe(0);
    expect(await page.isDisabled('#compact')).toBe(true);

    const first = await upsert(page, 200);
    expect(first).toMatchObject({ operation: 'upsert', inserted: '200', updated: '0', deleted: '0' });
    expect(await recordCount(page)).toBe(200);
    expect(await shownRows(page)).toBe(16); // the grid draws the rows in view only
    expect(await page.textContent('#rows-caption')).toContain('200 rows');
    expect(writes(await timeline(page), 'commit')).toHaveLength(1);
    expect(await page.textContent('#slices')).toContain('city=');

    const second = await upsert(page, 200);
    const inserted = Number(second.inserted);
    expect(Number(second.updated)).toBe(60);
    expect(inserted + Number(second.updated)).toBe(200);
    expect(await recordCount(page)).toBe(200 + inserted);
    const commits = writes(await timeline(page), 'commit');
    expect(commits).toHaveLength(2);
    expect(second.instant).toBe(commits[1]?.[0]);

    // Savepoint the latest commit, delete keys, restore: the deleted records come back.
    await click(page, '#savepoint');
    expect(await page.$$eval('#restore-to option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual([second.instant]);
    await page.fill('#delete-count', '5');
    expect(await click(page, '#delete')).toMatchObject({ operation: 'delete', deleted: '5' });
    expect(await recordCount(page)).toBe(195 + inserted);
    expect(await click(page, '#restore')).toMatchObject({ operation: 'restore' });
    expect(await recordCount(page)).toBe(200 + inserted);
    const before = await timeline(page);
    expect(writes(before, 'commit').map(([t]) => t)).toEqual(commits.map(([t]) => t));

    // The latest commit is savepointed: rolling it back fails, in the error panel, and changes nothing.
    await page.click('#rollback');
    await page.waitForSelector('body[data-state="error"]');
    expect(await page.textContent('#error-code')).toBe('INVALID_ARGUMENT');
    expect(await page.textContent('#error-message')).toContain('savepointed');
    expect(await timeline(page)).toEqual(before);
    expect(await page.isEnabled('#upsert')).toBe(true);

    // Reload: the table is listed and opens with the same timeline and records.
    await page.reload();
    await page.waitForSelector('body[data-state="empty"] #tables[data-listed]');
    expect(await page.$$eval('#tables-list tr[data-table]', (trs) => trs.map((tr) => (tr as HTMLElement).dataset.table))).toContain('trips_cow');
    await page.click('#tables-list tr[data-table="trips_cow"] button[data-action="open"]');
    await ready(page);
    expect(await timeline(page)).toEqual(before);
    expect(await recordCount(page)).toBe(200 + inserted);
    expect(errors).toEqual([]);
    await page.close();

    // And after a browser restart on the same profile.
    await context.close();
    context = await launch();
    const again = await openPage();
    await again.page.click('#tables-list tr[data-table="trips_cow"] button[data-action="open"]');
    await ready(again.page);
    expect(await timeline(again.page)).toEqual(before);
    await again.page.close();
  });

  it('upserts into a merge-on-read table, compacts, rolls back the latest write, and deletes the table', { timeout: 300_000 }, async () => {
    const { page, errors } = await openPage();
    await createTable(page, 'trips_mor', 'MERGE_ON_READ');
    expect(await page.textContent('#config')).toContain('MERGE_ON_READ');
    await upsert(page, 200);
    const second = await upsert(page, 200);
    const afterTwo = await recordCount(page);
    expect(afterTwo).toBe(200 + Number(second.inserted));
    expect(writes(await timeline(page), 'deltacommit')).toHaveLength(2);
    expect(await page.textContent('#slices')).toContain('.log.');

    const compaction = await click(page, '#compact');
    expect(compaction.operation).toBe('compact');
    const tl = await timeline(page);
    expect(writes(tl, 'commit').map(([t]) => t)).toEqual([compaction.instant]); // a compaction completes as a commit
    expect(await recordCount(page)).toBe(afterTwo);

    const third = await upsert(page, 100);
    expect(await recordCount(page)).toBe(afterTwo + Number(third.inserted));
    const rolledBack = await click(page, '#rollback');
    expect(rolledBack.details).toContain(third.instant);
    const after = await timeline(page);
    expect(after.some(([t]) => t === third.instant)).toBe(false);
    expect(writes(after, 'rollback')).toHaveLength(1);
    expect(await recordCount(page)).toBe(afterTwo);
    expect(await page.textContent('#write-log')).toContain('compact');

    await page.setViewportSize({ width: 1280, height: 1400 });
    await page.screenshot({ path: process.env.LAKELET_DEMO_OPFS_SCREENSHOT ?? '/tmp/demo-opfs.png' });

    await page.click('#tables-list tr[data-table="trips_mor"] button[data-action="delete"]');
    await page.waitForSelector('#tables-list:not(:has(tr[data-table="trips_mor"]))');
    expect(await page.isHidden('#view')).toBe(true);
    expect(await page.evaluate(() => document.body.dataset.state)).toBe('empty');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('hides the write controls of a table opened from a zip, with the reason', async () => {
    const { page, errors } = await openPage();
    await page.setInputFiles('#zip-input', COW_ZIP);
    await ready(page);
    expect(await page.isVisible('#write-readonly')).toBe(true);
    expect(await page.textContent('#write-readonly')).toContain('Read-only');
    expect(await page.isHidden('#write-form')).toBe(true);
    expect(await page.isDisabled('#upsert')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});
