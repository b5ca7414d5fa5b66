// Where a bench run keeps its figures: bench/results/<YYYY-MM-DD>.json (UTC date) for a whole run at the default
// sizes, bench/results/<YYYY-MM-DD>-<rows>x<upsert>.json for any other size (so a --quick run does not replace it),
// and a `-partial` suffix when a part did not run (so a profiling run of two parts does not replace a whole one).
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));

/**
 * The default sizes of `npm run bench`: a 300k-row table and a 30k-row upsert, so the whole default run stays
 * under 10 minutes on 2 cores; `--rows 1000000 --upsert 100000` gives the goal sizes of issue 13.
 */
export const DEFAULT_SIZE = { rows: 300_000, upsert: 30_000 };

/** Write the report as JSON; returns the file's path relative to the working directory. */
export async function writeResults(report, defaults = DEFAULT_SIZE) {
  const day = new Date().toISOString().slice(0, 10);
  const { rows, upsert } = report.params;
  const partial = Object.values(report.parts ?? {}).some((ran) => ran !== true) ? '-partial' : '';
  const name = rows === defaults.rows && upsert === defaults.upsert && !partial ? `${day}.json` : `${day}-${rows}x${upsert}${partial}.json`;
  await mkdir(RESULTS, { recursive: true });
  const path = join(RESULTS, name);
  await writeFile(path, `${JSON.stringify(report, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
  return relative(process.cwd(), path);
}
