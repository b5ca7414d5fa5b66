// The write's kernel steps, `kernels: 'auto'` (WASM on the calling thread) vs `'js'`: dedupe of an upsert batch
// (merge/dedupe.ts, dedupeKeepMax above its threshold) and the bulk-insert key sort (merge/sort-records.ts,
// sortKeys above its threshold), at the write's batch sizes; prints medians and ratios, asserts nothing.
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
  const auto = await mainThreadKernels('auto');
  const js = await mainThreadKernels('js');
  const kinds = [{ kind: 'number', scale: 0 }];
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const time = (f) => {
    const t = performance.now();
    f();
    return performance.now() - t;
  };
  const results = [];
  for (const n of sizes) {
    const batch = records(n, 3);
    const d = { auto: [], js: [] };
    const s = { auto: [], js: [] };
    for (let r = 0; r < runs + 1; r++) {
      // the first round warms up; alternate the order so neither side always runs on a cold cache
      const order = r % 2 === 0 ? ['auto', 'js'] : ['js', 'auto'];
      for (const which of order) {
        const k = which === 'auto' ? auto : js;
        const dt = time(() => dedupeRecords(batch, false, kinds, k));
        const copy = [...batch];
        const st = time(() => sortByPartitionAndKey(copy, k));
        if (r > 0) {
          d[which].push(dt);
          s[which].push(st);
        }
      }
    }
    results.push({ records: n, dedupe: { autoMs: median(d.auto), jsMs: median(d.js), ratio: median(d.js) / median(d.auto) }, sort: { autoMs: median(s.auto), jsMs: median(s.js), ratio: median(s.js) / median(s.auto) } });
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
  const ms = (x) => `${x.toFixed(1)} ms`;
  const lines = [`kernels in the write (main thread, ${r.kernels.kind}${r.kernels.kind === 'wasm' ? ` ${r.kernels.variant}` : ''} vs JS twin, median of ${r.runs}; ratio = js / auto):`];
  for (const x of r.results) {
    lines.push(`  ${x.records.toLocaleString('en-US').padStart(10)} records   dedupe ${ms(x.dedupe.autoMs).padStart(10)} vs ${ms(x.dedupe.jsMs).padStart(10)}  ${x.dedupe.ratio.toFixed(2)}×   bulk-insert sort ${ms(x.sort.autoMs).padStart(10)} vs ${ms(x.sort.jsMs).padStart(10)}  ${x.sort.ratio.toFixed(2)}×`);
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
