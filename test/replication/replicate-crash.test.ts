// A crash at every storage call of a replicate into the target (the process dies before the call takes
// effect, or right after): the target stays readable at a prefix of the source's timeline, its rows are the
// source's as of its latest completed instant, and a second replicate completes it byte for byte.
import { describe, expect, test } from 'vitest';
import { createTable, LakeletError, memoryStorage, openTable, validateTable, type Storage, type Table } from '../../src/index.js';
import { compareInstantTimes } from '../../src/timeline/instant.js';
import { replicate } from '../../src/replication/replicate.js';
import { copyStorage, CRASH_MODELS, describeError, faultyStorage, isInjectedFault } from '../helpers/storage-faults.js';
import { completedFiles, QUIET, replicatedTree, row, SCHEMA, snapshotRows, treeDifferences, type Shape } from './replicate-helpers.js';

/** The source's history, with the rows of its snapshot after each completed instant (an oracle independent of its cleaning). */
interface History {
  source: Storage;
  rowsAfter: Map<string, string[]>;
  /** The target's state before the replicate under test: empty, or a replica of the first two commits. */
  base: Storage;
}

async function note(table: Table, storage: Storage, rowsAfter: Map<string, string[]>): Promise<void> {
  const rows = await snapshotRows(await openTable(storage));
  for (const f of await completedFiles(storage)) if (!rowsAfter.has(f)) rowsAfter.set(f, rows);
  void table;
}

async function history(shape: Shape, catchUp: boolean, rollback: boolean): Promise<History> {
  const source = memoryStorage();
  const rowsAfter = new Map<string, string[]>();
  const table = await createTable(source, { name: 'rep', type: shape.type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, tableVersion: shape.version });
  await table.upsert([row('a', 'x', 1, 1), row('b', 'x', 1, 2), row('c', 'y', 1, 3)], QUIET);
  await note(table, source, rowsAfter);
  await table.upsert([row('b', 'x', 2, 20), row('d', 'z', 1, 4)], QUIET);
  await note(table, source, rowsAfter);
  const base = memoryStorage();
  if (catchUp) await replicate(source, base);
  if (rollback) {
    // The source takes back the commit the replica already has: the replicate reverts it there first.
    await table.rollback();
    await note(table, source, rowsAfter);
  }
  await table.upsert([row('a', 'x', 3, 30), row('e', 'y', 1, 5)], QUIET);
  await note(table, source, rowsAfter);
  if (shape.type === 'MERGE_ON_READ') {
    await table.compact({ ...QUIET, force: true });
    await note(table, source, rowsAfter);
  }
  await table.clean({ retainCommits: 1, heartbeatTimeoutMs: 0 });
  await note(table, source, rowsAfter);
  await table.delete(['c'], QUIET);
  await note(table, source, rowsAfter);
  return { source, rowsAfter, base };
}

const clone = (s: Storage): Promise<Storage> => copyStorage(s, (files) => memoryStorage({ files }));

/** Calls a clean replicate makes on the target. */
async function callCount(h: History): Promise<number> {
  const counted = faultyStorage(await clone(h.base), 0);
  await replicate(h.source, counted);
  return counted.calls;
}

const CASES: (Shape & { catchUp: boolean; rollback: boolean })[] = [
  { type: 'COPY_ON_WRITE', version: 6, catchUp: true, rollback: false },
  { type: 'MERGE_ON_READ', version: 6, catchUp: true, rollback: false },
  { type: 'MERGE_ON_READ', version: 6, catchUp: false, rollback: false },
  { type: 'COPY_ON_WRITE', version: 9, catchUp: true, rollback: false },
  { type: 'MERGE_ON_READ', version: 9, catchUp: true, rollback: false },
  { type: 'MERGE_ON_READ', version: 6, catchUp: true, rollback: true },
  { type: 'COPY_ON_WRITE', version: 9, catchUp: true, rollback: true },
];

describe.each(CASES)('replicate crash $type v$version (catch-up: $catchUp, rollback: $rollback)', (c) => {
  test('at every call index: prefix of the source, its rows, and a second run completes it', { timeout: 600_000 }, async () => {
    const h = await history(c, c.catchUp, c.rollback);
    const sourceCompleted = await completedFiles(h.source);
    const sourceMdt = c.version === 9 ? await completedFiles(h.source, '.hoodie/metadata/.hoodie') : [];
    const finalTree = await replicatedTree(h.source);
    const baseCompleted = await completedFiles(h.base);
    const baseMdt = c.version === 9 ? await completedFiles(h.base, '.hoodie/metadata/.hoodie') : [];
    const calls = await callCount(h);
    expect(calls).toBeGreaterThan(10);
    let crashes = 0;
    let unreadable = 0;
    const oldest = (await (await openTable(h.source)).retention()).oldestReadable?.instant;
    for (const model of CRASH_MODELS) {
      for (let k = 1; k <= calls; k++) {
        const target = await clone(h.base);
        const faulty = faultyStorage(target, k, model);
        const err = await replicate(h.source, faulty).then(() => undefined, (e: unknown) => e);
        const at = `${model} at call ${k} (${faulty.failedCall?.method} ${faulty.failedCall?.path})`;
        expect(err === undefined || isInjectedFault(err, faulty), `${at}: ${describeError(err)}`).toBe(true);
        if (err !== undefined) crashes++;

        // A prefix of the source's timeline (data and metadata table), readable, with the source's rows then.
        // (Before a revert of a rolled-back instant ran, the target is still the base replica: a prefix of the
        // source's timeline as it was.)
        const done = await completedFiles(target);
        const isPrefix = (list: string[], of: string[]): boolean => list.every((f, i) => of[i] === f);
        expect(isPrefix(done, sourceCompleted) || isPrefix(done, baseCompleted), `${at}: ${done.join(' ')}`).toBe(true);
        if (c.version === 9) {
          const mdt = await completedFiles(target, '.hoodie/metadata/.hoodie');
          expect(isPrefix(mdt, sourceMdt) || isPrefix(mdt, baseMdt), `${at}: ${mdt.join(' ')}`).toBe(true);
        }
        const latest = done.at(-1);
        if (latest === undefined) expect((await target.list('.hoodie')).length === 0 || (await openTable(target)).commits.length === 0, at).toBe(true);
        else if (oldest === undefined || compareInstantTimes(latest.slice(0, 17), oldest) >= 0) expect(await snapshotRows(await openTable(target)), at).toEqual(h.rowsAfter.get(latest));
        else {
          // Older than the source's oldest readable instant: the source cleaned files of that snapshot, so the
          // target reads it as the source would (rows then) or reports a file the source no longer has.
          const read = await snapshotRows(await openTable(target)).catch((e: unknown) => e);
          if (Array.isArray(read)) expect(read, at).toEqual(h.rowsAfter.get(latest));
          else {
            expect(read, at).toBeInstanceOf(LakeletError);
            const path = (read as LakeletError).context.path;
            expect((read as LakeletError).code, at).toBe('NOT_FOUND');
            expect(typeof path === 'string' && !finalTree.has(path), `${at}: ${describeError(read)}`).toBe(true);
            unreadable++;
          }
        }

        // The next run completes it.
        await replicate(h.source, target);
        expect(treeDifferences(finalTree, await replicatedTree(target)), at).toEqual([]);
      }
    }
    expect(crashes).toBeGreaterThan(calls);
    if (c.catchUp) expect(unreadable).toBe(0); // a replica within the source's retention is readable at every point
    const last = await clone(h.base);
    await replicate(h.source, last);
    expect((await validateTable(last)).problems).toEqual([]);
  });
});
