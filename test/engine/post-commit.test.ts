// The truth after a commit (reliability finding D3): once the completed instant exists the write has
// succeeded — post-commit services (inline compaction, clean, record-index update) that fail become warnings
// on the result, the write resolves, it is committed exactly once and never re-run by the conflict retry. A
// write that did not commit rejects and leaves nothing behind.
import { describe, expect, test } from 'vitest';
import { createTable, isLakeletError, LakeletError, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { call, pausingStorage } from '../helpers/pausing-storage.js';

const SCHEMA = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }] };
const QUIET = { bloomFilter: { numEntries: 100 }, compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false } };

async function rowsOf(storage: Storage, part?: string): Promise<string[]> {
  const t = await openTable(storage);
  const out: string[] = [];
  for await (const r of t.rows({ columns: ['id', 'v'], ...(part !== undefined && { filters: [`part = '${part}'`] }) })) out.push(`${r.id}=${r.v}`);
  return out.sort();
}

const completed = (t: Table) => t.commits.map((c) => c.requestedTime);

/** A merge-on-read table with a base file and a log in partition x, then x's base file truncated. */
async function morWithCorruptBase(): Promise<Storage> {
  const storage = memoryStorage();
  const t = await createTable(storage, { name: 'pc', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...QUIET });
  await t.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }, { id: 'b', part: 'x', ts: 1, v: 1 }]);
  await t.upsert([{ id: 'a', part: 'x', ts: 2, v: 2 }]);
  const base = (await storage.list('part=x')).find((f) => f.path.endsWith('.parquet'));
  if (!base) throw new Error('no base file in part=x');
  await storage.write(base.path, (await storage.read(base.path)).slice(0, 100));
  return storage;
}

describe('post-commit services that fail are warnings of a committed write', () => {
  test('inline compaction hits a corrupt base file in another group: the insert resolves, committed once', async () => {
    const storage = await morWithCorruptBase();
    const t = await openTable(storage);
    const before = completed(t).length;
    const result = await t.insert([{ id: 'y1', part: 'y', ts: 1, v: 10 }, { id: 'y2', part: 'y', ts: 1, v: 20 }], { ...QUIET, compaction: { inline: true, deltaCommits: 3 } });
    expect(result.stats.inserted).toBe(2);
    expect(result.warnings).toEqual([expect.objectContaining({ service: 'compaction', code: 'CORRUPT_FILE' })]);
    expect(result.warnings[0]?.message).toMatch(/cannot read footer.* in part=x\//);
    await t.refresh();
    expect(completed(t)).toContain(result.instant);
    expect(completed(t).length).toBe(before + 1);
    // Exactly once: no retry is needed, and none happened.
    expect(await rowsOf(storage, 'y')).toEqual(['y1=10', 'y2=20']);
  });

  test('a store whose deletes fail makes clean fail: the upsert resolves with a clean warning', async () => {
    const inner = memoryStorage();
    const t0 = await createTable(inner, { name: 'pc', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...QUIET });
    for (let i = 1; i <= 3; i++) await t0.upsert([{ id: 'a', part: 'x', ts: i, v: i }]);
    const storage = pausingStorage(inner);
    storage.failAt(call('delete', /\.parquet$/));
    const t = await openTable(storage);
    const result = await t.upsert([{ id: 'a', part: 'x', ts: 9, v: 9 }], { ...QUIET, clean: { automatic: true, retainCommits: 1 } });
    expect(result.warnings).toEqual([expect.objectContaining({ service: 'clean', code: 'STORAGE' })]);
    await t.refresh();
    expect(completed(t)).toContain(result.instant);
    expect(await rowsOf(inner)).toEqual(['a=9']);
  });

  test('a service failing with CONFLICT does not make the conflict retry write the rows again', async () => {
    const good = memoryStorage();
    const t0 = await createTable(good, { name: 'pc', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...QUIET });
    await t0.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }]);
    await t0.upsert([{ id: 'a', part: 'x', ts: 2, v: 2 }]);
    // Scheduling the inline compaction loses a race (CONFLICT) after the write committed.
    const racing = pausingStorage(good);
    racing.failAt(call('writeIfAbsent', /^\.hoodie\/\d+\.compaction\.requested$/), { error: new LakeletError('CONFLICT', 'compaction: injected lost race', {}) });
    const t = await openTable(racing);
    const result = await t.insert([{ id: 'y1', part: 'y', ts: 1, v: 10 }], { ...QUIET, retryOnConflict: 2, compaction: { inline: true, deltaCommits: 3 } });
    expect(result.warnings).toEqual([expect.objectContaining({ service: 'compaction', code: 'CONFLICT' })]);
    await t.refresh();
    expect(t.commits.filter((c) => c.action === 'deltacommit').length).toBe(3);
    expect(await rowsOf(good, 'y')).toEqual(['y1=10']);
  });

  test('the completed instant landed but its acknowledgement was lost: the write resolves', async () => {
    const inner = memoryStorage();
    await createTable(inner, { name: 'pc', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', schema: SCHEMA, ...QUIET });
    const storage = pausingStorage(inner);
    storage.failAt(call('writeIfAbsent', /^\.hoodie\/\d+\.commit$/), { phase: 'after' });
    const t = await openTable(storage);
    const result = await t.insert([{ id: 'k', part: 'x', ts: 1, v: 1 }], QUIET);
    expect(result.stats.inserted).toBe(1);
    await t.refresh();
    expect(completed(t)).toEqual([result.instant]);
    expect(await rowsOf(inner)).toEqual(['k=1']);
  });

  test('a record-index update that fails after the commit is a warning', async () => {
    const inner = memoryStorage();
    const t0 = await createTable(inner, { name: 'pc', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', schema: SCHEMA, ...QUIET, index: 'RECORD_INDEX' });
    await t0.insert([{ id: 'a', part: 'x', ts: 1, v: 1 }]);
    const storage = pausingStorage(inner);
    storage.failAt(call('write', /^\.hoodie\/\.aux\/lakelet\/record-index\//));
    const t = await openTable(storage);
    const result = await t.upsert([{ id: 'b', part: 'x', ts: 1, v: 2 }], { ...QUIET, index: 'RECORD_INDEX' });
    expect(result.warnings).toEqual([expect.objectContaining({ service: 'record-index', code: 'STORAGE' })]);
    expect(await rowsOf(inner)).toEqual(['a=1', 'b=2']);
  });
});

describe('a write that did not commit', () => {
  test('rejects and leaves the file tree as it was', async () => {
    const inner = memoryStorage();
    const t0 = await createTable(inner, { name: 'pc', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...QUIET });
    await t0.insert([{ id: 'a', part: 'x', ts: 1, v: 1 }]);
    const before = (await inner.list('', { recursive: true })).map((f) => f.path);
    const storage = pausingStorage(inner);
    storage.failAt(call('writeIfAbsent', /^\.hoodie\/\d+\.commit$/));
    const err = await (await openTable(storage)).upsert([{ id: 'a', part: 'x', ts: 2, v: 2 }, { id: 'n', part: 'y', ts: 1, v: 3 }], QUIET).then(() => undefined, (e: unknown) => e);
    expect(isLakeletError(err, 'STORAGE')).toBe(true);
    // The partition metadata of the new partition stays, as in Hudi: another writer may share the partition.
    const after = (await inner.list('', { recursive: true })).map((f) => f.path);
    expect(after.filter((p) => p !== 'part=y/.hoodie_partition_metadata')).toEqual(before);
    expect(await rowsOf(inner)).toEqual(['a=1']);
  });
});

describe('a progress callback that throws', () => {
  test('after the commit it cannot undo the write: the write resolves and its files stay', async () => {
    const storage = memoryStorage();
    const t = await createTable(storage, { name: 'pg', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...QUIET });
    const onProgress = (p: { phase: string; done: number; total: number }) => {
      if (p.phase === 'commit' && p.done === 1) throw new Error('progress bar went away');
    };
    const result = await t.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }], { onProgress });
    expect(result.stats.inserted).toBe(1);
    expect(await rowsOf(storage)).toEqual(['a=1']);
    expect(completed(await openTable(storage))).toEqual([result.instant]);
  });

  test('before the commit it fails the write, which leaves nothing behind', async () => {
    const storage = memoryStorage();
    const t = await createTable(storage, { name: 'pg', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...QUIET });
    const onProgress = (p: { phase: string; done: number }) => {
      if (p.phase === 'commit' && p.done === 0) throw new LakeletError('ABORTED', 'cancelled by the caller');
    };
    await expect(t.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }], { onProgress })).rejects.toThrow('cancelled by the caller');
    expect((await storage.list('part=x')).filter((f) => f.path.endsWith('.parquet'))).toEqual([]);
    expect(await rowsOf(storage)).toEqual([]);
  });
});
