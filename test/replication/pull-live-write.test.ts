// A pull or rebase beside a local writer: a write (or compaction) in progress on the local table is never taken
// back with the diverged tail — the pull refuses with CONFLICT and changes nothing, the write completes, and
// the next pull rebases it onto the remote. A write whose writer died (heartbeat silent past the timeout) is
// taken back as before. Races held deterministically at a storage call; time judged by an injected clock.
import { describe, expect, test } from 'vitest';
import { memoryStorage, openTable, type Storage } from '../../src/index.js';
import { replicate } from '../../src/replication/replicate.js';
import { failure } from '../helpers/expect-error.js';
import { pausingStorage, type CallMatch } from '../helpers/pausing-storage.js';
import { makeTable, QUIET, replicatedTree, row, storeRows, treeDifferences, type Shape } from './replicate-helpers.js';

const SHAPES: Shape[] = [
  { type: 'COPY_ON_WRITE', version: 6 },
  { type: 'MERGE_ON_READ', version: 9 },
];

/** A write of a data file (base or log), not of the timeline, markers or heartbeats. */
const dataFileWrite: CallMatch = (c) => c.method === 'write' && !c.path.startsWith('.hoodie/') && (c.path.endsWith('.parquet') || c.path.includes('.log.'));

/** A remote table, a local replica of it, and a new commit on the remote (so a pull has something to take in). */
async function forkedRemoteAhead(shape: Shape): Promise<{ local: Storage; remote: Storage }> {
  const remote = memoryStorage();
  await makeTable(remote, shape);
  const local = memoryStorage();
  await replicate(remote, local);
  await (await openTable(remote)).upsert([row('a', 'x', 9, 90), row('e', 'y', 1, 5)], QUIET);
  return { local, remote };
}

/** A local upsert whose writer dies after its first data file: every later call fails, so it cleans up nothing. */
async function diedMidWrite(local: Storage): Promise<void> {
  const writerStore = pausingStorage(local, 'writer');
  const hold = writerStore.pauseAt(dataFileWrite);
  const write = (await openTable(writerStore)).upsert([row('f', 'z', 1, 6)], QUIET);
  write.catch(() => undefined);
  await hold.reached;
  writerStore.failAt(() => true, { times: Infinity });
  hold.release();
  await failure(write);
}

const clockAhead = (ms: number) => ({ now: () => Date.now() + ms, sleep: async () => undefined });
const hasRow = (rows: string[], id: string) => rows.some((r) => r.includes(`"id":"${id}"`));

describe.each(SHAPES)('pull beside a local writer, $type v$version', (shape) => {
  test('a write in progress: the pull refuses with CONFLICT and changes nothing; once it completes the next pull rebases it', async () => {
    const { local, remote } = await forkedRemoteAhead(shape);
    const writerStore = pausingStorage(local, 'writer');
    const hold = writerStore.pauseAt(dataFileWrite);
    const write = (await openTable(writerStore)).upsert([row('f', 'z', 1, 6), row('a', 'x', 4, 40)], QUIET);
    write.catch(() => undefined);
    await hold.reached;
    const [l, r] = [await replicatedTree(local), await replicatedTree(remote)];
    const pending = (await openTable(local)).timeline.filter((i) => i.state !== 'COMPLETED');
    expect(pending).toHaveLength(1);

    const err = await failure(replicate(local, remote, { mode: 'pull', write: QUIET }));
    expect(err.code).toBe('CONFLICT');
    expect(err.context.instant).toBe(pending[0]?.requestedTime);
    expect(err.message).toContain('in progress');
    expect(treeDifferences(l, await replicatedTree(local))).toEqual([]);
    expect(treeDifferences(r, await replicatedTree(remote))).toEqual([]);

    hold.release();
    await write;
    expect(hasRow(await storeRows(local), 'f')).toBe(true);
    const result = await replicate(local, remote, { mode: 'pull', write: QUIET });
    expect(result.direction).toBe('rebase');
    const rows = await storeRows(remote);
    expect(hasRow(rows, 'f')).toBe(true); // the local write, replayed on the remote
    expect(hasRow(rows, 'e')).toBe(true); // the remote's own commit
    expect(treeDifferences(await replicatedTree(remote), await replicatedTree(local))).toEqual([]);
  });

  test('a write whose writer died: CONFLICT while its heartbeat is fresh, taken back once it is older than the timeout', async () => {
    const { local, remote } = await forkedRemoteAhead(shape);
    await diedMidWrite(local);
    expect((await openTable(local)).timeline.some((i) => i.state !== 'COMPLETED')).toBe(true);

    expect((await failure(replicate(local, remote, { mode: 'pull' }))).code).toBe('CONFLICT');
    const result = await replicate(local, remote, { mode: 'pull', clock: clockAhead(120_000) });
    expect(result.direction).toBe('pull');
    expect((await openTable(local)).timeline.every((i) => i.state === 'COMPLETED')).toBe(true);
    expect(hasRow(await storeRows(local), 'f')).toBe(false);
    expect(await storeRows(local)).toEqual(await storeRows(remote));
  });

  test('heartbeatTimeoutMs 0 (single writer): a pending local instant is a failed write and is taken back at once', async () => {
    const { local, remote } = await forkedRemoteAhead(shape);
    await diedMidWrite(local);
    expect((await replicate(local, remote, { mode: 'pull', heartbeatTimeoutMs: 0 })).direction).toBe('pull');
    expect(await storeRows(local)).toEqual(await storeRows(remote));
  });
});

test('a compaction in progress on the local MOR table: the pull refuses with CONFLICT, then goes through once it completed', async () => {
  const { local, remote } = await forkedRemoteAhead({ type: 'MERGE_ON_READ', version: 9 });
  const compactorStore = pausingStorage(local, 'compactor');
  const hold = compactorStore.pauseAt(dataFileWrite);
  const compaction = (await openTable(compactorStore)).compact({ ...QUIET, force: true });
  compaction.catch(() => undefined);
  await hold.reached;
  const before = await replicatedTree(local);
  const err = await failure(replicate(local, remote, { mode: 'pull' }));
  expect(err.code).toBe('CONFLICT');
  expect(err.message).toContain('compaction');
  expect(treeDifferences(before, await replicatedTree(local))).toEqual([]);
  hold.release();
  await compaction;
  const result = await replicate(local, remote, { mode: 'pull' });
  expect(result.direction).toBe('pull');
  expect(await storeRows(local)).toEqual(await storeRows(remote));
});
