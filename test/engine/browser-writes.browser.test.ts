// The writer on the browser's own stores, in headless Chromium: tables created on OPFS and IndexedDB,
// written (upsert, delete, insert-overwrite), read back and reopened through fresh adapters; a model-based
// run on both; and two writers of one table in one profile serialised by the table write lock.
import { deleteDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { createTable, indexedDbStorage, opfsStorage, openTable, withTableWriteLock, type Storage, type Table } from '../../src/index.js';
import { tableWriteLockName } from '../../src/engine/commit/write-lock.js';
import { canon, runSequence, SCHEMA, snapshot, type Row } from '../helpers/table-model.js';

interface Store {
  storage: Storage;
  /** A new adapter instance on the same data. */
  reopen: () => Storage;
  cleanup: () => Promise<void>;
}
let counter = 0;
const BASE = 'lakelet-browser-writes';
const kinds: Record<string, () => Store> = {
  OPFS: () => {
    const folder = `${BASE}/t-${Date.now()}-${counter++}`;
    return {
      storage: opfsStorage(folder),
      reopen: () => opfsStorage(folder),
      cleanup: async () => {
        const root = await navigator.storage.getDirectory();
        await root.getDirectoryHandle(BASE).then((d) => d.removeEntry(folder.slice(BASE.length + 1), { recursive: true })).catch(() => undefined);
      },
    };
  },
  IndexedDB: () => {
    const name = `${BASE}-${Date.now()}-${counter++}`;
    const opened: ReturnType<typeof indexedDbStorage>[] = [];
    const make = () => {
      const s = indexedDbStorage(name);
      opened.push(s);
      return s;
    };
    return {
      storage: make(),
      reopen: make,
      cleanup: async () => {
        for (const s of opened) s.close();
        await deleteDB(name);
      },
    };
  },
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
function store(kind: string): Store {
  const s = (kinds[kind] as () => Store)();
  cleanups.push(s.cleanup);
  return s;
}

const row = (id: string, part: string, ts: number, val: number | null = ts * 1.5): Row => ({ id, part, ts: BigInt(ts), val, name: `n-${id}` });
const createOptions = { type: 'COPY_ON_WRITE' as const, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA };

describe.each(Object.keys(kinds))('writes on %s', (kind) => {
  it('create, upsert, delete and insert-overwrite; read back; reopen through a fresh adapter', async () => {
    const st = store(kind);
    const table = await createTable(st.storage, { name: 'trips', ...createOptions });
    const expected = new Map<string, Row>();
    const put = (...rows: Row[]) => rows.forEach((r) => expected.set(r.id, r));

    const first = [row('k1', 'p0', 1), row('k2', 'p0', 5), row('k3', 'p1', 1), row('k4', 'p1', 1), row('k5', 'p2', 1, null), row('k6', 'p2', 1)];
    const c1 = await table.upsert(first);
    put(...first);
    expect(await snapshot(table)).toEqual(canon(expected.values()));

    const second = [row('k1', 'p0', 2), row('k2', 'p0', 3), row('k7', 'p1', 1), row('k7', 'p1', 4)]; // k2 older: ignored; k7 deduped
    const c2 = await table.upsert(second);
    put(row('k1', 'p0', 2), row('k7', 'p1', 4));
    expect(c2.stats).toMatchObject({ inserted: 1 });
    expect(await snapshot(table)).toEqual(canon(expected.values()));

    const c3 = await table.delete(['k3', 'missing']);
    expected.delete('k3');
    expect(await snapshot(table)).toEqual(canon(expected.values()));

    const c4 = await table.insertOverwrite([row('n1', 'p1', 9), row('n2', 'p1', 9)]);
    for (const [k, r] of expected) if (r.part === 'p1') expected.delete(k);
    put(row('n1', 'p1', 9), row('n2', 'p1', 9));
    expect(await snapshot(table)).toEqual(canon(expected.values()));

    const instants = [c1, c2, c3, c4].map((c) => c.instant);
    expect(table.commits.map((c) => c.requestedTime)).toEqual(instants);
    expect(table.commits.at(-1)?.action).toBe('replacecommit');
    const timeline = (await st.storage.list('.hoodie')).map((i) => i.path);
    for (const t of instants.slice(0, 3)) expect(timeline).toContain(`.hoodie/${t}.commit`);
    expect(timeline).toContain(`.hoodie/${c4.instant}.replacecommit`);
    expect((await st.storage.list('part=p0')).some((i) => i.path.endsWith('.parquet'))).toBe(true);

    // A fresh adapter on the same data sees the same table, and every commit by time travel.
    const reopened = await openTable(st.reopen());
    expect(await snapshot(reopened)).toEqual(canon(expected.values()));
    expect(reopened.commits.map((c) => c.requestedTime)).toEqual(instants);
    const asOfFirst = await snapshot(reopened, c1.instant);
    expect(asOfFirst).toEqual(canon(first));
    const arrow = await reopened.query({ filters: [['part', '=', 'p0']] });
    expect(arrow.numRows).toBe(2);

    // And keeps writing where the first left off.
    const c5 = await reopened.upsert([row('k8', 'p3', 1)]);
    put(row('k8', 'p3', 1));
    await table.refresh();
    expect(await snapshot(table)).toEqual(canon(expected.values()));
    expect(table.commits.map((c) => c.requestedTime)).toEqual([...instants, c5.instant]);
  });
});

describe('model-based copy-on-write writes in the browser', () => {
  const SEQUENCES = 5;
  const OPERATIONS = 10;
  for (const kind of Object.keys(kinds)) {
    it(`${SEQUENCES} sequences × ${OPERATIONS} operations on ${kind}, reopening through fresh adapters`, { timeout: 300_000 }, async () => {
      for (let i = 0; i < SEQUENCES; i++) {
        const st = store(kind);
        await runSequence(3000 + i + (kind === 'OPFS' ? 0 : 100), { operations: OPERATIONS, storage: st.storage, reopen: st.reopen });
      }
    });
  }
});

describe('two writers of one table in one browser profile', () => {
  it('withTableWriteLock serialises callers on the same store label and not on others', async () => {
    const a = opfsStorage('lock-test/a');
    const b = opfsStorage('lock-test/b');
    expect(tableWriteLockName(a)).toBe('lakelet:write:opfs:lock-test/a');
    const pendingOn = async (name: string) => ((await navigator.locks.query()).pending ?? []).filter((l) => l.name === name).length;
    const events: string[] = [];
    // a1 holds a's lock until the test releases it (a barrier, not a sleep).
    let release!: () => void;
    const released = new Promise<void>((r) => { release = r; });
    const a1 = withTableWriteLock(a, async () => {
      events.push('a1+');
      await released;
      events.push('a1-');
      return 'a1';
    });
    await expect.poll(() => events).toEqual(['a1+']);
    const quick = (s: Storage, name: string) => withTableWriteLock(s, async () => {
      events.push(`${name}+`, `${name}-`);
      return name;
    });
    const a2 = quick(opfsStorage('lock-test/a'), 'a2');
    // b1 runs to completion while a1 still holds a's lock; a2 is queued behind a1 on the same lock.
    expect(await quick(b, 'b1')).toBe('b1');
    await expect.poll(() => pendingOn(tableWriteLockName(a))).toBe(1);
    expect(events).toEqual(['a1+', 'b1+', 'b1-']);
    release();
    expect(await Promise.all([a1, a2])).toEqual(['a1', 'a2']);
    expect(events).toEqual(['a1+', 'b1+', 'b1-', 'a1-', 'a2+', 'a2-']);
    // Errors propagate and release the lock; an aborted wait rejects.
    await expect(withTableWriteLock(a, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    let releaseHolder!: () => void;
    const holder = withTableWriteLock(a, () => new Promise<void>((r) => { releaseHolder = r; }));
    await expect.poll(async () => ((await navigator.locks.query()).held ?? []).filter((l) => l.name === tableWriteLockName(a)).length).toBe(1);
    const controller = new AbortController();
    const waiting = withTableWriteLock(a, async () => 'ran', { signal: controller.signal });
    await expect.poll(() => pendingOn(tableWriteLockName(a))).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    releaseHolder();
    await holder;
    expect(await withTableWriteLock(a, async () => 'free again')).toBe('free again');
  });

  for (const kind of Object.keys(kinds)) {
    it(`two Table objects on one ${kind} table write concurrently: every commit lands`, { timeout: 120_000 }, async () => {
      const st = store(kind);
      await createTable(st.storage, { name: 'shared', ...createOptions });
      const writers: Table[] = [await openTable(st.reopen()), await openTable(st.reopen())];
      const ROUNDS = 3;
      // Table writes take the table's Web Lock themselves: both writers run at once and none is lost.
      const runs = writers.map(async (table, w) => {
        const instants: string[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const rows = Array.from({ length: 4 }, (_, i) => row(`w${w}-r${round}-${i}`, `p${(w + round + i) % 3}`, round));
          instants.push((await table.upsert(rows)).instant);
        }
        return instants;
      });
      const instants = (await Promise.all(runs)).flat();
      const reopened = await openTable(st.reopen());
      expect(reopened.commits.map((c) => c.requestedTime)).toEqual([...instants].sort());
      expect(reopened.timeline.every((i) => i.state === 'COMPLETED')).toBe(true);
      const ids = (await snapshot(reopened)).map((r) => r.split('|')[1]);
      expect(ids.sort()).toEqual(Array.from({ length: 2 }, (_, w) => Array.from({ length: ROUNDS }, (_, r) => Array.from({ length: 4 }, (_, i) => `w${w}-r${r}-${i}`))).flat(2).sort());
    });
  }
});
