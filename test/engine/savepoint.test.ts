// Savepoint and restore on in-memory copy-on-write tables: the savepoint lists exactly the latest slices'
// files; restore returns the snapshot of the savepoint and removes later commits; invalid targets fail;
// a crash at every storage call of a restore leaves a prefix of the history and the next restore or
// write finishes it.
import { describe, expect, it, test } from 'vitest';
import { createTable, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { LakeletError } from '../../src/errors.js';
import { deleteSavepoint, savepoint } from '../../src/engine/services/savepoint.js';
import { finishPendingRestores, restore } from '../../src/engine/services/restore.js';
import { parseRestoreMetadata, parseRestorePlan } from '../../src/timeline/restore-metadata.js';
import { parseSavepointMetadata, savepointedFilePaths } from '../../src/timeline/savepoint-metadata.js';
import { Timeline } from '../../src/timeline/timeline.js';
import { copyStorage, faultyStorage } from '../helpers/storage-faults.js';
import { engineContext } from '../../src/engine/context.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'sp',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: ['null', 'double'], default: null }],
};
const OPTIONS = { bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false } };

async function snapshot(table: Table, asOf?: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['id', 'part', 'ts', 'v'], ...(asOf ? { asOf } : {}) })) out.push(`${r.part}|${r.id}|${r.ts}|${r.v}`);
  return out.sort();
}

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    return err instanceof LakeletError ? err.code : `not a LakeletError: ${String(err)}`;
  }
  return undefined;
}

interface History {
  storage: Storage;
  /** Requested times of the five commits, oldest first. */
  commits: string[];
  /** The snapshot after each commit (index i = after commits[i]). */
  snaps: string[][];
}

/** Five commits: upsert, upsert, delete, insert overwrite (replacecommit), upsert. */
async function history(): Promise<History> {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 'sp', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...OPTIONS });
  const snaps: string[][] = [];
  await table.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }, { id: 'b', part: 'x', ts: 1, v: 2 }, { id: 'c', part: 'y', ts: 1, v: 3 }], OPTIONS);
  snaps.push(await snapshot(table));
  await table.upsert([{ id: 'a', part: 'x', ts: 2, v: 10 }, { id: 'd', part: 'z', ts: 1, v: 4 }], OPTIONS);
  snaps.push(await snapshot(table));
  await table.delete(['c'], OPTIONS);
  snaps.push(await snapshot(table));
  await table.insertOverwrite([{ id: 'x1', part: 'x', ts: 5, v: 5 }], OPTIONS);
  snaps.push(await snapshot(table));
  await table.upsert([{ id: 'e', part: 'y', ts: 1, v: 6 }, { id: 'd', part: 'z', ts: 3, v: 40 }], OPTIONS);
  snaps.push(await snapshot(table));
  const commits = table.commits.map((c) => c.requestedTime);
  return { storage, commits, snaps };
}

const timelineNames = async (s: Storage): Promise<string[]> => (await s.list('.hoodie')).filter((e) => e.kind === 'file').map((e) => e.path.slice('.hoodie/'.length)).filter((n) => /^\d/.test(n));
const SAVED_SNAPSHOT = ['x|a|2|10', 'x|b|1|2', 'y|c|1|3', 'z|d|1|4'];

describe('savepoint', () => {
  it('savepoints the latest commit by default, without hiding the commit', async () => {
    const h = await history();
    const result = await savepoint(engineContext(h.storage), { user: 'ann', comments: 'before the migration', now: new Date(1_700_000_000_123) });
    expect(result.instant).toBe(h.commits[4]);
    const names = await timelineNames(h.storage);
    expect(names).toContain(`${h.commits[4]}.savepoint.inflight`);
    expect(names).toContain(`${h.commits[4]}.savepoint`);
    const md = parseSavepointMetadata(await h.storage.read(`.hoodie/${h.commits[4]}.savepoint`), 'sp');
    expect(md).toEqual(result.metadata);
    expect(md.savepointedBy).toBe('ann');
    expect(md.comments).toBe('before the migration');
    expect(md.savepointedAt).toBe(1_700_000_000_123);
    const table = await openTable(h.storage);
    expect(table.commits.map((c) => c.requestedTime)).toEqual(h.commits);
    expect(table.timeline.filter((i) => i.action === 'savepoint').map((i) => [i.requestedTime, i.state])).toEqual([[h.commits[4], 'COMPLETED']]);
    expect(await snapshot(table)).toEqual(h.snaps[4]);
    expect(await snapshot(table, h.commits[4])).toEqual(h.snaps[4]);
  });

  it('lists exactly the files of the latest slices as of the savepointed commit', async () => {
    const h = await history();
    const t = h.commits[1] as string;
    const { metadata } = await savepoint(engineContext(h.storage), { instant: t });
    const slices = await (await openTable(h.storage)).fileSlices({ asOf: t });
    const expected = slices.flatMap((s) => [s.baseFile?.path, ...s.logFiles.map((l) => l.path)]).filter((p): p is string => p !== undefined).sort();
    expect(expected.length).toBe(3); // one group per partition x, y, z
    expect(savepointedFilePaths(metadata)).toEqual(expected);
    expect(Object.keys(metadata.partitionMetadata).sort()).toEqual([...new Set(slices.map((s) => s.partitionPath))].sort());
    for (const [p, m] of Object.entries(metadata.partitionMetadata)) {
      expect(m.partitionPath).toBe(p);
      for (const name of m.savepointDataFile) expect(name.includes('/')).toBe(false);
    }
    // The files of the savepointed commit's snapshot, not the later ones.
    expect(expected.some((p) => p.includes(h.commits[4] as string))).toBe(false);
  });

  it('refuses non-commits, bad instants, an empty table and a second savepoint', async () => {
    const h = await history();
    expect(await codeOf(savepoint(engineContext(h.storage), { instant: '20000101000000000' }))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(savepoint(engineContext(h.storage), { instant: 'yesterday' }))).toBe('INVALID_ARGUMENT');
    await savepoint(engineContext(h.storage), { instant: h.commits[1] });
    expect(await codeOf(savepoint(engineContext(h.storage), { instant: h.commits[1] }))).toBe('ALREADY_EXISTS');
    const empty = memoryStorage();
    await createTable(empty, { name: 'e', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', schema: SCHEMA });
    expect(await codeOf(savepoint(engineContext(empty)))).toBe('INVALID_ARGUMENT');
  });

  it('deleteSavepoint removes both savepoint files and keeps the commit', async () => {
    const h = await history();
    await savepoint(engineContext(h.storage), { instant: h.commits[1] });
    await deleteSavepoint(engineContext(h.storage), h.commits[1] as string);
    expect((await timelineNames(h.storage)).filter((n) => n.includes('savepoint'))).toEqual([]);
    expect((await openTable(h.storage)).commits.map((c) => c.requestedTime)).toEqual(h.commits);
    expect(await codeOf(deleteSavepoint(engineContext(h.storage), h.commits[1] as string))).toBe('NOT_FOUND');
    expect(await codeOf(restore(engineContext(h.storage), h.commits[1] as string))).toBe('INVALID_ARGUMENT');
  });
});

describe('Timeline with a savepoint', () => {
  it('keeps the commit and the savepoint that share a requested time; lookups by time return the commit', () => {
    const tl = Timeline.fromFileNames([
      '20240101000000000.commit.requested', '20240101000000000.inflight', '20240101000000000.commit',
      '20240101000000000.savepoint.inflight', '20240101000000000.savepoint',
    ]);
    expect(tl.instants.map((i) => `${i.action}:${i.state}`)).toEqual(['commit:COMPLETED', 'savepoint:COMPLETED']);
    expect(tl.completedWrites().map((i) => i.action)).toEqual(['commit']);
    expect(tl.get('20240101000000000')?.action).toBe('commit');
    expect(tl.completedAt('20240101000000000')?.action).toBe('commit');
    expect(tl.isCompletedWrite('20240101000000000')).toBe(true);
    expect(tl.savepoints().map((i) => i.fileName)).toEqual(['20240101000000000.savepoint']);
  });
});

describe('restore', () => {
  it('returns the table to the savepointed snapshot and removes the later commits', async () => {
    const h = await history();
    const t = h.commits[1] as string;
    expect(h.snaps[1]).toEqual(SAVED_SNAPSHOT);
    const sp = await savepoint(engineContext(h.storage), { instant: t });
    const result = await restore(engineContext(h.storage), t);
    expect(result.savepoint).toBe(t);
    expect(result.rolledBack).toEqual([
      { commitTime: h.commits[4], action: 'commit' },
      { commitTime: h.commits[3], action: 'replacecommit' },
      { commitTime: h.commits[2], action: 'commit' },
    ]);
    const table = await openTable(h.storage);
    expect(await snapshot(table)).toEqual(SAVED_SNAPSHOT);
    expect(table.commits.map((c) => c.requestedTime)).toEqual(h.commits.slice(0, 2));
    // Time travel to the savepoint and before it still works.
    expect(await snapshot(table, t)).toEqual(SAVED_SNAPSHOT);
    expect(await snapshot(table, h.commits[0])).toEqual(h.snaps[0]);
    // Timeline: the restore instant in all three states, the savepoint kept, no rollback instants left.
    const names = await timelineNames(h.storage);
    expect(names.filter((n) => n.includes('.restore'))).toEqual([`${result.instant}.restore`, `${result.instant}.restore.inflight`, `${result.instant}.restore.requested`]);
    expect(names.filter((n) => n.includes('rollback'))).toEqual([]);
    expect(names.filter((n) => h.commits.slice(2).some((c) => n.startsWith(c as string)))).toEqual([]);
    expect(names).toContain(`${t}.savepoint`);
    // No data file of a rolled-back commit is left; the savepointed files are all there.
    const data = (await h.storage.list('', { recursive: true })).map((f) => f.path).filter((p) => p.endsWith('.parquet'));
    for (const c of h.commits.slice(2)) expect(data.filter((p) => p.includes(c as string))).toEqual([]);
    for (const p of savepointedFilePaths(sp.metadata)) expect(data).toContain(p);
    // The plan and the completed metadata.
    const plan = parseRestorePlan(await h.storage.read(`.hoodie/${result.instant}.restore.requested`), 'plan');
    expect(plan).toEqual({ instantsToRollback: result.rolledBack, version: 2, savepointToRestoreTimestamp: t });
    const md = parseRestoreMetadata(await h.storage.read(`.hoodie/${result.instant}.restore`), 'md');
    expect(md).toEqual(result.metadata);
    expect(md.startRestoreTime).toBe(result.instant);
    expect(md.instantsToRollback).toEqual([h.commits[4], h.commits[3], h.commits[2]]);
    expect(md.restoreInstantInfo).toEqual(result.rolledBack);
    expect(Object.keys(md.hoodieRestoreMetadata).sort()).toEqual(h.commits.slice(2).sort());
    for (const c of h.commits.slice(2)) {
      const [rb] = md.hoodieRestoreMetadata[c as string] ?? [];
      expect(rb?.commitsRollback).toEqual([c]);
      expect(rb?.totalFilesDeleted).toBeGreaterThan(0);
    }
  });

  it('the next write works on the restored table', async () => {
    const h = await history();
    const t = h.commits[1] as string;
    await savepoint(engineContext(h.storage), { instant: t });
    await restore(engineContext(h.storage), t);
    const table = await openTable(h.storage);
    await table.upsert([{ id: 'b', part: 'x', ts: 9, v: 90 }, { id: 'f', part: 'y', ts: 1, v: 7 }], OPTIONS);
    expect(await snapshot(table)).toEqual(['x|a|2|10', 'x|b|9|90', 'y|c|1|3', 'y|f|1|7', 'z|d|1|4']);
    expect(table.commits).toHaveLength(3);
    expect(await snapshot(table, t)).toEqual(SAVED_SNAPSHOT);
  });

  it('restoring to the latest commit rolls nothing back', async () => {
    const h = await history();
    await savepoint(engineContext(h.storage));
    const result = await restore(engineContext(h.storage), h.commits[4] as string);
    expect(result.rolledBack).toEqual([]);
    expect(await snapshot(await openTable(h.storage))).toEqual(h.snaps[4]);
  });

  it('refuses instants that are not savepoints and changes nothing', async () => {
    const h = await history();
    await savepoint(engineContext(h.storage), { instant: h.commits[1] });
    const before = await timelineNames(h.storage);
    expect(await codeOf(restore(engineContext(h.storage), h.commits[2] as string))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(restore(engineContext(h.storage), '20000101000000000'))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(restore(engineContext(h.storage), 'latest'))).toBe('INVALID_ARGUMENT');
    expect(await timelineNames(h.storage)).toEqual(before);
    expect(await snapshot(await openTable(h.storage))).toEqual(h.snaps[4]);
  });

  it('a savepoint whose commit a restore removed cannot be restored', async () => {
    const h = await history();
    await savepoint(engineContext(h.storage), { instant: h.commits[1] });
    await savepoint(engineContext(h.storage), { instant: h.commits[3] });
    await restore(engineContext(h.storage), h.commits[1] as string);
    expect(await codeOf(restore(engineContext(h.storage), h.commits[3] as string))).toBe('INVALID_ARGUMENT');
    expect(await snapshot(await openTable(h.storage))).toEqual(SAVED_SNAPSHOT);
  });

  it('rolls back a failed (pending) write after the savepoint first', async () => {
    const h = await history();
    await savepoint(engineContext(h.storage), { instant: h.commits[1] });
    // A write that crashed after writing its data files: find a crash point that leaves it pending.
    let pendingSeen = false;
    for (let n = 10; n < 60 && !pendingSeen; n += 5) {
      const copy = await copyStorage(h.storage, (files) => memoryStorage({ files }));
      const faulty = faultyStorage(copy, n);
      const failed = await openTable(faulty).then((t) => t.upsert([{ id: 'z9', part: 'q', ts: 1, v: 1 }], OPTIONS)).then(() => false, () => true);
      const reopened = await openTable(copy);
      if (!failed || reopened.timeline.every((i) => i.state === 'COMPLETED')) continue;
      pendingSeen = true;
      await restore(engineContext(copy), h.commits[1] as string);
      const after = await openTable(copy);
      expect(after.timeline.filter((i) => i.state !== 'COMPLETED')).toEqual([]);
      expect(await snapshot(after)).toEqual(SAVED_SNAPSHOT);
      expect((await copy.list('', { recursive: true })).filter((f) => f.path.startsWith('part=q/') && f.path.endsWith('.parquet'))).toEqual([]);
    }
    expect(pendingSeen).toBe(true);
  });
});

describe('crash at every storage call of a restore', async () => {
  const h = await history();
  const t = h.commits[1] as string;
  await savepoint(engineContext(h.storage), { instant: t });
  const counting = faultyStorage(await copyStorage(h.storage, (files) => memoryStorage({ files })));
  await restore(engineContext(counting), t);
  const totalCalls = counting.calls;
  const NEXT = [{ id: 'g', part: 'y', ts: 1, v: 8 }];
  const afterNext = [...SAVED_SNAPSHOT, 'y|g|1|8'].sort();
  const unrestoredNext = [...h.snaps[4] ?? [], 'y|g|1|8'].sort();

  test('the restore makes enough storage calls to be worth crashing', () => {
    expect(totalCalls).toBeGreaterThan(30);
  });

  test('every crash leaves the snapshot of a prefix of the history; the next restore or write finishes it', { timeout: 300_000 }, async () => {
    const seenPrefixes = new Set<number>();
    let crashesAfterCompletion = 0;
    let crashesMidRestore = 0;
    for (let n = 1; n <= totalCalls; n++) {
      const storage = await copyStorage(h.storage, (files) => memoryStorage({ files }));
      const crashed = await restore(engineContext(faultyStorage(storage, n)), t).then(() => false, () => true);
      expect(crashed, `call ${n} of ${totalCalls} should fail the restore`).toBe(true);
      // Hudi's guarantee: commits are removed newest first, so readers see the history up to some commit
      // between the savepoint and the old latest one, never a mix.
      const reopened = await openTable(storage);
      const commits = reopened.commits.map((c) => c.requestedTime);
      const k = commits.length - 1;
      expect(k, `crash at ${n}: commits ${commits.join(',')}`).toBeGreaterThanOrEqual(1);
      expect(commits, `crash at ${n}`).toEqual(h.commits.slice(0, k + 1));
      expect(await snapshot(reopened), `crash at ${n}`).toEqual(h.snaps[k]);
      seenPrefixes.add(k);
      // Once `<r>.restore.requested` exists the restore is bound to finish; before that nothing happened.
      const started = reopened.timeline.some((i) => i.action === 'restore');
      if (!started) expect(k, `crash at ${n} before the restore started`).toBe(4);
      // A crash while removing the rollback instants comes after the restore completed.
      const completed = reopened.timeline.some((i) => i.action === 'restore' && i.state === 'COMPLETED');
      if (completed) expect(k, `crash at ${n} after the restore completed`).toBe(1);
      if (completed) crashesAfterCompletion++;
      else if (started) crashesMidRestore++;

      if (n % 2 === 0) {
        // The next restore finishes (or redoes) it.
        await restore(engineContext(storage), t);
      } else {
        // The next writer finishes it before writing.
        await finishPendingRestores(await engineContext(storage).load());
        // Single-writer recovery: a commit lock the crashed restore left is broken at once, not after its expiry.
        await (await openTable(storage)).upsert(NEXT, { ...OPTIONS, heartbeatTimeoutMs: 0 });
      }
      const done = await openTable(storage);
      expect(done.timeline.filter((i) => i.state !== 'COMPLETED'), `no pending instants (crash at ${n})`).toEqual([]);
      expect(done.timeline.filter((i) => i.action === 'rollback'), `no rollback instants left (crash at ${n})`).toEqual([]);
      expect(done.timeline.filter((i) => i.action === 'restore').length, `crash at ${n}`).toBe((started ? 1 : 0) + (n % 2 === 0 && (completed || !started) ? 1 : 0));
      expect(await snapshot(done), `after finishing (crash at ${n})`).toEqual(n % 2 === 0 ? SAVED_SNAPSHOT : started ? afterNext : unrestoredNext);
      const live = new Set(done.commits.map((c) => c.requestedTime));
      const orphans = (await storage.list('', { recursive: true })).filter((f) => f.path.endsWith('.parquet') && !live.has(f.path.slice(-25, -8)));
      expect(orphans.map((f) => f.path), `files of rolled-back commits are gone (crash at ${n})`).toEqual([]);
    }
    // Crashes land before, during and after the commits' removal.
    expect([...seenPrefixes].sort()).toEqual([1, 2, 3, 4]);
    expect(crashesMidRestore).toBeGreaterThan(10);
    expect(crashesAfterCompletion).toBeGreaterThan(2); // the leftover rollback instants are swept
  });
});

describe('merge-on-read', () => {
  it('the savepoint lists base and log files; restore undoes later deltacommits (log blocks included)', async () => {
    const storage = memoryStorage();
    const schema = { type: 'record', name: 'm', namespace: 'sp', fields: [{ name: 'id', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }] };
    const table = await createTable(storage, { name: 'm', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', schema, ...OPTIONS });
    const rows = async (t: Table): Promise<string[]> => {
      const out: string[] = [];
      for await (const r of t.rows({ columns: ['id', 'v'] })) out.push(`${r.id}=${r.v}`);
      return out.sort();
    };
    await table.upsert([{ id: 'a', ts: 1, v: 1 }, { id: 'b', ts: 1, v: 2 }], OPTIONS);
    await table.upsert([{ id: 'a', ts: 2, v: 10 }], OPTIONS);
    const t = table.commits[1]?.requestedTime as string;
    const saved = await rows(table);
    expect(saved).toEqual(['a=10', 'b=2']);
    const { metadata } = await savepoint(engineContext(storage), { instant: t });
    const files = savepointedFilePaths(metadata);
    expect(files.filter((f) => f.endsWith('.parquet'))).toHaveLength(1);
    expect(files.filter((f) => f.includes('.log.')).length).toBeGreaterThan(0);
    await table.upsert([{ id: 'a', ts: 3, v: 100 }, { id: 'c', ts: 1, v: 3 }], OPTIONS);
    await table.delete(['b'], OPTIONS);
    expect(await rows(await openTable(storage))).toEqual(['a=100', 'c=3']);
    const result = await restore(engineContext(storage), t);
    expect(result.rolledBack.map((i) => i.action)).toEqual(['deltacommit', 'deltacommit']);
    const restored = await openTable(storage);
    expect(await rows(restored)).toEqual(saved);
    expect(restored.commits.map((c) => c.requestedTime).at(-1)).toBe(t);
    await restored.upsert([{ id: 'd', ts: 1, v: 4 }], OPTIONS);
    expect(await rows(restored)).toEqual([...saved, 'd=4']);
  });
});
