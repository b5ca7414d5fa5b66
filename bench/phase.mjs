// One benchmark phase (bulk insert, upsert, snapshot read, MOR read, compaction, HTTP read, table size) run in its
// own `node --expose-gc` child process, so each phase starts from a clean heap and its memory figures are its own.
// Prints one JSON result line on stdout.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { TRIP_SCHEMA, tripRows, upsertBatch } from './data.mjs';

const args = JSON.parse(process.argv[2] ?? '{}');
const dist = process.env.LAKELET_DIST ? `${pathToFileURL(resolve(process.env.LAKELET_DIST)).href}/` : new URL('../dist/', import.meta.url).href;
const lakelet = await import(new URL('node/index.js', dist).href);
const log = (msg) => process.stderr.write(`  [${args.phase}] ${msg}\n`);

/** The table options every phase creates the table with (`args.type`: COPY_ON_WRITE or MERGE_ON_READ). */
const TABLE_OPTIONS = {
  name: 'trips', type: args.type ?? 'COPY_ON_WRITE', recordKey: 'uuid', orderingField: 'ts', partitionBy: ['city'],
  // `args.inferSchema`: the schema is inferred from the bulk insert (a v9 MDT table then has no column_stats).
  ...(args.inferSchema ? {} : { schema: TRIP_SCHEMA }),
  // The v9 part: `args.tableVersion` 9 with `args.metadataTable` (the MDT kept by every write); default table version 6.
  ...(args.tableVersion ? { tableVersion: args.tableVersion } : {}), ...(args.metadataTable ? { metadataTable: true } : {}),
};

/**
 * Automatic table services are off in every bench write (and in compact()): an inline compaction, clean or
 * archival after a write would land in that write's time. Write defaults given to createTable are not
 * persisted, so every write passes them again.
 */
const SERVICES = { clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false } };

/**
 * Write options: services off, plus the codec given on the command line (`--codec`) and, when a phase is run by
 * hand with `workers` in its args, that pool size (the index part passes its own); lakelet's defaults otherwise.
 */
const writeOptions = () => ({ ...SERVICES, ...(args.codec ? { codec: args.codec } : {}), ...(args.workers !== undefined ? { workers: args.workers } : {}) });

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

/**
 * The index / worker-pool comparison (`index` part): on a fresh copy of the bulk-inserted table, a small
 * warm-up upsert (`args.warmup` new keys, not in the batch) with the variant's options, then the timed upsert
 * of the usual batch with the same options. The warm-up builds what the variant builds on first use (the
 * RECORD_INDEX's shards, from the keys of every slice; the worker pool's workers) and warms the JIT, so the
 * timed upsert is the steady state. args: { dir, rows, upsert, index, workers, warmup }.
 */
async function indexUpsert() {
  const table = await lakelet.openTable(lakelet.nodeFsStorage(args.dir));
  const options = { ...writeOptions(), index: args.index, workers: args.workers };
  const updates = Math.round(args.upsert / 2);
  const inserts = args.upsert - updates;
  try {
    // Warm-up: new keys past the batch's inserts, so the batch and the table after it are the same for every variant.
    const warm = [];
    for (let i = args.rows + args.upsert; i < args.rows + args.upsert + args.warmup; i++) warm.push(tripRows(i, i + 1).next().value);
    let phases = phaseTimer();
    let c0 = process.cpuUsage();
    let t0 = performance.now();
    const w = await table.upsert(warm, { ...options, onProgress: phases.onProgress });
    let t1 = performance.now();
    let cpu = process.cpuUsage(c0);
    const warmup = { rows: warm.length, seconds: (t1 - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, phases: phases.seconds(t1), stats: w.stats };
    let recordIndex;
    if (args.index === 'RECORD_INDEX') recordIndex = await recordIndexFigures();
    log(`${args.index}, workers ${args.workers}: warm-up upsert of ${warm.length} row(s) ${warmup.seconds.toFixed(2)} s (index ${(warmup.phases.index ?? 0).toFixed(2)} s)`);

    const batch = upsertBatch(args.rows, updates, inserts);
    const mem = memorySampler();
    phases = phaseTimer();
    c0 = process.cpuUsage();
    t0 = performance.now();
    const result = await table.upsert(batch, { ...options, onProgress: phases.onProgress });
    t1 = performance.now();
    cpu = process.cpuUsage(c0);
    const memory = mem.stop();
    if (args.index === 'RECORD_INDEX') recordIndex.after = await recordIndexFigures();
    log(`${args.index}, workers ${args.workers}: upsert of ${batch.length} rows ${((t1 - t0) / 1000).toFixed(2)} s`);
    return { index: args.index, workers: args.workers, seconds: (t1 - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, phases: phases.seconds(t1), memory, stats: result.stats, updates, inserts, warmup, recordIndex };
  } finally {
    await table.close();
  }
}

/** The record index on disk: keys and shards in its manifest, bytes of its files. */
async function recordIndexFigures() {
  const dir = join(args.dir, '.hoodie/.aux/lakelet/record-index');
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  let bytes = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) if (e.isFile()) bytes += (await stat(join(dir, e.name))).size;
  return { keyCount: manifest.keyCount, shardCount: manifest.shardCount, shardFiles: manifest.shards.filter(Boolean).length, bytes };
}

/** table.rows(options): count rows and sum one field. */
async function readLakelet(table, options = {}) {
  let rows = 0;
  let sum = 0;
  for await (const row of table.rows(options)) {
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
    sum: w1.sum,
    files: paths.length,
    warmup: { lakelet: w1.seconds, hyparquet: w2.seconds },
    lakelet: { median: median(lake), runs: lake, cpuMedian: median(lakeCpu), cpuRuns: lakeCpu },
    hyparquet: { median: median(peer), runs: peer, cpuMedian: median(peerCpu), cpuRuns: peerCpu },
  };
}

/**
 * Merge-on-read table with log files: the snapshot read (table.rows(), base files merged with their logs) vs
 * the read-optimized read (table.rows({ readOptimized: true }), base files only), alternating, median of runs.
 */
async function morRead() {
  const table = await lakelet.openTable(lakelet.nodeFsStorage(args.dir));
  const slices = await table.fileSlices();
  const snapshot = () => readLakelet(table);
  const optimized = () => readLakelet(table, { readOptimized: true });
  const snap = [];
  const ro = [];
  const snapCpu = [];
  const roCpu = [];
  const run = async (reader, wall, cpu) => {
    const t = await timed(reader);
    wall.push(t.seconds);
    cpu.push(t.cpuSeconds);
  };
  log('warm-up');
  const w1 = await timed(snapshot);
  const w2 = await timed(optimized);
  // The snapshot of the MOR table must equal the COW table's after the same writes (when the COW part ran).
  if (args.expect && (w1.rows !== args.expect.rows || Math.abs(w1.sum - args.expect.sum) > 1e-6 * Math.max(1, Math.abs(args.expect.sum)))) {
    throw new Error(`morRead: the MOR snapshot (${w1.rows} rows, sum ${w1.sum}) differs from the COW snapshot (${args.expect.rows} rows, sum ${args.expect.sum})`);
  }
  for (let k = 0; k < args.runs; k++) {
    const first = k % 2 === 0;
    if (first) await run(snapshot, snap, snapCpu);
    await run(optimized, ro, roCpu);
    if (!first) await run(snapshot, snap, snapCpu);
    log(`run ${k + 1}/${args.runs}: snapshot ${snap[k].toFixed(2)} s, read-optimized ${ro[k].toFixed(2)} s`);
  }
  return {
    rows: w1.rows,
    sum: w1.sum,
    readOptimizedRows: w2.rows,
    slices: slices.length,
    slicesWithLogs: slices.filter((s) => s.logFiles.length > 0).length,
    logFiles: slices.reduce((n, s) => n + s.logFiles.length, 0),
    warmup: { snapshot: w1.seconds, readOptimized: w2.seconds },
    snapshot: { median: median(snap), runs: snap, cpuMedian: median(snapCpu), cpuRuns: snapCpu },
    readOptimized: { median: median(ro), runs: ro, cpuMedian: median(roCpu), cpuRuns: roCpu },
  };
}

/** table.compact(): schedule and run a compaction of every slice with logs; time, CPU and peak memory. */
async function compact() {
  const table = await lakelet.openTable(lakelet.nodeFsStorage(args.dir));
  const mem = memorySampler();
  const phases = phaseTimer();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const results = await table.compact({ ...writeOptions(), onProgress: phases.onProgress });
  const t1 = performance.now();
  const cpu = process.cpuUsage(c0);
  const memory = mem.stop();
  const sum = (k) => results.reduce((n, r) => n + r[k], 0);
  return {
    seconds: (t1 - t0) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    phases: phases.seconds(t1),
    memory,
    compactions: results.length,
    fileGroups: sum('fileGroups'),
    recordsWritten: sum('recordsWritten'),
    logFilesCompacted: sum('logFilesCompacted'),
  };
}

/**
 * A fetch that counts what crosses the wire: requests by method, and response body bytes as the reader
 * consumes them (arrayBuffer/json/text/bytes). Bodies a reader cancels unread are not counted.
 */
function countingFetch() {
  const c = { requests: 0, byMethod: {}, bytes: 0, ranged: 0 };
  const fetchFn = async (url, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    c.requests++;
    c.byMethod[method] = (c.byMethod[method] ?? 0) + 1;
    const headers = init.headers ?? {};
    if (Object.keys(headers).some((h) => h.toLowerCase() === 'range')) c.ranged++;
    const res = await fetch(url, init);
    for (const name of ['arrayBuffer', 'bytes', 'text', 'json']) {
      const orig = res[name]?.bind(res);
      if (!orig) continue;
      res[name] = async () => {
        const out = await orig();
        c.bytes += name === 'text' ? Buffer.byteLength(out) : name === 'json' ? Buffer.byteLength(JSON.stringify(out)) : out.byteLength;
        return out;
      };
    }
    return res;
  };
  return {
    fetch: fetchFn,
    take() {
      const out = { ...c, byMethod: { ...c.byMethod } };
      Object.assign(c, { requests: 0, byMethod: {}, bytes: 0, ranged: 0 });
      return out;
    },
  };
}

/** Bytes of the file slices a read plans (base files + logs): what it needs at most. */
const sliceBytes = (slices, readOptimized = false) => slices.reduce((n, s) => n + (s.baseFile?.size ?? 0) + (readOptimized ? 0 : s.logFiles.reduce((b, l) => b + l.size, 0)), 0);

/**
 * Reads over HTTP from nginx (httpStorage with the listing manifest): bytes transferred per read, against the
 * table's size on disk and against the file slices the read plans. args.url: the table's URL; args.dir: its
 * local directory (for sizes and the local reference sum).
 */
async function http() {
  // The manifest lists every file (nginx's autoindex hides the dot-named MOR log files).
  const published = await lakelet.publishListing(args.dir);
  const counter = countingFetch();
  const storage = lakelet.httpStorage(args.url, { fetch: counter.fetch, listing: 'manifest' });
  const t0 = performance.now();
  const table = await lakelet.openTable(storage);
  const open = { seconds: (performance.now() - t0) / 1000, ...counter.take() };
  const READS = [
    { name: 'snapshot, all columns', options: {} },
    { name: 'read-optimized, all columns', options: { readOptimized: true } },
    { name: 'snapshot, city = paris', options: { filters: ['city = paris'] } },
    { name: 'snapshot, columns uuid ts fare', options: { columns: ['uuid', 'ts', 'fare'] } },
    { name: 'RO, city = paris, uuid ts fare', options: { readOptimized: true, filters: ['city = paris'], columns: ['uuid', 'ts', 'fare'] } },
  ];
  const reads = [];
  for (const r of READS) {
    const slices = await table.fileSlices(r.options);
    counter.take(); // fileSlices may list; keep the read's own figures
    const c0 = process.cpuUsage();
    const t = performance.now();
    let rows = 0;
    for await (const _row of table.rows(r.options)) rows++;
    const seconds = (performance.now() - t) / 1000;
    const cpu = process.cpuUsage(c0);
    const wire = counter.take();
    reads.push({ ...r, rows, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, slices: slices.length, plannedBytes: sliceBytes(slices, r.options.readOptimized), ...wire });
    log(`${r.name}: ${rows} rows, ${(wire.bytes / 1048576).toFixed(1)} MiB in ${wire.requests} requests, ${seconds.toFixed(2)} s`);
  }
  return { url: args.url, manifest: { files: published.files, bytes: published.bytes }, open, reads };
}

/** Bytes on disk under the table root: everything, base files, and the timeline. */
async function size() {
  const out = { totalBytes: 0, baseFileBytes: 0, baseFiles: 0, logFileBytes: 0, logFiles: 0, timelineBytes: 0 };
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
        } else if (e.name.includes('.log.')) {
          out.logFileBytes += bytes;
          out.logFiles++;
        }
      }
    }
  };
  await walk('');
  const table = await lakelet.openTable(lakelet.nodeFsStorage(args.dir));
  const slices = await table.fileSlices();
  out.fileGroups = slices.length;
  out.latestBaseFileBytes = slices.reduce((a, s) => a + (s.baseFile?.size ?? 0), 0);
  out.latestLogFileBytes = slices.reduce((a, s) => a + s.logFiles.reduce((b, l) => b + l.size, 0), 0);
  out.slicesWithLogs = slices.filter((s) => s.logFiles.length > 0).length;
  out.partitions = new Set(slices.map((s) => s.partitionPath)).size;
  return out;
}

const phases = { bulk, upsert, indexUpsert, read, morRead, compact, http, size };
const result = await phases[args.phase]();
// maxRss: the child's peak resident memory (bytes), printed by run.mjs for every phase.
process.stdout.write(`${JSON.stringify({ ...result, maxRss: process.resourceUsage().maxRSS * 1024 })}\n`);
