// `node bench/kernels/compress.mjs`: page compression throughput in Node on 1 MiB pages (text-like strings,
// PLAIN int64s, random bytes): snappy — lakelet JS, lakelet WASM (scalar, SIMD) — and gzip level 1 — fflate vs
// node:zlib. (hyparquet-writer's snappy is reachable only through its internal src/ files, which lakelet no
// longer imports anywhere, so it is not a peer here.) Prints MB/s (medians) and compressed sizes; `--json` for the figures.
// Options: --runs N (default 15). Compiles src/kernels + src/format/compress into bench/kernels/.build first.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync as zlibGzip } from 'node:zlib';
import { gzipSync as fflateGzip } from 'fflate';
import { snappyUncompress } from 'hyparquet';
import { median } from './cases.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const buildDir = join(here, '.build');
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 15;

function build() {
  for (const [cmd, cmdArgs] of [[process.execPath, ['scripts/build-asm.mjs']], ['npx', ['tsc', '-p', 'bench/kernels/tsconfig.json']]]) {
    const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: ['ignore', 2, 2] });
    if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (${r.status})`);
  }
}

/** Deterministic pages of 1 MiB: what parquet PLAIN pages of a string, a long and a random column look like. */
function pages() {
  const n = 1 << 20;
  let x = 12345;
  const next = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), x);
  const text = new Uint8Array(n);
  const enc = new TextEncoder();
  const cities = ['san_francisco', 'new_york', 'los_angeles', 'chicago', 'boston', 'seattle'];
  for (let at = 0, i = 0; at < n; i++) {
    const s = enc.encode(`rider-${next() % 5000}|driver-${next() % 900}|${cities[next() % 6]}|${(next() % 10000) / 100}`);
    const len = Math.min(s.length + 4, n - at);
    const v = new DataView(text.buffer, at);
    if (len >= 4) v.setUint32(0, s.length, true);
    text.set(s.subarray(0, Math.max(0, len - 4)), at + 4);
    at += len;
  }
  const longs = new Uint8Array(n);
  const lv = new DataView(longs.buffer);
  for (let i = 0; i < n / 8; i++) lv.setBigInt64(i * 8, 1_700_000_000_000_000n + BigInt(i) * 1000n + BigInt(next() % 1000), true);
  const random = new Uint8Array(n);
  for (let i = 0; i < n; i++) random[i] = next() >>> 24;
  return { text, longs, random };
}

function time(fn, input) {
  for (let w = 0; w < 3; w++) fn(input);
  const samples = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    fn(input);
    samples.push(performance.now() - t);
  }
  return median(samples);
}

build();
const dist = pathToFileURL(join(buildDir, 'dist') + '/').href;
const { snappyCompressJs } = await import(`${dist}format/compress/snappy-js.js`);
const { instantiateKernels } = await import(`${dist}kernels/wasm-kernels.js`);
const gen = join(root, 'src', 'kernels', 'generated');
const scalar = await instantiateKernels(readFileSync(join(gen, 'kernels-scalar.wasm')), 'scalar');
const simd = await instantiateKernels(readFileSync(join(gen, 'kernels.wasm')), 'simd');

const impls = {
  'snappy lakelet JS': snappyCompressJs,
  'snappy lakelet WASM scalar': (b) => scalar.snappyCompress(b),
  'snappy lakelet WASM simd': (b) => simd.snappyCompress(b),
  'gzip-1 fflate': (b) => fflateGzip(b, { level: 1, mtime: 0 }),
  'gzip-1 node:zlib': (b) => zlibGzip(b, { level: 1 }),
};
const results = [];
for (const [page, input] of Object.entries(pages())) {
  const js = snappyCompressJs(input);
  for (const k of [scalar, simd]) {
    if (Buffer.compare(Buffer.from(k.snappyCompress(input)), Buffer.from(js)) !== 0) throw new Error(`${k.variant} snappy differs from JS on ${page}`);
  }
  const back = new Uint8Array(input.length);
  snappyUncompress(js, back);
  if (Buffer.compare(Buffer.from(back), Buffer.from(input)) !== 0) throw new Error(`snappy JS does not round-trip ${page}`);
  for (const [name, fn] of Object.entries(impls)) {
    const ms = time(fn, input);
    results.push({ page, impl: name, ms, mbPerS: input.length / 1e6 / (ms / 1000), ratio: fn(input).length / input.length });
  }
}
if (args.includes('--json')) {
  process.stdout.write(`${JSON.stringify({ node: process.version, runs, results }, null, 2)}\n`);
} else {
  console.log(`page compression, Node ${process.version}, 1 MiB pages, median of ${runs} runs (snappy outputs checked byte-identical)`);
  console.log('page    implementation                 MB/s   compressed');
  for (const r of results) console.log(`${r.page.padEnd(7)} ${r.impl.padEnd(28)} ${r.mbPerS.toFixed(0).padStart(6)}   ${(r.ratio * 100).toFixed(1).padStart(5)}%`);
}
rmSync(join(buildDir, 'dist'), { recursive: true, force: true });
