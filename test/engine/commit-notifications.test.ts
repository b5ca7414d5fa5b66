// table.onCommit (issue 14): one event per completed instant — every write operation and every table service —
// whose fields match the instant's files on storage (Hudi's callback message fields plus the completion time);
// a listener that throws never fails the commit; and, through the table's BroadcastChannel, a second table
// object on the same store hears of the first one's commits and its next read shows them without refresh().
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, type CommitEvent, type Storage, type Table } from '../../src/index.js';
import { nodeFsStorage } from '../../src/node/index.js';
import { parseCommitMetadata } from '../../src/timeline/commit-metadata.js';
import { parseInstantFileName } from '../../src/timeline/instant.js';
import { formatInstantTime } from '../../src/timeline/instant-time.js';
import { commitChannelName } from '../../src/engine/commit/commit-broadcast.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'cn',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }],
};
const QUIET = { bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false } };
const rows = (ids: string[], ts = 1, part = 'a') => ids.map((id) => ({ id, part, ts }));

const scratch = mkdtempSync(join(tmpdir(), 'lakelet-commit-notifications-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;

async function table(storage: Storage, options: { type?: 'COPY_ON_WRITE' | 'MERGE_ON_READ'; tableVersion?: 6 | 9; name?: string } = {}): Promise<Table> {
  return createTable(storage, {
    name: options.name ?? 'events', type: options.type ?? 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'],
    schema: SCHEMA, tableVersion: options.tableVersion ?? 6, metadataTable: false, ...QUIET,
  });
}

/** The completed timeline file of `time` and `action` on `storage` (a savepoint shares its commit's time). */
async function completedFile(storage: Storage, time: string, action: string): Promise<{ path: string; action: string; completionTime: string | undefined }> {
  for (const f of await storage.list('.hoodie', { recursive: true })) {
    const i = parseInstantFileName(f.path.split('/').pop()!);
    if (i && i.state === 'COMPLETED' && i.requestedTime === time && i.action === action && !f.path.includes('/archived/') && !f.path.includes('metadata/')) {
      return { path: f.path, action: i.action, completionTime: i.completionTime };
    }
  }
  throw new Error(`no completed file for ${time}`);
}

/** `event` against the instant's files: action, table, base path, write stats and extra metadata as on storage. */
async function expectMatchesStorage(storage: Storage, event: CommitEvent): Promise<void> {
  const file = await completedFile(storage, event.commitTime, event.commitActionType);
  expect(event.commitActionType).toBe(file.action);
  expect(event.tableName).toBe('events');
  expect(event.basePath).toBe(storage.label);
  expect(event.source).toBe('local');
  if (['commit', 'deltacommit', 'replacecommit'].includes(file.action)) {
    const md = parseCommitMetadata(await storage.read(file.path), file.path);
    const stats = Object.values(md.partitionToWriteStats).flat();
    expect(event.hoodieWriteStat.map((s) => s.fileId)).toEqual(stats.map((s) => s.fileId));
    expect(event.hoodieWriteStat.map((s) => [s.numWrites, s.numInserts, s.numUpdateWrites, s.numDeletes].map(Number))).toEqual(stats.map((s) => [s.numWrites, s.numInserts, s.numUpdateWrites, s.numDeletes]));
    expect(event.hoodieWriteStat.map((s) => s.partitionPath)).toEqual(stats.map((s) => s.partitionPath));
    expect(event.extraMetadata).toEqual(md.extraMetadata);
    expect(Object.keys(event.extraMetadata)).toContain('schema');
  } else {
    expect(event.hoodieWriteStat).toEqual([]);
    expect(event.extraMetadata).toEqual({});
  }
  if (file.completionTime !== undefined) expect(event.completionTime).toBe(file.completionTime);
  else {
    const modified = (await storage.head(file.path)).lastModified;
    expect(event.completionTime).toBe(modified === undefined ? undefined : formatInstantTime(new Date(modified)));
  }
}

describe('table.onCommit', () => {
  test('every write operation and every service of a v6 copy-on-write table: one event each, fields as on storage', async () => {
    const storage = memoryStorage();
    const t = await table(storage);
    const events: CommitEvent[] = [];
    t.onCommit((e) => { events.push(e); });
    let checked = 0;
    /** Run one operation, then check the events it brought against storage (before a later one removes files). */
    const step = async <T>(op: Promise<T>): Promise<T> => {
      const out = await op;
      for (const e of events.slice(checked)) await expectMatchesStorage(storage, e);
      checked = events.length;
      return out;
    };
    const writes = [
      await step(t.upsert(rows(['k1', 'k2']))),
      await step(t.insert(rows(['k3'], 1, 'b'))),
      await step(t.bulkInsert(rows(['k4'], 1, 'c'))),
      await step(t.upsert(rows(['k1'], 2))),
      await step(t.delete(['k2'])),
      await step(t.insertOverwrite(rows(['k5'], 1, 'b'))),
      await step(t.deletePartitions(['part=c'])),
    ];
    // Each write's event is there when the write resolves: one per write, in order.
    expect(events.map((e) => e.commitTime)).toEqual(writes.map((w) => w.instant));
    expect(events.map((e) => e.commitActionType)).toEqual(['commit', 'commit', 'commit', 'commit', 'commit', 'replacecommit', 'replacecommit']);
    const sp = await step(t.savepoint());
    await step(t.upsert(rows(['k6'], 3)));
    await step(t.clean({ retainCommits: 1 }));
    await step(t.rollback());
    await step(t.restore(sp.instant));
    const services = events.slice(writes.length).map((e) => e.commitActionType);
    expect(services).toEqual(['savepoint', 'commit', 'clean', 'rollback', 'restore']);
    expect(checked).toBe(events.length);
    expect(new Set(events.map((e) => `${e.commitTime}.${e.commitActionType}`)).size).toBe(events.length); // once each
  });

  test('a v9 merge-on-read table: deltacommits and the inline compaction\'s commit, with their completion times', async () => {
    const storage = memoryStorage();
    const t = await createTable(storage, {
      name: 'events', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, tableVersion: 9, metadataTable: false,
      ...QUIET, compaction: { deltaCommits: 2 },
    });
    const events: CommitEvent[] = [];
    t.onCommit((e) => { events.push(e); });
    await t.upsert(rows(['k1', 'k2']));
    await t.upsert(rows(['k1'], 2));
    await t.upsert(rows(['k2'], 3));
    expect(events.map((e) => e.commitActionType)).toContain('commit'); // the compaction completes as a commit
    expect(events.filter((e) => e.commitActionType === 'deltacommit')).toHaveLength(3);
    for (const e of events) {
      expect(e.completionTime).toMatch(/^\d{17}$/);
      await expectMatchesStorage(storage, e);
    }
    const compaction = events.find((e) => e.commitActionType === 'commit')!;
    expect(compaction.hoodieWriteStat.length).toBeGreaterThan(0);
  });

  test('a listener that throws or rejects never fails the commit; the others still hear of it; unsubscribe stops it', async () => {
    const t = await table(memoryStorage());
    const failures: string[] = [];
    const heard: string[] = [];
    t.onCommit(() => { throw new Error('listener bug'); }, { onError: (err, e) => failures.push(`${(err as Error).message} ${e.commitTime}`) });
    t.onCommit(async () => { throw new Error('async listener bug'); }, { onError: (err, e) => failures.push(`${(err as Error).message} ${e.commitTime}`) });
    const off = t.onCommit((e) => { heard.push(e.commitTime); });
    const first = await t.upsert(rows(['k1']));
    await Promise.resolve(); // the rejected listener's handler runs on a microtask
    expect(heard).toEqual([first.instant]);
    expect(failures.sort()).toEqual([`async listener bug ${first.instant}`, `listener bug ${first.instant}`]);
    const rowsNow: unknown[] = [];
    for await (const r of t.rows({ columns: ['id'] })) rowsNow.push(r.id);
    expect(rowsNow).toEqual(['k1']);
    off();
    await t.upsert(rows(['k2']));
    expect(heard).toEqual([first.instant]);
  });

  test('commits of another writer are told once, when this table loads them (its next write)', async () => {
    const storage = memoryStorage();
    const t = await table(storage);
    const other = await openTable(storage);
    const heard: string[] = [];
    t.onCommit((e) => { heard.push(`${e.commitActionType} ${e.commitTime}`); });
    const theirs = await other.upsert(rows(['x']));
    expect(heard).toEqual([]); // memory stores have no channel: nothing until this table loads the timeline
    const mine = await t.upsert(rows(['y']));
    expect(heard).toEqual([`commit ${theirs.instant}`, `commit ${mine.instant}`]);
  });
});

describe('the table\'s BroadcastChannel', () => {
  test('a second table object on the same directory hears of the commit and its next read shows it, without refresh()', async () => {
    const dir = join(scratch, `t${++counter}`);
    const a = await table(nodeFsStorage(dir));
    await a.upsert(rows(['k1']));
    const b = await openTable(nodeFsStorage(dir));
    const heard = new Promise<CommitEvent>((resolve) => b.onCommit(resolve));
    const before: unknown[] = [];
    for await (const r of b.rows({ columns: ['id'] })) before.push(r.id);
    expect(before).toEqual(['k1']);
    const result = await a.upsert(rows(['k2']));
    const event = await heard;
    expect(event).toMatchObject({ commitTime: result.instant, commitActionType: 'commit', tableName: 'events', source: 'broadcast' });
    expect(event.hoodieWriteStat.map((s) => s.numInserts)).toEqual([1]);
    const after: unknown[] = [];
    for await (const r of b.rows({ columns: ['id'] })) after.push(r.id);
    expect(after.sort()).toEqual(['k1', 'k2']);
    expect(b.commits.map((c) => c.requestedTime)).toContain(result.instant);
    await a.close();
    await b.close();
  });

  test('the channel is named by the store and the table; tables of other names or stores are not told', () => {
    expect(commitChannelName(nodeFsStorage('/data/t'), 'trips')).toBe('lakelet.commits:fs:/data/t:trips');
    expect(commitChannelName(nodeFsStorage('/data/t'), 'trips')).not.toBe(commitChannelName(nodeFsStorage('/data/u'), 'trips'));
  });
});
