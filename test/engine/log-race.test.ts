// A log file that a pending merge-on-read writer wrote and then deleted (it lost its conflict) while another
// writer or a reader was about to read it (issue 9, concurrent model seeds MOR 5015, 5031, …): the reader skips
// it (its blocks were uncommitted anyway) instead of failing with NOT_FOUND; a missing log that a completed
// commit wrote is still NOT_FOUND. Driven by pausing storage and a manual clock.
import { describe, expect, test } from 'vitest';
import { createTable, isLakeletError, LakeletError, memoryStorage, openTable, type Storage } from '../../src/index.js';
import { manualClock } from '../../src/engine/clock.js';
import { call, pausingStorage } from '../helpers/pausing-storage.js';

const KEYS = ['k0', 'k1', 'k2', 'k3'];

async function morTable(): Promise<{ raw: Storage; clock: ReturnType<typeof manualClock> }> {
  const raw = memoryStorage();
  const clock = manualClock();
  const table = await createTable(raw, { name: 'm', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], bloomFilter: { numEntries: 100 }, compaction: { inline: false }, clean: { automatic: false } });
  await table.upsert(KEYS.map((id) => ({ id, ts: 1, p: 'x', v: 1 })), { clock });
  clock.advance(1000);
  return { raw, clock };
}

async function values(storage: Storage): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for await (const r of (await openTable(storage)).rows({ columns: ['id', 'v'] })) out[String(r.id)] = Number(r.v);
  return out;
}

async function logFiles(storage: Storage): Promise<string[]> {
  return (await storage.list('p=x', { recursive: true })).filter((f) => f.kind === 'file' && /\.log\./.test(f.path)).map((f) => f.path);
}

const settle = <T>(p: Promise<T>) => p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));

/**
 * Writer A writes a log and is held right after it; writer C commits an update of the same group (so A
 * will lose); then `victim` is started on its own wrapper and held right before it reads A's log; A is
 * released, loses with CONFLICT and deletes its log; the victim goes on.
 */
async function race<T>(victim: (storage: Storage, clock: ReturnType<typeof manualClock>) => Promise<T>) {
  const { raw, clock } = await morTable();
  const a = pausingStorage(raw, 'A');
  const aHeld = a.pauseAt(call(['write', 'writeIfAbsent'], /^p=x\/.*\.log\./), { phase: 'after' });
  const writerA = settle((await openTable(a)).upsert([{ id: 'k1', ts: 2, p: 'x', v: 20 }], { clock }));
  await aHeld.reached;
  const [aLog, ...more] = await logFiles(raw);
  expect(more, 'only A has written a log').toEqual([]);
  clock.advance(1000);
  await (await openTable(raw)).upsert([{ id: 'k2', ts: 3, p: 'x', v: 30 }], { clock });
  clock.advance(1000);
  const v = pausingStorage(raw, 'victim');
  const vHeld = v.pauseAt(call('read', aLog as string));
  const victimRun = settle(victim(v, clock));
  await vHeld.reached;
  aHeld.release();
  const a1 = await writerA;
  expect(a1.ok, 'A lost its conflict with C').toBe(false);
  if (!a1.ok) expect((a1.error as LakeletError).code, String(a1.error)).toBe('CONFLICT');
  expect(await raw.head(aLog as string).catch((err: unknown) => (isLakeletError(err, 'NOT_FOUND') ? 'gone' : err)), 'A deleted its log').toBe('gone');
  vHeld.release();
  return { raw, clock, outcome: await victimRun };
}

describe('a pending writer deletes its log while another actor reads the slice', () => {
  test('a writer skips the deleted uncommitted log and commits', async () => {
    const { raw, outcome } = await race(async (s, clock) => (await openTable(s)).upsert([{ id: 'k3', ts: 4, p: 'x', v: 40 }], { clock }));
    expect(outcome.ok, outcome.ok ? '' : String(outcome.error)).toBe(true);
    expect(await values(raw)).toEqual({ k0: 1, k1: 1, k2: 30, k3: 40 });
  });

  test('a snapshot reader skips the deleted uncommitted log', async () => {
    const { outcome } = await race(values);
    expect(outcome.ok, outcome.ok ? '' : String(outcome.error)).toBe(true);
    if (outcome.ok) expect(outcome.value).toEqual({ k0: 1, k1: 1, k2: 30, k3: 1 });
  });

  test('a missing log that a completed commit wrote is still NOT_FOUND', async () => {
    const { raw, clock } = await morTable();
    await (await openTable(raw)).upsert([{ id: 'k2', ts: 3, p: 'x', v: 30 }], { clock });
    const [log] = await logFiles(raw);
    const reader = pausingStorage(raw, 'reader');
    const held = reader.pauseAt(call('read', log as string));
    const reading = settle(values(reader));
    await held.reached;
    await raw.delete(log as string);
    held.release();
    const outcome = await reading;
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect((outcome.error as LakeletError).code).toBe('NOT_FOUND');
      expect((outcome.error as LakeletError).message).toContain(log as string);
    }
  });
});
