// `npm run bench:kernels`: times the kernels end to end (keys copied into wasm memory) in Node and in headless
// Chromium — JS twin vs WASM scalar vs WASM SIMD — and prints medians and ratios (`--json`: the same as JSON).
// Options: --processes N (default 3, Node processes and Chromium page loads), --runs N (default 11), --node, --browser.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './cases.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const buildDir = join(here, '.build');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : dflt;
};
const processes = option('--processes', 3);
const runs = option('--runs', 11);
const IMPLS = ['js', 'scalar', 'simd'];

if (flag('--child')) {
  // one Node process: load the compiled kernels + both wasm builds, check agreement, time, print samples
  const dist = pathToFileURL(join(buildDir, 'dist', 'kernels') + '/').href;
  const { jsKernels } = await import(`${dist}js-kernels.js`);
  const { instantiateKernels } = await import(`${dist}wasm-kernels.js`);
  const { packKeys } = await import(`${dist}kernels.js`);
  const { makeData, makeCases, checkAgree, measure } = await import('./cases.mjs');
  const gen = join(root, 'src', 'kernels', 'generated');
  const impls = {
    js: jsKernels,
    scalar: await instantiateKernels(readFileSync(join(gen, 'kernels-scalar.wasm')), 'scalar'),
    simd: await instantiateKernels(readFileSync(join(gen, 'kernels.wasm')), 'simd'),
  };
  const data = makeData(jsKernels, packKeys);
  const cases = makeCases(data);
  checkAgree(cases, impls);
  const samples = await measure(cases, impls, { runs });
  process.stdout.write(JSON.stringify({ samples, names: Object.fromEntries(cases.map((c) => [c.id, c.name])) }));
  process.exit(0);
}

function log(msg) {
  process.stderr.write(`bench:kernels: ${msg}\n`);
}

function run(cmd, cmdArgs) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (${r.status})`);
}

function build() {
  run(process.execPath, ['scripts/build-asm.mjs']);
  rmSync(join(buildDir, 'dist'), { recursive: true, force: true });
  run('npx', ['tsc', '-p', 'bench/kernels/tsconfig.json']);
}

function child() {
  return new Promise((resolveChild, reject) => {
    const p = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', '--runs', String(runs)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.on('exit', (code) => (code === 0 ? resolveChild(JSON.parse(out)) : reject(new Error(`bench child exited ${code}`))));
  });
}

const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };

async function browserRuns() {
  const { build: viteBuild } = await import('vite');
  const outDir = join(buildDir, 'browser');
  await viteBuild({
    root: join(here, 'browser'), configFile: false, base: './', logLevel: 'warn',
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
  const server = createServer((req, res) => {
    const path = join(outDir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (!path.startsWith(outDir) || !existsSync(path)) { res.writeHead(404).end(); return; }
    const file = path.endsWith('/') ? join(path, 'index.html') : path;
    res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const port = server.address().port;
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'lakelet-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const results = [];
  try {
    for (let i = 0; i < processes; i++) {
      const page = await context.newPage();
      let failure;
      page.on('pageerror', (err) => { failure = err; });
      await page.goto(`http://127.0.0.1:${port}/index.html?runs=${runs}`);
      await page.waitForFunction(() => window.__result !== undefined || window.__error !== undefined, undefined, { timeout: 600_000, polling: 250 });
      if (failure) throw failure;
      const error = await page.evaluate(() => window.__error);
      if (error) throw new Error(`bench page: ${error}`);
      results.push(await page.evaluate(() => window.__result));
      await page.close();
    }
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return results;
}

/** Pools the runs of every process: median over all, and the spread of per-process medians. */
function summarize(results) {
  const out = {};
  const names = results[0]?.names ?? {};
  for (const id of Object.keys(results[0]?.samples ?? {})) {
    const row = { name: names[id] ?? id };
    for (const impl of IMPLS) {
      const all = results.flatMap((r) => r.samples[id][impl]);
      const perProcess = results.map((r) => median(r.samples[id][impl]));
      row[impl] = { medianMs: round(median(all)), minProcessMedianMs: round(Math.min(...perProcess)), maxProcessMedianMs: round(Math.max(...perProcess)), runs: all.length };
    }
    row.ratios = {
      jsOverScalar: round(row.js.medianMs / row.scalar.medianMs, 2),
      jsOverSimd: round(row.js.medianMs / row.simd.medianMs, 2),
      scalarOverSimd: round(row.scalar.medianMs / row.simd.medianMs, 2),
    };
    out[id] = row;
  }
  return out;
}

function round(x, digits = 1) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function printTable(env, summary) {
  console.log(`\n${env}: medians in ms (${processes} ${env === 'node' ? 'processes' : 'page loads'} x ${runs} runs after 3 warm-ups); ratio = JS twin time / WASM time`);
  console.log(`${'case'.padEnd(50)} ${'JS twin'.padStart(9)} ${'scalar'.padStart(9)} ${'SIMD'.padStart(9)}   ${'JS/scalar'.padStart(9)} ${'JS/SIMD'.padStart(8)} ${'scalar/SIMD'.padStart(11)}`);
  for (const row of Object.values(summary)) {
    console.log(`${row.name.padEnd(50)} ${String(row.js.medianMs).padStart(9)} ${String(row.scalar.medianMs).padStart(9)} ${String(row.simd.medianMs).padStart(9)}   ${(row.ratios.jsOverScalar + 'x').padStart(9)} ${(row.ratios.jsOverSimd + 'x').padStart(8)} ${(row.ratios.scalarOverSimd + 'x').padStart(11)}`);
  }
}

const wantNode = flag('--node') || !flag('--browser');
const wantBrowser = flag('--browser') || !flag('--node');
build();
const report = { processes, runs, goals: { bloomProbe: 2.5, sortKeys: 2 } };
if (wantNode) {
  log(`node: ${processes} processes`);
  const results = [];
  for (let i = 0; i < processes; i++) results.push(await child());
  report.node = { version: process.version, cases: summarize(results) };
}
if (wantBrowser) {
  log(`chromium: ${processes} page loads`);
  report.chromium = { cases: summarize(await browserRuns()) };
}
for (const env of ['node', 'chromium']) {
  const cases = report[env]?.cases;
  if (!cases) continue;
  report[env].goalsMet = {
    bloomProbe: Math.min(cases.bloomProbe.ratios.jsOverScalar, cases.bloomProbe.ratios.jsOverSimd) >= report.goals.bloomProbe,
    sortKeys: Math.min(cases.sortKeys.ratios.jsOverScalar, cases.sortKeys.ratios.jsOverSimd) >= report.goals.sortKeys,
  };
}
if (flag('--json')) {
  console.log(JSON.stringify(report, null, 2));
} else {
  for (const env of ['node', 'chromium']) {
    if (!report[env]) continue;
    printTable(env, report[env].cases);
    console.log(`goals (>= 2.5x bloom, >= 2x sort, both WASM builds): bloom ${report[env].goalsMet.bloomProbe ? 'met' : 'NOT met'}, sort ${report[env].goalsMet.sortKeys ? 'met' : 'NOT met'}`);
  }
}
