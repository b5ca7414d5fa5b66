// The main-thread responsiveness benchmark: an upsert run from the page's main thread (the library offloads
// merging and encoding to its worker pool; storage I/O and coordination stay on the calling thread) while a
// PerformanceObserver collects the main thread's long tasks (> 50 ms, the Long Tasks API's threshold).
// Goal (issue 6): none longer than 50 ms, i.e. no long task at all during the upsert.
import { createTable, openTable, opfsStorage, type WriteProgress } from '../../src/index.ts';
// @ts-expect-error plain JS module shared with the Node bench
import { TRIP_SCHEMA, tripRows, upsertBatch } from '../data.mjs';

export interface LongTaskParams {
  rows: number;
  upsert: number;
  /** The write option `workers`; undefined keeps the library's browser default. */
  workers?: number;
  codec?: string;
}

/** The same services-off options as the rest of the bench. */
const SERVICES = { clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false } };
const LONG_TASK_MS = 50;

const nextTask = (ms = 0) => new Promise<void>((r) => setTimeout(r, ms));

interface LoafScript {
  invoker?: string;
  invokerType?: string;
  sourceURL?: string;
  sourceFunctionName?: string;
  sourceCharPosition?: number;
  duration: number;
}

/** Long tasks and long animation frames (with script attribution where the browser gives it) from `t0` on. */
function observeMainThread() {
  const supported = (PerformanceObserver as unknown as { supportedEntryTypes?: readonly string[] }).supportedEntryTypes ?? [];
  const tasks: PerformanceEntry[] = [];
  const frames: PerformanceEntry[] = [];
  const observers: [PerformanceObserver, PerformanceEntry[]][] = [];
  const watch = (type: string, into: PerformanceEntry[]) => {
    if (!supported.includes(type)) return false;
    const o = new PerformanceObserver((list) => into.push(...list.getEntries()));
    o.observe({ type, buffered: true });
    observers.push([o, into]);
    return true;
  };
  const longtask = watch('longtask', tasks);
  const loaf = watch('long-animation-frame', frames);
  return {
    longtask,
    loaf,
    /** The long tasks seen so far. */
    seen() {
      for (const [o, into] of observers) if (into === tasks) tasks.push(...o.takeRecords());
      return tasks;
    },
    async stop() {
      await nextTask(100); // let the last task's entry be queued
      for (const [o, into] of observers) {
        into.push(...o.takeRecords());
        o.disconnect();
      }
      return { tasks, frames };
    },
  };
}

/** Phases of the write with their start times (ms since t0), from onProgress. */
function phaseLog(t0: () => number) {
  const starts: { phase: string; at: number }[] = [];
  return {
    onProgress: (p: WriteProgress) => {
      if (starts.length === 0 || starts[starts.length - 1]!.phase !== p.phase) starts.push({ phase: p.phase, at: performance.now() - t0() });
    },
    starts,
    phaseAt(ms: number) {
      let out = 'setup';
      for (const s of starts) if (s.at <= ms) out = s.phase;
      return out;
    },
  };
}

export async function runLongTaskBench(p: LongTaskParams, log: (msg: string) => void) {
  const folder = `lakelet-bench-longtask-${Date.now()}`;
  const root = await navigator.storage.getDirectory();
  const codec = p.codec ? { codec: p.codec as 'GZIP' } : {};
  const workers = p.workers === undefined ? {} : { workers: p.workers };
  const storage = opfsStorage(folder);
  try {
    // Setup (not observed): bulk insert the table from the page too.
    const table = await createTable(storage, { name: 'trips', type: 'COPY_ON_WRITE', recordKey: 'uuid', orderingField: 'ts', partitionBy: ['city'], schema: TRIP_SCHEMA, ...SERVICES, ...codec, ...workers });
    log(`longtask: bulk insert of ${p.rows} rows into OPFS from the page`);
    let input: unknown[] | undefined = [...tripRows(0, p.rows)];
    let t = performance.now();
    await table.bulkInsert(input as never[], { ...SERVICES, ...codec, ...workers });
    const bulkSeconds = (performance.now() - t) / 1000;
    input = undefined;
    await table.close();

    const reopened = await openTable(storage);
    const updates = Math.round(p.upsert / 2);
    const batch = upsertBatch(p.rows, updates, p.upsert - updates);
    // The batch is built in an earlier task: only the upsert's own tasks fall in the observed window.
    await nextTask(50);
    const observer = observeMainThread();
    // Probe: a deliberate 70 ms task before the upsert, which the observer must report (else it sees nothing).
    await nextTask(20);
    const probeStart = performance.now();
    while (performance.now() - probeStart < 70) { /* busy */ }
    await nextTask(150);
    const probeSeen = observer.seen().some((e) => e.startTime + e.duration >= probeStart + 60 && e.startTime <= probeStart + 10);
    const hook = (window as unknown as { __benchHook?: (name: string) => Promise<void> }).__benchHook;
    if (hook) {
      // --cpu-prof: the driver profiles the main thread from here to the end hook (after the observed window).
      await hook('longtask-upsert-start');
      await nextTask(50);
    }
    let t0 = 0;
    const phases = phaseLog(() => t0);
    log(`longtask: upsert of ${p.upsert} rows from the page's main thread, observing long tasks`);
    t0 = performance.now();
    const result = await reopened.upsert(batch, { ...SERVICES, ...codec, ...workers, onProgress: phases.onProgress });
    const t1 = performance.now();
    const { tasks, frames } = await observer.stop();
    if (hook) await hook('longtask-upsert-end');
    await reopened.close();

    const inWindow = (e: PerformanceEntry) => e.startTime + e.duration > t0 && e.startTime < t1;
    const long = tasks.filter(inWindow).sort((a, b) => b.duration - a.duration);
    const longFrames = frames.filter(inWindow).sort((a, b) => b.duration - a.duration);
    const blocked = long.reduce((n, e) => n + e.duration, 0);
    const top = long.slice(0, 10).map((e) => ({ startMs: Math.round(e.startTime - t0), durationMs: Math.round(e.duration), phase: phases.phaseAt(e.startTime - t0) }));
    // Long animation frames name the scripts that ran (entry points; with the unminified page build, real names).
    const scripts = new Map<string, { durationMs: number; count: number }>();
    for (const f of longFrames) {
      for (const s of ((f as unknown as { scripts?: LoafScript[] }).scripts ?? [])) {
        const name = `${s.sourceFunctionName || s.invoker || '?'} (${s.invokerType ?? '?'})${s.sourceURL ? ` ${s.sourceURL.slice(s.sourceURL.lastIndexOf('/') + 1)}:${s.sourceCharPosition ?? '?'}` : ''}`;
        const x = scripts.get(name) ?? { durationMs: 0, count: 0 };
        x.durationMs += s.duration;
        x.count++;
        scripts.set(name, x);
      }
    }
    const topScripts = [...scripts].sort((a, b) => b[1].durationMs - a[1].durationMs).slice(0, 8).map(([name, x]) => ({ name, durationMs: Math.round(x.durationMs), count: x.count }));
    const hc = navigator.hardwareConcurrency;
    const out = {
      store: 'opfs',
      type: 'COPY_ON_WRITE',
      rows: p.rows,
      upsert: p.upsert,
      updates,
      inserts: p.upsert - updates,
      workers: p.workers ?? Math.max(0, Math.min((hc > 0 ? hc : 2) - 1, 4)),
      workersDefault: p.workers === undefined,
      writeMethod: storage.writeMethod,
      bulkInsertSeconds: bulkSeconds,
      upsertSeconds: (t1 - t0) / 1000,
      phases: phases.starts.map((s) => ({ phase: s.phase, atMs: Math.round(s.at) })),
      stats: { filesWritten: result.stats.filesWritten, bytesWritten: result.stats.bytesWritten, inserted: result.stats.inserted, updated: result.stats.updated },
      observed: { longtask: observer.longtask, longAnimationFrame: observer.loaf, probeSeen, cpuProfiled: Boolean(hook) },
      longTasks: { count: long.length, longestMs: long[0]?.duration ?? 0, totalMs: blocked, top },
      longAnimationFrames: { count: longFrames.length, longestMs: longFrames[0]?.duration ?? 0, topScripts },
      goalMs: LONG_TASK_MS,
      meetsGoal: observer.longtask ? long.length === 0 : null,
    };
    log(`longtask: upsert ${out.upsertSeconds.toFixed(2)} s, ${long.length} long tasks, longest ${Math.round(out.longTasks.longestMs)} ms`);
    return out;
  } finally {
    await root.removeEntry(folder, { recursive: true }).catch(() => undefined);
  }
}
