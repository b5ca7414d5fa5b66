// The IN_MEMORY index keeps its key map in the Table between writes: a second upsert through the same Table
// reads only the base files it merges, not every base file again; a commit by another writer (or a write that
// changes locations wholesale) makes the next upsert rebuild the map, and tags stay right throughout.
import { expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, type Storage, type Table } from '../../../src/index.js';

const SCHEMA = {
  type: 'record', name: 'kv', namespace: 'test',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'string' }],
};

/** A store that records the base files (`.parquet`) read while `recording` is on. */
function countingStorage(inner: Storage): { storage: Storage; reads: string[]; record(on: boolean): void } {
  let recording = false;
  const reads: string[] = [];
  const storage: Storage = {
    ...inner,
    head: (p) => inner.head(p),
    list: (p, o) => inner.list(p, o),
    write: (p, b) => inner.write(p, b),
    writeIfAbsent: (p, b) => inner.writeIfAbsent(p, b),
    delete: (p) => inner.delete(p),
    read: (p, r) => {
      if (recording && p.endsWith('.parquet')) reads.push(p);
      return inner.read(p, r);
    },
  };
  return {
    storage,
    reads,
    record: (on) => {
      if (on) reads.length = 0;
      recording = on;
    },
  };
}

const row = (id: string, part: string, ts: number, v: string) => ({ id, part, ts: BigInt(ts), v });

async function table(storage: Storage): Promise<Table> {
  return createTable(storage, {
    name: 'mem', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA,
    index: 'IN_MEMORY', clean: { automatic: false }, archive: { automatic: false },
  });
}

async function contents(t: Table): Promise<string[]> {
  const out: string[] = [];
  for await (const r of t.rows({ columns: ['id', 'part', 'v'] })) out.push(`${r.part}/${r.id}=${r.v}`);
  return out.sort();
}

const baseFile = async (t: Table, part: string): Promise<string> => {
  const s = (await t.fileSlices()).find((x) => x.partitionPath === `part=${part}`);
  if (!s?.baseFile) throw new Error(`no base file in ${part}`);
  return s.baseFile.path;
};

test('a second IN_MEMORY upsert through one Table reads only the base file it merges', async () => {
  const counting = countingStorage(memoryStorage());
  const t = await table(counting.storage);
  await t.bulkInsert(['a', 'b', 'c', 'd'].flatMap((p) => [row(`${p}1`, p, 1, 'x'), row(`${p}2`, p, 1, 'x')]));
  expect((await t.fileSlices()).length).toBe(4);

  await t.upsert([row('a1', 'a', 2, 'y')]); // builds the key map: reads every base file's keys
  counting.record(true);
  const bFile = await baseFile(t, 'b');
  await t.upsert([row('b1', 'b', 2, 'y')]);
  counting.record(false);
  expect([...new Set(counting.reads)]).toEqual([bFile]);

  // The map followed both writes: an update of a1 (rewritten in the first upsert) is an update, not an insert.
  const r = await t.upsert([row('a1', 'a', 3, 'z'), row('e1', 'e', 1, 'n')]);
  expect([r.stats.updated, r.stats.inserted]).toEqual([1, 1]);
  expect(await contents(t)).toEqual([
    'a/a1=z', 'a/a2=x', 'b/b1=y', 'b/b2=x', 'c/c1=x', 'c/c2=x', 'd/d1=x', 'd/d2=x', 'e/e1=n',
  ]);
});

test('a commit by another writer makes the next IN_MEMORY upsert rebuild the map (and tag right)', async () => {
  const counting = countingStorage(memoryStorage());
  const t = await table(counting.storage);
  await t.bulkInsert([row('a1', 'a', 1, 'x'), row('b1', 'b', 1, 'x')]);
  await t.upsert([row('a1', 'a', 2, 'y')]);
  // Another Table moves b1 to partition c (a global index: the key lives in one partition).
  const other = await openTable(counting.storage);
  await other.upsert([row('b1', 'c', 5, 'moved')], { index: 'GLOBAL_SIMPLE' });

  counting.record(true);
  const r = await t.upsert([row('b1', 'c', 6, 'again')]);
  counting.record(false);
  expect(r.stats.updated).toBe(1);
  expect(r.stats.inserted).toBe(0);
  expect(new Set(counting.reads).size).toBeGreaterThanOrEqual(2); // the rebuild read the key columns of the table
  expect(await contents(t)).toEqual(['a/a1=y', 'c/b1=again']);
});
