// The crash matrix runner: for one operation on one kind of store, run the operation once to count its
// storage calls, then once per call index and fault model on a fresh copy of the table. After each crash
// the table must show exactly the model before or after the operation (checked by crash-oracle.ts), a
// rejection must be the injected fault, a reported failure must not have landed, and the next write must
// succeed, finish the recovery, and leave only committed or allowed files.
import { expect } from 'vitest';
import { Table, type IndexType, type Storage, type TableType, type WriteOptions } from '../../src/index.js';
import { manualClock } from '../../src/engine/clock.js';
import type { StoreKind } from './crash-stores.js';
import { checkInventory, checkReads, checkRecordIndex } from './crash-oracle.js';
import { CrashModel, mrow, type ModelRow } from './crash-model.js';
import { describeError, faultyStorage, isInjectedFault, type FaultModel } from './storage-faults.js';

/** What makes an operation visible, found on the raw timeline. */
export type Effect = 'write' | 'compaction' | 'rollback' | 'savepoint' | 'deleteSavepoint' | 'create';

/** The crash tables' schema; `w` is added by the schema-evolving write. */
export const CRASH_SCHEMA = {
  type: 'record', name: 'r', namespace: 'crash',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: ['null', 'double'], default: null }],
};
/** The schema with the added column. */
export const EVOLVED_SCHEMA = { ...CRASH_SCHEMA, fields: [...CRASH_SCHEMA.fields, { name: 'w', type: ['null', 'string'], default: null }] };

/** Single-writer write options of the crash tables: services off unless a case turns them on. */
export const CRASH_OPTIONS: WriteOptions = {
  bloomFilter: { numEntries: 100 }, rowGroupRows: 2, codec: 'UNCOMPRESSED', compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false }, heartbeatTimeoutMs: 0, workers: 0,
};

/** A row as the table takes it. */
export const input = (r: ModelRow): Record<string, unknown> => ({ id: r.id, part: r.part, ts: r.ts, v: r.v, ...(r.w === undefined ? {} : { w: r.w }) });

/** What a case's setup and operation get. */
export interface CaseEnv {
  /** The table in the unfaulted store (setup only). */
  storage: Storage;
  model: CrashModel;
  options: WriteOptions;
  /** Instants the setup wants the operation to know (e.g. the savepoint to delete). */
  marks: Record<string, string>;
}

/** One crash case. */
export interface CrashCase {
  name: string;
  type: TableType;
  index?: IndexType;
  /** Options of the operation (over CRASH_OPTIONS and the index). */
  options?: WriteOptions;
  /** Create the table and its history in `env.storage`, keeping `env.model` in step (default: {@link standardSetup}). */
  setup?: (env: CaseEnv) => Promise<void>;
  /** The operation: `open` opens the (faulty) store (createTable cases create instead). */
  act: (open: () => Promise<Table>, env: CaseEnv, storage: Storage) => Promise<unknown>;
  effect: Effect;
  /** The model after the operation landed at `instant` (the new completed instant, or the target). */
  apply: (model: CrashModel, instant: string, env: CaseEnv) => void;
  /** Commits older than the newest N may refuse time travel (clean ran). */
  readableCommits?: number;
}

/** The standard history: two commits over partitions x, y, z (MOR: the second one writes a log). */
export async function standardSetup(env: CaseEnv, type: TableType, create: Record<string, unknown> = {}): Promise<Table> {
  const { createTable } = await import('../../src/index.js');
  const table = await createTable(env.storage, { name: 'crash', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: CRASH_SCHEMA, ...env.options, ...create });
  const first = [mrow('a', 'x', 1), mrow('b', 'x', 1), mrow('c', 'y', 1), mrow('d', 'y', 1)];
  env.model.upsert(first, (await table.upsert(first.map(input), env.options)).instant);
  const second = [mrow('d', 'y', 2, 40), mrow('e', 'z', 1, 50)];
  env.model.upsert(second, (await table.upsert(second.map(input), env.options)).instant);
  return table;
}

/** The recovery write after every crash. */
export const NEXT = [mrow('a', 'x', 9, 99), mrow('m', 'z', 1, 7)];

/** Completed instants on the raw timeline, `time.action` (compactions as `time.compaction`). */
export async function completedInstants(storage: Storage): Promise<Set<string>> {
  const names = await timelineFileNames(storage);
  const out = new Set<string>();
  const compactions = new Set(names.filter((n) => n.endsWith('.compaction.requested')).map((n) => n.slice(0, 17)));
  for (const n of names) {
    // Layout 1 `<t>.<action>`, layout 2 (v8/v9) `<t>_<completion>.<action>`.
    const m = /^(\d{17})(?:_\d{17})?\.(commit|deltacommit|replacecommit|savepoint|rollback|clean)$/.exec(n);
    if (m) out.add(`${m[1]}.${m[2] === 'commit' && compactions.has(m[1]!) ? 'compaction' : m[2]}`);
  }
  return out;
}

/** The names in the active timeline's folder: `.hoodie` (layout 1) and `.hoodie/timeline` (layout 2). */
export async function timelineFileNames(storage: Storage): Promise<string[]> {
  const names: string[] = [];
  for (const dir of ['.hoodie', '.hoodie/timeline']) for (const f of await storage.list(dir)) if (f.kind === 'file') names.push(f.path.slice(dir.length + 1));
  return names;
}

const isWrite = (k: string) => /\.(commit|deltacommit|replacecommit)$/.test(k);

/** One run's outcome, for the summary. */
interface Outcome {
  n: number;
  model: FaultModel;
  landed: boolean;
  resolved: boolean;
}

/**
 * Run the matrix for `c` on `kind` with the given fault models. `after`/`lost-ack`/`torn` run only at call
 * indexes whose call changes the store (for reads they equal `before`). Returns the outcomes.
 */
export async function runCrashMatrix(c: CrashCase, kind: StoreKind, models: readonly FaultModel[]): Promise<Outcome[]> {
  const options: WriteOptions = { ...CRASH_OPTIONS, ...(c.index ? { index: c.index } : {}), ...c.options };
  const global = c.index === 'GLOBAL_BLOOM' || c.index === 'GLOBAL_SIMPLE' || c.index === 'IN_MEMORY' || c.index === 'RECORD_INDEX';
  const baseEnv: CaseEnv = { storage: await kind.fresh(), model: new CrashModel(global), options: { ...CRASH_OPTIONS, ...(c.index ? { index: c.index } : {}) }, marks: {} };
  await (c.setup ?? ((env) => standardSetup(env, c.type).then(() => undefined)))(baseEnv);
  const base = baseEnv.storage;
  const env: CaseEnv = { ...baseEnv, options };
  const beforeInstants = c.effect === 'create' ? new Set<string>() : await completedInstants(base);
  const propsBefore = c.effect === 'create' ? undefined : await base.read('.hoodie/hoodie.properties');
  const roBefore = c.effect === 'create' ? [] : await checkReads(base, baseEnv.model, { label: `${c.name}: base table`, type: c.type, readableCommits: c.readableCommits });

  // The fault-free run: its call count and which calls change the store.
  const counting = faultyStorage(await kind.copy(base));
  const methods: string[] = [];
  for (const m of ['head', 'read', 'write', 'writeIfAbsent', 'list', 'delete'] as const) {
    const f = counting[m].bind(counting) as (...a: unknown[]) => Promise<unknown>;
    (counting as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
      methods.push(m);
      return f(...a);
    };
  }
  await c.act(() => Table.open(counting, env.options), env, counting);
  const total = methods.length;
  expect(total, `${c.name}: storage calls`).toBeGreaterThan(0);

  const violations: string[] = [];
  const outcomes: Outcome[] = [];
  for (const model of models) {
    for (let n = 1; n <= total; n++) {
      // For a call without effect (a read), every model equals `before`. For a delete, `after` leaves the
      // state `before` gives at the next call; only `lost-ack` (the writer lives on) adds something there.
      const method = methods[n - 1] ?? '';
      if (model !== 'before' && !['write', 'writeIfAbsent', 'delete'].includes(method)) continue;
      if ((model === 'after' || model === 'torn') && method === 'delete') continue;
      const label = `${c.name} on ${kind.name}, fault ${model} at call ${n}/${total} (${methods[n - 1]})`;
      const raw = await kind.copy(base);
      const faulty = faultyStorage(raw, n, model, { tear: (p, b) => kind.tear(raw, p, b) });
      // A virtual clock: waits (lock back-off, fences) cost no real time, and the recovery can measure them.
      const clock = manualClock(Date.now());
      const runEnv: CaseEnv = { ...env, options: { ...env.options, clock } };
      const result = await c.act(() => Table.open(faulty, runEnv.options), runEnv, faulty).then((value) => ({ ok: true as const, value }), (err: unknown) => ({ ok: false as const, err }));
      if (!result.ok) expect(isInjectedFault(result.err, faulty), `${label}: the failure is not the injected fault: ${describeError(result.err)}`).toBe(true);

      // Did it land?
      const now = await completedInstants(raw);
      const added = [...now].filter((k) => !beforeInstants.has(k)).sort();
      const removed = [...beforeInstants].filter((k) => !now.has(k));
      let landed: boolean;
      let instant: string | undefined;
      if (c.effect === 'write') {
        const w = added.filter((k) => isWrite(k));
        expect(w.length, `${label}: new completed writes ${added.join(',')}`).toBeLessThanOrEqual(1);
        landed = w.length === 1;
        instant = w[0]?.slice(0, 17);
      } else if (c.effect === 'compaction') {
        landed = added.some((k) => k.endsWith('.compaction'));
        instant = added.find((k) => k.endsWith('.compaction'))?.slice(0, 17);
      } else if (c.effect === 'rollback') {
        landed = removed.some((k) => k.startsWith(env.marks.target!));
        instant = env.marks.target;
      } else if (c.effect === 'savepoint') {
        landed = now.has(`${env.marks.target}.savepoint`);
        instant = env.marks.target;
      } else if (c.effect === 'deleteSavepoint') {
        landed = !now.has(`${env.marks.target}.savepoint`);
        instant = env.marks.target;
      } else {
        landed = (await raw.list('.hoodie')).some((f) => f.path === '.hoodie/hoodie.properties');
      }
      outcomes.push({ n, model, landed, resolved: result.ok });

      // The truth: a resolved operation landed; a rejected one did not — unless the writer died with the
      // acknowledgement of its own commit point (then nobody is left to be told).
      const commitPoint = model === 'after' && faulty.failedCall !== undefined && faulty.effectApplied;
      if (result.ok && !landed) violations.push(`${label}: resolved but did not take effect`);
      if (!result.ok && landed && !(commitPoint && landedBy(c.effect, faulty.failedCall!, instant))) {
        violations.push(`${label}: rejected (${describeError(result.err).slice(0, 160)}) although it took effect`);
      }
      if (result.ok && c.effect === 'write' && instant !== undefined) expect((result.value as { instant?: string }).instant, `${label}: reported instant`).toBe(instant);
      if (!landed && propsBefore) expect(new TextDecoder().decode(await raw.read('.hoodie/hoodie.properties')), `${label}: hoodie.properties changed by an operation that did not land`).toBe(new TextDecoder().decode(propsBefore));

      // Everything a reader sees equals the model before or after.
      const expected = baseEnv.model.clone();
      if (landed) c.apply(expected, instant ?? '', env);
      if (c.effect !== 'create' || landed) {
        for (const k of added) if (k.endsWith('.compaction') && c.effect !== 'compaction') expected.compaction(k.slice(0, 17));
        await checkReads(raw, expected, { label: `${label}: after the crash`, type: c.type, readableCommits: c.readableCommits, roBefore: landed ? undefined : roBefore });
      } else {
        expect((await raw.list('', { recursive: true })).map((f) => f.path), `${label}: a failed create leaves nothing`).toEqual([]);
      }

      // Recovery: the next operation succeeds and finishes what the crash left.
      const waitedFrom = clock.now();
      await recover(c, raw, expected, runEnv, label, landed, kind.name === 'node-fs');
      // Single-writer options (timeout 0): every leftover belongs to a dead writer; nothing is waited for.
      if (clock.now() - waitedFrom > 1000) violations.push(`${label}: the recovery waited ${clock.now() - waitedFrom} ms (virtual) on the crash's leftovers`);
      await checkReads(raw, expected, { label: `${label}: after recovery`, type: c.type, readableCommits: c.readableCommits });
      await checkInventory(raw, `${label}: after recovery`, await kind.hidden(raw));
      if (options.index === 'RECORD_INDEX') await checkRecordIndex(raw, expected, `${label}: after recovery`);
    }
  }
  // The matrix crossed the commit point: some crashes left the operation out, some let it land.
  expect(outcomes.filter((o) => o.landed).length, `${c.name} on ${kind.name}: crash points after the commit point`).toBeGreaterThan(0);
  expect(outcomes.filter((o) => !o.landed).length, `${c.name} on ${kind.name}: crash points before the commit point`).toBeGreaterThan(0);
  expect(violations, `${c.name} on ${kind.name}: reported outcomes that are not the truth`).toEqual([]);
  return outcomes;
}

/** Whether the failed call was the one that made the operation visible. */
function landedBy(effect: Effect, call: { method: string; path: string }, instant: string | undefined): boolean {
  if (effect === 'create') return call.path === '.hoodie/hoodie.properties';
  if (instant === undefined) return false;
  // Completed files: `.hoodie/<t>.<action>` (layout 1) or `.hoodie/timeline/<t>_<c>.<action>` (layout 2).
  const completed = /^\.hoodie\/(?:timeline\/)?(\d{17})(?:_\d{17})?\.(commit|deltacommit|replacecommit|savepoint)$/.exec(call.path);
  if (effect === 'rollback') return call.method === 'delete' && (call.path.startsWith(`.hoodie/${instant}.`) || (completed?.[1] === instant));
  if (effect === 'deleteSavepoint') return call.method === 'delete' && completed?.[1] === instant && completed[2] === 'savepoint';
  return (call.method === 'writeIfAbsent' || call.method === 'write') && completed?.[1] === instant;
}

/** The next operation after a crash: finish a service if the case is one, then one upsert (and a clean on node-fs). */
async function recover(c: CrashCase, raw: Storage, model: CrashModel, env: CaseEnv, label: string, landed: boolean, clean: boolean): Promise<void> {
  let table: Table;
  if (c.effect === 'create' && !landed) {
    const { createTable } = await import('../../src/index.js');
    table = await createTable(raw, { name: 'crash', type: c.type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: CRASH_SCHEMA, ...env.options });
  } else {
    table = await Table.open(raw, env.options);
  }
  const before = await completedInstants(raw);
  // A compaction the crash interrupted (or an inline one) is finished by the next compact().
  if (c.effect === 'compaction' || (await timelineFileNames(raw)).some((n) => n.endsWith('.compaction.requested') && !before.has(`${n.slice(0, 17)}.compaction`))) await table.compact(env.options);
  const r = await table.upsert(NEXT.map(input), { ...CRASH_OPTIONS, ...(env.options.index ? { index: env.options.index } : {}), clock: env.options.clock }).catch((err: unknown) => {
    throw new Error(`${label}: the next write failed: ${describeError(err)}`, { cause: err });
  });
  const added = [...(await completedInstants(raw))].filter((k) => !before.has(k)).sort();
  // A rollback the crash interrupted is finished by the next write (its plan was durable).
  if (c.effect === 'rollback' && !landed && !(await completedInstants(raw)).has(`${env.marks.target}.${c.type === 'COPY_ON_WRITE' ? 'commit' : 'deltacommit'}`)) model.rollbackLatest();
  for (const k of added) if (k.endsWith('.compaction')) model.compaction(k.slice(0, 17));
  model.upsert(NEXT, r.instant);
  // A clean the crash interrupted (inline services) is finished by the next clean, as Hudi re-runs a pending plan.
  const names = await timelineFileNames(raw);
  const pendingClean = names.some((n) => /^\d{17}\.clean\.(requested|inflight)$/.test(n) && !names.some((x) => new RegExp(`^${n.slice(0, 17)}(_\\d{17})?\\.clean$`).test(x)));
  if (pendingClean && !clean) await table.clean();
  // Temp files of a writer killed inside writeFile are the cleaner's to remove (they are invisible to the
  // listing, so nothing else finds them).
  if (clean) await table.clean();
}
