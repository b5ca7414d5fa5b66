// Shared setup of the end-to-end tests of the demo: the Vite dev server `npm start` runs (the repo's
// vite.config.ts), headless Chromium through playwright-core, and a demo page opened with its errors collected.
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';

/** The checkout's root folder. */
export const repo = resolve(import.meta.dirname, '../..');

const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  headless: true,
};

/** Starts the demo's Vite dev server on a free port; returns it and the URL it serves the demo at. */
export async function startDemoServer(): Promise<{ server: ViteDevServer; url: string }> {
  const server = await createServer({ configFile: `${repo}/vite.config.ts`, server: { port: 0, strictPort: false }, logLevel: 'warn' });
  await server.listen();
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite: no local URL');
  return { server, url };
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
