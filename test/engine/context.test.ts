// The engine context (src/engine/context.ts): one upsert loads table state (hoodie.properties + a timeline
// listing) at most twice for the write itself and once more for the post-commit services; reads reuse the
// cached snapshot until a commit; two Tables on one store still see each other's commits.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { engineContext } from '../../src/engine/context.js';
import { registerWorkerFactory } from '../../src/worker/pool.js';
import { generatedKernelBytes, inProcessWorkers } from '../helpers/in-process-workers.js';

const SCHEMA = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }] };
const QUIET = { bloomFilter: { numEntries: 100 }, compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false } };

/** A store that counts reads of `hoodie.properties` and listings of the (layout-1) timeline folder. */
function countingStorage(inner: Storage): Storage & { counts: { properties: number; timelineLists: number }; reset(): void } {
  const counts = { properties: 0, timelineLists: 0 };
  return {
    label: inner.label,
    readOnly: inner.readOnly,
    counts,
    reset() {
      counts.properties = 0;
      counts.timelineLists = 0;
    },
    head: (p) => inner.head(p),
    read(p, range) {
      if (p === '.hoodie/hoodie.properties') counts.properties++;
      return inner.read(p, range);
    },
    write: (p, b) => inner.write(p, b),
    writeIfAbsent: (p, b) => inner.writeIfAbsent(p, b),
    list(prefix, options) {
      if (prefix === '.hoodie' && !options?.recursive) counts.timelineLists++;
      return inner.list(prefix, options);
    },
    delete: (p) => inner.delete(p),
  };
}

async function table(type: 'COPY_ON_WRITE' | 'MERGE_ON_READ') {
  const storage = countingStorage(memoryStorage());
  const t = await createTable(storage, { name: 'ctx', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...QUIET });
  await t.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }, { id: 'b', part: 'y', ts: 1, v: 1 }]);
  storage.reset();
  return { storage, t };
}

async function ids(t: Table): Promise<string[]> {
  const out: string[] = [];
  for await (const r of t.rows({ columns: ['id', 'v'] })) out.push(`${String(r.id)}=${String(r.v)}`);
  return out.sort();
}

describe.each(['COPY_ON_WRITE', 'MERGE_ON_READ'] as const)('engine context on %s', (type) => {
  test('an upsert loads table state once: hoodie.properties read once, the timeline listed at most 5 times', async () => {
    const { storage, t } = await table(type);
    await t.upsert([{ id: 'a', part: 'x', ts: 2, v: 2 }, { id: 'c', part: 'x', ts: 1, v: 3 }]);
    // Before the context: 6 reads of hoodie.properties and 8 timeline listings. Now: one load at the start
    // (properties + timeline); listings that must see the timeline as it is: the new instant's time (under the
    // commit lock), the view's moved-files check, the conflict check (under the lock); and the listing after
    // the commit that the table then shows.
    expect(storage.counts.properties).toBe(1);
    expect(storage.counts.timelineLists).toBeLessThanOrEqual(5);
    expect(t.commits).toHaveLength(2);
    expect(await ids(t)).toEqual(['a=2', 'b=1', 'c=3']);
  });

  test('post-commit services share the write\'s config: no more properties reads, one listing per step', async () => {
    const { storage, t } = await table(type);
    await t.upsert([{ id: 'a', part: 'x', ts: 2, v: 2 }]);
    storage.reset();
    const result = await t.upsert([{ id: 'a', part: 'x', ts: 3, v: 4 }], { compaction: { inline: true, deltaCommits: 1 }, clean: { automatic: true, retainCommits: 1 }, archive: { automatic: true } });
    expect(result.warnings).toEqual([]);
    expect(storage.counts.properties).toBe(1);
    // Before the context: 9 (COW) / 11 (MOR) properties reads. The listings: the write's 3, then one per step
    // that needs the timeline as it is (compaction schedule + its lock + run + commit lock on MOR; clean with its
    // instant request and view check; orphan removal; archival; the table's own).
    expect(storage.counts.timelineLists).toBeLessThanOrEqual(type === 'MERGE_ON_READ' ? 14 : 10);
    if (type === 'MERGE_ON_READ') expect(t.commits.some((c) => c.action === 'commit')).toBe(true); // compacted
    expect(await ids(t)).toEqual(['a=4', 'b=1']);
  });

  test('reads reuse the cached snapshot until a commit', async () => {
    const { storage, t } = await table(type);
    expect(await ids(t)).toEqual(['a=1', 'b=1']);
    storage.reset();
    for (let i = 0; i < 3; i++) {
      expect(await ids(t)).toEqual(['a=1', 'b=1']);
      await t.query({ columns: ['id'] });
      await t.fileSlices();
      await t.avroSchema();
    }
    expect(storage.counts).toEqual({ properties: 0, timelineLists: 0 });
    await t.upsert([{ id: 'b', part: 'y', ts: 2, v: 7 }]);
    storage.reset();
    expect(await ids(t)).toEqual(['a=1', 'b=7']); // the commit replaced the snapshot
    expect(storage.counts.properties).toBe(0);
  });

  test('two Tables on one store see each other\'s commits: refresh() and every write load afresh', async () => {
    const { storage, t: one } = await table(type);
    const two = await openTable(storage);
    await one.upsert([{ id: 'a', part: 'x', ts: 5, v: 50 }]);
    expect(two.commits).toHaveLength(1); // a Table shows the timeline it loaded until refresh()
    await two.refresh();
    expect(two.commits).toHaveLength(2);
    expect(await ids(two)).toEqual(['a=50', 'b=1']);
    // A write starts from fresh state, never from the cache: one's stale snapshot does not hide two's commit.
    await two.upsert([{ id: 'c', part: 'x', ts: 1, v: 3 }]);
    await one.upsert([{ id: 'a', part: 'x', ts: 4, v: 40 }]); // loses to ts 5: the stored row stays
    expect(one.commits).toHaveLength(4);
    expect(await ids(one)).toEqual(['a=50', 'b=1', 'c=3']);
  });
});

describe('engine context pools', () => {
  test('one pool for the table options, with their kernels; other workers or kernels get a pool the write closes', async () => {
    const workers = inProcessWorkers(generatedKernelBytes());
    registerWorkerFactory(workers.factory);
    try {
      const ctx = engineContext(memoryStorage(), { workers: 1, kernels: 'js' });
      const pool = ctx.options.pool;
      expect(pool?.size).toBe(1);
      expect((await pool?.run('kernelsInfo', undefined))?.kind).toBe('js'); // the table's kernels reach its workers
      const same = ctx.writeOptions({ index: 'SIMPLE' });
      expect(same.options.pool).toBe(pool);
      await same.release(); // not the write's to close
      expect((await pool?.run('kernelsInfo', undefined))?.kind).toBe('js');
      for (const perWrite of [{ workers: 2 }, { kernels: 'auto' as const }]) {
        const other = ctx.writeOptions(perWrite);
        expect(other.options.pool).toBeDefined();
        expect(other.options.pool).not.toBe(pool);
        await other.release();
        await expect(other.options.pool?.run('kernelsInfo', undefined)).rejects.toMatchObject({ code: 'ABORTED' });
      }
      await ctx.close();
      await expect(pool?.run('kernelsInfo', undefined)).rejects.toMatchObject({ code: 'ABORTED' });
      expect(ctx.options.pool).not.toBe(pool); // usable after close: a later write starts a new pool
      await ctx.close();
    } finally {
      registerWorkerFactory(undefined);
      workers.close();
    }
  });
});
