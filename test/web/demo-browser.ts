// Shared setup of the end-to-end tests of the demo: the Vite dev server `npm start` runs (the repo's
// vite.config.ts), headless Chromium through playwright-core, and a demo page opened with its errors collected.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll } from 'vitest';

/** The checkout's root folder. */
export const repo = resolve(import.meta.dirname, '../..');

const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  headless: true,
};

/**
 * Starts the demo's Vite dev server on a free port; returns it and the URL it serves the demo at. No file watching
 * and no HMR: an edit of src/ during a run must not reload the page under a test.
 */
export async function startDemoServer(): Promise<{ server: ViteDevServer; url: string }> {
  const server = await createServer({ configFile: `${repo}/vite.config.ts`, server: { port: 0, strictPort: false, hmr: false, watch: null }, logLevel: 'warn' });
  await server.listen();
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite: no local URL');
  return { server, url };
}

/** The demo server and a persistent Chromium profile of a test file (see {@link persistentDemo}). */
export interface PersistentDemo {
  /** The URL the demo is served at. */
  readonly url: string;
  /** The browser context on the profile. */
  readonly context: BrowserContext;
}

/**
 * For the test file calling it: before all its tests, a demo dev server and headless Chromium on a fresh
 * persistent profile (`prefix` names its temp folder); after them, both closed and the profile removed.
 */
export function persistentDemo(prefix: string, viewport?: { width: number; height: number }): PersistentDemo {
  let server: ViteDevServer | undefined;
  let profile: string | undefined;
  const demo = { url: '', context: undefined as unknown as BrowserContext };
  beforeAll(async () => {
    ({ server, url: demo.url } = await startDemoServer());
    profile = await mkdtemp(join(tmpdir(), prefix));
    demo.context = await launchPersistentChromium(profile, viewport);
  }, 60_000);
  afterAll(async () => {
    await demo.context?.close();
    await server?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });
  return demo;
}

/** Headless Chromium with a throwaway profile. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(launchOptions);
}

/** Headless Chromium on the persistent profile in `profile` (OPFS outlives reloads and browser restarts). */
export function launchPersistentChromium(profile: string, viewport?: { width: number; height: number }): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, viewport === undefined ? launchOptions : { ...launchOptions, viewport });
}

/**
 * A new page of `browser` on the demo at `url`, once `readySelector` shows; its page errors are collected in
 * `errors` (tests expect none), and with `acceptDialogs` every confirm() is answered yes.
 */
export async function openDemoPage(browser: Browser | BrowserContext, url: string, readySelector: string, acceptDialogs = false): Promise<{ page: Page; errors: Error[] }> {
  const page = await browser.newPage();
  const errors: Error[] = [];
  page.on('pageerror', (e) => errors.push(e));
  if (acceptDialogs) page.on('dialog', (d) => void d.accept());
  await page.goto(url);
  await page.waitForSelector(readySelector);
  return { page, errors };
}

/** Run code in a page with the library module loaded (from src/, through the dev server). */
export async function withLibrary<T>(page: Page, fn: string, arg: unknown): Promise<T> {
  // A string, not a function: vitest would rewrite a dynamic import() inside a function it transforms.
  const script = `(async () => { const m = await import(${JSON.stringify(`/@fs${repo}/src/index.ts`)}); return (${fn})(m, ${JSON.stringify(arg)}); })()`;
  return page.evaluate(script) as Promise<T>;
}

/** Wait until the page settles after an action; fail with the error panel's text if it shows one. */
export async function ready(page: Page): Promise<void> {
  await page.waitForSelector('body[data-state="ready"], body[data-state="error"]', { timeout: 90_000 });
  const state = await page.evaluate(() => document.body.dataset.state);
  if (state !== 'ready') throw new Error(`page error: ${await page.textContent('#error')}`);
}

/** What the create form asks (unset fields keep the form's defaults). */
export interface CreateInUi {
  name: string;
  type: 'COPY_ON_WRITE' | 'MERGE_ON_READ';
  recordKey?: string;
  ordering?: string;
  partitions?: string;
  index?: string;
  version?: '6' | '9';
}

/** Create a table through the create form and wait for it to open. */
export async function createInUi(page: Page, spec: CreateInUi): Promise<void> {
  await page.fill('#create-name', spec.name);
  await page.selectOption('#create-type', spec.type);
  if (spec.recordKey !== undefined) await page.selectOption('#create-key', spec.recordKey);
  if (spec.ordering !== undefined) await page.selectOption('#create-ordering', spec.ordering);
  if (spec.partitions !== undefined) await page.selectOption('#create-partitions', spec.partitions);
  if (spec.index !== undefined) await page.selectOption('#create-index', spec.index);
  if (spec.version !== undefined) await page.selectOption('#create-version', spec.version);
  await page.click('#create-button');
  await ready(page);
}

/** Run the generator with `rows` rows and the given shares (percent) and wait for it. */
export async function generateInUi(page: Page, rows: number, shares: { updates?: number; deletes?: number; skewed?: boolean; seed?: number } = {}): Promise<void> {
  await page.fill('#upsert-count', String(rows));
  await page.fill('#update-share', String(shares.updates ?? 30));
  await page.fill('#delete-share', String(shares.deletes ?? 0));
  await page.selectOption('#distribution', shares.skewed ? 'skewed' : 'uniform');
  if (shares.seed !== undefined) await page.fill('#seed', String(shares.seed));
  await page.click('#upsert');
  await ready(page);
}

/** The newest line of the write log, by column. */
export function latestLog(page: Page): Promise<Record<string, string>> {
  return page.$eval('#write-log-table', (t) => {
    const table = t as HTMLTableElement;
    const head = Array.from(table.tHead?.rows[0]?.cells ?? [], (c) => c.textContent ?? '');
    return Object.fromEntries(Array.from(table.tBodies[0]?.rows[0]?.cells ?? [], (c, i) => [head[i] ?? '', c.textContent ?? '']));
  });
}

/** Click `button` (a write or a service) and return the newest write-log line once the page settles. */
export async function clickAndLog(page: Page, button: string): Promise<Record<string, string>> {
  await page.click(button);
  await ready(page);
  return latestLog(page);
}

/** The record count the write panel shows. */
export async function shownCount(page: Page): Promise<number> {
  return Number(await page.getAttribute('#record-count', 'data-count'));
}
