// Clustering (issue 19): a trips table built from many small insert commits (each one new files: small-file
// filling off), then `table.cluster({ sortColumns: ['ts'] })` — its throughput (input MiB/s, rows/s) — and a
// filtered query on the sort column before and after: the base files whose ts statistics may match it, the files
// lakelet opens (on v9 the MDT's column_stats skip files), requests and bytes, counted by a wrapper around the
// node-fs storage. The query's rows and a full snapshot must be the same before and after, or the bench fails.
// Asserts nothing about timing.
// Standalone: `node bench/clustering.mjs [--commits 200] [--rows-per-commit 500] [--table-version 9] [--target-kib N] [--json]
// [--built DIR] [--cpu-prof FILE] [--save]` (--built keeps the unclustered table in DIR for the next run; --cpu-prof
// profiles cluster() alone; --save writes bench/results/<date>-clustering-<commits>x<rows>-v<version>.json)
// (needs `npm run build`, or LAKELET_DIST); `npm run bench` runs it in a child process (`runClusteringPart`).
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cpu, filteredQuery } from './clustering-query.mjs';
import { TRIP_SCHEMA, tripRows } from './data.mjs';

const SELF = fileURLToPath(import.meta.url);
const SERVICES = { clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false } };
const TS0 = 1_700_000_000_000;
const TS_SPAN = 2_592_000_000; // tripRow's ts: 30 days from TS0
/** The filtered query: the first 2 % of the ts range (a sorted layout keeps it in one file per partition). */
const FILTER_FRACTION = 0.02;

/** Row count and begin_lat sum of the whole snapshot: clustering must not change them. */
async function snapshot(lakelet, dir) {
  const table = await lakelet.openTable(lakelet.nodeFsStorage(dir));
  let rows = 0;
  let sum = 0;
  for await (const row of table.rows({ columns: ['uuid', 'begin_lat'] })) {
    rows++;
    sum += row.begin_lat;
  }
  return { rows, beginLatSum: Math.round(sum * 1e6) / 1e6 };
}

/** Make the table of `commits` small insert commits in `dir`; returns the seconds it took. */
async function buildTable(lakelet, dir, { commits, rowsPerCommit, tableVersion }, log) {
  const table = await lakelet.createTable(lakelet.nodeFsStorage(dir), {
    name: 'trips', type: 'COPY_ON_WRITE', recordKey: 'uuid', orderingField: 'ts', partitionBy: ['city'], schema: TRIP_SCHEMA,
    ...(tableVersion ? { tableVersion } : {}), ...(tableVersion >= 8 ? { metadataTable: true } : {}), ...SERVICES,
  });
  const tb = performance.now();
  for (let c = 0; c < commits; c++) {
    // New files every commit (no small-file filling), and blooms sized for small files (Hudi's 60,000-entry
    // default would make every 100-row file ~300 KiB of bloom filter).
    const rows = [...tripRows(c * rowsPerCommit, (c + 1) * rowsPerCommit)];
    for (let attempt = 1; ; attempt++) {
      try {
        await table.insert(rows, { ...SERVICES, smallFileLimit: 0, bloomFilter: { numEntries: 1000 } });
        break;
      } catch (err) {
        // A CONFLICT commits nothing (e.g. the commit lock outlived its expiry on an overloaded machine): retry.
        if (err?.code !== 'CONFLICT' || attempt >= 5) throw err;
        log(`commit ${c + 1}: ${err.message}; retrying`);
      }
    }
    if ((c + 1) % 50 === 0) log(`${c + 1}/${commits} commits`);
  }
  return (performance.now() - tb) / 1000;
}

/** A V8 CPU profile of this process from now until `stop(file)`, which writes it (for bench/cpu-top.mjs). */
async function startProfile() {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/**
 * `built`: a folder keeping the unclustered table between runs (built there on the first run, with a
 * `bench-built.json` of its parameters and build time); each run clusters a fresh copy of it.
 */
async function measure({ commits, rowsPerCommit, targetKib, tableVersion, dir: given, built, cpuProf }) {
  const dist = process.env.LAKELET_DIST ? `${pathToFileURL(resolve(process.env.LAKELET_DIST)).href}/` : new URL('../dist/', import.meta.url).href;
  const lakelet = await import(new URL('node/index.js', dist).href);
  const dir = given ?? (await mkdtemp(join(tmpdir(), 'lakelet-bench-clustering-')));
  const log = (m) => process.stderr.write(`  [clustering] ${m}\n`);
  try {
    let buildSeconds;
    if (built) {
      const params = { commits, rowsPerCommit, tableVersion };
      const stamp = join(built, 'bench-built.json');
      const kept = await readFile(stamp, 'utf8').then(JSON.parse, () => undefined);
      if (kept && JSON.stringify(kept.params) !== JSON.stringify(params)) throw new Error(`bench: ${built} holds a table of ${JSON.stringify(kept.params)}, not ${JSON.stringify(params)}`);
      if (kept) buildSeconds = kept.buildSeconds;
      else {
        await rm(built, { recursive: true, force: true });
        await mkdir(built, { recursive: true });
        buildSeconds = await buildTable(lakelet, join(built, 'table'), params, log);
        await writeFile(stamp, JSON.stringify({ params, buildSeconds }));
      }
      await cp(join(built, 'table'), dir, { recursive: true });
      log(`clustering a copy of the table kept in ${built} (built in ${buildSeconds.toFixed(1)} s)`);
    } else buildSeconds = await buildTable(lakelet, dir, { commits, rowsPerCommit, tableVersion }, log);
    const table = await lakelet.openTable(lakelet.nodeFsStorage(dir));
    const before = await table.fileSlices();
    const bytesBefore = before.reduce((n, s) => n + (s.baseFile?.size ?? 0), 0);
    const partitions = new Set(before.map((s) => s.partitionPath)).size;
    // A third of a partition's input bytes: a few output files per partition (the writer sizes files by the rows'
    // encoded size, which the small inputs' footers and blooms overstate), each a narrow ts range.
    const target = targetKib ? targetKib * 1024 : Math.max(16 * 1024, Math.floor(bytesBefore / partitions / 3));
    const cutoff = TS0 + Math.round(TS_SPAN * FILTER_FRACTION);
    const snapBefore = await snapshot(lakelet, dir);
    const queryBefore = await filteredQuery(lakelet, dir, cutoff);
    log(`${commits} commits, ${before.length} base files; clustering with target ${target} bytes`);
    const profiler = cpuProf ? await startProfile() : undefined;
    let result;
    let t = performance.now();
    let c0 = cpu();
    let attempts = 1;
    for (;; attempts++) {
      try {
        result = await table.cluster({ sortColumns: ['ts'], targetFileSizeBytes: target, ...SERVICES });
        break;
      } catch (err) {
        // CONFLICT commits nothing (on an overloaded machine the completion can outlive the commit lock's expiry);
        // the plan stays pending and the next cluster() runs it afresh. The figures are the successful run's.
        if (err?.code !== 'CONFLICT' || attempts >= 3) throw err;
        log(`cluster(): ${err.message}; retrying`);
        t = performance.now();
        c0 = cpu();
      }
    }
    if (profiler) await profiler.stop(cpuProf);
    const seconds = (performance.now() - t) / 1000;
    const cpuSeconds = cpu() - c0;
    // Undefined: nothing to cluster, or the run met a CONFLICT / ABORTED (cluster() leaves the plan pending then).
    if (!result) throw new Error(`bench: cluster() returned no result (nothing to cluster, or its run was refused and the plan left pending)`);
    const after = await (await lakelet.openTable(lakelet.nodeFsStorage(dir))).fileSlices();
    const snapAfter = await snapshot(lakelet, dir);
    const queryAfter = await filteredQuery(lakelet, dir, cutoff);
    if (snapAfter.rows !== snapBefore.rows || snapAfter.beginLatSum !== snapBefore.beginLatSum) {
      throw new Error(`bench: the snapshot changed across clustering (${JSON.stringify(snapBefore)} → ${JSON.stringify(snapAfter)})`);
    }
    if (queryAfter.rows !== queryBefore.rows || queryAfter.tsSum !== queryBefore.tsSum) {
      throw new Error(`bench: the filtered query changed across clustering (${queryBefore.rows} → ${queryAfter.rows} rows)`);
    }
    return {
      commits, rowsPerCommit, rows: snapBefore.rows, partitions, tableVersion: tableVersion ?? 6, buildSeconds,
      filter: `ts < ${cutoff} (first ${FILTER_FRACTION * 100} % of the ts range)`,
      before: { baseFiles: before.length, bytes: bytesBefore },
      after: { baseFiles: after.length, bytes: after.reduce((n, s) => n + (s.baseFile?.size ?? 0), 0) },
      cluster: { ...result, attempts, targetFileSizeBytes: target, seconds, cpuSeconds, inputMiBPerSecond: bytesBefore / 1048576 / seconds, rowsPerSecond: result.recordsWritten / seconds },
      query: { before: queryBefore, after: queryAfter, statsMatchRatio: queryBefore.statsMatch / Math.max(1, queryAfter.statsMatch), filesOpenedRatio: queryBefore.filesOpened / Math.max(1, queryAfter.filesOpened) },
    };
  } finally {
    if (!given) await rm(dir, { recursive: true, force: true });
  }
}

/** Run the part in a child process (its own heap), resolving to its JSON result. */
export function runClusteringPart(options = {}) {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [SELF, '--child', JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bench: clustering exited with ${code}`));
      try {
        done(JSON.parse(out.trim().split('\n').pop() ?? ''));
      } catch {
        reject(new Error('bench: clustering printed no result'));
      }
    });
  });
}

/** The report lines of a result. */
export function clusteringLines(r) {
  const n = (x) => x.toLocaleString('en-US');
  const mib = (b) => `${(b / 1048576).toFixed(2)} MiB`;
  const q = (x) => `${n(x.statsMatch)} of ${n(x.baseFiles)} base files may match by ts stats; lakelet opened ${n(x.filesOpened)}, fetched beyond the footer ${n(x.filesFetchedBeyondFooter)}; ${n(x.requests)} requests, ${mib(x.bytes)}; ${x.seconds.toFixed(2)} s (CPU ${x.cpuSeconds.toFixed(2)} s); ${n(x.rows)} rows`;
  const c = r.cluster;
  return [
    `clustering (v${r.tableVersion} COW${r.tableVersion >= 8 ? ' + metadata table' : ''}, ${n(r.commits)} insert commits of ${n(r.rowsPerCommit)} rows, ${r.partitions} partitions, built in ${r.buildSeconds.toFixed(1)} s; sortColumns ts, linear):`,
    `  table          ${n(r.before.baseFiles)} base files, ${mib(r.before.bytes)} → ${n(r.after.baseFiles)} base files, ${mib(r.after.bytes)} (target ${mib(c.targetFileSizeBytes)})`,
    `  cluster()      ${c.seconds.toFixed(2)} s (CPU ${c.cpuSeconds.toFixed(2)} s): ${c.inputMiBPerSecond.toFixed(2)} MiB/s of input, ${n(Math.round(c.rowsPerSecond))} rows/s; ${n(c.fileGroupsReplaced)} file groups replaced, ${n(c.fileGroupsWritten)} written, ${n(c.recordsWritten)} records, ${mib(c.bytesWritten)}`,
    `  query ${r.filter}`,
    `    before       ${q(r.query.before)}`,
    `    after        ${q(r.query.after)}`,
    `    files read   ${r.query.statsMatchRatio.toFixed(1)}× fewer files match by statistics after clustering (goal ≥ 5×: ${r.query.statsMatchRatio >= 5 ? 'met' : 'NOT met'}); lakelet opened ${r.query.filesOpenedRatio.toFixed(1)}× fewer files`,
  ];
}

if (process.argv[1] === SELF) {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    process.stdout.write(`${JSON.stringify(await measure(JSON.parse(args[1])))}\n`);
  } else {
    const opt = (name, dflt) => {
      const i = args.indexOf(name);
      return i >= 0 ? Number(args[i + 1]) : dflt;
    };
    const path = (name) => {
      const i = args.indexOf(name);
      return i >= 0 ? resolve(args[i + 1]) : undefined;
    };
    const r = await runClusteringPart({ commits: opt('--commits', 200), rowsPerCommit: opt('--rows-per-commit', 500), targetKib: opt('--target-kib', undefined), tableVersion: opt('--table-version', 9), built: path('--built'), cpuProf: path('--cpu-prof') });
    if (args.includes('--json')) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    else process.stdout.write(`${clusteringLines(r).join('\n')}\n`);
    if (args.includes('--save')) {
      const file = join(fileURLToPath(new URL('./results/', import.meta.url)), `${new Date().toISOString().slice(0, 10)}-clustering-${r.commits}x${r.rowsPerCommit}-v${r.tableVersion}.json`);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, `${JSON.stringify({ clustering: r, env: { node: process.version, cpus: availableParallelism(), loadAverage: loadavg() } }, null, 2)}\n`);
      process.stderr.write(`  [clustering] saved ${file}\n`);
    }
  }
}
