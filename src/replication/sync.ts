// sync(local, remote): the background replication loop of offline-first web apps. Every `intervalMs` it
// reconciles the two tables — push when local has new commits, pull when the remote does, rebase when both
// (replicate's `rebase` mode) — skipping runs while offline (the browser's online/offline events) and running
// at once when back online. Runs never overlap; errors go to `onError`, never out of the loop; stoppable.
import { isLakeletError } from '../errors.js';
import type { Storage } from '../storage/storage.js';
import type { WriteOptions } from '../engine/write/write-options.js';
import type { ReplicateProgress } from './replicate-copy.js';
import { replicate, type ReplicateResult } from './replicate.js';

/** Timers the loop waits with (default the global `setTimeout`/`clearTimeout`; tests inject a manual one). */
export interface SyncTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The network state the loop follows (default: the browser's `navigator.onLine` and `online`/`offline` events; always online elsewhere). */
export interface SyncNetwork {
  /** Is the network up now? */
  online(): boolean;
  /** Call `listener` on every change; returns the function that stops listening. */
  subscribe(listener: (online: boolean) => void): () => void;
}

/** Options of {@link sync}. */
export interface SyncOptions {
  /** Milliseconds between the end of one run and the start of the next (default 30 000). */
  intervalMs?: number;
  /** Stops the loop (as `stop()`); a run under way is aborted and resumes with the next sync. */
  signal?: AbortSignal;
  /** Progress of each run's copies (as `replicate`'s `onProgress`). */
  onProgress?: (progress: ReplicateProgress) => void;
  /** Called after every completed run with what it did. */
  onSync?: (result: ReplicateResult) => void;
  /** Called with every failed run's error (a lost connection, a CONFLICT); the loop goes on. */
  onError?: (error: unknown) => void;
  /** Options of the writes a rebase replays on the remote. */
  write?: WriteOptions;
  timers?: SyncTimers;
  network?: SyncNetwork;
}

/** A running sync loop. */
export interface SyncHandle {
  /** Run now (or join the run under way): resolves when it ended, with its result (undefined when it failed, was skipped offline, or the loop stopped). */
  runNow(): Promise<ReplicateResult | undefined>;
  /** Stop the loop: no more runs; a run under way is aborted. Resolves once it has ended. */
  stop(): Promise<void>;
  /** Is a run under way? */
  readonly running: boolean;
  /** Has the loop stopped? */
  readonly stopped: boolean;
}

interface EventTargetLike {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

/** The browser's network state, followed through its events (always online without `navigator`/`addEventListener`). */
export function browserNetwork(): SyncNetwork {
  const target = globalThis as unknown as Partial<EventTargetLike>;
  const nav = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
  let online = nav?.onLine !== false;
  return {
    online: () => online,
    subscribe(listener) {
      if (typeof target.addEventListener !== 'function' || typeof target.removeEventListener !== 'function') return () => undefined;
      const up = () => { online = true; listener(true); };
      const down = () => { online = false; listener(false); };
      target.addEventListener('online', up);
      target.addEventListener('offline', down);
      return () => {
        target.removeEventListener?.('online', up);
        target.removeEventListener?.('offline', down);
      };
    },
  };
}

const globalTimers: SyncTimers = { setTimeout: (cb, ms) => globalThis.setTimeout(cb, ms), clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>) };

/**
 * Keep `local` and `remote` in step in the background: a first run at once, then one `intervalMs` after each
 * run ends. Each run is `replicate(local, remote, { mode: 'rebase' })`: local commits are pushed, remote ones
 * pulled, and when both moved on the local writes are replayed on the remote and local is made equal to it.
 * While offline no run starts; coming back online runs at once. Stop it with `signal` or `stop()`.
 */
export function sync(local: Storage, remote: Storage, options: SyncOptions = {}): SyncHandle {
  const intervalMs = options.intervalMs ?? 30_000;
  const timers = options.timers ?? globalTimers;
  const network = options.network ?? browserNetwork();
  const abort = new AbortController();
  let timer: unknown;
  let current: Promise<ReplicateResult | undefined> | undefined;
  let stopped = false;

  const schedule = (): void => {
    if (stopped) return;
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = timers.setTimeout(() => {
      timer = undefined;
      void runNow();
    }, intervalMs);
  };
  const run = async (): Promise<ReplicateResult | undefined> => {
    try {
      const result = await replicate(local, remote, {
        mode: 'rebase', signal: abort.signal,
        ...(options.onProgress ? { onProgress: options.onProgress } : {}), ...(options.write ? { write: options.write } : {}),
      });
      options.onSync?.(result);
      return result;
    } catch (err) {
      if (!(stopped && isLakeletError(err, 'ABORTED'))) report(err);
      return undefined;
    }
  };
  const report = (err: unknown): void => {
    try {
      options.onError?.(err);
    } catch {
      // a throwing error handler must not end the loop
    }
  };
  const runNow = (): Promise<ReplicateResult | undefined> => {
    if (current) return current;
    if (stopped || !network.online()) {
      schedule();
      return Promise.resolve(undefined);
    }
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
    current = run().finally(() => {
      current = undefined;
      schedule();
    });
    return current;
  };
  const unsubscribe = network.subscribe((online) => {
    if (online) void runNow();
  });
  const stop = async (): Promise<void> => {
    if (!stopped) {
      stopped = true;
      unsubscribe();
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
      abort.abort(new Error('sync stopped'));
      options.signal?.removeEventListener('abort', onAbort);
    }
    await current;
  };
  const onAbort = (): void => void stop();
  if (options.signal?.aborted) void stop();
  else {
    options.signal?.addEventListener('abort', onAbort);
    void runNow();
  }
  return {
    runNow,
    stop,
    get running() { return current !== undefined; },
    get stopped() { return stopped; },
  };
}
