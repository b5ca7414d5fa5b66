// A crash at sampled storage calls of a rebase (both tables in one store, so one counter spans the local and
// the remote calls): both tables stay readable, each at a state it passed through (the remote: before the
// rebase or after some of the replays; the local: one of its own commits or one of the remote's), and a
// second rebase completes it — every local write replayed exactly once, both tables equal. Indexes: the
// first and the last call, every call where the run switches store or between reading and writing (phase
// boundaries: listing, replays, take-back, copy, publish, delete), and a stride over the rest.
import { describe, expect, test } from 'vitest';
import { memoryStorage, openTable, prefixedStorage, type Storage } from '../../src/index.js';
import { replicate } from '../../src/replication/replicate.js';
import { REBASE_TAG } from '../../src/replication/replay-writes.js';
import { copyStorage, CRASH_MODELS, describeError, faultyStorage, isInjectedFault } from '../helpers/storage-faults.js';
import { makeTable, QUIET, replicatedTree, row, snapshotRows, storeRows, treeDifferences, type Shape } from './replicate-helpers.js';

const views = (s: Storage) => ({ local: prefixedStorage(s, 'local'), remote: prefixedStorage(s, 'remote') });
const clone = (s: Storage): Promise<Storage> => copyStorage(s, (files) => memoryStorage({ files }));
const rebase = (s: Storage) => replicate(views(s).local, views(s).remote, { mode: 'rebase', write: QUIET });

/** Both writers' history in one store: a shared table, a local replica, then writes on each side. */
async function diverged(shape: Shape & { localCompaction: boolean }): Promise<Storage> {
  const base = memoryStorage();
  const { local, remote } = views(base);
  await makeTable(remote, shape);
  await replicate(remote, local);
  await (await openTable(remote)).upsert([row('a', 'x', 9, 90), row('e', 'y', 1, 5)], QUIET);
  const mine = await openTable(local);
  await mine.upsert([row('a', 'x', 5, 50), row('f', 'z', 1, 6)], QUIET);
  if (shape.localCompaction) await mine.compact({ ...QUIET, force: true });
  await mine.delete(['d'], QUIET);
  return base;
}

/** Rows without meta columns (a replay's commit time and file names differ from run to run), sorted JSON. */
const data = (rows: string[]): string[] => rows.map((j) => JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(j) as object).filter(([k]) => !k.startsWith('_hoodie_'))))).sort();
const dataRows = async (storage: Storage): Promise<string[]> => data(await storeRows(storage));

/** Every snapshot a table passed through: as of each completed write, and its latest. */
async function statesOf(storage: Storage): Promise<Set<string>> {
  const table = await openTable(storage);
  const out = new Set<string>([JSON.stringify(data(await snapshotRows(table)))]);
  for (const c of table.commits) out.add(JSON.stringify(data(await snapshotRows(table, c.requestedTime))));
  return out;
}

/** Completed commits of the remote tagged as replays. */
async function tagged(storage: Storage): Promise<string[]> {
  const table = await openTable(storage);
  const out: string[] = [];
  for (const c of table.commits) {
    const tag = (await table.commitMetadata(c)).extraMetadata[REBASE_TAG];
    if (tag !== undefined) out.push(tag);
  }
  return out.sort();
}

/** The call indexes to crash at: first, last, every boundary, and a stride over the rest (at most ~`budget`). */
function sampleIndexes(trace: string[], budget: number): number[] {
  const kind = (t: string) => `${t.split(' ')[1]?.split('/')[0]} ${/^(write|writeIfAbsent|delete) /.test(t) ? 'w' : 'r'}`;
  const picked = new Set<number>([1, trace.length]);
  for (let i = 1; i < trace.length; i++) if (kind(trace[i] as string) !== kind(trace[i - 1] as string)) picked.add(i + 1);
  for (let i = 1; i <= trace.length; i++) if ((trace[i - 1] as string).startsWith('writeIfAbsent ')) picked.add(i);
  const stride = Math.max(1, Math.floor(trace.length / Math.max(1, budget - picked.size)));
  for (let i = 1; i <= trace.length; i += stride) picked.add(i);
  return [...picked].sort((a, b) => a - b);
}

/** Record every call of `inner` as "method path". */
function tracing(inner: Storage, trace: string[]): Storage {
  const log = <T>(m: string, p: string, f: () => Promise<T>) => { trace.push(`${m} ${p}`); return f(); };
  return {
    label: inner.label, readOnly: inner.readOnly,
    head: (p) => log('head', p, () => inner.head(p)), read: (p, r) => log('read', p, () => inner.read(p, r)),
    write: (p, b) => log('write', p, () => inner.write(p, b)), writeIfAbsent: (p, b) => log('writeIfAbsent', p, () => inner.writeIfAbsent(p, b)),
    list: (p, o) => log('list', p, () => inner.list(p, o)), delete: (p) => log('delete', p, () => inner.delete(p)),
  };
}

const CASES: (Shape & { localCompaction: boolean })[] = [
  { type: 'COPY_ON_WRITE', version: 6, localCompaction: false },
  { type: 'MERGE_ON_READ', version: 9, localCompaction: true },
];

describe.each(CASES)('rebase crash $type v$version', (c) => {
  test('at sampled call indexes: both readable at a state they passed through; a second run completes it, replaying once', { timeout: 900_000 }, async () => {
    const base = await diverged(c);
    const before = { local: await statesOf(views(base).local), remote: await statesOf(views(base).remote) };

    // The clean run: its calls, its end state, the states the remote passes through.
    const trace: string[] = [];
    const done = await clone(base);
    const result = await rebase(tracing(done, trace));
    expect(result.direction).toBe('rebase');
    const expected = await dataRows(views(done).remote);
    const replays = await tagged(views(done).remote);
    expect(replays.length).toBe(result.replayed.length);
    const remoteStates = new Set([...before.remote, ...(await statesOf(views(done).remote))]);
    const localStates = new Set([...before.local, ...remoteStates]);
    const indexes = sampleIndexes(trace, 32);
    expect(trace.length).toBeGreaterThan(50);

    let crashes = 0;
    for (const model of CRASH_MODELS) {
      for (const k of indexes) {
        const store = await clone(base);
        const faulty = faultyStorage(store, k, model);
        const err = await rebase(faulty).then(() => undefined, (e: unknown) => e);
        const at = `${model} at call ${k} of ${trace.length} (${faulty.failedCall?.method} ${faulty.failedCall?.path})`;
        expect(err === undefined || isInjectedFault(err, faulty), `${at}: ${describeError(err)}`).toBe(true);
        if (err !== undefined) crashes++;
        const { local, remote } = views(store);
        expect(remoteStates.has(JSON.stringify(await dataRows(remote))), `${at}: remote`).toBe(true);
        expect(localStates.has(JSON.stringify(await dataRows(local))), `${at}: local`).toBe(true);

        await rebase(store);
        expect(await dataRows(remote), at).toEqual(expected);
        expect(await tagged(remote), at).toEqual(replays);
        expect(treeDifferences(await replicatedTree(remote), await replicatedTree(local)), at).toEqual([]);
      }
    }
    expect(crashes).toBeGreaterThan(indexes.length);
  });
});
