// The built demo for the end-to-end tests: `vite build` of web/ into a temp folder, `vite preview` serving it on
// loopback, and headless Chromium (playwright-core, /usr/bin/chromium) on a persistent profile — service
// workers, OPFS and IndexedDB outlive reloads there. Also the artifact folders (reports/, gitignored).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll } from 'vitest';
import { launchPersistentChromium, repo } from '../web/demo-browser.js';

/** Where the screenshots of every main view go (a test artifact, not committed). */
export const SCREENSHOTS = join(repo, 'reports/screenshots');
/** The README's screenshots (committed): written only when LAKELET_DOCS_SCREENSHOTS is set. */
export const DOCS_SCREENSHOTS = process.env.LAKELET_DOCS_SCREENSHOTS ? join(repo, 'docs/screenshots') : undefined;

/** The built demo, served, and a browser on a persistent profile. */
export interface BuiltDemo {
  /** Where the preview server serves the built app. */
  readonly url: string;
  readonly context: BrowserContext;
  /** Errors the pages threw (tests expect none). */
  readonly errors: Error[];
}

/** Build the demo into `outDir` with the repo's vite.config.ts (the service worker and its precache list included). */
export async function buildDemo(outDir: string): Promise<void> {
  await build({ configFile: `${repo}/vite.config.ts`, build: { outDir, emptyOutDir: true }, logLevel: 'warn' });
}

/**
 * For the test file calling it: before all its tests, the demo built, served by `vite preview` on a free
 * loopback port, and Chromium on a fresh persistent profile; after them, all of it closed and removed.
 */
export function builtDemo(viewport = { width: 1280, height: 900 }): BuiltDemo {
  let server: PreviewServer | undefined;
  let dir: string | undefined;
  const demo = { url: '', context: undefined as unknown as BrowserContext, errors: [] as Error[] };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lakelet-e2e-'));
    const outDir = join(dir, 'dist');
    await buildDemo(outDir);
    server = await preview({
      configFile: `${repo}/vite.config.ts`, logLevel: 'warn',
      build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false },
    });
    const url = server.resolvedUrls?.local[0];
    if (!url) throw new Error('vite preview: no local URL');
    demo.url = url;
    demo.context = await launchPersistentChromium(join(dir, 'profile'), viewport);
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 180_000);
  afterAll(async () => {
    await demo.context?.close();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return demo;
}

/** A new page on the built demo, its errors collected in `demo.errors`, confirm() dialogs answered yes. */
export async function openBuiltPage(demo: BuiltDemo): Promise<Page> {
  const page = await demo.context.newPage();
  page.on('pageerror', (e) => demo.errors.push(e));
  page.on('dialog', (d) => void d.accept());
  await page.goto(demo.url);
  await page.waitForSelector('body[data-state="empty"] #tables[data-listed]');
  return page;
}

/** Screenshot `selector` (an element, or the whole page for `page`) into reports/screenshots/`name`.png. */
export async function screenshot(page: Page, name: string, selector: string | 'page'): Promise<void> {
  const path = join(SCREENSHOTS, `${name}.png`);
  if (selector === 'page') await page.screenshot({ path, fullPage: true });
  else await page.locator(selector).screenshot({ path });
}

/** The main-thread long tasks (50 ms or more, by the browser's definition) of each store's 10k-row write, gathered by the flows and written to reports/longtasks.json. */
export const longTasks: Record<string, { count: number; longestMs: number; totalMs: number; tasks: { startMs: number; durationMs: number }[] }> = {};

/** Write reports/longtasks.json and print a line per store (reported, never asserted: timings vary). */
export async function reportLongTasks(): Promise<void> {
  await writeFile(join(repo, 'reports/longtasks.json'), `${JSON.stringify(longTasks, null, 2)}\n`);
  for (const [store, t] of Object.entries(longTasks)) {
    console.log(`demo e2e · ${store}: ${t.count} main-thread long tasks during the 10k-row write (longest ${t.longestMs} ms, ${t.totalMs} ms in all)`);
  }
}
