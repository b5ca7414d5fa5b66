// A diverged target stops replicate with CONFLICT naming the first diverging instant, before it changes
// anything: a commit written on the target, one instant with other bytes or another completion time, a store
// holding another table or stray files. Two replicators publishing the same instant both succeed.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, type Storage } from '../../src/index.js';
import { replicate } from '../../src/replication/replicate.js';
import { failure } from '../helpers/expect-error.js';
import { completedFiles, makeTable, QUIET, replicatedTree, row, SCHEMA, storeRows, treeDifferences } from './replicate-helpers.js';

const timelineDir = (version: number) => (version === 9 ? '.hoodie/timeline' : '.hoodie');

/** Expect replicate to fail with CONFLICT naming `instant`, leaving the target as it was. */
async function expectConflict(source: Storage, target: Storage, instant: string): Promise<void> {
  const before = await replicatedTree(target);
  const err = await failure(replicate(source, target));
  expect(err.code).toBe('CONFLICT');
  expect(String(err.context.instant)).toContain(instant);
  expect(err.message).toContain(instant);
  expect(treeDifferences(before, await replicatedTree(target))).toEqual([]);
}

describe.each([6, 9] as const)('replicate into a diverged target (v%i)', (version) => {
  test('a commit written on the target → CONFLICT naming it, even when the source moved on too', async () => {
    const source = memoryStorage();
    const table = await makeTable(source, { type: 'MERGE_ON_READ', version });
    const target = memoryStorage();
    await replicate(source, target);
    const theirs = await (await openTable(target)).upsert([row('z', 'x', 1, 26)], QUIET);
    await table.upsert([row('y', 'y', 1, 25)], QUIET);
    await expectConflict(source, target, theirs.instant);
  });

  test('one instant with other bytes → CONFLICT naming it', async () => {
    const source = memoryStorage();
    await makeTable(source, { type: 'COPY_ON_WRITE', version });
    const target = memoryStorage();
    await replicate(source, target);
    const [first, second] = await completedFiles(target);
    const dir = timelineDir(version);
    // The newest instant, same size, one byte changed (compared by bytes); then an older one resized.
    const newest = await target.read(`${dir}/${second}`);
    const flipped = newest.slice();
    flipped[flipped.length - 2] = (flipped[flipped.length - 2] ?? 0) ^ 1;
    await target.write(`${dir}/${second}`, flipped);
    await expectConflict(source, target, second!.slice(0, 17));
    await target.write(`${dir}/${second}`, newest);
    const older = await target.read(`${dir}/${first}`);
    await target.write(`${dir}/${first}`, new Uint8Array([...older, 32]));
    await expectConflict(source, target, first!.slice(0, 17));
  });

  test('another table, or stray files without a table → CONFLICT', async () => {
    const source = memoryStorage();
    await makeTable(source, { type: 'COPY_ON_WRITE', version });
    const other = memoryStorage();
    await createTable(other, { name: 'other', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, tableVersion: version });
    const err = await failure(replicate(source, other));
    expect(err.code).toBe('CONFLICT');
    expect(err.message).toContain('name');
    const stray = memoryStorage();
    await stray.write('notes/readme.txt', new TextEncoder().encode('hi'));
    expect((await failure(replicate(source, stray))).code).toBe('CONFLICT');
  });
});

describe('replicate: publication races', () => {
  test('two replicators into one target: both succeed, each instant is published once, reads equal the source', async () => {
    const source = memoryStorage();
    const table = await makeTable(source, { type: 'MERGE_ON_READ', version: 6 });
    const target = memoryStorage();
    const [a, b] = await Promise.all([replicate(source, target), replicate(source, target)]);
    expect([...a!.published, ...b!.published].sort()).toEqual([...(await completedFiles(source))].sort());
    expect(await storeRows(target)).toEqual(await storeRows(source));
    await table.upsert([row('q', 'x', 1, 1)], QUIET);
    await replicate(source, target);
    expect(treeDifferences(await replicatedTree(source), await replicatedTree(target))).toEqual([]);
  });

  test('a target instant taken back by the source (rollback of the latest commit) is reverted, not a conflict', async () => {
    const source = memoryStorage();
    const table = await makeTable(source, { type: 'COPY_ON_WRITE', version: 6 });
    const target = memoryStorage();
    await replicate(source, target);
    const latest = (await completedFiles(source)).at(-1)!;
    await table.rollback();
    const result = await replicate(source, target);
    expect(result.reverted).toEqual([latest.slice(0, 17)]);
    expect(await completedFiles(target)).toEqual(await completedFiles(source));
    expect(await storeRows(target)).toEqual(await storeRows(source));
    expect(treeDifferences(await replicatedTree(source), await replicatedTree(target))).toEqual([]);
  });
});
