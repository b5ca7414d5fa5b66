// replicate(local, remote, { mode: 'pull' }): the remote's new commits come into the local table — a copy in the
// other direction when local has nothing unpublished (its own services after the fork are taken back), a
// rebase when both diverged, nothing when only local moved on. v6 and v9, COW and MOR.
import { describe, expect, test } from 'vitest';
import { memoryStorage, openTable, validateTable, type Storage } from '../../src/index.js';
import { replicate } from '../../src/replication/replicate.js';
import { completedFiles, makeTable, QUIET, replicatedTree, row, storeRows, treeDifferences, type Shape } from './replicate-helpers.js';

const SHAPES: Shape[] = [
  { type: 'COPY_ON_WRITE', version: 6 },
  { type: 'MERGE_ON_READ', version: 6 },
  { type: 'COPY_ON_WRITE', version: 9 },
  { type: 'MERGE_ON_READ', version: 9 },
];

async function fork(shape: Shape): Promise<{ local: Storage; remote: Storage }> {
  const remote = memoryStorage();
  await makeTable(remote, shape);
  const local = memoryStorage();
  await replicate(remote, local);
  return { local, remote };
}

const same = async (a: Storage, b: Storage): Promise<string[]> => treeDifferences(await replicatedTree(a), await replicatedTree(b));

describe.each(SHAPES)('pull $type v$version', (shape) => {
  test('local behind: the remote commits come in; a second pull does nothing', async () => {
    const { local, remote } = await fork(shape);
    const theirs = await openTable(remote);
    await theirs.upsert([row('a', 'x', 9, 90), row('e', 'y', 1, 5)], QUIET);
    await theirs.delete(['c'], QUIET);
    const result = await replicate(local, remote, { mode: 'pull' });
    expect(result.direction).toBe('pull');
    expect(result.replayed).toEqual([]);
    expect(result.published).toEqual((await completedFiles(remote)).slice(-2));
    expect(await same(remote, local)).toEqual([]);
    expect(await storeRows(local)).toEqual(await storeRows(remote));
    const again = await replicate(local, remote, { mode: 'pull' });
    expect([again.direction, again.published.length, again.filesCopied]).toEqual(['none', 0, 0]);
  });

  test('local ahead only: nothing to pull, both stay as they were', async () => {
    const { local, remote } = await fork(shape);
    await (await openTable(local)).upsert([row('f', 'z', 1, 6)], QUIET);
    const [l, r] = [await replicatedTree(local), await replicatedTree(remote)];
    const result = await replicate(local, remote, { mode: 'pull' });
    expect(result.direction).toBe('none');
    expect(treeDifferences(l, await replicatedTree(local))).toEqual([]);
    expect(treeDifferences(r, await replicatedTree(remote))).toEqual([]);
  });

  test('both diverged: local writes rebased onto the remote, then local equals the remote', async () => {
    const { local, remote } = await fork(shape);
    await (await openTable(remote)).upsert([row('a', 'x', 9, 90)], QUIET);
    await (await openTable(local)).upsert([row('f', 'z', 1, 6), row('a', 'x', 4, 40)], QUIET);
    const result = await replicate(local, remote, { mode: 'pull', write: QUIET });
    expect(result.direction).toBe('rebase');
    expect(result.replayed).toHaveLength(1);
    const rows = await storeRows(remote);
    expect(rows.some((r) => r.includes('"f"'))).toBe(true);
    expect(rows.find((r) => r.includes('"id":"a"'))).toContain('"v":90'); // ts 9 beats the local ts 4
    expect(await same(remote, local)).toEqual([]);
  });

  test("local services after the fork (a clean, a compaction) are taken back; the remote's commits replace them", async () => {
    const { local, remote } = await fork(shape);
    const mine = await openTable(local);
    if (shape.type === 'MERGE_ON_READ') await mine.compact({ ...QUIET, force: true });
    await mine.upsert([row('b', 'x', 3, 30)], QUIET);
    await mine.rollback(); // a service instant (rollback) on local after the fork, the write itself gone
    await mine.clean({ retainCommits: 1, heartbeatTimeoutMs: 0 });
    const published = await completedFiles(remote);
    expect((await completedFiles(local)).filter((f) => !published.includes(f)).length).toBeGreaterThan(0);
    await (await openTable(remote)).upsert([row('b', 'x', 9, 90), row('g', 'y', 1, 7)], QUIET);
    const result = await replicate(local, remote, { mode: 'pull' });
    expect(result.direction).toBe('pull');
    expect(result.reverted.length).toBeGreaterThan(0);
    expect(await completedFiles(local)).toEqual(await completedFiles(remote));
    expect(await same(remote, local)).toEqual([]);
    expect(await storeRows(local)).toEqual(await storeRows(remote));
    expect((await validateTable(local)).problems).toEqual([]);
  });
});

describe('pull: edge cases', () => {
  test('into an empty local store: a full copy; from an empty remote: nothing', async () => {
    const remote = memoryStorage();
    await makeTable(remote, { type: 'MERGE_ON_READ', version: 9 });
    const local = memoryStorage();
    expect((await replicate(local, remote, { mode: 'pull' })).direction).toBe('pull');
    expect(await same(remote, local)).toEqual([]);
    expect((await replicate(remote, memoryStorage(), { mode: 'pull' })).direction).toBe('none');
  });
});
