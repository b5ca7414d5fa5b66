// The browser benchmark page: reads ?stores=opfs,idb&rows=&upsert=&types=&where=worker|page&codec=, runs the bench
// for each store (in a dedicated worker by default, else in the page), then, with &longtaskRows=&longtaskUpsert=
// (&longtaskWorkers=), the main-thread long-task bench (longtask.ts) in the page; sets window.__result.
import { runBench, type BenchParams, type Store, type TableType } from './bench.ts';
import { runLongTaskBench } from './longtask.ts';

declare global {
  interface Window {
    __result?: unknown;
  }
}

const q = new URLSearchParams(location.search);
const stores = (q.get('stores') ?? 'opfs,idb').split(',').filter(Boolean) as Store[];
const types = (q.get('types') ?? 'COPY_ON_WRITE,MERGE_ON_READ').split(',') as TableType[];
const rows = Number(q.get('rows') ?? 200_000);
const upsert = Number(q.get('upsert') ?? 20_000);
const where = q.get('where') === 'page' ? 'page' : 'worker';
const codec = q.get('codec') ?? undefined;
const longtaskRows = q.has('longtaskRows') ? Number(q.get('longtaskRows')) : undefined;
const longtaskUpsert = Number(q.get('longtaskUpsert') ?? Math.round((longtaskRows ?? 0) / 10));
const longtaskWorkers = q.has('longtaskWorkers') ? Number(q.get('longtaskWorkers')) : undefined;
const out = document.getElementById('log')!;
const log = (msg: string) => {
  console.log(msg);
  out.textContent += `${msg}\n`;
};

function inWorker(params: BenchParams): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<{ log?: string; result?: unknown; error?: string }>) => {
      if (e.data.log !== undefined) log(e.data.log);
      else {
        worker.terminate();
        if (e.data.error !== undefined) reject(new Error(e.data.error));
        else resolve(e.data.result);
      }
    };
    worker.onerror = (e) => reject(new Error(`worker: ${e.message}`));
    worker.postMessage(params);
  });
}

async function main() {
  const results = [];
  for (const store of stores) {
    const params: BenchParams = { store, rows, upsert, types, ...(codec ? { codec } : {}) };
    results.push(where === 'worker' ? await inWorker(params) : await runBench(params, log));
  }
  const estimate = await navigator.storage.estimate();
  const longtask = longtaskRows === undefined
    ? undefined
    : await runLongTaskBench({ rows: longtaskRows, upsert: longtaskUpsert, ...(longtaskWorkers === undefined ? {} : { workers: longtaskWorkers }), ...(codec ? { codec } : {}) }, log);
  window.__result = { ok: true, where, userAgent: navigator.userAgent, hardwareConcurrency: navigator.hardwareConcurrency, storageEstimate: { usage: estimate.usage, quota: estimate.quota }, results, longtask };
}

main().catch((err) => {
  log(`error: ${err instanceof Error ? err.message : String(err)}`);
  window.__result = { ok: false, error: err instanceof Error ? err.message : String(err) };
});
