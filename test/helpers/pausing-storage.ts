// A Storage wrapper for deterministic races: hold a chosen call (before or after its effect) until the test
// releases it, or fail a chosen call (before its effect, or after it with the acknowledgement lost). Give
// each actor (writer, compactor, lock holder) its own wrapper over one shared store, so a rule on one
// wrapper stops exactly that actor.
import { LakeletError, type Storage } from '../../src/index.js';

/** The storage methods a rule can match. */
export type StorageMethod = 'head' | 'read' | 'write' | 'writeIfAbsent' | 'list' | 'delete';

/** One storage call as a rule sees it. */
export interface StorageCall {
  method: StorageMethod;
  path: string;
  /** 1-based index of the call on this wrapper. */
  n: number;
}

/** Which calls a rule applies to. */
export type CallMatch = (call: StorageCall) => boolean;

/** A match on the method (one or several) and the path (exact string, or a regular expression). */
export function call(method: StorageMethod | readonly StorageMethod[], path: string | RegExp): CallMatch {
  const methods = typeof method === 'string' ? [method] : method;
  return (c) => methods.includes(c.method) && (typeof path === 'string' ? c.path === path : path.test(c.path));
}

/** When a rule acts: before the call reaches the store, or after it took effect but before it returns. */
export type Phase = 'before' | 'after';

/** A held call. */
export interface Pause {
  /** Resolves when the matching call is held (and says which call it was). */
  readonly reached: Promise<StorageCall>;
  /** Let the held call go on (calling it before `reached` makes the rule a no-op pass-through). */
  release(): void;
  /** Resolves once the held call has returned (or thrown) to its caller. */
  readonly finished: Promise<void>;
  /** Has the rule matched yet? */
  readonly hit: boolean;
}

/** A failed call. */
export interface Fault {
  /** Resolves when the fault fired. */
  readonly fired: Promise<StorageCall>;
  readonly hit: boolean;
}

/** Options of a rule. */
export interface RuleOptions {
  /** Hold/fail before the effect (default) or after it (for faults: the acknowledgement is lost). */
  phase?: Phase;
  /** Let this many matching calls through first (default 0: the first match). */
  skip?: number;
}

/** A store whose calls can be held or failed one at a time. */
export interface PausingStorage extends Storage {
  /** Every call made through this wrapper, in order. */
  readonly calls: readonly StorageCall[];
  /** Hold the first matching call (after `skip`) until `release()`. Each rule acts once. */
  pauseAt(match: CallMatch, options?: RuleOptions): Pause;
  /**
   * Fail the first matching call (after `skip`) with `STORAGE` (or `error`). The rule acts once, or on
   * `times` matching calls (`Infinity`: every later one, as after a crash).
   */
  failAt(match: CallMatch, options?: RuleOptions & { error?: Error; times?: number }): Fault;
}

interface Rule {
  match: CallMatch;
  phase: Phase;
  skip: number;
  act: (c: StorageCall) => Promise<void>;
  done: boolean;
  /** Matching calls it still acts on after this one (faults only). */
  more?: number;
  /** For pauses: resolve `finished` once the call returned. */
  settled?: () => void;
}

/** Wrap `inner` (which stays shared with other actors and wrappers). */
export function pausingStorage(inner: Storage, label = 'pausing'): PausingStorage {
  const calls: StorageCall[] = [];
  const rules: Rule[] = [];

  const take = (c: StorageCall, phase: Phase): Rule | undefined => {
    for (const r of rules) {
      if (r.done || r.phase !== phase || !r.match(c)) continue;
      if (r.skip > 0) {
        r.skip--;
        continue;
      }
      if (r.more !== undefined && r.more > 0) r.more--;
      else r.done = true;
      return r;
    }
    return undefined;
  };

  const run = async <T>(method: StorageMethod, path: string, fn: () => Promise<T>): Promise<T> => {
    const c: StorageCall = { method, path, n: calls.length + 1 };
    calls.push(c);
    const before = take(c, 'before');
    try {
      if (before) await before.act(c);
      const value = await fn();
      const after = take(c, 'after');
      if (after) {
        try {
          await after.act(c);
        } finally {
          after.settled?.();
        }
      }
      return value;
    } finally {
      before?.settled?.();
    }
  };

  const s: PausingStorage = {
    label: `${label}(${inner.label})`,
    readOnly: inner.readOnly,
    calls,
    head: (p) => run('head', p, () => inner.head(p)),
    read: (p, r) => run('read', p, () => inner.read(p, r)),
    write: (p, b) => run('write', p, () => inner.write(p, b)),
    writeIfAbsent: (p, b) => run('writeIfAbsent', p, () => inner.writeIfAbsent(p, b)),
    list: (p, o) => run('list', p, () => inner.list(p, o)),
    delete: (p) => run('delete', p, () => inner.delete(p)),

    pauseAt(match, options = {}) {
      let onReached!: (c: StorageCall) => void;
      let onRelease!: () => void;
      let onFinished!: () => void;
      const reached = new Promise<StorageCall>((r) => (onReached = r));
      const released = new Promise<void>((r) => (onRelease = r));
      const finished = new Promise<void>((r) => (onFinished = r));
      const rule: Rule = {
        match,
        phase: options.phase ?? 'before',
        skip: options.skip ?? 0,
        done: false,
        act: async (c) => {
          onReached(c);
          await released;
        },
        settled: () => onFinished(),
      };
      rules.push(rule);
      return {
        reached,
        finished,
        release: () => onRelease(),
        get hit() {
          return rule.done;
        },
      };
    },

    failAt(match, options = {}) {
      let onFired!: (c: StorageCall) => void;
      const fired = new Promise<StorageCall>((r) => (onFired = r));
      const phase = options.phase ?? 'before';
      const rule: Rule = {
        match,
        phase,
        skip: options.skip ?? 0,
        done: false,
        more: (options.times ?? 1) - 1,
        act: async (c) => {
          onFired(c);
          throw options.error ?? new LakeletError('STORAGE', `injected fault ${phase} ${c.method} ${c.path}${phase === 'after' ? ' (it took effect; the acknowledgement was lost)' : ''}`, { path: c.path });
        },
      };
      rules.push(rule);
      let fired1 = false;
      const act = rule.act;
      rule.act = (c) => {
        fired1 = true;
        return act(c);
      };
      return {
        fired,
        get hit() {
          return fired1;
        },
      };
    },
  };
  return s;
}
