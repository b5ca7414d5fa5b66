// Compaction racing a merge-on-read writer (issue 9 item 1, finding D1): every interleaving of a compaction
// (schedule, run, commit) with an upsert's steps ends as a serial order of the actors that succeeded; a loser
// gets CONFLICT and leaves no trace; no committed update is lost. Driven by pausing storage, default
// heartbeat timeout, manual clock.
import { describe, expect, test } from 'vitest';
import { scheduleCompaction } from '../../src/engine/services/compaction.js';
import { runCompaction } from '../../src/engine/services/compaction-run.js';
import { createTable, LakeletError, memoryStorage, Table, type Storage } from '../../src/index.js';
import { manualClock } from '../../src/engine/clock.js';
import { call, pausingStorage, type CallMatch, type Phase } from '../helpers/pausing-storage.js';
import { engineContext } from '../../src/engine/context.js';

const KEYS = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5'];

interface Setup {
  raw: Storage;
  clock: ReturnType<typeof manualClock>;
}

/** A MOR table with base files and a log in its group (v=1, then v=2 for the even keys). */
async function morTable(): Promise<Setup> {
  const raw = memoryStorage();
  const clock = manualClock();
  const table = await createTable(raw, { name: 'm', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], bloomFilter: { numEntries: 100 }, compaction: { inline: false } });
  await table.upsert(KEYS.map((id) => ({ id, ts: 1, p: 'x', v: 1 })), { clock });
  clock.advance(1000);
  await table.upsert(KEYS.filter((_, i) => i % 2 === 0).map((id) => ({ id, ts: 2, p: 'x', v: 2 })), { clock });
  clock.advance(1000);
  return { raw, clock };
}

async function snapshot(storage: Storage): Promise<Record<string, number>> {
  const table = await Table.open(storage);
  const out: Record<string, number> = {};
  for await (const r of table.rows({ columns: ['id', 'v'] })) out[String(r.id)] = Number(r.v);
  return out;
}

/** The message of an actor that lost with CONFLICT. */
function conflictMessage(o: Outcome<unknown>): string {
  expect(o.ok, 'this actor loses').toBe(false);
  if (o.ok) return '';
  expect((o.error as LakeletError).code).toBe('CONFLICT');
  return (o.error as LakeletError).message;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settle = <T>(p: Promise<T>): Promise<Outcome<T>> => p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));

/** The writer's update: every key to v=3. */
const UPDATE = KEYS.map((id) => ({ id, ts: 3, p: 'x', v: 3 }));

/** After the race: the table is one of the serial outcomes, nothing is pending, the loser left nothing. */
async function checkOutcome(raw: Storage, before: Record<string, number>, writer: Outcome<unknown>, compactor: Outcome<unknown>): Promise<void> {
  for (const o of [writer, compactor]) {
    if (!o.ok) {
      expect(o.error).toBeInstanceOf(LakeletError);
      expect(['CONFLICT', 'ABORTED'], String(o.error)).toContain((o.error as LakeletError).code);
    }
  }
  const after = await snapshot(raw);
  const written = Object.fromEntries(KEYS.map((k) => [k, 3]));
  expect(after, 'a serial outcome of the actors that reported success').toEqual(writer.ok ? written : before);
  const table = await Table.open(raw);
  expect(table.timeline.filter((i) => i.state !== 'COMPLETED').map((i) => `${i.requestedTime}.${i.action}`), 'nothing left pending').toEqual([]);
  const files = (await raw.list('', { recursive: true })).map((f) => f.path);
  expect(files.filter((f) => f.startsWith('.hoodie/.temp/') || f.startsWith('.hoodie/.heartbeat/') || f.includes('lakelet-commit')), 'no markers, heartbeats or locks left').toEqual([]);
  // Every log and base file belongs to a completed instant's slice: a reader of the latest slices sees all data.
  const slices = await table.fileSlices();
  const live = new Set(slices.flatMap((s) => [...(s.baseFile ? [s.baseFile.path] : []), ...s.logFiles.map((l) => l.path)]));
  const completedTimes = new Set(table.timeline.filter((i) => i.state === 'COMPLETED').map((i) => i.requestedTime));
  for (const s of slices) expect(completedTimes.has(s.baseInstantTime) || s.baseFile === undefined, `slice base ${s.baseInstantTime} is completed`).toBe(true);
  expect(live.size).toBeGreaterThan(0);
  // A later write and a later compaction work, and keep the outcome.
  await table.upsert([{ id: 'k1', ts: 9, p: 'x', v: 9 }]);
  await table.compact({ force: true });
  expect(await snapshot(raw)).toEqual({ ...after, k1: 9 });
}

interface Race {
  /** Where the writer is held. */
  writerAt: CallMatch;
  phase: Phase;
  /** Matching calls to let through before the held one. */
  writerSkip?: number;
  /** Hold the compaction's `<c>.commit` create until the writer finished (else it runs to its end first). */
  holdCompactionCommit: boolean;
  /** Schedule a plan before the writer starts. */
  planFirst?: boolean;
  /** While the writer is held, let its heartbeat go silent past the (default 60 s) timeout. */
  writerLooksDead?: boolean;
}

async function race(r: Race): Promise<{ writer: Outcome<unknown>; compactor: Outcome<unknown> }> {
  const { raw, clock } = await morTable();
  const before = await snapshot(raw);
  if (r.planFirst) expect(await scheduleCompaction(engineContext(raw), { deltaCommits: 1, logBytes: undefined }, true, { clock })).toBeDefined();
  const ws = pausingStorage(raw, 'writer');
  const cs = pausingStorage(raw, 'compactor');
  const held = ws.pauseAt(r.writerAt, { phase: r.phase, skip: r.writerSkip ?? 0 });
  const commitHeld = r.holdCompactionCommit ? cs.pauseAt(call('writeIfAbsent', /^\.hoodie\/\d+\.commit$/)) : undefined;
  const writer = settle((await Table.open(ws)).upsert(UPDATE, { clock }));
  await Promise.race([held.reached, writer]);
  expect(held.hit, 'the writer reached its pause').toBe(true);
  // The actors take distinct milliseconds (same-millisecond instants of two actions are another matter).
  clock.advance(r.writerLooksDead ? 61_000 : 1);
  const compactor = settle((await Table.open(cs)).compact({ clock, force: true }));
  // The compaction runs while the writer is held: up to its commit create (held), or to its end.
  await (commitHeld ? Promise.race([commitHeld.reached, compactor]) : compactor);
  held.release();
  const w = await writer;
  commitHeld?.release();
  const c = await compactor;
  await checkOutcome(raw, before, w, c);
  return { writer: w, compactor: c };
}

describe('compaction racing a merge-on-read writer', () => {
  test('D1: compaction scheduled and run after the writer\'s inflight, committed after the writer: no lost update', async () => {
    const { writer, compactor } = await race({ writerAt: call('write', /\.deltacommit\.inflight$/), phase: 'after', holdCompactionCommit: true });
    expect(writer.ok).toBe(true);
    expect(conflictMessage(compactor)).toMatch(/^compaction: write \d{17} \(deltacommit\) is still in progress/);
  });

  test('compaction during the writer\'s log write, committed after the writer', async () => {
    const { writer, compactor } = await race({ writerAt: call('write', /^p=x\/\..*\.log\./), phase: 'after', holdCompactionCommit: true });
    expect(writer.ok).toBe(true);
    expect(conflictMessage(compactor)).toMatch(/is still in progress/);
  });

  test('compaction between the writer\'s requested and inflight instants', async () => {
    const { writer, compactor } = await race({ writerAt: call('writeIfAbsent', /\.deltacommit\.requested$/), phase: 'after', holdCompactionCommit: false });
    expect(writer.ok).toBe(true);
    expect(conflictMessage(compactor)).toMatch(/is still in progress/);
  });

  test('compaction completed before the writer requests its instant (it loaded the table before the plan)', async () => {
    const { writer, compactor } = await race({ writerAt: call('writeIfAbsent', /\.deltacommit\.requested$/), phase: 'before', holdCompactionCommit: false });
    expect(compactor.ok).toBe(true);
    expect(conflictMessage(writer)).toMatch(/^commit: instant \d{17} conflicts with (compaction )?\d{17}/);
  });

  test('compaction while the writer waits for the commit lock', async () => {
    // The writer takes the lock twice: to request its instant, then to commit (held there).
    const { writer, compactor } = await race({ writerAt: call('writeIfAbsent', /\.hoodie\/\.lakelet-commit\.lock$/), phase: 'before', writerSkip: 1, holdCompactionCommit: false });
    expect(writer.ok).toBe(true);
    expect(conflictMessage(compactor)).toMatch(/is still in progress/);
  });

  test('plan made after the writer loaded the table, still pending when the writer commits: the writer loses on the plan', async () => {
    const { writer, compactor } = await race({ writerAt: call('writeIfAbsent', /\.deltacommit\.requested$/), phase: 'before', holdCompactionCommit: true });
    expect(compactor.ok).toBe(true);
    expect(conflictMessage(writer)).toMatch(/^commit: instant \d{17} conflicts with compaction \d{17}, planned meanwhile for the same file group p=x\//);
  });

  test('a writer silent past the heartbeat timeout: the plan leaves its log out, and the writer then fails', async () => {
    const { writer, compactor } = await race({ writerAt: call('write', /^p=x\/\..*\.log\./), phase: 'after', holdCompactionCommit: false, writerLooksDead: true });
    expect(compactor.ok).toBe(true);
    expect(writer.ok).toBe(false);
  });

  test('a writer silent past the timeout, compaction committed after it: the writer fails, the compaction lands', async () => {
    const { writer, compactor } = await race({ writerAt: call('write', /\.deltacommit\.inflight$/), phase: 'after', holdCompactionCommit: true, writerLooksDead: true });
    expect(compactor.ok).toBe(true);
    expect(writer.ok).toBe(false);
  });

  test('plan pending before the writer starts: the writer logs on top of it, compaction commits during the writer', async () => {
    const { writer, compactor } = await race({ writerAt: call('write', /^p=x\/\..*\.log\./), phase: 'after', holdCompactionCommit: false, planFirst: true });
    expect(writer.ok && compactor.ok).toBe(true);
  });

  test('plan pending before the writer starts, compaction committed after the writer', async () => {
    const { writer, compactor } = await race({ writerAt: call('write', /\.deltacommit\.inflight$/), phase: 'after', holdCompactionCommit: true, planFirst: true });
    expect(writer.ok && compactor.ok).toBe(true);
  });

  test('inline compaction after another write skips quietly while this writer is live, and nothing is lost', async () => {
    const { raw, clock } = await morTable();
    const ys = pausingStorage(raw, 'writer');
    const held = ys.pauseAt(call('write', /\.deltacommit\.inflight$/), { phase: 'after' });
    const y = settle((await Table.open(ys)).upsert(UPDATE, { clock }));
    await Promise.race([held.reached, y]);
    clock.advance(1);
    // X writes a new partition and its inline compaction is due: it must not plan over Y's group.
    const x = await (await Table.open(raw)).upsert([{ id: 'n1', ts: 1, p: 'y', v: 7 }], { clock, compaction: { inline: true, deltaCommits: 1 } });
    expect(x.stats.inserted).toBe(1);
    expect((await Table.open(raw)).timeline.filter((i) => i.action === 'compaction' || (i.action === 'commit' && i.state === 'COMPLETED'))).toEqual([]);
    held.release();
    expect((await y).ok).toBe(true);
    const expected = { ...Object.fromEntries(KEYS.map((k) => [k, 3])), n1: 7 };
    expect(await snapshot(raw)).toEqual(expected);
    expect(await (await Table.open(raw)).compact({ clock })).toHaveLength(1);
    expect(await snapshot(raw)).toEqual(expected);
  });

  test('two runners of one plan: the second is refused while the first is live; a crashed run is taken over after the timeout', async () => {
    const { raw, clock } = await morTable();
    const options = { codec: 'GZIP' as const, rowGroupRows: 1000, bloomFilter: { numEntries: 100 }, clock };
    const planned = (await scheduleCompaction(engineContext(raw), { deltaCommits: 1, logBytes: undefined }, true, { clock }))!;
    const before = await snapshot(raw);
    // Runner A writes its new base file, then is held.
    const as = pausingStorage(raw, 'a');
    const held = as.pauseAt(call('write', new RegExp(`^p=x/[^/]*_${planned}\\.parquet$`)), { phase: 'after' });
    const a = settle(runCompaction(engineContext(as), planned, options));
    await Promise.race([held.reached, a]);
    expect(held.hit).toBe(true);
    const b = await settle(runCompaction(engineContext(raw), planned, options));
    expect(conflictMessage(b)).toMatch(new RegExp(`^compaction: ${planned} is being run by another writer`));
    // A's file is intact (B did not start over on it); A completes.
    held.release();
    expect((await a).ok).toBe(true);
    expect(await snapshot(raw)).toEqual(before);
    // A run that crashes after its claim: within the timeout it is left alone, after it the next run takes over.
    await (await Table.open(raw)).upsert([{ id: 'k1', ts: 5, p: 'x', v: 5 }], { clock });
    const next = (await scheduleCompaction(engineContext(raw), { deltaCommits: 1, logBytes: undefined }, true, { clock }))!;
    const dying = pausingStorage(raw, 'dying');
    dying.failAt(call('write', /\.parquet$/), { times: Infinity });
    expect((await settle(runCompaction(engineContext(dying), next, options))).ok).toBe(false);
    await raw.write(`.hoodie/.heartbeat/${next}`, new TextEncoder().encode(String(clock.now()))); // died before its cleanup
    expect(await (await Table.open(raw)).compact({ clock })).toEqual([]);
    clock.advance(61_000);
    expect((await (await Table.open(raw)).compact({ clock })).map((r) => r.instant)).toEqual([next]);
    expect(await snapshot(raw)).toEqual({ ...before, k1: 5 });
    expect((await raw.list('.hoodie/.heartbeat')).length).toBe(0);
  });
});
