// One seeded run of the concurrent model-based test (issue 9): two writers and a table-service runner on one
// table, interleaved at storage-call granularity by test/helpers/scheduler.ts (a shared manual clock that
// moves 0-1 ms per call and, in some seeds, jumps past the heartbeat timeout: a writer "paused" that long),
// then, after a recovery write past every timeout, checked against the writes that reported success.
//
// Workload: each writer upserts only the keys it owns (w1 the even ones, w2 the odd ones) and inserts fresh
// keys of its own; deletes and overwrites reach every key. Hudi's concurrency control is file-level OCC
// (hudi.apache.org/docs/concurrency_control: writers whose changed files do not overlap both succeed), so two
// writers inserting the same new key into two new file groups both succeed and leave a duplicate, in Hudi as
// here; the workload therefore never has two writers create one key.
// Checks: the snapshot equals a serial order of the successful writes (`serialOrders`), no duplicate keys,
// every success created its completed instant and was never rolled back, no failure left a commit, no
// instant time requested by two actions, nothing pending after recovery (no wedged plan: the final
// compaction succeeds), no commit lock left behind, and actors fail only with CONFLICT or ABORTED.
import { LakeletError, Table, createTable, isLakeletError, memoryStorage, openTable, type TableType, type WriteOptions, type WriteResult } from '../../src/index.js';
import { manualClock } from '../../src/engine/clock.js';
import { parseRollbackPlan } from '../../src/timeline/rollback-metadata.js';
import { Random } from './random.js';
import { Scheduler, withSeededUuids } from './scheduler.js';
import { INDEXES, SCHEMA, Sequence, canon, snapshot, type Model, type Row } from './table-model.js';

/** Partitions and the shared record keys: writer `w1` owns the even keys, `w2` the odd ones. */
const PARTS = ['p0', 'p1'];
const KEYS = Array.from({ length: 8 }, (_, i) => `k${i}`);
const HEARTBEAT_TIMEOUT_MS = 60_000;
const ACCEPTED_FAILURES = new Set(['CONFLICT', 'ABORTED']);

/** One operation of an actor: what it does to the table and to the model, and how it ended. */
interface ActorOp {
  actor: string;
  label: string;
  /** Data writes change the model; services (compact, clean, archive) must not. */
  apply?: (s: Sequence) => void;
  run: (t: Table) => Promise<unknown>;
  /** A failure code this operation may end with besides CONFLICT and ABORTED (savepoint: the latest commit already is one). */
  accepts?: string;
  start: number;
  end: number;
  outcome?: { ok: true; instant?: string } | { ok: false; code: string; message: string };
}

/** What a run saw, for assertions across runs. */
export interface ConcurrentRunResult {
  seed: number;
  type: TableType;
  /** Problems found (empty: the run passed). */
  problems: string[];
  trace: string[];
  outcomes: string[];
  /** Data writes that succeeded / failed with CONFLICT or ABORTED; services that succeeded. */
  succeeded: number;
  conflicts: number;
  services: number;
  /** Was the completion order of the commits one of the serial orders that explain the table? */
  completionOrderMatched: boolean;
  /** Pairs of successful writes of the two writers that overlapped in time (both committed concurrently). */
  overlapping: number;
}

const row = (rnd: Random, id: string): Row => ({ id, part: rnd.pick(PARTS), ts: BigInt(rnd.int(6)), val: rnd.chance(0.2) ? null : rnd.int(1000) / 4, name: rnd.chance(0.2) ? null : `n${rnd.int(50)}` });

/** A writer's random short sequence: upserts of its own keys, inserts of fresh keys, deletes of any key, overwrites. */
function writerOps(actor: string, rnd: Random, owned: string[]): ActorOp[] {
  let fresh = 0;
  const freshId = () => `${actor}f${fresh++}`;
  const ops: ActorOp[] = [];
  for (let n = 2 + rnd.int(3); n > 0; n--) {
    const what = rnd.next();
    const op = { actor, start: 0, end: 0 };
    if (what < 0.45) {
      const batch = Array.from({ length: 1 + rnd.int(4) }, () => row(rnd, rnd.pick(owned)));
      ops.push({ ...op, label: `upsert ${batch.map((r) => `${r.part}/${r.id}@${r.ts}`).join(',')}`, apply: (s) => s.upsert(batch), run: (t) => t.upsert(batch) });
    } else if (what < 0.65) {
      const batch = Array.from({ length: 1 + rnd.int(3) }, () => row(rnd, freshId()));
      ops.push({ ...op, label: `insert ${batch.map((r) => `${r.part}/${r.id}`).join(',')}`, apply: (s) => s.insert(batch), run: (t) => t.insert(batch) });
    } else if (what < 0.87) {
      const ids = [...new Set(Array.from({ length: 1 + rnd.int(3) }, () => rnd.pick(KEYS)))];
      ops.push({ ...op, label: `delete ${ids.join(',')}`, apply: (s) => s.deleteKeys(ids), run: (t) => t.delete(ids) });
    } else {
      const part = rnd.pick(PARTS);
      const batch = Array.from({ length: rnd.int(3) }, () => ({ ...row(rnd, freshId()), part }));
      ops.push({ ...op, label: `insertOverwrite ${part} with ${batch.map((r) => r.id).join(',')}`, apply: (s) => s.overwrite(batch, [part]), run: (t) => t.insertOverwrite(batch, { partitions: [`part=${part}`] }) });
    }
  }
  return ops;
}

/** The table-service runner's sequence: compaction (merge-on-read), savepoint (of the latest commit), clean, archive. */
function serviceOps(rnd: Random, type: TableType, clock: { now(): number }): ActorOp[] {
  const ops: ActorOp[] = [];
  for (let n = 2 + rnd.int(3); n > 0; n--) {
    const what = rnd.next();
    const op = { actor: 'svc', start: 0, end: 0 };
    if (type === 'MERGE_ON_READ' && what < 0.45) {
      ops.push({ ...op, label: 'compact', run: (t) => t.compact() });
    } else if (what < 0.6 && what >= 0.45) {
      ops.push({ ...op, label: 'savepoint', accepts: 'ALREADY_EXISTS', run: (t) => t.savepoint({ now: new Date(clock.now()) }) });
    } else if (what < 0.8) {
      const retainCommits = 1 + rnd.int(3);
      ops.push({ ...op, label: `clean retain ${retainCommits}`, run: (t) => t.clean({ retainCommits, now: new Date(clock.now()) }) });
    } else {
      const keepMinCommits = 2 + rnd.int(2);
      ops.push({ ...op, label: `archive ${keepMinCommits}`, run: (t) => t.archive({ keepMinCommits, keepMaxCommits: keepMinCommits + 1 }) });
    }
  }
  return ops;
}

/**
 * The serial orders that may explain the table: every merge of the two writers' chains of successful writes
 * (each writer's own order kept) in which a write that finished before another started comes first. Two
 * writes that overlapped in time and both succeeded touched disjoint file groups (Hudi's file-level OCC), but
 * each was planned on its own snapshot — a delete that found no row, an overwrite that did not see a new file
 * group — so their serial order is the snapshot order, which is not always the completion order.
 */
export function serialOrders<T extends { start: number; end: number }>(a: readonly T[], b: readonly T[]): T[][] {
  const out: T[][] = [];
  const walk = (i: number, j: number, acc: T[]) => {
    if (i === a.length && j === b.length) return void out.push([...acc]);
    // Next from a: only if b's next did not finish before it started (that one must come first).
    if (i < a.length && !(j < b.length && (b[j] as T).end <= (a[i] as T).start)) walk(i + 1, j, [...acc, a[i] as T]);
    if (j < b.length && !(i < a.length && (a[i] as T).end <= (b[j] as T).start)) walk(i, j + 1, [...acc, b[j] as T]);
  };
  walk(0, 0, []);
  return out;
}

/** The innermost engine frames of an error's stack (`src/…:line`), to say where an unexpected failure came from. */
function engineFrames(err: unknown): string {
  const frames = String((err as { callSite?: string })?.callSite ?? (err as Error)?.stack ?? '').split('\n').map((l) => /\/(src\/[^:)]+:\d+)/.exec(l)?.[1]).filter((f): f is string => f !== undefined && !f.startsWith('src/storage/'));
  return frames.slice(0, 4).join(' < ') || 'unknown';
}

function modelOf(initial: Model, global: boolean, ops: readonly ActorOp[]): Model {
  const s = new Sequence(new Random(0), global);
  s.model = new Map(initial);
  for (const op of ops) op.apply?.(s);
  return s.model;
}

/** Run one seed; returns the problems found (none: the table is explained by the successful writes). */
export function runConcurrent(seed: number, type: TableType, options: { callSites?: boolean } = {}): Promise<ConcurrentRunResult> {
  return withSeededUuids(seed, () => runSeed(seed, type, options.callSites ?? false));
}

async function runSeed(seed: number, type: TableType, callSites: boolean): Promise<ConcurrentRunResult> {
  const rnd = new Random(seed);
  const index = rnd.pick(INDEXES);
  const global = index === 'GLOBAL_BLOOM' || index === 'GLOBAL_SIMPLE' || index === 'IN_MEMORY' || index === 'RECORD_INDEX';
  const clock = manualClock(Date.UTC(2026, 0, 1));
  const base = memoryStorage();
  const options: WriteOptions = {
    index, workers: 0, retryOnConflict: 0, heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS, bloomFilter: { numEntries: 100 },
    rowGroupRows: 1 + rnd.int(4), smallFileLimit: rnd.chance(0.5) ? 1 : 2 * 1024 * 1024,
    compaction: { inline: type === 'MERGE_ON_READ' && rnd.chance(0.3), deltaCommits: 2 + rnd.int(3) },
    clean: { automatic: rnd.chance(0.25), retainCommits: 1 + rnd.int(3) },
    archive: { automatic: rnd.chance(0.2), keepMinCommits: 2, keepMaxCommits: 3 + rnd.int(2) },
  };
  const defaults = (c: WriteOptions['clock']): WriteOptions => ({ ...options, clock: c });
  const tableDefaults = defaults(clock);
  const created = await createTable(base, { name: `conc_${seed}`, type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...tableDefaults });
  // Two serial writes first: base files, and (merge-on-read) log files on them.
  const setup = new Sequence(new Random(0), global);
  for (let i = 0; i < 2; i++) {
    const batch = (i === 0 ? KEYS : KEYS.filter(() => rnd.chance(0.5))).map((id) => row(rnd, id));
    await created.upsert(batch);
    setup.upsert(batch);
  }
  const initial = new Map(setup.model);
  const jumps = rnd.chance(0.3);
  const events: { actor: string; step: number; path: string; created: boolean; bytes: Uint8Array }[] = [];
  const sched: Scheduler = new Scheduler(base, seed, clock, {
    callSites,
    jumpProbability: jumps ? 0.01 : 0, jumpMs: HEARTBEAT_TIMEOUT_MS + 1, instantStepProbability: 0.3,
    onWrite: (actor, path, bytes, made) => events.push({ actor, step: sched.steps, path, created: made, bytes }),
  });
  const plans: Record<string, ActorOp[]> = {
    w1: writerOps('w1', new Random(seed * 31 + 1), KEYS.filter((_, i) => i % 2 === 0)),
    w2: writerOps('w2', new Random(seed * 31 + 2), KEYS.filter((_, i) => i % 2 === 1)),
    svc: serviceOps(new Random(seed * 31 + 3), type, clock),
  };
  const problems: string[] = [];
  const bodies: Record<string, () => Promise<void>> = {};
  for (const [name, ops] of Object.entries(plans)) {
    const view = sched.view(name);
    bodies[name] = async () => {
      let table: Table | undefined;
      for (const op of ops) {
        op.start = sched.steps;
        try {
          table ??= await Table.open(view.storage, defaults(view.clock));
          const r = await op.run(table);
          op.outcome = { ok: true, instant: op.apply ? (r as WriteResult).instant : undefined };
        } catch (err) {
          if (!(err instanceof LakeletError)) problems.push(`${name} ${op.label}: not a LakeletError: ${String((err as Error)?.stack ?? err)}`);
          op.outcome = { ok: false, code: isLakeletError(err) ? err.code : 'BUG', message: String((err as Error)?.message ?? err) };
          if (!isLakeletError(err) || !(ACCEPTED_FAILURES.has(err.code) || err.code === op.accepts)) problems.push(`${name} ${op.label}: unexpected failure ${op.outcome.code}: ${op.outcome.message} (at ${engineFrames(err)})`);
        }
        op.end = sched.steps;
      }
    };
  }
  await sched.run(bodies);

  const allOps = Object.values(plans).flat();
  const outcomes = allOps.map((o) => `${o.actor} ${o.label} [${o.start}..${o.end}] → ${o.outcome?.ok ? `ok ${o.outcome.instant ?? ''}` : `${o.outcome?.code} ${o.outcome?.message}`}`);
  const empty: ConcurrentRunResult = {
    seed, type, problems, trace: sched.traceLines(), outcomes,
    succeeded: allOps.filter((o) => o.apply && o.outcome?.ok).length,
    conflicts: allOps.filter((o) => o.apply && !o.outcome?.ok).length,
    services: allOps.filter((o) => !o.apply && o.outcome?.ok).length,
    completionOrderMatched: false,
    overlapping: 0,
  };

  // Recovery: past every heartbeat timeout, one more write rolls back what is left pending; a compaction
  // must then succeed (no wedged plan), and every instant must be completed.
  clock.advance(2 * HEARTBEAT_TIMEOUT_MS + 1);
  const finalRow: Row = { id: 'zfinal', part: 'p0', ts: 0n, val: 1, name: 'final' };
  const final = await Table.open(base, tableDefaults);
  try {
    await final.upsert([finalRow]);
    if (type === 'MERGE_ON_READ') await final.compact();
  } catch (err) {
    problems.push(`recovery write / compaction failed: ${String((err as Error)?.message ?? err)}`);
  }
  const reopened = await openTable(base).catch((err: unknown) => err as Error);
  if (reopened instanceof Error) return { ...empty, problems: [...problems, `the table does not open after recovery: ${reopened.message}`] };
  const pending = reopened.timeline.filter((i) => i.state !== 'COMPLETED').map((i) => i.fileName);
  if (pending.length > 0) problems.push(`instants left pending after recovery: ${pending.join(', ')}`);
  if ((await base.list('.hoodie')).some((f) => f.path.endsWith('.lakelet-commit.lock'))) problems.push('the commit lock is still held after recovery');

  // The truth of every report, from what reached the store.
  const compactions = new Set(events.filter((e) => e.created && /\.compaction\.requested$/.test(e.path)).map((e) => e.path.slice(8, 25)));
  const rolledBack = new Map<string, string>();
  for (const e of events) {
    if (!/\.rollback\.requested$/.test(e.path)) continue;
    try {
      rolledBack.set(parseRollbackPlan(e.bytes, e.path).instantToRollback.commitTime, `${e.actor}@${e.step}`);
    } catch {
      problems.push(`unreadable rollback plan ${e.path}`);
    }
  }
  // An instant time names one instant: two actions requesting the same time is a broken timeline.
  const requested = new Map<string, Map<string, string>>();
  for (const e of events) {
    const m = /^\.hoodie\/(\d{17})\.(\w+)\.requested$/.exec(e.path);
    if (m && e.created) {
      const byAction = requested.get(m[1] as string) ?? new Map<string, string>();
      if (!byAction.has(m[2] as string)) byAction.set(m[2] as string, `${m[2]} by ${e.actor}@${e.step}`);
      requested.set(m[1] as string, byAction);
    }
  }
  for (const [t, by] of requested) if (by.size > 1) problems.push(`instant time ${t} was requested twice: ${[...by.values()].join(', ')}`);
  const completedFiles = events.filter((e) => e.created && /^\.hoodie\/\d{17}\.(commit|deltacommit|replacecommit)$/.test(e.path));
  // Data commits: a compaction's `<c>.commit` is not one.
  const commits = completedFiles.filter((e) => !(e.path.endsWith('.commit') && compactions.has(e.path.slice(8, 25))));
  for (const op of allOps.filter((o) => o.apply)) {
    const o = op.outcome;
    if (o?.ok) {
      if (!completedFiles.some((c) => c.actor === op.actor && c.path.slice(8, 25) === o.instant)) problems.push(`${op.actor} ${op.label}: reported success at ${o.instant} but never created its completed instant`);
      const by = o.instant === undefined ? undefined : rolledBack.get(o.instant);
      if (by) problems.push(`${op.actor} ${op.label}: reported success at ${o.instant}, but ${by} rolled that instant back`);
    } else {
      const landed = commits.filter((c) => c.actor === op.actor && c.step > op.start && c.step <= op.end && !rolledBack.has(c.path.slice(8, 25)));
      if (landed.length > 0) problems.push(`${op.actor} ${op.label}: reported ${o?.ok === false ? o.code : 'nothing'} but its commit ${landed.map((c) => c.path).join(', ')} landed`);
    }
  }

  // The table against the serial orders of the successful writes.
  const actual = await snapshot(reopened).catch((err: unknown) => err as Error);
  if (actual instanceof Error) return { ...empty, problems: [...problems, `the table cannot be read after recovery: ${actual.message}`] };
  const keyOf = (r: string) => (global ? r.split('|')[1] : r.split('|').slice(0, 2).join('|'));
  const dupes = actual.map(keyOf).filter((k, i, all) => all.indexOf(k) !== i);
  if (dupes.length > 0) problems.push(`duplicate keys: ${dupes.join(', ')}`);
  const chain = (a: string) => (plans[a] as ActorOp[]).filter((o) => o.apply && o.outcome?.ok);
  const finalOp: ActorOp = { actor: 'final', label: 'final upsert', apply: (s) => s.upsert([finalRow]), run: async () => undefined, start: 0, end: 0 };
  const orders = serialOrders(chain('w1'), chain('w2'));
  const matches = orders.filter((order) => JSON.stringify(canon(modelOf(initial, global, [...order, finalOp]).values())) === JSON.stringify(actual));
  const completionStep = (op: ActorOp) => commits.find((c) => op.outcome?.ok && c.path.slice(8, 25) === op.outcome.instant)?.step ?? Infinity;
  const byCompletion = [...chain('w1'), ...chain('w2')].sort((x, y) => completionStep(x) - completionStep(y));
  const completionOrderMatched = JSON.stringify(canon(modelOf(initial, global, [...byCompletion, finalOp]).values())) === JSON.stringify(actual);
  if (matches.length === 0) {
    const expected = new Set(canon(modelOf(initial, global, [...byCompletion, finalOp]).values()));
    const got = new Set(actual);
    problems.push(`the table matches no serial order of the ${byCompletion.length} successful writes (${orders.length} orders tried); against the completion order: missing ${[...expected].filter((r) => !got.has(r)).join(' ')}; unexpected ${actual.filter((r) => !expected.has(r)).join(' ')}`);
  }
  const overlapping = chain('w1').reduce((n, a) => n + chain('w2').filter((b) => a.start < b.end && b.start < a.end).length, 0);
  return { ...empty, completionOrderMatched, overlapping };
}
