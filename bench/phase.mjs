// One benchmark phase (bulk insert, upsert or snapshot read) run in its own `node --expose-gc` child process, so
// each phase starts from a clean heap and its memory figures are its own. Prints one JSON result line on stdout.
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { TRIP_SCHEMA, tripRows, upsertBatch } from './data.mjs';

const args = JSON.parse(process.argv[2] ?? '{}');
const dist = process.env.LAKELET_DIST ? `${pathToFileURL(resolve(process.env.LAKELET_DIST)).href}/` : new URL('../dist/', import.meta.url).href;
const lakelet = await import(new URL('node/index.js', dist).href);
const log = (msg) => process.stderr.write(`  [${args.phase}] ${msg}\n`);

/** The table options every phase opens the table with (the library's defaults otherwise). */
const TABLE_OPTIONS = { name: 'trips', type: 'COPY_ON_WRITE', recordKey: 'uuid', orderingField: 'ts', partitionBy: ['city'], schema: TRIP_SCHEMA };

/** Write options given on the command line (`--codec`); the library's defaults otherwise. */
const writeOptions = () => (args.codec ? { codec: args.codec } : {});

const collect = () => {
  if (typeof globalThis.gc === 'function') {
    globalThis.gc();
    globalThis.gc();
  }
};

/**
 * Samples RSS and heapUsed every `intervalMs` while an operation runs. The sampler only runs when the event
 * loop is free, so long synchronous stretches delay samples (reported as maxGapMs); the kernel's maxRSS
 * (process.resourceUsage) catches the true RSS peak regardless.
 */
function memorySampler(intervalMs = 50) {
  collect();
  const base = process.memoryUsage();
  const peak = { rss: base.rss, heapUsed: base.heapUsed, external: base.external + base.arrayBuffers };
  let last = performance.now();
  let maxGapMs = 0;
  let samples = 0;
  const sample = () => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
    samples++;
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    peak.external = Math.max(peak.external, m.external + m.arrayBuffers);
  };
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      sample();
      clearInterval(timer);
      const maxRss = process.resourceUsage().maxRSS * 1024;
      return {
        baselineRss: base.rss,
        baselineHeapUsed: base.heapUsed,
        peakRssDelta: peak.rss - base.rss,
        peakRssDeltaKernel: Math.max(0, maxRss - base.rss),
        peakHeapUsedDelta: peak.heapUsed - base.heapUsed,
        peakExternalDelta: peak.external - (base.external + base.arrayBuffers),
        samples,
        maxGapMs: Math.round(maxGapMs),
        gcExposed: typeof globalThis.gc === 'function',
      };
    },
  };
}

/** Records when each write phase (prepare/index/write/commit) starts; returns seconds per phase. */
function phaseTimer() {
  const t0 = performance.now();
  const starts = [];
  return {
    onProgress: (p) => {
      if (starts.length === 0 || starts[starts.length - 1].phase !== p.phase) starts.push({ phase: p.phase, at: performance.now() });
    },
    seconds(end) {
      const out = {};
      starts.forEach((s, i) => {
        const until = i + 1 < starts.length ? starts[i + 1].at : end;
        out[s.phase] = (out[s.phase] ?? 0) + (until - s.at) / 1000;
      });
      if (starts.length > 0) out.setup = (starts[0].at - t0) / 1000;
      return out;
    },
  };
}

/** Rows written by a commit (sum of numWrites over its write stats). */
async function rowsWritten(table, instant) {
  const md = await table.commitMetadata(instant);
  let rows = 0;
  for (const stats of Object.values(md.partitionToWriteStats)) for (const s of stats) rows += s.numWrites;
  return rows;
}

async function bulk() {
  const table = await lakelet.createTable(lakelet.nodeFsStorage(args.dir), { ...TABLE_OPTIONS, ...writeOptions() });
  // Generated before the clock starts (and inside the memory baseline): the figures are the library's alone.
  const g0 = performance.now();
  const input = [...tripRows(0, args.rows)];
  const generateSeconds = (performance.now() - g0) / 1000;
  const mem = memorySampler();
  const phases = phaseTimer();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await table.bulkInsert(input, { onProgress: phases.onProgress });
  const t1 = performance.now();
  const cpu = process.cpuUsage(c0);
  return { seconds: (t1 - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, generateSeconds, phases: phases.seconds(t1), memory: mem.stop(), stats: result.stats, instant: result.instant };
}

async function upsert() {
  const table = await lakelet.openTable(lakelet.nodeFsStorage(args.dir));
  const updates = Math.round(args.upsert / 2);
  const batch = upsertBatch(args.rows, updates, args.upsert - updates);
  const mem = memorySampler();
  const phases = phaseTimer();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await table.upsert(batch, { ...writeOptions(), onProgress: phases.onProgress });
  const t1 = performance.now();
  const cpu = process.cpuUsage(c0);
  const memory = mem.stop();
  return { seconds: (t1 - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, phases: phases.seconds(t1), memory, stats: result.stats, instant: result.instant, updates, inserts: args.upsert - updates, rowsRewritten: await rowsWritten(table, result.instant) };
}

/** table.rows(): count rows and touch one field of each. */
async function readLakelet(table) {
  let rows = 0;
  let sum = 0;
  for await (const row of table.rows()) {
    rows++;
    sum += row.begin_lat;
  }
  return { rows, sum };
}

/** hyparquet directly over the same latest base files, as row objects. */
async function readHyparquet(paths) {
  let rows = 0;
  let sum = 0;
  for (const path of paths) {
    const file = await asyncBufferFromFile(path);
    for (const row of await parquetReadObjects({ file, compressors })) {
      rows++;
      sum += row.begin_lat;
    }
  }
  return { rows, sum };
}

/** Wall and CPU seconds (user + system, all threads of this process) of one call. */
async function timed(fn) {
  collect();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await fn();
  const c1 = process.cpuUsage(c0);
  return { ...out, seconds: (performance.now() - t0) / 1000, cpuSeconds: (c1.user + c1.system) / 1e6 };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function read() {
  const table = await lakelet.openTable(lakelet.nodeFsStorage(args.dir));
  const slices = await table.fileSlices();
  const paths = slices.filter((s) => s.baseFile).map((s) => join(args.dir, s.baseFile.path));
  const lake = [];
  const peer = [];
  const lakeCpu = [];
  const peerCpu = [];
  const run = async (reader, wall, cpu) => {
    const t = await timed(reader);
    wall.push(t.seconds);
    cpu.push(t.cpuSeconds);
  };
  // One warm-up of each, then alternate so drift and noise hit both readers alike.
  log('warm-up');
  const w1 = await timed(() => readLakelet(table));
  const w2 = await timed(() => readHyparquet(paths));
  if (w1.rows !== w2.rows || Math.abs(w1.sum - w2.sum) > 1e-6 * Math.max(1, Math.abs(w2.sum))) {
    throw new Error(`read: table.rows() and hyparquet disagree (${w1.rows} rows, sum ${w1.sum} vs ${w2.rows} rows, sum ${w2.sum})`);
  }
  for (let k = 0; k < args.runs; k++) {
    const first = k % 2 === 0;
    if (first) await run(() => readLakelet(table), lake, lakeCpu);
    await run(() => readHyparquet(paths), peer, peerCpu);
    if (!first) await run(() => readLakelet(table), lake, lakeCpu);
    log(`run ${k + 1}/${args.runs}: rows() ${lake[k].toFixed(2)} s, hyparquet ${peer[k].toFixed(2)} s`);
  }
  return {
    rows: w1.rows,
    files: paths.length,
    warmup: { lakelet: w1.seconds, hyparquet: w2.seconds },
    lakelet: { median: median(lake), runs: lake, cpuMedian: median(lakeCpu), cpuRuns: lakeCpu },
    hyparquet: { median: median(peer), runs: peer, cpuMedian: median(peerCpu), cpuRuns: peerCpu },
  };
}

/** Bytes on disk under the table root: everything, base files, and the timeline. */
async function size() {
  const out = { totalBytes: 0, baseFileBytes: 0, baseFiles: 0, timelineBytes: 0 };
  const walk = async (rel) => {
    for (const e of await readdir(join(args.dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(path);
      else if (e.isFile()) {
        const bytes = (await stat(join(args.dir, path))).size;
        out.totalBytes += bytes;
        if (path.startsWith('.hoodie/')) out.timelineBytes += bytes;
        else if (e.name.endsWith('.parquet')) {
          out.baseFileBytes += bytes;
          out.baseFiles++;
        }
      }
    }
  };
  await walk('');
  const table = await lakelet.openTable(lakelet.nodeFsStorage(args.dir));
  const slices = await table.fileSlices();
  out.fileGroups = slices.length;
  out.latestBaseFileBytes = slices.reduce((a, s) => a + (s.baseFile?.size ?? 0), 0);
  out.partitions = new Set(slices.map((s) => s.partitionPath)).size;
  return out;
}

const phases = { bulk, upsert, read, size };
const result = await phases[args.phase]();
process.stdout.write(`${JSON.stringify(result)}\n`);
