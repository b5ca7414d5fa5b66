// Compaction of merge-on-read tables: inline after N deltacommits, explicit, and while writers continue;
// records keep their commit times; the plan and the commit look as Hudi writes them; plans take committed
// logs only, and a plan whose inputs are gone is never a wedge (D3).
import { describe, expect, test } from 'vitest';
import { scheduleCompaction } from '../../src/engine/services/compaction.js';
import { runCompaction } from '../../src/engine/services/compaction-run.js';
import { logFileName } from '../../src/file-group/file-names.js';
import { parseCompactionPlan, serializeCompactionPlan } from '../../src/timeline/compaction-plan.js';
import { createTable, LakeletError, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { manualClock } from '../../src/engine/clock.js';
import { call, pausingStorage } from '../helpers/pausing-storage.js';
import { engineContext } from '../../src/engine/context.js';

const OPTS = { bloomFilter: { numEntries: 100 } };

async function rows(table: Table, opts: object = {}): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['_hoodie_commit_time', 'id', 'v'], ...opts })) out.push(`${r.id}=${r.v}@${r._hoodie_commit_time}`);
  return out.sort();
}

async function morTable(inline: boolean): Promise<{ storage: Storage; table: Table }> {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 'm', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], ...OPTS, compaction: { inline, deltaCommits: 3 } });
  return { storage, table };
}

describe('compaction', () => {
  test('inline compaction after 3 deltacommits merges logs into new base files, keeping commit times', async () => {
    const { storage, table } = await morTable(true);
    const c1 = await table.upsert([{ id: 'a', ts: 1, p: 'x', v: 1 }, { id: 'b', ts: 1, p: 'x', v: 2 }, { id: 'c', ts: 1, p: 'y', v: 3 }]);
    const c2 = await table.upsert([{ id: 'a', ts: 2, p: 'x', v: 10 }]);
    await table.delete(['c']);
    const before = await rows(table);
    expect(before).toEqual([`a=10@${c2.instant}`, `b=2@${c1.instant}`]);
    const commits = table.commits;
    expect(commits.map((c) => c.action)).toEqual(['deltacommit', 'deltacommit', 'deltacommit', 'commit']);
    const compaction = commits[3]!;
    const md = await table.commitMetadata(compaction);
    expect(md.compacted).toBe(true);
    expect(md.operationType).toBe('COMPACT');
    // After compaction snapshot == read-optimized, and the values and commit times are unchanged.
    expect(await rows(table)).toEqual(before);
    expect(await rows(table, { readOptimized: true })).toEqual(before);
    expect((await table.fileSlices()).every((s) => s.logFiles.length === 0 && s.baseInstantTime === compaction.requestedTime)).toBe(true);
    const plan = parseCompactionPlan(await storage.read(`.hoodie/${compaction.requestedTime}.compaction.requested`), 'plan');
    expect(plan.operations.map((o) => o.partitionPath).sort()).toEqual(['p=x', 'p=y']);
    // An incremental read over only the compaction returns nothing.
    expect(await rows(table, { from: commits[2]!.requestedTime, to: compaction.requestedTime })).toEqual([]);
    // Time travel before the compaction still merges the old slices.
    expect(await rows(table, { asOf: c2.instant })).toEqual([`a=10@${c2.instant}`, `b=2@${c1.instant}`, `c=3@${c1.instant}`]);
  });

  test('table.compact() while a writer continues: its logs land in the new slice', async () => {
    const { storage, table } = await morTable(false);
    await table.upsert([{ id: 'a', ts: 1, p: 'x', v: 1 }, { id: 'b', ts: 1, p: 'x', v: 2 }]);
    await table.upsert([{ id: 'a', ts: 2, p: 'x', v: 10 }]);
    const planned = await scheduleCompaction(engineContext(storage), { deltaCommits: 1, logBytes: undefined });
    expect(planned).toBeDefined();
    // A writer continues while the compaction is pending.
    const during = await table.upsert([{ id: 'b', ts: 2, p: 'x', v: 20 }]);
    const logNames = (await storage.list('p=x')).map((f) => f.path).filter((p) => p.includes('.log.'));
    expect(logNames.some((p) => p.includes(`_${planned}.log.1_`))).toBe(true);
    expect((await rows(table)).map((r) => r.split('@')[0])).toEqual(['a=10', 'b=20']);
    await runCompaction(engineContext(storage), planned!, { codec: 'GZIP', rowGroupRows: 1000, bloomFilter: { numEntries: 100 } });
    const reopened = await openTable(storage);
    expect((await rows(reopened)).map((r) => r.split('@')[0])).toEqual(['a=10', 'b=20']);
    expect((await rows(reopened)).find((r) => r.startsWith('b='))).toBe(`b=20@${during.instant}`);
    expect((await rows(reopened, { readOptimized: true })).map((r) => r.split('@')[0])).toEqual(['a=10', 'b=2']);
    const slice = (await reopened.fileSlices())[0]!;
    expect(slice.baseInstantTime).toBe(planned);
    expect(slice.logFiles.map((l) => l.instantTime)).toEqual([planned]);
  });

  test('a crashed compaction is re-run by the next compact(), and rolling back the latest write undoes compactions after it', async () => {
    const { storage, table } = await morTable(false);
    await table.upsert([{ id: 'a', ts: 1, p: 'x', v: 1 }]);
    const w2 = await table.upsert([{ id: 'a', ts: 2, p: 'x', v: 2 }]);
    const planned = await scheduleCompaction(engineContext(storage), { deltaCommits: 1, logBytes: undefined });
    await storage.write(`.hoodie/${planned}.compaction.inflight`, new Uint8Array(0));
    await storage.write(`p=x/leftover_0-0-0_${planned}.parquet`, new Uint8Array([1, 2, 3]));
    await storage.write(`.hoodie/.temp/${planned}/p=x/leftover_0-0-0_${planned}.parquet.marker.CREATE`, new Uint8Array(0));
    expect(await rows(table)).toEqual([`a=2@${w2.instant}`]);
    const done = await table.compact();
    expect(done.map((d) => d.instant)).toEqual([planned]);
    expect((await storage.list('p=x')).some((f) => f.path.includes('leftover'))).toBe(false);
    expect(await rows(table, { readOptimized: true })).toEqual([`a=2@${w2.instant}`]);
    // Roll back w2: the compaction after it goes first (with its plan, built from w2's files), then w2.
    const r = await table.rollback();
    expect(r.rolledBack).toBe(w2.instant);
    expect((await rows(table)).map((x) => x.split('@')[0])).toEqual(['a=1']);
    expect(table.timeline.find((i) => i.requestedTime === planned)).toBeUndefined();
    await table.compact();
    expect((await rows(table, { readOptimized: true })).map((x) => x.split('@')[0])).toEqual(['a=1']);
  });

  test('D3: a plan leaves out the logs of pending writes (here a writer silent past its heartbeat timeout)', async () => {
    const { storage } = await morTable(false);
    const clock = manualClock();
    const table = await openTable(storage);
    await table.upsert([{ id: 'a', ts: 1, p: 'x', v: 1 }, { id: 'b', ts: 1, p: 'x', v: 1 }], { clock });
    clock.advance(1000);
    await table.upsert([{ id: 'a', ts: 2, p: 'x', v: 2 }], { clock });
    clock.advance(1000);
    // The writer writes its log, then stalls past the default 60 s timeout.
    const ws = pausingStorage(storage, 'writer');
    const held = ws.pauseAt(call('write', /^p=x\/\..*\.log\./), { phase: 'after' });
    const writer = (await openTable(ws)).upsert([{ id: 'b', ts: 3, p: 'x', v: 3 }], { clock }).then(() => 'ok', (e: unknown) => e);
    const { path: pendingLog } = await held.reached;
    clock.advance(61_000);
    const planned = await scheduleCompaction(engineContext(storage), { deltaCommits: 1, logBytes: undefined }, true, { clock });
    expect(planned).toBeDefined();
    const plan = parseCompactionPlan(await storage.read(`.hoodie/${planned}.compaction.requested`), 'plan');
    const inputs = plan.operations.flatMap((o) => o.deltaFilePaths.map((n) => `${o.partitionPath}/${n}`));
    expect(inputs.length).toBe(1);
    expect(inputs).not.toContain(pendingLog);
    held.release();
    const failed = await writer;
    expect(failed).toBeInstanceOf(LakeletError);
    expect((await storage.list('p=x')).map((f) => f.path)).not.toContain(pendingLog);
    // The plan's inputs are all there: compaction and later writes work.
    expect((await table.compact({ clock })).map((r) => r.instant)).toEqual([planned]);
    await table.upsert([{ id: 'b', ts: 4, p: 'x', v: 4 }], { clock });
    expect((await rows(table)).map((r) => r.split('@')[0])).toEqual(['a=2', 'b=4']);
  });

  test('D3: a plan that captured a log its aborted writer then deleted is compacted without it; writes go on', async () => {
    const { storage, table } = await morTable(false);
    await table.upsert([{ id: 'a', ts: 1, p: 'x', v: 1 }, { id: 'b', ts: 1, p: 'x', v: 1 }]);
    await table.upsert([{ id: 'a', ts: 2, p: 'x', v: 2 }]);
    // What an older lakelet could leave: a plan listing a log of a writer that aborted and deleted it.
    const slice = (await table.fileSlices())[0]!;
    const gone = logFileName(slice.fileId, slice.baseInstantTime, 9, '0-99-0');
    const instant = '29990101000000000';
    await storage.write(`.hoodie/${instant}.compaction.requested`, serializeCompactionPlan({ operations: [{
      baseInstantTime: slice.baseInstantTime,
      deltaFilePaths: [...slice.logFiles.map((l) => l.name), gone],
      dataFilePath: slice.baseFile?.name,
      fileId: slice.fileId,
      partitionPath: slice.partitionPath,
      metrics: {},
    }] }));
    // A write with inline services runs the pending plan after its commit: it must not fail.
    await table.upsert([{ id: 'c', ts: 1, p: 'y', v: 1 }], { compaction: { inline: true, deltaCommits: 100 } });
    const reopened = await openTable(storage);
    expect(reopened.timeline.filter((i) => i.state !== 'COMPLETED')).toEqual([]);
    expect(reopened.timeline.some((i) => i.requestedTime === instant && i.state === 'COMPLETED')).toBe(true);
    await reopened.upsert([{ id: 'b', ts: 5, p: 'x', v: 5 }]);
    expect(await reopened.compact()).toHaveLength(1);
    expect((await rows(reopened)).map((r) => r.split('@')[0])).toEqual(['a=2', 'b=5', 'c=1']);
  });

  test('D3: a planned log that a completed commit wrote and storage lacks is NOT_FOUND, not compacted away', async () => {
    const { storage, table } = await morTable(false);
    await table.upsert([{ id: 'a', ts: 1, p: 'x', v: 1 }]);
    await table.upsert([{ id: 'a', ts: 2, p: 'x', v: 2 }]);
    const planned = await scheduleCompaction(engineContext(storage), { deltaCommits: 1, logBytes: undefined }, true);
    const log = (await table.fileSlices())[0]!.logFiles[0]!;
    await storage.delete(log.path);
    const err = await table.compact().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LakeletError);
    expect((err as LakeletError).code).toBe('NOT_FOUND');
    expect((err as LakeletError).message).toContain(log.path);
    // Nothing was committed: the plan is still pending.
    expect((await openTable(storage)).timeline.find((i) => i.requestedTime === planned)?.state).not.toBe('COMPLETED');
  });
});
