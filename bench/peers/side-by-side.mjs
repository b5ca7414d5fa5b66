// The side-by-side part of `npm run bench` (issue 13): runs the peers (DuckDB, SQLite, parquet-wasm, hyparquet) on
// the same generated data as lakelet's phases, each in its own child process, then turns lakelet's figures and the
// peers' into the goal table: ratio lakelet / peer per workload, the goal, "met" or "missed by N×", and where a
// goal is missed the top three costs of lakelet's CPU profile of that phase (with --cpu-prof).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The child entry of every peer phase. */
export const PEER_PHASE = fileURLToPath(new URL('./peer-phase.mjs', import.meta.url));
const CPU_TOP = fileURLToPath(new URL('../cpu-top.mjs', import.meta.url));

/** The codec every system writes with in the side-by-side rows (issue 13: "SNAPPY everywhere"). */
export const PEER_CODEC = 'SNAPPY';

/**
 * Run the peer phases: DuckDB (load + lake rewrite), parquet-wasm (load), SQLite (upsert), then the 3-way scan over
 * the lakelet COW table `cowDir` (its latest base files). `runPhase(phase, args, label, script)` is run.mjs's child
 * runner. Peer data lives under `dir/peers` and is deleted after each peer.
 */
export async function runPeers({ rows, upsert, scanRuns, dir, cowDir, runPhase, progress }) {
  const root = join(dir, 'peers');
  await mkdir(root, { recursive: true });
  const out = {};
  const peer = async (key, phase, label, args) => {
    const d = join(root, key);
    try {
      out[key] = await runPhase(phase, { rows, upsert, dir: d, ...args }, label, PEER_PHASE);
    } finally {
      await rm(d, { recursive: true, force: true });
    }
  };
  progress(`peers: DuckDB COPY … PARTITION_BY load of ${rows.toLocaleString('en-US')} rows, then the lake rewrite upsert`);
  await peer('duckdb', 'duckdb', 'peers-duckdb');
  progress('peers: parquet-wasm writing the same 10 partitions');
  await peer('parquetWasm', 'parquetWasm', 'peers-parquet-wasm');
  progress('peers: SQLite INSERT … ON CONFLICT upsert (WAL, synchronous=FULL; base rows loaded untimed)');
  await peer('sqlite', 'sqlite', 'peers-sqlite');
  progress(`peers: scan of 3 columns with fare > 50, lakelet vs hyparquet vs DuckDB, ${scanRuns} runs`);
  out.scan = await runPhase('scan', { dir: cowDir, runs: scanRuns }, 'peers-scan', PEER_PHASE);
  await rm(root, { recursive: true, force: true });
  return out;
}

const step = (x) => (x && typeof x.seconds === 'number' ? { seconds: x.seconds, cpuSeconds: x.cpuSeconds } : undefined);
const scanOf = (x) => (x ? { seconds: x.median, cpuSeconds: x.cpuMedian } : undefined);

/** Issue 13's memory goal: the COW upsert (1M rows, 100k batch) stays under 1 GiB of RSS. */
const RSS_GOAL_BYTES = 1024 ** 3;

/** The goal rows of issue 13: which figure of the report is lakelet's, which the peer's, the goal, the profile. */
const GOALS = [
  { id: 'cowUpsert', workload: 'COW upsert / DuckDB lake rewrite', peerName: 'DuckDB anti-join + union COPY', goal: 2, lakelet: (r) => step(r.upsert), peer: (r) => step(r.peers?.duckdb?.upsert), profile: 'cow-upsert' },
  { id: 'morUpsert', workload: 'MOR upsert / SQLite ON CONFLICT', peerName: 'SQLite WAL, synchronous=FULL', goal: 1, lakelet: (r) => step(r.mor?.upsert), peer: (r) => step(r.peers?.sqlite?.upsert), profile: 'mor-upsert', needs: 'mor' },
  { id: 'loadParquetWasm', workload: 'bulk insert / parquet-wasm', peerName: 'parquet-wasm, 10 partition files', goal: 1, lakelet: (r) => step(r.bulkInsert), peer: (r) => step(r.peers?.parquetWasm?.load), profile: 'cow-bulk' },
  { id: 'loadDuckdb', workload: 'bulk insert / DuckDB COPY PARTITION_BY', peerName: 'DuckDB COPY … PARTITION_BY', goal: 3, lakelet: (r) => step(r.bulkInsert), peer: (r) => step(r.peers?.duckdb?.load), profile: 'cow-bulk' },
  { id: 'scanHyparquet', workload: 'rows() 3 columns, fare > 50 / hyparquet', peerName: 'hyparquet, same files', goal: 1.1, lakelet: (r) => scanOf(r.peers?.scan?.lakelet), peer: (r) => scanOf(r.peers?.scan?.hyparquet), profile: 'peers-scan' },
  { id: 'scanDuckdb', workload: 'rows() 3 columns, fare > 50 / DuckDB', peerName: 'DuckDB read_parquet to JS', goal: null, lakelet: (r) => scanOf(r.peers?.scan?.lakelet), peer: (r) => scanOf(r.peers?.scan?.duckdb), profile: 'peers-scan' },
  { id: 'compaction', workload: 'compaction / COW upsert of the same batch', peerName: 'lakelet COW upsert', goal: 1, lakelet: (r) => step(r.mor?.compaction), peer: (r) => step(r.upsert), profile: 'mor-compact', needs: 'mor' },
];

/**
 * The side-by-side rows of a report: `{ id, workload, peerName, lakelet, peer, ratio, cpuRatio, goal, met, missedBy,
 * profile }` (seconds; ratio = lakelet wall ÷ peer wall), plus the long-task row from the `longtask` part. A row
 * whose figures are missing carries `missing` (why) instead.
 */
export function sideBySide(report) {
  const rows = [];
  for (const g of GOALS) {
    const lake = g.lakelet(report);
    const peer = g.peer(report);
    const base = { id: g.id, workload: g.workload, peerName: g.peerName, goal: g.goal, profile: g.profile };
    if (!lake || !peer) {
      const why = g.needs && report.parts?.[g.needs] !== true ? `${g.needs} part skipped` : report.peers?.sqlite?.skipped && g.id === 'morUpsert' ? report.peers.sqlite.skipped : report.parts?.peers !== true ? 'peers part skipped' : 'not measured';
      rows.push({ ...base, missing: why });
      continue;
    }
    const ratio = lake.seconds / peer.seconds;
    const met = g.goal === null ? null : ratio <= g.goal;
    rows.push({ ...base, lakelet: lake, peer, ratio, cpuRatio: lake.cpuSeconds / peer.cpuSeconds, met, missedBy: met === false ? ratio / g.goal : null });
  }
  const lt = report.longtask;
  const ltRow = { id: 'longtask', workload: 'upsert in Chromium on OPFS, from a page', peerName: 'main-thread tasks > 50 ms', goal: 0, profile: 'browser-longtask-upsert' };
  if (!lt) rows.push({ ...ltRow, missing: `longtask part ${report.parts?.longtask === true ? 'failed' : 'skipped'}` });
  else rows.push({ ...ltRow, count: lt.longTasks.count, longestMs: lt.longTasks.longestMs, met: lt.meetsGoal, missedBy: null, rows: lt.rows, upsert: lt.upsert });
  // The memory goal: the COW upsert's whole-process peak RSS (its phase's child, process.resourceUsage().maxRSS).
  const rss = report.phaseRss?.find((x) => x.label === 'cow-upsert')?.maxRss;
  const rssRow = { id: 'cowUpsertRss', workload: 'COW upsert peak RSS (whole process)', peerName: '', goal: RSS_GOAL_BYTES, profile: 'cow-upsert' };
  if (typeof rss !== 'number') rows.push({ ...rssRow, missing: 'no RSS figure of the cow-upsert phase' });
  else rows.push({ ...rssRow, bytes: rss, met: rss < RSS_GOAL_BYTES, missedBy: rss < RSS_GOAL_BYTES ? null : rss / RSS_GOAL_BYTES });
  return rows;
}

/** The top `n` functions by self time of lakelet's profile `label` (bench/cpu-top.mjs), or undefined without one. */
export function topCosts(cpuProfDir, label, n = 3) {
  // All threads of the phase (its pool workers do a pooled write's merging and encoding) where there is a
  // directory of them; else the one profile.
  const threads = cpuProfDir && join(cpuProfDir, label);
  const file = threads && existsSync(threads) ? threads : cpuProfDir && join(cpuProfDir, `${label}.cpuprofile`);
  if (!file || !existsSync(file)) return undefined;
  // Ask for a few more: the idle and (program) pseudo-functions are not costs and are dropped.
  const ask = n + 4;
  const r = spawnSync(process.execPath, [CPU_TOP, file, '--top', String(ask)], { encoding: 'utf8' });
  if (r.status !== 0) return [`(cpu-top failed: exit ${r.status})`];
  const lines = r.stdout.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`top ${ask} functions`));
  if (at < 0) return [];
  return lines.slice(at + 1, at + 1 + ask).map((l) => l.trim()).filter((l) => l && !/%\s+\((idle|program)\)\s/.test(l)).slice(0, n);
}

/** Attach the profile's top three costs to every missed row (when --cpu-prof wrote profiles). */
export function attachCosts(rows, cpuProfDir) {
  for (const x of rows) if (x.met === false) x.topCosts = topCosts(cpuProfDir, x.profile) ?? null;
  return rows;
}

const t = (x) => `${x.toFixed(2)}×`;
const s = (x) => `${x.toFixed(2)} s`;

/** The printed side-by-side table. `codec`: lakelet's codec of this run. */
export function sideBySideLines(rows, { codec, rowsCount, upsertCount, peers }) {
  const lines = [];
  lines.push(`side by side with the peers (issue 13): ${rowsCount.toLocaleString('en-US')} rows, upsert ${upsertCount.toLocaleString('en-US')}; ratio = lakelet wall ÷ peer wall, same run, same data`);
  lines.push(`  codec SNAPPY for every peer; lakelet ${codec}${codec === PEER_CODEC ? '' : ' — NOT the same codec: rerun with --codec SNAPPY for the issue\'s figures'}; every timed step ends fsynced (bench/README.md)`);
  if (peers?.duckdb) lines.push(`  DuckDB threads ${peers.duckdb.threads}; SQLite ${peers.sqlite?.version ?? '(skipped)'}; lakelet writes with the library's default pool (in Node: the cores, at most 4, for file groups of 1 MiB / 10,000 records or more)`);
  const w = 44;
  lines.push(`  ${'workload'.padEnd(w)} ${'lakelet'.padStart(9)} ${'peer'.padStart(9)} ${'ratio'.padStart(8)} ${'CPU'.padStart(8)}   goal     verdict`);
  for (const x of rows) {
    if (x.missing) {
      lines.push(`  ${x.workload.padEnd(w)} ${'—'.padStart(9)} ${'—'.padStart(9)} ${'—'.padStart(8)} ${'—'.padStart(8)}   ${x.goal === null ? '—' : x.id === 'longtask' ? '0 tasks' : x.id === 'cowUpsertRss' ? '< 1 GiB' : `≤ ${x.goal}×`}   not measured (${x.missing})`);
      continue;
    }
    if (x.id === 'cowUpsertRss') {
      const mib = `${(x.bytes / 1024 ** 2).toFixed(0)} MiB`;
      lines.push(`  ${x.workload.padEnd(w)} ${mib.padStart(9)} ${''.padStart(9)} ${''.padStart(8)} ${''.padStart(8)}   < 1 GiB  ${x.met ? 'met' : `missed by ${x.missedBy.toFixed(1)}×`}`);
      continue;
    }
    if (x.id === 'longtask') {
      lines.push(`  ${x.workload.padEnd(w)} ${`${x.count} tasks`.padStart(9)} ${''.padStart(9)} ${''.padStart(8)} ${''.padStart(8)}   0 tasks  ${x.met === null ? 'no verdict (browser reports no long tasks)' : x.met ? 'met' : `missed: ${x.count} over 50 ms, longest ${x.longestMs.toFixed(0)} ms`} (${x.rows.toLocaleString('en-US')} rows / ${x.upsert.toLocaleString('en-US')})`);
      continue;
    }
    const verdict = x.goal === null ? `(no goal; peer: ${x.peerName})` : x.met ? `met (peer: ${x.peerName})` : `missed by ${x.missedBy.toFixed(1)}× (peer: ${x.peerName})`;
    lines.push(`  ${x.workload.padEnd(w)} ${s(x.lakelet.seconds).padStart(9)} ${s(x.peer.seconds).padStart(9)} ${t(x.ratio).padStart(8)} ${t(x.cpuRatio).padStart(8)}   ${(x.goal === null ? '—' : `≤ ${x.goal}×`).padEnd(7)}  ${verdict}`);
    if (x.met === false) {
      if (x.topCosts === null || x.topCosts === undefined) lines.push(`      top costs: rerun with --cpu-prof DIR, then node bench/cpu-top.mjs DIR/${x.profile} --top 3`);
      else for (const c of x.topCosts) lines.push(`      ${c}${x.profile === 'peers-scan' ? ' (the scan profile holds all three readers)' : ''}`);
    }
  }
  return lines;
}
