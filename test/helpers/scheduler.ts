// A seeded scheduler at storage-call granularity, for concurrent model-based tests: every actor reaches ONE
// shared store through its own wrapper (and sleeps on its own view of one shared manual clock); each storage
// call and each sleep is a scheduling point that waits until the scheduler, driven by a seeded PRNG, picks
// that actor among the actors waiting. The same seed gives the same interleaving and the same trace.
//
// Quiescence without timers: the scheduler picks only when every live actor is blocked at a scheduling point
// (has a call waiting) or has finished. Actors are sequential at storage-call level (workers: 0, so the
// engine's lanes run one at a time), so "every live actor has a call waiting" is exact; as a guard against an
// actor with parallel branches, the scheduler then lets the event loop turn SETTLE_TURNS times
// (`setImmediate`, which drains every queued microtask first) and picks only if no new call arrived
// meanwhile. An actor that is running (or awaiting a real timer of the engine) is simply waited for: the
// scheduler wakes on the next call or finish, never on a timer of its own.
import type { Clock, FileInfo, Storage } from '../../src/index.js';
import type { ByteRange, ListOptions } from '../../src/storage/storage.js';
import { isLakeletError } from '../../src/index.js';
import { Random } from './random.js';

/** Event-loop turns the scheduler waits, once everyone is blocked, before trusting that state (one turn drains every queued microtask). */
const SETTLE_TURNS = 1;

/** The manual clock the scheduler owns: `advance` moves the shared time. */
export interface SharedClock extends Clock {
  advance(ms: number): void;
}

/** One granted scheduling point: who, what, and how it ended. */
export interface TraceEntry {
  step: number;
  actor: string;
  call: 'head' | 'read' | 'write' | 'writeIfAbsent' | 'list' | 'delete' | 'sleep';
  path: string;
  /** `ok`, `true`/`false` (writeIfAbsent), `n=<count>` (list) or the error code. */
  outcome: string;
  /** Virtual time when the call ran. */
  at: number;
}

/** Options of {@link Scheduler}. */
export interface SchedulerOptions {
  /** Virtual milliseconds every granted call takes (default 1). */
  stepMs?: number;
  /** With this probability per step the call takes no time at all: two actors act in the same millisecond. */
  instantStepProbability?: number;
  /** With this probability per step the clock jumps `jumpMs` first: everyone "paused" that long (default 0). */
  jumpProbability?: number;
  jumpMs?: number;
  /** Record each call's JavaScript call site and attach it to a failing call's error as `callSite` (debugging). */
  callSites?: boolean;
  /** Called with the bytes of every granted write / writeIfAbsent (for oracles that read what was written). */
  onWrite?: (actor: string, path: string, bytes: Uint8Array, created: boolean) => void;
}

interface Waiting {
  call: TraceEntry['call'];
  path: string;
  run: () => Promise<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

interface ActorState {
  name: string;
  queue: Waiting[];
  finished: boolean;
}

/**
 * Interleaves actors over one store. Create it, get each actor's {@link Scheduler.view}, then
 * {@link Scheduler.run} the actors' bodies: it resolves when all have finished (their own errors are theirs
 * to catch; an uncaught one rejects `run` after every actor stopped).
 */
export class Scheduler {
  readonly trace: TraceEntry[] = [];
  private readonly rnd: Random;
  private readonly actors = new Map<string, ActorState>();
  private events = 0;
  private wake: (() => void) | undefined;
  private step = 0;

  constructor(private readonly inner: Storage, seed: number, readonly clock: SharedClock, private readonly options: SchedulerOptions = {}) {
    this.rnd = new Random(seed);
  }

  /** Scheduling points granted so far. */
  get steps(): number {
    return this.step;
  }

  /** The store and clock of actor `name` (every call of either is a scheduling point). */
  view(name: string): { storage: Storage; clock: Clock } {
    const actor = this.actorState(name);
    const inner = this.inner;
    const point = <T>(call: Waiting['call'], path: string, run: () => Promise<T>): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        const site = this.options.callSites ? new Error('call site').stack : undefined;
        const fail = site === undefined ? reject : (err: unknown) => {
          if (err instanceof Error) Object.assign(err, { callSite: site });
          reject(err);
        };
        actor.queue.push({ call, path, run, resolve: resolve as (v: unknown) => void, reject: fail });
        this.notify();
      });
    const onWrite = this.options.onWrite;
    const storage: Storage = {
      // One label per actor: actors stand for separate processes, so Web Locks (keyed by label, where the
      // runtime has them) must not serialise them — that would also deadlock against the scheduler.
      label: `scheduled(${inner.label}) as ${name}`,
      readOnly: inner.readOnly,
      head: (p: string): Promise<FileInfo> => point('head', p, () => inner.head(p)),
      read: (p: string, r?: ByteRange): Promise<Uint8Array> => point('read', r ? `${p}[${r.start},${r.end})` : p, () => inner.read(p, r)),
      write: (p: string, b: Uint8Array): Promise<void> => point('write', p, async () => {
        await inner.write(p, b);
        onWrite?.(name, p, b, true);
      }),
      writeIfAbsent: (p: string, b: Uint8Array): Promise<boolean> => point('writeIfAbsent', p, async () => {
        const created = await inner.writeIfAbsent(p, b);
        onWrite?.(name, p, b, created);
        return created;
      }),
      list: (p: string, o?: ListOptions): Promise<FileInfo[]> => point('list', o?.recursive ? `${p} (recursive)` : p, () => inner.list(p, o)),
      delete: (p: string): Promise<void> => point('delete', p, () => inner.delete(p)),
    };
    const shared = this.clock;
    const clock: Clock = {
      now: () => shared.now(),
      // The commit lock's back-off: a scheduling point that moves virtual time, never a real timer.
      sleep: (ms: number) => point('sleep', String(ms), async () => shared.advance(Math.max(0, ms))),
    };
    return { storage, clock };
  }

  /** Run the actors' bodies concurrently, interleaved at their scheduling points, until all have finished. */
  async run(bodies: Record<string, () => Promise<void>>): Promise<void> {
    const names = Object.keys(bodies);
    for (const n of names) this.actorState(n).finished = false;
    const done = names.map(async (n) => {
      try {
        await (bodies[n] as () => Promise<void>)();
      } finally {
        this.actorState(n).finished = true;
        this.notify();
      }
    });
    const settled = Promise.allSettled(done);
    await this.drive(names);
    const failed = (await settled).find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** The trace as lines, file ids (UUIDs) shown as their order of first appearance. */
  traceLines(): string[] {
    const ids = new Map<string, string>();
    const name = (u: string) => {
      if (!ids.has(u)) ids.set(u, `<id${ids.size}>`);
      return ids.get(u) as string;
    };
    const norm = (s: string) => s.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, name);
    return this.trace.map((t) => `${t.step} @${t.at} ${t.actor} ${t.call} ${norm(t.path)} → ${t.outcome}`);
  }

  private actorState(name: string): ActorState {
    let a = this.actors.get(name);
    if (!a) this.actors.set(name, (a = { name, queue: [], finished: true }));
    return a;
  }

  private notify(): void {
    this.events++;
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  private live(names: readonly string[]): ActorState[] {
    return names.map((n) => this.actorState(n)).filter((a) => !a.finished);
  }

  /** Wait until every live actor is blocked; false when none is live any more. */
  private async quiescent(names: readonly string[]): Promise<boolean> {
    for (;;) {
      const live = this.live(names);
      if (live.length === 0) return false;
      if (live.some((a) => a.queue.length === 0)) {
        await this.changed();
        continue;
      }
      const mark = this.events;
      for (let i = 0; i < SETTLE_TURNS; i++) await new Promise<void>((r) => setImmediate(r));
      if (this.events === mark) return true;
    }
  }

  private async drive(names: readonly string[]): Promise<void> {
    const stepMs = this.options.stepMs ?? 1;
    while (await this.quiescent(names)) {
      const waiting = this.live(names).filter((a) => a.queue.length > 0); // names order: deterministic
      const actor = this.rnd.pick(waiting);
      const w = actor.queue.shift() as Waiting;
      if (this.options.jumpProbability && this.rnd.chance(this.options.jumpProbability)) {
        this.clock.advance(this.options.jumpMs ?? 0);
        this.trace.push({ step: this.step, actor: '-', call: 'sleep', path: `jump ${this.options.jumpMs ?? 0}`, outcome: 'ok', at: this.clock.now() });
      }
      if (!(this.options.instantStepProbability && this.rnd.chance(this.options.instantStepProbability))) this.clock.advance(stepMs);
      const entry: TraceEntry = { step: ++this.step, actor: actor.name, call: w.call, path: w.path, outcome: 'ok', at: this.clock.now() };
      this.trace.push(entry);
      try {
        const value = await w.run();
        if (typeof value === 'boolean') entry.outcome = String(value);
        else if (Array.isArray(value)) entry.outcome = `n=${value.length}`;
        w.resolve(value);
      } catch (err) {
        entry.outcome = isLakeletError(err) ? err.code : String(err);
        w.reject(err);
      }
    }
  }
}

/**
 * Make `crypto.randomUUID` (the engine's file ids and tokens) seeded while `fn` runs: with every other input
 * seeded too, the run — listing orders, file sizes, the interleaving — is the same for the same seed.
 */
export async function withSeededUuids<T>(seed: number, fn: () => Promise<T>): Promise<T> {
  const crypto = globalThis.crypto as Crypto & { randomUUID: () => string };
  const original = crypto.randomUUID;
  const rnd = new Random(seed ^ 0x5eed5eed);
  const hex = (n: number) => Array.from({ length: n }, () => rnd.int(16).toString(16)).join('');
  crypto.randomUUID = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + rnd.int(4)).toString(16)}${hex(3)}-${hex(12)}` as ReturnType<Crypto['randomUUID']>;
  try {
    return await fn();
  } finally {
    crypto.randomUUID = original;
  }
}
