// Rebase of two diverged writers: the local table's unpublished writes are replayed as new commits on top of
// the shared copy's, then the local table is made equal to it. Checked against a Map model of both writers'
// operations (conflicting updates of one key resolved by the ordering field), on COW and MOR, v6 and v9.
import { describe, expect, test } from 'vitest';
import { memoryStorage, openTable, validateTable, type Storage } from '../../src/index.js';
import { replicate } from '../../src/replication/replicate.js';
import { REBASE_TAG } from '../../src/replication/replay-writes.js';
import { failure } from '../helpers/expect-error.js';
import { completedFiles, makeTable, QUIET, replicatedTree, row, storeRows, treeDifferences, type Shape } from './replicate-helpers.js';

const SHAPES: Shape[] = [
  { type: 'COPY_ON_WRITE', version: 6 },
  { type: 'MERGE_ON_READ', version: 6 },
  { type: 'COPY_ON_WRITE', version: 9 },
  { type: 'MERGE_ON_READ', version: 9 },
];

type Row = ReturnType<typeof row>;

/** The model: key → row, where an upsert keeps the row with the greater ordering value (`ts`) and a delete removes. */
class Model {
  readonly rows = new Map<string, Row>();
  upsert(rows: Row[]): void {
    for (const r of rows) {
      const have = this.rows.get(r.id);
      if (have === undefined || r.ts >= have.ts) this.rows.set(r.id, r);
    }
  }
  delete(keys: string[]): void {
    for (const k of keys) this.rows.delete(k);
  }
  sorted(): string[] {
    return [...this.rows.values()].map((r) => JSON.stringify({ id: r.id, part: r.part, ts: String(r.ts), v: String(r.v) })).sort();
  }
}

/** Rows as the store reads them, in the model's JSON shape. */
async function rowsOf(storage: Storage): Promise<string[]> {
  return (await storeRows(storage)).map((j) => {
    const r = JSON.parse(j) as Record<string, unknown>;
    return JSON.stringify({ id: r.id, part: r.part, ts: String(r.ts), v: String(r.v) });
  }).sort();
}

/** A shared table (`remote`), a replica of it (`local`), and the model of the history both share. */
async function fork(shape: Shape): Promise<{ local: Storage; remote: Storage; model: Model }> {
  const remote = memoryStorage();
  await makeTable(remote, shape);
  const model = new Model();
  model.upsert([row('a', 'x', 1, 1), row('b', 'x', 1, 2), row('c', 'y', 1, 3)]);
  model.upsert([row('b', 'x', 2, 20), row('d', 'z', 1, 4)]);
  const local = memoryStorage();
  await replicate(remote, local);
  return { local, remote, model };
}

describe.each(SHAPES)('rebase $type v$version', (shape) => {
  test('two diverged writers → the union of both writes; conflicting updates resolved by ordering; both tables equal', async () => {
    const { local, remote, model } = await fork(shape);
    const mine = await openTable(local);
    const theirs = await openTable(remote);
    // Theirs, published on the shared copy: update a (ts 9), update b (ts 3), insert e, delete c.
    await theirs.upsert([row('a', 'x', 9, 90), row('b', 'x', 3, 30), row('e', 'y', 1, 5)], QUIET);
    await theirs.delete(['c'], QUIET);
    // Mine, offline: update a with a lower ordering value (loses), b with a higher one (wins), insert f, delete d, insert g.
    await mine.upsert([row('a', 'x', 5, 50), row('b', 'x', 7, 70), row('f', 'z', 1, 6)], QUIET);
    await mine.delete(['d'], QUIET);
    await mine.insert([row('g', 'x', 1, 7)], QUIET);
    model.upsert([row('a', 'x', 9, 90), row('b', 'x', 3, 30), row('e', 'y', 1, 5)]);
    model.delete(['c']);
    model.upsert([row('a', 'x', 5, 50), row('b', 'x', 7, 70), row('f', 'z', 1, 6)]);
    model.delete(['d']);
    model.upsert([row('g', 'x', 1, 7)]);

    const before = await completedFiles(remote);
    const push = await failure(replicate(local, remote));
    expect(push.code).toBe('CONFLICT');

    const result = await replicate(local, remote, { mode: 'rebase', write: QUIET });
    expect(result.direction).toBe('rebase');
    expect(result.replayed.map((r) => r.operation)).toEqual(['UPSERT', 'DELETE', 'INSERT']);
    expect(await rowsOf(remote)).toEqual(model.sorted());
    // The remote kept its history and gained the replays on top, each tagged with the local instant it replays.
    const after = await completedFiles(remote);
    expect(after.slice(0, before.length)).toEqual(before);
    const table = await openTable(remote);
    const tags = [];
    for (const r of result.replayed) tags.push((await table.commitMetadata(r.instant)).extraMetadata[REBASE_TAG]);
    expect(tags.every((t) => typeof t === 'string' && t.length > 0)).toBe(true);
    // The local table now equals the remote, byte for byte.
    expect(treeDifferences(await replicatedTree(remote), await replicatedTree(local))).toEqual([]);
    expect(await rowsOf(local)).toEqual(model.sorted());
    expect((await validateTable(remote)).problems).toEqual([]);
    // Nothing left to do; a later local write pushes again.
    const again = await replicate(local, remote, { mode: 'rebase', write: QUIET });
    expect([again.direction, again.published.length, again.replayed.length]).toEqual(['push', 0, 0]);
    await (await openTable(local)).upsert([row('h', 'y', 1, 8)], QUIET);
    expect((await replicate(local, remote, { mode: 'rebase' })).direction).toBe('push');
  });
});

describe('rebase: the extraMetadata write option its tags ride on', () => {
  test('entries land in the commit metadata; `schema` or a non-string value → INVALID_ARGUMENT', async () => {
    const storage = memoryStorage();
    const table = await makeTable(storage, { type: 'COPY_ON_WRITE', version: 6 });
    const r = await table.upsert([row('z', 'x', 1, 1)], { ...QUIET, extraMetadata: { 'my.key': 'v' } });
    const md = await table.commitMetadata(r.instant);
    expect(md.extraMetadata['my.key']).toBe('v');
    expect(typeof md.extraMetadata.schema).toBe('string');
    expect((await failure(table.upsert([row('z', 'x', 2, 2)], { ...QUIET, extraMetadata: { schema: 'x' } }))).code).toBe('INVALID_ARGUMENT');
    expect((await failure(table.upsert([row('z', 'x', 2, 2)], { ...QUIET, extraMetadata: { n: 1 as unknown as string } }))).code).toBe('INVALID_ARGUMENT');
  });

  test('a replacing write among the unpublished ones → UNSUPPORTED naming it, nothing written on the target', async () => {
    const { local, remote } = await fork({ type: 'COPY_ON_WRITE', version: 6 });
    await (await openTable(remote)).upsert([row('e', 'y', 1, 5)], QUIET);
    const over = await (await openTable(local)).insertOverwrite([row('q', 'x', 1, 1)], QUIET);
    const before = await replicatedTree(remote);
    const err = await failure(replicate(local, remote, { mode: 'rebase', write: QUIET }));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.message).toContain(over.instant);
    expect(treeDifferences(before, await replicatedTree(remote))).toEqual([]);
  });
});
