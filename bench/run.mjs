// `npm run bench`: generates a trips-like table on the local file system and prints bulk insert, upsert (time and
// peak memory) and snapshot read (table.rows() vs hyparquet on the same files) figures; `--json` prints JSON.
// Each phase runs in its own child process (bench/phase.mjs); see bench/README.md for what the figures mean.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const READ_GOAL = 1.3;
const USAGE = `usage: npm run bench -- [options]
  --rows N      rows of the generated table (default 1000000)
  --upsert N    rows of the upsert batch, half updates, half inserts (default 100000)
  --quick       smoke run: 100000 rows, 10000 upserts, 3 read runs
  --runs K      timed runs of each reader, median reported, after one warm-up (default 5)
  --json        print the figures as one JSON document (progress goes to stderr)
  --dir PATH    build the table in PATH (must be empty or absent; kept) instead of a temp dir
  --keep        keep the temp table directory
  --codec C     base-file codec for both writes (GZIP, SNAPPY, ZSTD, UNCOMPRESSED; default: the library's, GZIP)
  --help`;

function parseArgs(argv) {
  const o = { rows: 1_000_000, upsert: 100_000, runs: 5, json: false, dir: undefined, keep: false, codec: undefined };
  const explicit = new Set();
  const num = (flag, v) => {
    const n = Number(String(v).replace(/_/g, ''));
    if (!Number.isSafeInteger(n) || n < 1) fail(`${flag} expects a positive integer, got ${JSON.stringify(v)}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => inline ?? argv[++i] ?? fail(`${flag} needs a value`);
    switch (flag) {
      case '--rows': o.rows = num(flag, value()); explicit.add('rows'); break;
      case '--upsert': o.upsert = num(flag, value()); explicit.add('upsert'); break;
      case '--runs': o.runs = num(flag, value()); explicit.add('runs'); break;
      case '--quick': o.quick = true; break;
      case '--json': o.json = true; break;
      case '--dir': o.dir = resolve(value()); break;
      case '--keep': o.keep = true; break;
      case '--codec': o.codec = value().toUpperCase(); break;
      case '--help': case '-h': console.log(USAGE); process.exit(0); break;
      default: fail(`unknown option ${a}`);
    }
  }
  if (o.quick) {
    if (!explicit.has('rows')) o.rows = 100_000;
    if (!explicit.has('upsert')) o.upsert = 10_000;
    if (!explicit.has('runs')) o.runs = 3;
  }
  return o;
}

function fail(msg) {
  console.error(`bench: ${msg}\n${USAGE}`);
  process.exit(2);
}

const PHASE = fileURLToPath(new URL('./phase.mjs', import.meta.url));

/** Run one phase in a fresh `node --expose-gc` process; resolves to its JSON result. */
function runPhase(phase, args) {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', PHASE, JSON.stringify({ ...args, phase })], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`bench: phase ${phase} exited with ${signal ?? code}`));
      try {
        done(JSON.parse(last));
      } catch {
        reject(new Error(`bench: phase ${phase} printed no result (${JSON.stringify(out.slice(-200))})`));
      }
    });
  });
}

const MiB = 1024 * 1024;
const mib = (b) => `${(b / MiB).toFixed(1)} MiB`;
const secs = (s) => `${s.toFixed(2)} s`;
const count = (n) => n.toLocaleString('en-US');
const rate = (n, s) => `${count(Math.round(n / s))} rows/s`;
const phaseList = (p) => ['setup', 'prepare', 'index', 'write', 'commit'].filter((k) => p[k] !== undefined).map((k) => `${k} ${p[k].toFixed(1)}`).join(', ');

function printReport(r) {
  const { params: p, bulkInsert: b, upsert: u, read: rd, table: t } = r;
  const lines = [];
  const row = (label, value, note = '') => lines.push(`  ${label.padEnd(34)} ${value.padStart(16)}   ${note}`);
  lines.push(`lakelet bench: ${count(p.rows)} rows in ${t.afterBulk.partitions} partitions, upsert ${count(p.upsert)} (${count(u.updates)} updates + ${count(u.inserts)} inserts), ${p.runs} read runs`);
  lines.push(`  node ${r.env.node}, ${r.env.cpus} × ${r.env.cpuModel}; load average ${r.env.loadStart.toFixed(2)} at start, ${r.env.loadEnd.toFixed(2)} at end${r.env.loadStart > 0.5 || r.env.loadEnd > 0.5 ? ' (machine busy: trust CPU-time figures over wall time)' : ''}`);
  lines.push(`  write options: ${p.codec ? `codec ${p.codec}` : 'codec GZIP'}, otherwise lakelet defaults (100k-row groups, BLOOM index, 120 MiB max file size)`);
  lines.push(`  table: ${r.env.dir}${r.env.kept ? '' : ' (deleted afterwards)'}`);
  lines.push('');
  lines.push('bulk insert');
  row('time', secs(b.seconds), `${rate(p.rows, b.seconds)}; CPU ${secs(b.cpuSeconds)}; phases (s): ${phaseList(b.phases)}`);
  row('files written', count(b.stats.filesWritten), `${mib(b.stats.bytesWritten)} of base files`);
  row('peak memory (RSS, kernel peak)', `+${mib(b.memory.peakRssDeltaKernel)}`, `over a baseline of ${mib(b.memory.baselineRss)} holding the input rows; sampled +${mib(b.memory.peakRssDelta)}; heapUsed +${mib(b.memory.peakHeapUsedDelta)}`);
  row('table on disk', mib(t.afterBulk.totalBytes), `${t.afterBulk.fileGroups} file groups, ${mib(t.afterBulk.latestBaseFileBytes)} latest base files`);
  lines.push('');
  lines.push(`upsert (${count(u.updates)} updates spread over all file groups + ${count(u.inserts)} inserts)`);
  row('time', secs(u.seconds), `${rate(p.upsert, u.seconds)} of input; CPU ${secs(u.cpuSeconds)}; phases (s): ${phaseList(u.phases)}`);
  row('rows rewritten', count(u.rowsRewritten), `${u.stats.filesWritten} files (${mib(u.stats.bytesWritten)}): copy-on-write rewrites every touched file group`);
  row('peak memory (RSS, kernel peak)', `+${mib(u.memory.peakRssDeltaKernel)}`, `over a baseline of ${mib(u.memory.baselineRss)} holding the batch`);
  row('peak memory (RSS, sampled)', `+${mib(u.memory.peakRssDelta)}`, `every 50 ms; longest gap ${u.memory.maxGapMs} ms`);
  row('peak memory (heapUsed, sampled)', `+${mib(u.memory.peakHeapUsedDelta)}`, `array buffers/external +${mib(u.memory.peakExternalDelta)}`);
  row('table on disk', mib(t.afterUpsert.totalBytes), `${t.afterUpsert.fileGroups} file groups, ${mib(t.afterUpsert.latestBaseFileBytes)} latest base files (old versions not cleaned)`);
  lines.push('');
  lines.push(`snapshot read of ${count(rd.rows)} rows from ${rd.files} latest base files (median of ${p.runs} after 1 warm-up)`);
  const runs = (xs) => xs.map((s) => s.toFixed(2)).join(' ');
  row('table.rows()', secs(rd.lakelet.median), `${rate(rd.rows, rd.lakelet.median)}; runs ${runs(rd.lakelet.runs)}; CPU median ${secs(rd.lakelet.cpuMedian)}`);
  row('hyparquet parquetReadObjects', secs(rd.hyparquet.median), `${rate(rd.rows, rd.hyparquet.median)}; runs ${runs(rd.hyparquet.runs)}; CPU median ${secs(rd.hyparquet.cpuMedian)}`);
  row('ratio rows() / hyparquet (wall)', `${rd.ratio.toFixed(2)}×`, `goal ≤ ${READ_GOAL}×: ${rd.meetsGoal ? 'met' : 'NOT met'}`);
  row('ratio rows() / hyparquet (CPU)', `${rd.cpuRatio.toFixed(2)}×`, 'the same runs by CPU time, steadier on a busy machine');
  lines.push('');
  lines.push(`total bench time ${secs(r.totalSeconds)}`);
  console.log(lines.join('\n'));
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const distDir = process.env.LAKELET_DIST ? resolve(process.env.LAKELET_DIST) : fileURLToPath(new URL('../dist/', import.meta.url));
  if (!existsSync(join(distDir, 'node', 'index.js'))) fail(`no build at ${distDir}; run \`npm run build\` first (npm run bench does)`);
  const t0 = performance.now();
  let dir = o.dir;
  if (dir) {
    await mkdir(dir, { recursive: true });
    if ((await readdir(dir)).length > 0) fail(`--dir ${dir} is not empty`);
  } else {
    dir = await mkdtemp(join(tmpdir(), 'lakelet-bench-'));
  }
  const keep = o.keep || o.dir !== undefined;
  const progress = (msg) => process.stderr.write(`bench: ${msg}\n`);
  const args = { dir, rows: o.rows, upsert: o.upsert, runs: o.runs, codec: o.codec };
  const loadStart = loadavg()[0];
  try {
    progress(`bulk insert of ${count(o.rows)} rows into ${dir}`);
    const bulkInsert = await runPhase('bulk', args);
    const afterBulk = await runPhase('size', args);
    progress(`upsert of ${count(o.upsert)} rows`);
    const upsert = await runPhase('upsert', args);
    const afterUpsert = await runPhase('size', args);
    progress(`snapshot read, ${o.runs} runs of each reader`);
    const read = await runPhase('read', args);
    read.ratio = read.lakelet.median / read.hyparquet.median;
    read.goal = READ_GOAL;
    read.meetsGoal = read.ratio <= READ_GOAL;
    read.cpuRatio = read.lakelet.cpuMedian / read.hyparquet.cpuMedian;
    const report = {
      params: { rows: o.rows, upsert: o.upsert, runs: o.runs, quick: Boolean(o.quick), codec: o.codec ?? null },
      env: { node: process.version, cpus: availableParallelism(), cpuModel: cpus()[0]?.model?.trim() ?? 'unknown', loadStart, loadEnd: loadavg()[0], dir, kept: keep },
      table: { afterBulk, afterUpsert },
      bulkInsert: { ...bulkInsert, rowsPerSecond: o.rows / bulkInsert.seconds },
      upsert: { ...upsert, rowsPerSecond: o.upsert / upsert.seconds },
      read,
      totalSeconds: (performance.now() - t0) / 1000,
    };
    if (o.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else printReport(report);
  } finally {
    if (!keep) await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
