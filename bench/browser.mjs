// The browser part of `npm run bench`: builds bench/browser/ with vite, serves it from a tiny node:http static
// server on 127.0.0.1, opens it in headless Chromium (playwright-core) and returns the page's window.__result.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('./browser/', import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.map': 'application/json' };

/** True when the Chromium binary exists. */
export const chromiumAvailable = () => existsSync(CHROMIUM);

/** Serve `dir` read-only on a free loopback port; resolves to `{ url, close() }`. */
function staticServer(dir) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const file = normalize(join(dir, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(dir.endsWith(sep) ? dir : dir + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(() => r())) }));
  });
}

/**
 * Build, serve and run the page. `o`: { rows, upsert, stores, types, where, codec, longtask?: { rows, upsert,
 * workers? }, cpuProfDir?, timeoutMs, progress }. The page is built unminified, so long-animation-frame script attribution
 * (the long-task bench) names real functions.
 * Resolves to { buildSeconds, launchSeconds, seconds, chromium, ...window.__result }.
 */
export async function runBrowserBench(o) {
  const progress = o.progress ?? (() => {});
  const { build } = await import('vite');
  const { chromium } = await import('playwright-core');
  // With a CPU profile the page is built (with source maps) into the profile dir and kept, so cpu-top.mjs can
  // map the profile back to src/*.ts.
  const outDir = o.cpuProfDir ? join(o.cpuProfDir, 'browser-page') : await mkdtemp(join(tmpdir(), 'lakelet-bench-page-'));
  const profile = await mkdtemp(join(tmpdir(), 'lakelet-bench-chromium-'));
  let server;
  let context;
  try {
    let t0 = performance.now();
    await build({ root: ROOT, base: './', configFile: false, logLevel: 'warn', worker: { format: 'es' }, build: { target: 'es2022', outDir, emptyOutDir: true, reportCompressedSize: false, minify: false, sourcemap: Boolean(o.cpuProfDir) } });
    const buildSeconds = (performance.now() - t0) / 1000;
    progress(`page built in ${buildSeconds.toFixed(1)} s`);
    server = await staticServer(outDir);
    t0 = performance.now();
    // A persistent profile on disk, so OPFS and IndexedDB write to disk as in a normal browser (not an
    // in-memory incognito store).
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    const launchSeconds = (performance.now() - t0) / 1000;
    const page = context.pages()[0] ?? (await context.newPage());
    let pageError;
    page.on('pageerror', (err) => (pageError = err));
    page.on('console', (msg) => progress(`[page] ${msg.text()}`));
    if (o.cpuProfDir) {
      // The long-task bench calls window.__benchHook around its upsert: a CPU profile of the page's main thread.
      const cdp = await context.newCDPSession(page);
      await page.exposeFunction('__benchHook', async (name) => {
        if (name === 'longtask-upsert-start') {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.start');
        } else if (name === 'longtask-upsert-end') {
          const { profile } = await cdp.send('Profiler.stop');
          for (const n of profile.nodes) {
            const u = n.callFrame.url;
            if (u.startsWith(server.url)) n.callFrame.url = pathToFileURL(join(outDir, decodeURIComponent(new URL(u).pathname))).href;
          }
          const file = join(o.cpuProfDir, 'browser-longtask-upsert.cpuprofile');
          await writeFile(file, JSON.stringify(profile));
          progress(`main-thread CPU profile of the long-task upsert: ${file}`);
        }
      });
    }
    const query = new URLSearchParams({ rows: String(o.rows), upsert: String(o.upsert), stores: o.stores.join(','), types: o.types.join(','), where: o.where });
    if (o.codec) query.set('codec', o.codec);
    if (o.longtask) {
      query.set('longtaskRows', String(o.longtask.rows));
      query.set('longtaskUpsert', String(o.longtask.upsert));
      if (o.longtask.workers !== undefined) query.set('longtaskWorkers', String(o.longtask.workers));
    }
    t0 = performance.now();
    await page.goto(`${server.url}/index.html?${query}`);
    const deadline = Date.now() + (o.timeoutMs ?? 900_000);
    let result;
    while (result === undefined) {
      if (pageError) throw new Error(`browser bench: page error: ${pageError.message}`);
      if (Date.now() > deadline) throw new Error(`browser bench: no result within ${Math.round((o.timeoutMs ?? 900_000) / 1000)} s`);
      result = await page.evaluate(() => window.__result);
      if (result === undefined) await new Promise((r) => setTimeout(r, 200));
    }
    if (!result.ok) throw new Error(`browser bench: ${result.error}`);
    return { buildSeconds, launchSeconds, seconds: (performance.now() - t0) / 1000, chromium: context.browser()?.version() ?? null, ...result };
  } finally {
    await context?.close().catch(() => undefined);
    await server?.close();
    if (!o.cpuProfDir) await rm(outDir, { recursive: true, force: true });
    await rm(profile, { recursive: true, force: true });
  }
}
