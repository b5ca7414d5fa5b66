// The demo page end to end: starts the Vite dev server with the repo's vite.config.ts (what `npm start` serves),
// drives headless Chromium with playwright-core, opens fixture tables (zip, folder) and checks what it renders.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, openDemoPage, startDemoServer } from './demo-browser.js';

const fixtures = inject('FIXTURES_DIR');
const COW = `${fixtures}/sample_table/cow/v6_nonpartitioned.zip`;
const MOR = `${fixtures}/sample_table/mor/parquet/v6_nonpartitioned.zip`;

let server: ViteDevServer;
let browser: Browser;
let url: string;
let tmp: string;

beforeAll(async () => {
  ({ server, url } = await startDemoServer());
  browser = await launchChromium();
  tmp = await mkdtemp(join(tmpdir(), 'lakelet-demo-'));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** A fresh page with the demo loaded; page errors fail the test. */
const openPage = () => openDemoPage(browser, url, 'body[data-state="empty"]');

/** Wait until the page settles after an action, returning its final state. */
async function settled(page: Page): Promise<string> {
  await page.waitForSelector('body[data-state="ready"], body[data-state="error"]');
  return page.evaluate(() => document.body.dataset.state ?? '');
}

/** The rows table as objects keyed by column header (cell text). */
function renderedRows(page: Page): Promise<Record<string, string>[]> {
  return page.$$eval('#rows-table', (tables) => {
    const t = tables[0] as HTMLTableElement | undefined;
    if (!t) return [];
    const head = Array.from(t.tHead?.rows[0]?.cells ?? [], (c) => c.textContent ?? '');
    return Array.from(t.tBodies[0]?.rows ?? [], (r) => Object.fromEntries(Array.from(r.cells, (c, i) => [head[i] ?? '', c.textContent ?? ''])));
  });
}

/** Extract the zip at `zip` into the folder `dir`. */
async function unzipTo(zip: string, dir: string): Promise<void> {
  for (const [name, bytes] of Object.entries(unzipSync(await readFile(zip)))) {
    if (name.endsWith('/')) continue;
    const path = join(dir, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, bytes);
  }
}

/** `[id, name, isActive]` per row, by id (a snapshot's row order is the files' order, not the keys'). */
const brief = (rows: Record<string, string>[]) => rows.map((r) => [r.id, r.name, r.isActive]).sort((a, b) => Number(a[0]) - Number(b[0]));

describe('demo page', () => {
  it('opens a copy-on-write zip: config, timeline, file slices, rows, time travel and incremental', async () => {
    const { page, errors } = await openPage();
    await page.setInputFiles('#zip-input', COW);
    expect(await settled(page)).toBe('ready');

    const rows = await renderedRows(page);
    expect(brief(rows)).toEqual([['1', 'Alice', 'false'], ['2', 'Bob', 'false'], ['3', 'Carol', 'true'], ['4', 'Diana', 'true']]);
    const byName = (name: string) => rows.find((r) => r.name === name);
    expect(byName('Alice')?.decimalField).toBe('12345.67890');
    expect(byName('Bob')?.longField).toBe('9876543210');

    const timeline = await page.$$eval('#timeline tbody tr', (trs) => trs.map((tr) => Array.from((tr as HTMLTableRowElement).cells, (c) => c.textContent)));
    expect(timeline).toEqual([['20240418173550988', 'commit', 'completed', '—'], ['20240418173551906', 'commit', 'completed', '—']]);
    const marks = () => page.$$eval('#timeline-picture .mark.action-commit.state-completed', (gs) => gs.map((g) => (g as SVGGElement).dataset.instant));
    expect(await marks()).toEqual(['20240418173550988', '20240418173551906']);
    // Clicking the first commit shows its write stats: the three records it inserted.
    await page.click('#timeline-picture .mark[data-instant="20240418173550988"]');
    await page.waitForSelector('#instant[data-instant="20240418173550988"] #instant-stats');
    expect(await page.textContent('#instant')).toContain('3 inserts');
    const config = await page.textContent('#config');
    expect(config).toContain('COPY_ON_WRITE');
    expect(config).toContain('v6_nonpartitioned');
    expect(await page.textContent('#slices')).toContain('.parquet');
    expect(await page.isDisabled('#read-optimized')).toBe(true);

    if (process.env.LAKELET_DEMO_SCREENSHOT) await page.screenshot({ path: process.env.LAKELET_DEMO_SCREENSHOT, fullPage: true });

    await page.selectOption('#as-of', '20240418173550988');
    expect(await settled(page)).toBe('ready');
    expect(brief(await renderedRows(page))).toEqual([['1', 'Alice', 'true'], ['2', 'Bob', 'false'], ['3', 'Carol', 'true']]);

    await page.selectOption('#mode', 'incremental');
    await page.selectOption('#from', '20240418173550988');
    expect(await settled(page)).toBe('ready');
    expect(brief(await renderedRows(page))).toEqual([['1', 'Alice', 'false'], ['4', 'Diana', 'true']]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('switches a merge-on-read table between snapshot and read-optimized', async () => {
    const { page, errors } = await openPage();
    await page.setInputFiles('#zip-input', MOR);
    expect(await settled(page)).toBe('ready');
    expect(await page.textContent('#config')).toContain('MERGE_ON_READ');
    const alice = async () => (await renderedRows(page)).find((r) => r.name === 'Alice')?.isActive;
    expect(await alice()).toBe('false');
    expect(await page.textContent('#slices')).toContain('.log.');

    await page.check('#read-optimized');
    expect(await settled(page)).toBe('ready');
    expect(await alice()).toBe('true');
    expect((await renderedRows(page)).length).toBe(4);

    await page.uncheck('#read-optimized');
    expect(await settled(page)).toBe('ready');
    expect(await alice()).toBe('false');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens a table folder through the directory picker', async () => {
    const dir = join(tmp, 'unzipped');
    await unzipTo(COW, dir);
    const { page, errors } = await openPage();
    await page.setInputFiles('#folder-input', join(dir, 'v6_nonpartitioned'));
    expect(await settled(page)).toBe('ready');
    expect(brief(await renderedRows(page))).toEqual([['1', 'Alice', 'false'], ['2', 'Bob', 'false'], ['3', 'Carol', 'true'], ['4', 'Diana', 'true']]);
    expect(await page.textContent('#status')).toContain('v6_nonpartitioned');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lists and opens a read-only table at an HTTP URL (the HTTP store)', async () => {
    const folder = `demo-http-${Date.now()}`;
    await unzipTo(COW, join(inject('NGINX_ROOT'), folder));
    const { page, errors } = await openPage();
    await page.selectOption('#store-kind', 'http');
    await page.fill('#http-url', `${inject('NGINX_URL')}/${folder}/v6_nonpartitioned/`);
    await page.click('#store-connect');
    await page.waitForSelector('#tables[data-listed][data-store="http"] tr[data-table="v6_nonpartitioned"]');
    expect(await page.isHidden('#create')).toBe(true);
    expect(await page.locator('#tables-list button[data-action="delete"]').count()).toBe(0);
    await page.click('#tables-list tr[data-table="v6_nonpartitioned"] button[data-action="open"]');
    expect(await settled(page)).toBe('ready');
    expect(brief(await renderedRows(page))).toEqual([['1', 'Alice', 'false'], ['2', 'Bob', 'false'], ['3', 'Carol', 'true'], ['4', 'Diana', 'true']]);
    expect(await page.textContent('#write-readonly')).toContain('read-only store');
    expect(await page.isDisabled('#compact')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens a zip dropped onto the page', async () => {
    const { page, errors } = await openPage();
    const base64 = (await readFile(COW)).toString('base64');
    const dataTransfer = await page.evaluateHandle((data) => {
      const t = new DataTransfer();
      t.items.add(new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], 'dropped.zip', { type: 'application/zip' }));
      return t;
    }, base64);
    await page.dispatchEvent('#open', 'drop', { dataTransfer });
    expect(await settled(page)).toBe('ready');
    expect(brief(await renderedRows(page))).toHaveLength(4);
    expect(await page.textContent('#status')).toContain('dropped.zip');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows an error panel with code and message for a file that is not a zip', async () => {
    const { page } = await openPage();
    await page.setInputFiles('#zip-input', { name: 'not-a-table.zip', mimeType: 'application/zip', buffer: Buffer.from('hello, not a zip') });
    expect(await settled(page)).toBe('error');
    expect(await page.isVisible('#error')).toBe(true);
    expect(await page.textContent('#error-code')).toBe('CORRUPT_FILE');
    expect(await page.textContent('#error-message')).toContain('not-a-table.zip');
    await page.close();
  });

  it('shows INVALID_TABLE for a zip without a Hudi table', async () => {
    const { page } = await openPage();
    const zip = zipSync({ 'folder/readme.txt': new TextEncoder().encode('no table here') });
    await page.setInputFiles('#zip-input', { name: 'plain.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
    expect(await settled(page)).toBe('error');
    expect(await page.textContent('#error-code')).toBe('INVALID_TABLE');
    expect(await page.isVisible('#error')).toBe(true);
    await page.close();
  });
});
