// Clustering beside writers and as an inline service: while our plan is pending, updates to its file groups are
// refused (Hudi's SparkRejectUpdateStrategy) and inserts do not pick them as small files; a compaction plan leaves
// them out; a write's next start does not roll the plan back; `cluster()` then runs it. Inline clustering runs
// every N writes. Savepoint/restore across a clustering brings the replaced files back.
import { describe, expect, test } from 'vitest';
import { engineContext } from '../../src/engine/context.js';
import { scheduleClustering } from '../../src/engine/services/clustering.js';
import { scheduleCompaction } from '../../src/engine/services/compaction.js';
import { fileGroupKey } from '../../src/file-group/file-slice.js';
import { createTable, memoryStorage, openTable, validateTable } from '../../src/index.js';
import { call, pausingStorage } from '../helpers/pausing-storage.js';
import { CLUSTER_TABLE, row, smallFilesTable, snapshot } from './clustering-helpers.js';

describe('a pending clustering of ours', () => {
  for (const [type, version] of [['COPY_ON_WRITE', 6], ['MERGE_ON_READ', 9]] as const) {
    test(`${type} v${version}: updates to its groups are UNSUPPORTED, inserts avoid them, a write does not roll it back; cluster() runs it`, async () => {
      const { storage, table } = await smallFilesTable(type, version, 6, 2);
      const planned = await scheduleClustering(engineContext(storage), { smallFileLimitBytes: 1 << 20 });
      expect(planned).toBeDefined();
      await table.refresh();
      const groups = new Set((await table.fileSlices()).map((s) => fileGroupKey(s.partitionPath, s.fileId)));
      const before = await snapshot(table);
      await expect(table.upsert([{ ...row(3), ts: 2, s: 'x' }])).rejects.toMatchObject({ code: 'UNSUPPORTED', context: { instant: planned } });
      await expect(table.delete([row(4).id as string])).rejects.toMatchObject({ code: 'UNSUPPORTED' });
      // An insert with a generous small-file limit would fill a small file: not one under the plan.
      const inserted = await table.insert([row(100)], { smallFileLimit: 100 << 20, heartbeatTimeoutMs: 0 }); // every pending write counts as failed
      const after = await table.fileSlices();
      const fresh = after.filter((s) => !groups.has(fileGroupKey(s.partitionPath, s.fileId)));
      expect(fresh).toHaveLength(1);
      expect(fresh[0]!.baseInstantTime).toBe(inserted.instant);
      // The plan is still pending (the insert's start did not roll it back), and a compaction plan leaves its groups out.
      expect(table.timeline.some((i) => i.requestedTime === planned && i.state !== 'COMPLETED')).toBe(true);
      if (type === 'MERGE_ON_READ') expect(await scheduleCompaction(engineContext(storage), { deltaCommits: 1, logBytes: undefined }, true)).toBeUndefined();
      const result = await table.cluster({ smallFileLimitBytes: 10 });
      expect(result?.instant).toBe(planned);
      expect(result?.fileGroupsReplaced).toBe(groups.size);
      expect(await snapshot(table)).toEqual([...before, ...(await snapshot(table)).filter((r) => r.includes('"k00100"'))].sort());
      // Now the update goes through.
      await table.upsert([{ ...row(3), ts: 2, s: 'x' }]);
      expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
    }, 120_000);
  }

  test('inline clustering every 3 writes (COW v6)', async () => {
    const storage = memoryStorage();
    const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], ...CLUSTER_TABLE, clustering: { inline: { everyCommits: 3 }, sortColumns: ['v'], smallFileLimitBytes: 1 << 20 } });
    const actions = () => table.commits.map((c) => c.action).join(',');
    for (let i = 0; i < 3; i++) await table.insert([row(2 * i), row(2 * i + 1)]);
    expect(actions()).toBe('commit,commit,commit,replacecommit');
    const md = await table.commitMetadata(table.commits.at(-1)!);
    expect(md.operationType).toBe('CLUSTER');
    for (let i = 3; i < 5; i++) await table.insert([row(2 * i), row(2 * i + 1)]);
    expect(actions()).toBe('commit,commit,commit,replacecommit,commit,commit');
    const w = await table.insert([row(20), row(21)]);
    expect(w.warnings ?? []).toEqual([]);
    expect(actions()).toBe('commit,commit,commit,replacecommit,commit,commit,commit,replacecommit');
    expect((await snapshot(table)).length).toBe(12);
  }, 120_000);

  test('a failing inline clustering is a warning; the write is committed', async () => {
    const storage = memoryStorage();
    const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], ...CLUSTER_TABLE, clustering: { inline: { everyCommits: 1 }, sortColumns: ['nope'] } });
    const w = await table.insert([row(1)]);
    expect(w.warnings).toEqual([expect.objectContaining({ service: 'clustering', code: 'INVALID_ARGUMENT' })]);
    expect(table.commits.map((c) => c.action)).toEqual(['commit']);
    expect(await snapshot(table)).toHaveLength(1);
  });

  test('savepoint, cluster, restore: the table reads as at the savepoint from its old files', async () => {
    const { storage, table } = await smallFilesTable('COPY_ON_WRITE', 6, 5, 2);
    const before = await snapshot(table);
    const sp = await table.savepoint();
    const oldFiles = (await table.fileSlices()).map((s) => s.baseFile!.path).sort();
    await table.cluster({ sortColumns: ['v'] });
    await table.insert([row(50)]);
    await table.restore(sp.instant);
    expect(await snapshot(table)).toEqual(before);
    expect((await table.fileSlices()).map((s) => s.baseFile!.path).sort()).toEqual(oldFiles);
    expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
  }, 120_000);
});

describe('an explicit cluster() whose own plan cannot run', () => {
  test('rejects with CONFLICT (not "nothing to cluster") when another runner holds the new plan, which stays pending and runs next time', async () => {
    const { storage, table } = await smallFilesTable('COPY_ON_WRITE', 6, 4, 2);
    const before = await snapshot(table);
    const paused = pausingStorage(storage);
    const clustering = await openTable(paused);
    // Hold the clustering's heartbeat create; meanwhile "another runner" takes the plan (a live heartbeat).
    const hold = paused.pauseAt(call('writeIfAbsent', /^\.hoodie\/\.heartbeat\//));
    const run = clustering.cluster({ smallFileLimitBytes: 1 << 20 });
    const reached = await hold.reached;
    await storage.write(reached.path, new TextEncoder().encode(String(Date.now())));
    hold.release();
    await expect(run).rejects.toMatchObject({ code: 'CONFLICT' });
    await table.refresh();
    const planned = reached.path.slice(reached.path.lastIndexOf('/') + 1);
    expect(table.timeline.some((i) => i.requestedTime === planned && i.state !== 'COMPLETED')).toBe(true);
    expect(await snapshot(table)).toEqual(before);
    // The other runner is gone (heartbeat expired): the next cluster() runs the plan.
    const result = await table.cluster({ smallFileLimitBytes: 1 << 20, heartbeatTimeoutMs: 0 });
    expect(result?.instant).toBe(planned);
    expect(await snapshot(table)).toEqual(before);
    expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
  }, 120_000);
});
