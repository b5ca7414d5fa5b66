// Rolling back a pending (crashed) write (reliability finding D2): the default target is the newest pending
// write, never the last good commit; a pending write whose heartbeat is still alive is refused (CONFLICT)
// unless forced; after the heartbeat timeout it is rolled back. Default timeout, manual clock.
import { describe, expect, test } from 'vitest';
import { createTable, isLakeletError, LakeletError, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { manualClock } from '../../src/engine/clock.js';

const SCHEMA = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }] };
const OPTIONS = { bloomFilter: { numEntries: 100 }, compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false } };

/** A store that, once a data file write starts, fails that call and every later one: the writer crashed. */
function crashAtFirstDataWrite(inner: Storage): Storage {
  let crashed = false;
  const guard = <T>(path: string, isWrite: boolean, fn: () => Promise<T>): Promise<T> => {
    if (isWrite && !path.startsWith('.hoodie/')) crashed = true;
    if (crashed) return Promise.reject(new LakeletError('STORAGE', `crashed (${path})`, { path }));
    return fn();
  };
  return {
    label: `crashing(${inner.label})`,
    readOnly: inner.readOnly,
    head: (p) => guard(p, false, () => inner.head(p)),
    read: (p, r) => guard(p, false, () => inner.read(p, r)),
    write: (p, b) => guard(p, true, () => inner.write(p, b)),
    writeIfAbsent: (p, b) => guard(p, true, () => inner.writeIfAbsent(p, b)),
    list: (p, o) => guard(p, false, () => inner.list(p, o)),
    delete: (p) => guard(p, false, () => inner.delete(p)),
  };
}

async function rows(table: Table): Promise<string[]> {
  await table.refresh();
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['id', 'v'] })) out.push(`${r.id}=${r.v}`);
  return out.sort();
}

/** Two good commits, then a write that crashed after its instant went inflight (default heartbeat timeout). */
async function crashedTable() {
  const clock = manualClock();
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 'rb', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...OPTIONS, clock });
  await table.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }, { id: 'b', part: 'x', ts: 1, v: 1 }]);
  clock.advance(1000);
  const good = (await table.upsert([{ id: 'a', part: 'x', ts: 2, v: 2 }])).instant;
  clock.advance(1000);
  const crashing = await openTable(crashAtFirstDataWrite(storage));
  await expect(crashing.upsert([{ id: 'b', part: 'x', ts: 3, v: 3 }], { ...OPTIONS, clock })).rejects.toThrow(/crashed/);
  await table.refresh();
  const pending = table.timeline.find((i) => i.state !== 'COMPLETED');
  if (!pending) throw new Error('the crashed write left no pending instant');
  clock.advance(1000);
  return { clock, storage, table, good, pending: pending.requestedTime };
}

async function filesOf(storage: Storage, instant: string): Promise<string[]> {
  return (await storage.list('', { recursive: true })).map((f) => f.path).filter((p) => p.includes(instant));
}

describe('rollback of a pending write', () => {
  test('within the heartbeat timeout: the default and an explicit rollback are refused, nothing changes', async () => {
    const { storage, table, good, pending } = await crashedTable();
    const before = (await storage.list('', { recursive: true })).map((f) => f.path);
    for (const attempt of [() => table.rollback(), () => table.rollback(pending)]) {
      const err = await attempt().then(() => undefined, (e: unknown) => e);
      expect(isLakeletError(err, 'CONFLICT')).toBe(true);
      expect((err as Error).message).toContain(pending);
    }
    // Rolling back the good commit while a newer write is pending is refused too.
    expect(isLakeletError(await table.rollback(good).then(() => undefined, (e: unknown) => e), 'CONFLICT')).toBe(true);
    expect((await storage.list('', { recursive: true })).map((f) => f.path)).toEqual(before);
    expect(table.commits.map((c) => c.requestedTime)).toContain(good);
    expect(await rows(table)).toEqual(['a=2', 'b=1']);
  });

  test('within the timeout, forced: the pending write is rolled back, the good commit stays', async () => {
    const { storage, table, good, pending } = await crashedTable();
    const result = await table.rollback(pending, { force: true });
    expect(result.rolledBack).toBe(pending);
    expect(table.commits.map((c) => c.requestedTime)).toContain(good);
    expect(table.timeline.filter((i) => i.state !== 'COMPLETED')).toEqual([]);
    expect(await filesOf(storage, pending)).toEqual([]);
    expect(await rows(table)).toEqual(['a=2', 'b=1']);
  });

  test('within the timeout, forced default: the newest pending write is the target', async () => {
    const { table, good, pending } = await crashedTable();
    expect((await table.rollback(undefined, { force: true })).rolledBack).toBe(pending);
    expect(table.commits.map((c) => c.requestedTime)).toContain(good);
    expect(await rows(table)).toEqual(['a=2', 'b=1']);
  });

  test('after the heartbeat timeout: the default rolls back the pending write only, not the good commit', async () => {
    const { clock, storage, table, good, pending } = await crashedTable();
    clock.advance(61_000);
    const result = await table.rollback();
    expect(result.rolledBack).toBe(pending);
    expect(table.commits.map((c) => c.requestedTime)).toContain(good);
    expect(table.timeline.filter((i) => i.action === 'rollback').length).toBe(1);
    expect(table.timeline.filter((i) => i.state !== 'COMPLETED')).toEqual([]);
    expect(await filesOf(storage, pending)).toEqual([]);
    expect(await rows(table)).toEqual(['a=2', 'b=1']);
  });

  test('after the heartbeat timeout: an explicit rollback of the pending write', async () => {
    const { clock, table, good, pending } = await crashedTable();
    clock.advance(61_000);
    expect((await table.rollback(pending)).rolledBack).toBe(pending);
    expect(table.commits.map((c) => c.requestedTime)).toContain(good);
    expect(await rows(table)).toEqual(['a=2', 'b=1']);
  });

  test('without pending writes the default still rolls back the latest commit', async () => {
    const { clock, table, good } = await crashedTable();
    clock.advance(61_000);
    await table.rollback(); // the crashed write
    expect((await table.rollback()).rolledBack).toBe(good);
    expect(await rows(table)).toEqual(['a=1', 'b=1']);
  });
});
