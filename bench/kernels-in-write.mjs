// The write's kernel steps, `kernels: 'auto'` (WASM on the calling thread) vs `'js'`: dedupe of an upsert batch
// (merge/dedupe.ts, dedupeKeepMax), the bulk-insert key sort (merge/sort-records.ts, sortKeys), the record
// index's shard hash (index/record-index-format.ts shardsOf, hashKeys64; the old FNV hash for reference) and the
// inline bloom probe of one and of ten base files (index/bloom-index.ts, bloomProbe; keys packed once). Dedupe and
// sort run as the write does (kernel above their thresholds); the hash and the probe take the kernel at every size
// against the JS path, to show where it wins (their thresholds). Prints medians and ratios, asserts nothing.
// Standalone: `node bench/kernels-in-write.mjs [--sizes 10000,100000] [--runs 5] [--json]` (needs `npm run build`).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SELF = fileURLToPath(import.meta.url);

/** Deterministic uuid-like keys (a record key per row, ~20% of the batch repeating keys, as an upsert with duplicates). */
function records(n, partitions) {
  const out = new Array(n);
  const distinct = Math.max(1, Math.floor(n * 0.8));
  for (let i = 0; i < n; i++) {
    const k = (i * 2654435761) % distinct;
    const h = (Math.imul(k, 0x9e3779b1) >>> 0).toString(16).padStart(8, '0');
    out[i] = { recordKey: `${h}-${(k % 65536).toString(16).padStart(4, '0')}-4a1b-${String(k).padStart(12, '0')}`, partitionPath: `city=${k % partitions}`, data: {}, ordering: [i % 1000], isDelete: false, index: i };
  }
  return out;
}

async function measure(sizes, runs) {
  const dist = process.env.LAKELET_DIST ? `${pathToFileURL(resolve(process.env.LAKELET_DIST)).href}/` : new URL('../dist/', import.meta.url).href;
  await import(new URL('node/index.js', dist).href); // registers the Node worker factory: its WASM bytes feed the main-thread kernels
  const { mainThreadKernels } = await import(new URL('engine/kernels.js', dist).href);
  const { dedupeRecords } = await import(new URL('merge/dedupe.js', dist).href);
  const { sortByPartitionAndKey } = await import(new URL('merge/sort-records.js', dist).href);
  const { shardsOf } = await import(new URL('index/record-index-format.js', dist).href);
  const { bloomCandidates } = await import(new URL('index/bloom-index.js', dist).href);
  const { createBloomFilter } = await import(new URL('format/bloom-filter.js', dist).href);
  const { packKeys } = await import(new URL('kernels/kernels.js', dist).href);
  const auto = await mainThreadKernels('auto');
  const js = await mainThreadKernels('js');
  const kinds = [{ kind: 'number', scale: 0 }];
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const time = (f) => {
    const t = performance.now();
    f();
    return performance.now() - t;
  };
  // Ten base files' footers: default-sized bloom filters (60,000 entries, fpp 1e-9) of 50,000 keys each; a probed
  // batch has about a tenth of its keys in each file.
  const files = Array.from({ length: 10 }, (_, f) => {
    const bloom = createBloomFilter({});
    for (const x of records(50_000 * (f + 1), 1).slice(50_000 * f)) bloom.add(x.recordKey);
    return { minKey: undefined, maxKey: undefined, bloom };
  });
  const results = [];
  for (const n of sizes) {
    const batch = records(n, 3);
    const keys = batch.map((x) => x.recordKey);
    const t = { dedupe: { auto: [], js: [] }, sort: { auto: [], js: [] }, hash: { auto: [], js: [] }, fnv: { fnv: [] }, bloom1: { auto: [], js: [] }, bloom10: { auto: [], js: [] } };
    for (let r = 0; r < runs + 1; r++) {
      // the first round warms up; alternate the order so neither side always runs on a cold cache
      const order = r % 2 === 0 ? ['auto', 'js'] : ['js', 'auto'];
      for (const which of order) {
        const k = which === 'auto' ? auto : js;
        const got = {};
        got.dedupe = time(() => dedupeRecords(batch, false, kinds, k));
        const copy = [...batch];
        got.sort = time(() => sortByPartitionAndKey(copy, k));
        got.hash = time(() => shardsOf(keys, 64, 'xxh64-utf8', which === 'auto' ? auto : undefined, 0));
        const probe = (count) => () => {
          const options = which === 'auto' ? { kernels: auto, packed: packKeys(keys) } : {};
          for (let f = 0; f < count; f++) bloomCandidates(files[f], keys, options);
        };
        got.bloom1 = time(probe(1));
        if (n <= 100_000) got.bloom10 = time(probe(10)); // ten files of a million keys: a minute per JS round
        if (which === 'js') got.fnv = time(() => shardsOf(keys, 64, 'fnv1a32-utf8-fmix32'));
        if (r > 0) for (const [step, ms] of Object.entries(got)) t[step][step === 'fnv' ? 'fnv' : which].push(ms);
      }
    }
    const row = {};
    for (const step of ['dedupe', 'sort', 'hash', 'bloom1', 'bloom10']) {
      const x = t[step];
      row[step] = x.auto.length === 0 ? null : { autoMs: median(x.auto), jsMs: median(x.js), ratio: median(x.js) / median(x.auto) };
    }
    row.hash.fnvMs = median(t.fnv.fnv);
    results.push({ records: n, ...row });
  }
  return { kernels: { kind: auto.kind, variant: auto.variant }, runs, results };
}

/** Run the measurement in a fresh Node process (as the bench's other phases); resolves to its result. */
export function runKernelsInWrite(sizes, runs = 5) {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', SELF, '--child', JSON.stringify({ sizes, runs })], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (x) => (out += x));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bench: kernels-in-write exited with ${code}`));
      try {
        done(JSON.parse(out.trim().split('\n').pop() ?? ''));
      } catch {
        reject(new Error('bench: kernels-in-write printed no result'));
      }
    });
  });
}

/** The report lines of a result. */
export function kernelsInWriteLines(r) {
  const ms = (x) => `${x < 1 ? x.toFixed(3) : x.toFixed(1)} ms`;
  const lines = [`kernels in the write (main thread, ${r.kernels.kind}${r.kernels.kind === 'wasm' ? ` ${r.kernels.variant}` : ''} vs JS twin, median of ${r.runs}; ratio = js / auto):`];
  const cell = (name, x) => `${name} ${ms(x.autoMs).padStart(9)} vs ${ms(x.jsMs).padStart(9)} ${x.ratio.toFixed(2).padStart(5)}×`;
  for (const x of r.results) {
    lines.push(`  ${x.records.toLocaleString('en-US').padStart(10)} records   ${cell('dedupe', x.dedupe)}   ${cell('bulk-insert sort', x.sort)}`);
    lines.push(`  ${''.padStart(18)}   ${cell('shard hash (xxh64)', x.hash)} (FNV ${ms(x.hash.fnvMs)})   ${cell('bloom probe, 1 file', x.bloom1)}${x.bloom10 ? `   ${cell('10 files', x.bloom10)}` : ''}`);
  }
  return lines;
}

if (process.argv[1] === SELF) {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    const { sizes, runs } = JSON.parse(args[1]);
    process.stdout.write(`${JSON.stringify(await measure(sizes, runs))}\n`);
  } else {
    const opt = (name, dflt) => {
      const i = args.indexOf(name);
      return i >= 0 ? args[i + 1] : dflt;
    };
    const sizes = String(opt('--sizes', '1000,10000,100000,1000000')).split(',').map(Number);
    const r = await runKernelsInWrite(sizes, Number(opt('--runs', 5)));
    if (args.includes('--json')) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    else process.stdout.write(`${kernelsInWriteLines(r).join('\n')}\n`);
  }
}
