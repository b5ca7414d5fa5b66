// Storage wrappers for crash tests: count the calls an operation makes and inject a STORAGE fault at the
// N-th one, under one of four fault models (before the effect, after it, a lost acknowledgement, a torn
// write), and tell an injected fault apart from any other error on the path (a TypeError must fail a test).
import { LakeletError, type Storage } from '../../src/index.js';

/**
 * How the N-th call fails.
 * - `before`: the call has no effect and rejects; every later call rejects too (the process died before it).
 * - `after`: the call takes effect, then rejects; every later call rejects (the process died right after the
 *   effect, before it saw the acknowledgement).
 * - `lost-ack`: the call takes effect, then rejects; later calls work (a transient network error after the
 *   store applied the request: the writer lives on and can look at what happened).
 * - `torn`: a write leaves a partial temp file (`tear`) and rejects; every later call rejects (a node-fs
 *   writer killed inside `writeFile`). Non-write calls fail as in `before`.
 */
export type FaultModel = 'before' | 'after' | 'lost-ack' | 'torn';

/** The fault models that end the writer (no call succeeds after the fault). */
export const CRASH_MODELS: readonly FaultModel[] = ['before', 'after'];

/** A wrapper that counts calls and, when armed, fails call number `failAt` under its fault model. */
export interface FaultyStorage extends Storage {
  calls: number;
  failAt: number;
  readonly model: FaultModel;
  /** Every error this wrapper threw. */
  readonly injected: Set<LakeletError>;
  /** The call that failed first (method and path), once it happened. */
  failedCall: { method: string; path: string } | undefined;
  /** Whether the failed call's effect was applied (`after`, `lost-ack`). */
  effectApplied: boolean;
}

/** Options of {@link faultyStorage}. */
export interface FaultOptions {
  /** `torn` model: leave a partial temp file for a write of `path` (default: nothing is left). */
  tear?: (path: string, bytes: Uint8Array) => Promise<void>;
}

/** Wrap `inner`; `failAt` = 0 never fails. */
export function faultyStorage(inner: Storage, failAt = 0, model: FaultModel = 'before', options: FaultOptions = {}): FaultyStorage {
  const s = {
    label: `faulty(${inner.label})`,
    readOnly: inner.readOnly,
    calls: 0,
    failAt,
    model,
    injected: new Set<LakeletError>(),
    failedCall: undefined,
    effectApplied: false,
  } as FaultyStorage;
  const fault = (n: number, name: string, path: string, when: string): LakeletError => {
    const err = new LakeletError('STORAGE', `injected fault at call ${n} (${name} ${JSON.stringify(path)}, ${when})`, { path });
    s.injected.add(err);
    return err;
  };
  const guard = async <T>(name: string, path: string, fn: () => Promise<T>, bytes?: Uint8Array): Promise<T> => {
    const n = ++s.calls;
    if (s.failAt <= 0 || n < s.failAt) return fn();
    if (n > s.failAt) {
      if (s.model === 'lost-ack') return fn();
      throw fault(n, name, path, 'the writer is gone');
    }
    s.failedCall = { method: name, path };
    if (s.model === 'after' || s.model === 'lost-ack') {
      // The effect happens (a call that fails on its own, e.g. a read of a missing file, has none).
      s.effectApplied = await fn().then(() => true, () => false);
      throw fault(n, name, path, 'after its effect');
    }
    if (s.model === 'torn' && bytes && options.tear) await options.tear(path, bytes.subarray(0, bytes.length >> 1));
    throw fault(n, name, path, 'before its effect');
  };
  s.head = (p) => guard('head', p, () => inner.head(p));
  s.read = (p, r) => guard('read', p, () => inner.read(p, r));
  s.write = (p, b) => guard('write', p, () => inner.write(p, b), b);
  s.writeIfAbsent = (p, b) => guard('writeIfAbsent', p, () => inner.writeIfAbsent(p, b), b);
  s.list = (p, o) => guard('list', p, () => inner.list(p, o));
  s.delete = (p) => guard('delete', p, () => inner.delete(p));
  return s;
}

/**
 * Is `err` (or an error in its `cause` chain) a fault `storage` injected? A crash test accepts only those
 * as the operation's failure: anything else (a TypeError on the recovery path, a wrong error code) is a bug.
 */
export function isInjectedFault(err: unknown, storage: FaultyStorage): boolean {
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 20; depth++) {
    if (e instanceof LakeletError && storage.injected.has(e)) return true;
    if (e instanceof AggregateError && e.errors.some((x) => isInjectedFault(x, storage))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** A one-line description of an error and its cause chain, for assertion messages. */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    parts.push(e instanceof Error ? `${e.constructor.name}${e instanceof LakeletError ? `(${e.code})` : ''}: ${e.message}` : String(e));
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join(' <- ');
}

/** A full in-memory copy of a store. */
export async function copyStorage(source: Storage, make: (files: [string, Uint8Array][]) => Storage): Promise<Storage> {
  const files: [string, Uint8Array][] = [];
  for (const f of await source.list('', { recursive: true })) files.push([f.path, await source.read(f.path)]);
  return make(files);
}
