// The comlink worker pool: N workers (browser module Workers, or Node worker_threads through the factory in
// src/node/), started lazily, tasks sent to the least busy one with their buffers transferred; size 0 runs inline.
// comlink itself (worker-transport.ts) loads with the first worker started.
import type { Endpoint, Remote } from 'comlink';
import { LakeletError } from '../errors.js';
import type { WorkerTransport } from './worker-transport.js';
import type { WorkerApi, WorkerKernels, WorkerMethod, WorkerRequest, WorkerResult } from './worker-api.js';

/** One started worker as the pool sees it. */
export interface WorkerHandle {
  /** The comlink endpoint (the Worker itself in browsers; comlink's node adapter over a worker_thread). */
  endpoint: Endpoint;
  /** Stop the worker. */
  terminate(): unknown;
  /** Register a callback for the worker dying (load error, uncaught error, exit). */
  onFailure(callback: (err: unknown) => void): void;
  /** Tasks in flight (true) or idle (false): Node keeps the process alive only while busy. */
  setBusy?(busy: boolean): void;
}

/** Starts workers for a pool. */
export interface WorkerFactory {
  /** Start one worker running the lakelet worker entry (or the script at `url`). */
  create(url: URL | string | undefined): WorkerHandle;
  /** Kernels to configure workers with when the pool options name none (Node: the WASM bytes). */
  defaultKernels?(): Promise<WorkerKernels>;
  /**
   * The pool size writes use when their `workers` option is not set, for a registered factory (Node: the cores,
   * at most 4); without it that default is 0.
   */
  defaultSize?(): number;
}

/** A task size: bytes transferred to the worker (old base file, logs, keys) and records carried. */
export interface TaskSize {
  bytes: number;
  records: number;
}

/** Options of {@link createWorkerPool}. */
export interface WorkerPoolOptions {
  /** Number of workers (default {@link defaultWorkerCount}); 0 runs every task inline on the calling thread. */
  size?: number;
  /** Script of the worker entry (default: `worker-entry.js` next to this module; Node: `node/worker-entry-node.js`). */
  workerUrl?: URL | string;
  /** How workers load kernels (default: the factory's default, else `'auto'`). */
  kernels?: WorkerKernels;
  /** Starts workers (default: module Workers in browsers; in Node the factory `lakelet/node` registers). */
  factory?: WorkerFactory;
  /**
   * Run a task inline on the calling thread (same implementation, identical results) when it is below both
   * figures: fewer bytes to transfer and fewer records than these (see {@link taskSize}). Default: every task
   * goes to a worker.
   */
  inlineBelow?: TaskSize;
}

/** A pool of workers serving the {@link WorkerApi}. */
export interface WorkerPool {
  /** Number of workers; 0 when tasks run inline. */
  readonly size: number;
  /**
   * Run one task on the least busy worker. Buffers in `transfer` move to the worker (they are detached
   * here afterwards); result buffers move back. Errors arrive as LakeletError with code and context.
   */
  run<M extends WorkerMethod>(method: M, request: WorkerRequest<M>, transfer?: Transferable[]): Promise<WorkerResult<M>>;
  /**
   * Start every worker not started yet, without waiting for them (a worker's start — loading its modules and
   * kernels — then overlaps with the caller's own work before its first task). A worker that fails to start
   * fails the tasks given to it, as it would have on first use.
   */
  warm(): void;
  /** Stop the workers; tasks in flight fail with `ABORTED`. Idempotent. */
  close(): Promise<void>;
}

/** Upper bound of a pool's size. */
export const MAX_WORKERS = 64;

let registeredFactory: WorkerFactory | undefined;

/** Sets the factory pools use when their options name none (`lakelet/node` registers worker_threads). */
export function registerWorkerFactory(factory: WorkerFactory | undefined): void {
  registeredFactory = factory;
}

/** The factory {@link registerWorkerFactory} set, if any (the main thread's kernels take its default WASM bytes too). */
export function registeredWorkerFactory(): WorkerFactory | undefined {
  return registeredFactory;
}

function nodeVersion(): string | undefined {
  return (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
}

/** True in Node (worker_threads, not module Workers). */
export function isNodeRuntime(): boolean {
  return nodeVersion() !== undefined;
}

/**
 * The default pool size: `min(hardwareConcurrency - 1, 4)` where module workers exist; in Node the registered
 * factory's {@link WorkerFactory.defaultSize} (`lakelet/node`: the cores, at most 4), else 0; 0 in runtimes
 * without `Worker`.
 */
export function defaultWorkerCount(): number {
  if (nodeVersion() !== undefined) return Math.max(0, Math.min(registeredFactory?.defaultSize?.() ?? 0, MAX_WORKERS));
  if (typeof Worker !== 'function') return 0;
  const cores = typeof navigator === 'object' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : 2;
  return Math.max(0, Math.min(cores - 1, 4));
}

/** The browser factory: module Workers over the worker entry next to this module. */
export const browserWorkerFactory: WorkerFactory = {
  create(url) {
    // The literal `new Worker(new URL(...), { type: 'module' })` form is what Vite (dev and build) bundles.
    const worker = url === undefined
      ? new Worker(new URL('./worker-entry.js', import.meta.url), { type: 'module' })
      : new Worker(url, { type: 'module' });
    return {
      endpoint: worker,
      terminate: () => worker.terminate(),
      onFailure(callback) {
        worker.addEventListener('error', (e) => {
          e.preventDefault();
          callback(new Error(e.message || 'the worker script failed to load'));
        });
        worker.addEventListener('messageerror', () => callback(new Error('a message from the worker could not be deserialised')));
      },
    };
  },
};

async function resolveFactory(options: WorkerPoolOptions): Promise<WorkerFactory> {
  if (options.factory) return options.factory;
  if (registeredFactory) return registeredFactory;
  if (nodeVersion() !== undefined) {
    // No dynamic import of Node modules here (edge runtimes and bundlers refuse them): `lakelet/node`
    // registers the worker_threads factory when it is imported.
    throw new LakeletError('UNSUPPORTED', "worker pool: in Node, import 'lakelet/node' (it registers worker_threads), or use workers: 0");
  }
  if (typeof Worker !== 'function') throw new LakeletError('UNSUPPORTED', 'worker pool: this runtime has no Worker; use workers: 0');
  return browserWorkerFactory;
}

interface Slot {
  busy: number;
  dead: boolean;
  api: Promise<Remote<WorkerApi>>;
  failed: Promise<never>;
  fail: (err: unknown) => void;
  handle?: WorkerHandle;
}

/**
 * How big a task is: the bytes of its transferred buffers, and the records it carries (a merge's updates,
 * inserts and merged rows; a tag task's keys).
 */
export function taskSize(request: unknown, transfers: readonly Transferable[]): TaskSize {
  let bytes = 0;
  for (const t of transfers) if (t instanceof ArrayBuffer) bytes += t.byteLength;
  const r = (typeof request === 'object' && request !== null ? request : {}) as { updates?: unknown; inserts?: unknown; mergedRows?: unknown; offsets?: unknown };
  let records = recordCount(r.updates) + recordCount(r.inserts) + recordCount(r.mergedRows);
  if (r.offsets instanceof ArrayBuffer) records += Math.max(0, r.offsets.byteLength / 4 - 1);
  return { bytes, records };
}

/** Records in a map, an array, or records as columns (worker/record-wire.ts: `count`). */
function recordCount(v: unknown): number {
  if (v instanceof Map) return v.size;
  if (Array.isArray(v)) return v.length;
  const count = typeof v === 'object' && v !== null ? (v as { count?: unknown }).count : undefined;
  return typeof count === 'number' ? count : 0;
}

function isDataCloneError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'DataCloneError';
}

/**
 * Create a worker pool. Workers start on first use. With `size: 0` every task runs inline through the same
 * implementation (identical results). A request that cannot be cloned (a `DataCloneError`) runs inline too.
 */
export function createWorkerPool(options: WorkerPoolOptions = {}): WorkerPool {
  const requested = options.size ?? defaultWorkerCount();
  if (!Number.isInteger(requested) || requested < 0) {
    throw new LakeletError('INVALID_ARGUMENT', `worker pool: size must be a non-negative integer, got ${String(requested)}`, { field: 'workers', value: requested });
  }
  const size = Math.min(requested, MAX_WORKERS);
  const slots: Slot[] = [];
  let transport: Promise<WorkerTransport> | undefined;
  const loadTransport = (): Promise<WorkerTransport> => (transport ??= import('./worker-transport.js').then((m) => m.workerTransport()));
  let closed = false;
  let inline: Promise<WorkerApi> | undefined;
  const inlineApi = (): Promise<WorkerApi> =>
    (inline ??= import('./worker-impl.js').then((m) => m.createWorkerApi(options.kernels === undefined ? {} : { kernels: options.kernels })));

  const below = options.inlineBelow;
  const isSmall = (request: unknown, transfers: readonly Transferable[]): boolean => {
    if (!below) return false;
    const t = taskSize(request, transfers);
    return t.bytes < below.bytes && t.records < below.records;
  };

  const spawn = (): Slot => {
    let fail: (err: unknown) => void = () => undefined;
    const failed = new Promise<never>((_, reject) => { fail = reject; });
    failed.catch(() => undefined);
    const slot: Slot = { busy: 0, dead: false, failed, fail: (err) => fail(err), api: undefined as unknown as Promise<Remote<WorkerApi>> };
    slot.api = (async () => {
      const factory = await resolveFactory(options);
      const { wrap } = await loadTransport();
      if (closed) throw new LakeletError('ABORTED', 'worker pool: closed');
      const handle = factory.create(options.workerUrl);
      slot.handle = handle;
      handle.onFailure((err) => {
        slot.dead = true;
        const i = slots.indexOf(slot);
        if (i >= 0) slots.splice(i, 1);
        fail(closed ? new LakeletError('ABORTED', 'worker pool: closed') : new LakeletError('ABORTED', `worker pool: a worker failed (${err instanceof Error ? err.message : String(err)})`, {}, { cause: err }));
      });
      const api = wrap<WorkerApi>(handle.endpoint);
      const kernels = options.kernels ?? (await factory.defaultKernels?.()) ?? 'auto';
      await api.configure({ kernels });
      return api;
    })();
    slot.api.catch((err) => fail(err));
    slots.push(slot);
    return slot;
  };

  const pick = (): Slot => {
    let best: Slot | undefined;
    for (const s of slots) if (!s.dead && (!best || s.busy < best.busy)) best = s;
    if (!best || (best.busy > 0 && slots.length < size)) return spawn();
    return best;
  };

  return {
    size,
    async run<M extends WorkerMethod>(method: M, request: WorkerRequest<M>, transfers: Transferable[] = []): Promise<WorkerResult<M>> {
      if (closed) throw new LakeletError('ABORTED', 'worker pool: closed');
      const call = async (api: WorkerApi | Remote<WorkerApi>, message: unknown): Promise<WorkerResult<M>> =>
        (await (api[method] as (r: unknown) => Promise<unknown>)(message)) as WorkerResult<M>;
      if (size === 0 || isSmall(request, transfers)) return call(await inlineApi(), request);
      const slot = pick();
      slot.busy++;
      slot.handle?.setBusy?.(true);
      try {
        const api = await Promise.race([slot.api, slot.failed]);
        const { transfer } = await loadTransport(); // loaded before the slot's api resolved
        slot.handle?.setBusy?.(true);
        return await Promise.race([call(api, transfers.length > 0 ? transfer(request, transfers) : request), slot.failed]);
      } catch (err) {
        if (isDataCloneError(err)) return call(await inlineApi(), request);
        throw err;
      } finally {
        slot.busy--;
        if (slot.busy === 0) slot.handle?.setBusy?.(false);
      }
    },
    warm(): void {
      if (closed) return;
      while (slots.length < size) spawn();
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      const all = slots.splice(0);
      await Promise.all(all.map(async (slot) => {
        slot.fail(new LakeletError('ABORTED', 'worker pool: closed'));
        const api = await slot.api.catch(() => undefined);
        try {
          if (api) api[(await loadTransport()).releaseProxy]();
        } catch {
          /* the worker is gone already */
        }
        await slot.handle?.terminate();
      }));
    },
  };
}
