// One peer phase of the side-by-side bench in its own `node --expose-gc` child process (like bench/phase.mjs):
// `duckdb` (load + lake-rewrite upsert), `sqlite` (ON CONFLICT upsert), `parquetWasm` (load), `scan` (lakelet vs
// hyparquet vs DuckDB). Prints one JSON result line on stdout, with the process's peak RSS (`maxRss`, bytes).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = JSON.parse(process.argv[2] ?? '{}');
const log = (msg) => process.stderr.write(`  [peers ${args.phase}] ${msg}\n`);

const phases = {
  duckdb: async () => (await import('./duckdb.mjs')).duckdbLoadAndUpsert(args),
  sqlite: async () => (await import('./sqlite.mjs')).sqliteUpsert(args),
  parquetWasm: async () => (await import('./parquet-wasm.mjs')).parquetWasmLoad(args),
  scan: async () => {
    const dist = process.env.LAKELET_DIST ? `${pathToFileURL(resolve(process.env.LAKELET_DIST)).href}/` : new URL('../../dist/', import.meta.url).href;
    const lakelet = await import(new URL('node/index.js', dist).href);
    return (await import('./scan.mjs')).scanSideBySide(lakelet, args, log);
  },
};

const run = phases[args.phase];
if (!run) throw new Error(`peer-phase: unknown phase ${JSON.stringify(args.phase)}`);
const result = await run();
process.stdout.write(`${JSON.stringify({ ...result, maxRss: process.resourceUsage().maxRSS * 1024 })}\n`);
