// A writer paused past the heartbeat timeout (reliability finding D6): once another writer rolled it back it
// must never complete — it fails with ABORTED and removes every file it wrote, whether it was paused before
// its instant went inflight or after. Driven by a pausing store and a manual clock (default 60 s timeout).
import { describe, expect, test } from 'vitest';
import { createTable, isLakeletError, memoryStorage, openTable, type Storage, type TableType } from '../../src/index.js';
import { manualClock } from '../../src/engine/clock.js';
import { call, pausingStorage, type CallMatch } from '../helpers/pausing-storage.js';

const SCHEMA = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }] };
const OPTIONS = { bloomFilter: { numEntries: 100 }, compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false } };

const INFLIGHT_FILE = call('write', /^\.hoodie\/\d+\.(deltacommit\.)?inflight$/);
const FIRST_DATA_FILE = call('write', /^part=x\/(?!\.hoodie_partition_metadata)/);

async function rows(storage: Storage): Promise<string[]> {
  const out: string[] = [];
  for await (const r of (await openTable(storage)).rows({ columns: ['id', 'v'] })) out.push(`${r.id}=${r.v}`);
  return out.sort();
}

async function setup(type: TableType) {
  const clock = manualClock();
  const inner = memoryStorage();
  const t = await createTable(inner, { name: 'z', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...OPTIONS, clock });
  await t.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }, { id: 'b', part: 'y', ts: 1, v: 1 }]);
  clock.advance(1000);
  return { clock, inner };
}

/** Start writer W on its own pausing store, held at `where`; returns its outcome and its instant. */
async function pausedWriter(inner: Storage, clock: ReturnType<typeof manualClock>, where: CallMatch) {
  const store = pausingStorage(inner, 'W');
  const pause = store.pauseAt(where);
  const outcome = (await openTable(store)).upsert([{ id: 'a', part: 'x', ts: 2, v: 2 }], { ...OPTIONS, clock }).then(() => 'committed', (e: unknown) => e);
  await pause.reached;
  const pending = (await openTable(inner)).timeline.find((i) => i.state !== 'COMPLETED');
  if (!pending) throw new Error('W has no pending instant');
  return { store, pause, outcome, instant: pending.requestedTime };
}

/** Data files W asked the store to write (partition metadata aside: shared with other writers). */
const dataFilesOf = (store: { calls: readonly { method: string; path: string }[] }) =>
  [...new Set(store.calls.filter((c) => c.method === 'write' && !c.path.startsWith('.hoodie/') && !c.path.endsWith('.hoodie_partition_metadata')).map((c) => c.path))];

async function expectNothingOfW(inner: Storage, instant: string, written: string[]): Promise<void> {
  const paths = (await inner.list('', { recursive: true })).map((f) => f.path);
  expect(paths.filter((p) => p.includes(instant))).toEqual([]);
  expect(written.filter((p) => paths.includes(p))).toEqual([]);
  const t = await openTable(inner);
  expect(t.commits.map((c) => c.requestedTime)).not.toContain(instant);
  expect(t.timeline.filter((i) => i.state !== 'COMPLETED')).toEqual([]);
}

for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
  describe(`${type}: a writer rolled back while paused`, () => {
    for (const [when, where] of [['between .requested and .inflight', INFLIGHT_FILE], ['after .inflight, before its data files', FIRST_DATA_FILE]] as const) {
      test(`${when}: it fails with ABORTED and leaves no files`, async () => {
        const { clock, inner } = await setup(type);
        const w = await pausedWriter(inner, clock, where);
        clock.advance(61_000);
        // Writer X finds W's heartbeat expired and rolls it back, then commits its own write.
        await (await openTable(inner)).upsert([{ id: 'b', part: 'y', ts: 2, v: 2 }], { ...OPTIONS, clock });
        expect((await openTable(inner)).timeline.filter((i) => i.action === 'rollback' && i.state === 'COMPLETED').length).toBe(1);
        w.pause.release();
        const outcome = await w.outcome;
        expect(isLakeletError(outcome, 'ABORTED'), String(outcome)).toBe(true);
        expect((outcome as Error).message).toContain(w.instant);
        await expectNothingOfW(inner, w.instant, dataFilesOf(w.store));
        expect(await rows(inner)).toEqual(['a=1', 'b=2']);
      });
    }

    test('rolled back by a forced rollback while its heartbeat is fresh: ABORTED at commit, no files', async () => {
      const { clock, inner } = await setup(type);
      const w = await pausedWriter(inner, clock, FIRST_DATA_FILE);
      const r = await (await openTable(inner)).rollback(w.instant, { force: true, clock });
      expect(r.rolledBack).toBe(w.instant);
      w.pause.release();
      const outcome = await w.outcome;
      expect(isLakeletError(outcome, 'ABORTED'), String(outcome)).toBe(true);
      await expectNothingOfW(inner, w.instant, dataFilesOf(w.store));
      expect(await rows(inner)).toEqual(['a=1', 'b=1']);
    });

    test('a rollback of it planned but not yet carried out: ABORTED at commit, then the rollback completes', async () => {
      const { clock, inner } = await setup(type);
      const w = await pausedWriter(inner, clock, FIRST_DATA_FILE);
      const xStore = pausingStorage(inner, 'X');
      const xPause = xStore.pauseAt(call('write', /\.rollback\.inflight$/));
      const x = (await openTable(xStore)).rollback(w.instant, { force: true, clock });
      await xPause.reached; // the plan exists; W's files are not deleted yet
      w.pause.release();
      const outcome = await w.outcome;
      expect(isLakeletError(outcome, 'ABORTED'), String(outcome)).toBe(true);
      expect((outcome as Error).message).toMatch(/by rollback \d+/);
      xPause.release();
      expect((await x).rolledBack).toBe(w.instant);
      await expectNothingOfW(inner, w.instant, dataFilesOf(w.store));
      expect(await rows(inner)).toEqual(['a=1', 'b=1']);
    });

    test('paused past the timeout with nobody rolling it back: its own expired heartbeat aborts it', async () => {
      const { clock, inner } = await setup(type);
      const before = (await inner.list('', { recursive: true })).map((f) => f.path);
      const w = await pausedWriter(inner, clock, FIRST_DATA_FILE);
      clock.advance(61_000);
      w.pause.release();
      const outcome = await w.outcome;
      expect(isLakeletError(outcome, 'ABORTED'), String(outcome)).toBe(true);
      await expectNothingOfW(inner, w.instant, dataFilesOf(w.store));
      const after = (await inner.list('', { recursive: true })).map((f) => f.path);
      expect(after).toEqual(before);
      expect(await rows(inner)).toEqual(['a=1', 'b=1']);
    });
  });
}
