// The side-by-side scan: 3 columns (uuid, ts, fare) with `fare > 50` over the copy-on-write table's latest base
// files, three ways in one process — lakelet `table.rows({ columns, filters })`, hyparquet on the same files,
// DuckDB `read_parquet` of the same files materialised to JS objects — one warm-up each, then runs rotating which
// reader goes first. All three must agree on the row count and the ts sum, or the phase fails.
import { join } from 'node:path';
import { duckdbScanner } from './duckdb.mjs';
import { hyparquetScan } from './hyparquet.mjs';
import { timedStep } from './durable.mjs';

const COLUMNS = ['uuid', 'ts', 'fare'];
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** args: { dir (the lakelet table), runs }; `lakelet`: the imported build. */
export async function scanSideBySide(lakelet, args, log) {
  const table = await lakelet.openTable(lakelet.nodeFsStorage(args.dir));
  const slices = await table.fileSlices();
  const files = slices.filter((s) => s.baseFile).map((s) => join(args.dir, s.baseFile.path));
  const duck = await duckdbScanner(files);
  const readers = {
    lakelet: async () => {
      let rows = 0;
      let tsSum = 0n;
      for await (const row of table.rows({ columns: COLUMNS, filters: [['fare', '>', 50]] })) {
        rows++;
        tsSum += BigInt(row.ts);
      }
      return { rows, tsSum };
    },
    hyparquet: () => hyparquetScan(files, COLUMNS),
    duckdb: () => duck.scan(),
  };
  const names = Object.keys(readers);
  const runs = Object.fromEntries(names.map((n) => [n, { wall: [], cpu: [] }]));
  const warm = {};
  for (const n of names) warm[n] = await timedStep(readers[n]);
  const ref = warm.lakelet.out;
  for (const n of names) {
    const o = warm[n].out;
    if (o.rows !== ref.rows || o.tsSum !== ref.tsSum) throw new Error(`scan: ${n} found ${o.rows} rows (ts sum ${o.tsSum}), lakelet ${ref.rows} (ts sum ${ref.tsSum})`);
  }
  for (let k = 0; k < args.runs; k++) {
    const order = names.map((_, i) => names[(i + k) % names.length]);
    for (const n of order) {
      const t = await timedStep(readers[n]);
      runs[n].wall.push(t.seconds);
      runs[n].cpu.push(t.cpuSeconds);
    }
    log(`scan run ${k + 1}/${args.runs}: ${names.map((n) => `${n} ${runs[n].wall[k].toFixed(2)} s`).join(', ')}`);
  }
  duck.close();
  await table.close?.();
  const out = { files: files.length, rows: ref.rows, columns: COLUMNS, filter: 'fare > 50' };
  for (const n of names) out[n] = { median: median(runs[n].wall), runs: runs[n].wall, cpuMedian: median(runs[n].cpu), cpuRuns: runs[n].cpu, warmup: warm[n].seconds };
  return out;
}
