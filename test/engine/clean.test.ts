// The cleaner on real copy-on-write tables: each policy deletes exactly the slices it should, retained
// commits read by time travel as they did before, older ones are NOT_FOUND, replaced groups go once their
// replacecommit leaves the retention window, savepointed files stay, and a crash at any storage call leaves
// a readable table on which the next clean succeeds.
import { describe, expect, test } from 'vitest';
import { createTable, isLakeletError, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { clean } from '../../src/engine/services/clean.js';
import { savepoint } from '../../src/engine/services/savepoint.js';
import { TableState } from '../../src/engine/table-state.js';
import { parseBaseFileName } from '../../src/file-group/file-names.js';
import { parseCleanerPlan, parseCleanMetadata } from '../../src/timeline/clean-metadata.js';
import { parseInstantTime } from '../../src/timeline/instant-time.js';
import { copyStorage, faultyStorage } from '../helpers/storage-faults.js';
import { engineContext } from '../../src/engine/context.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'clean',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }],
};
const OPTIONS = { bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false } };

async function snapshot(table: Table, asOf?: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['id', 'part', 'v'], ...(asOf ? { asOf } : {}) })) out.push(`${r.part}|${r.id}|${r.v}`);
  return out.sort();
}

/** A table with `n` upserts: commit 1 inserts a..d in x and e..f in y, commit k updates one row of x (odd k) or y (even k). */
async function buildTable(n: number): Promise<{ storage: Storage; table: Table; commits: string[]; snaps: Map<string, string[]> }> {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 'clean', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...OPTIONS });
  const snaps = new Map<string, string[]>();
  await table.upsert([
    { id: 'a', part: 'x', ts: 1, v: 0 }, { id: 'b', part: 'x', ts: 1, v: 0 }, { id: 'e', part: 'y', ts: 1, v: 0 }, { id: 'f', part: 'y', ts: 1, v: 0 },
  ]);
  snaps.set(table.commits.at(-1)!.requestedTime, await snapshot(table));
  for (let k = 2; k <= n; k++) {
    const row = k % 2 === 1 ? { id: 'a', part: 'x', ts: k, v: k } : { id: 'e', part: 'y', ts: k, v: k };
    await table.upsert([row]);
    snaps.set(table.commits.at(-1)!.requestedTime, await snapshot(table));
  }
  return { storage, table, commits: table.commits.map((c) => c.requestedTime), snaps };
}

/** Instants of the base files on storage, per partition. */
async function baseInstants(storage: Storage): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const f of await storage.list('', { recursive: true })) {
    if (f.path.startsWith('.hoodie/')) continue;
    const slash = f.path.lastIndexOf('/');
    const b = parseBaseFileName(f.path.slice(slash + 1));
    if (b) (out[f.path.slice(0, slash)] ??= []).push(b.instantTime);
  }
  for (const v of Object.values(out)) v.sort();
  return out;
}

async function notFound(storage: Storage, asOf: string): Promise<string | undefined> {
  const state = await TableState.load(storage);
  try {
    await state.checkReadable(asOf);
    return undefined;
  } catch (err) {
    return isLakeletError(err, 'NOT_FOUND') ? err.message : `other: ${String(err)}`;
  }
}

describe('KEEP_LATEST_COMMITS', () => {
  test('keeps every slice the last N commits read, and the latest slice before them', async () => {
    const { storage, table, commits, snaps } = await buildTable(12);
    const x = commits.filter((_, i) => i === 0 || (i + 1) % 2 === 1); // commits writing partition x
    const y = commits.filter((_, i) => i === 0 || (i + 1) % 2 === 0);
    expect(await baseInstants(storage)).toEqual({ 'part=x': x, 'part=y': y });

    const result = await clean(engineContext(storage), { retainCommits: 3 });
    const ectr = commits[9] as string; // commits 10, 11, 12 retained
    expect(result?.earliestInstantToRetain).toBe(ectr);
    // x: slices at 1,3,5,7,9,11 → 11 (≥ ECTR) and 9 (latest before ECTR) stay. y: 1,2,4,...,12 → 10, 12 and 8.
    expect(await baseInstants(storage)).toEqual({ 'part=x': [commits[8], commits[10]], 'part=y': [commits[7], commits[9], commits[11]] });
    expect(result?.filesDeleted).toBe(x.length - 2 + y.length - 3);

    const reopened = await openTable(storage);
    expect(await snapshot(reopened)).toEqual(snaps.get(commits[11] as string));
    for (const t of commits.slice(9)) expect(await snapshot(reopened, t), `as of ${t}`).toEqual(snaps.get(t));
    for (const t of commits.slice(9)) expect(await notFound(storage, t)).toBeUndefined();
    for (const t of commits.slice(0, 9)) {
      const msg = await notFound(storage, t);
      expect(msg, `as of ${t}`).toContain(t);
      expect(msg).toContain(`oldest readable instant is ${ectr}`);
    }

    // The timeline holds the three clean files; the plan and metadata agree with what was deleted.
    const names = (await storage.list('.hoodie')).map((f) => f.path.slice(8)).filter((n) => n.includes('.clean'));
    expect(names).toEqual([`${result?.instant}.clean`, `${result?.instant}.clean.inflight`, `${result?.instant}.clean.requested`]);
    const plan = parseCleanerPlan(await storage.read(`.hoodie/${result?.instant}.clean.requested`), 'plan');
    expect(plan.earliestInstantToRetain).toEqual({ timestamp: ectr, action: 'commit', state: 'COMPLETED' });
    const md = parseCleanMetadata(await storage.read(`.hoodie/${result?.instant}.clean`), 'md');
    expect(md.totalFilesDeleted).toBe(result?.filesDeleted);
    expect(md.earliestCommitToRetain).toBe(ectr);
    expect(md.lastCompletedCommitTimestamp).toBe(commits[11]);
    expect(Object.values(md.partitionMetadata).flatMap((p) => p.successDeleteFiles).every((n) => n.endsWith('.parquet') && !n.includes('/'))).toBe(true);

    // Nothing more to clean: no new instant.
    expect(await clean(engineContext(storage), { retainCommits: 3 })).toBeUndefined();
    expect((await storage.list('.hoodie')).filter((f) => f.path.endsWith('.clean')).length).toBe(1);
  });

  test('with no more commits than retained, nothing is cleaned and no instant is written', async () => {
    const { storage } = await buildTable(4);
    expect(await clean(engineContext(storage), { retainCommits: 4 })).toBeUndefined();
    expect((await storage.list('.hoodie')).some((f) => f.path.includes('.clean'))).toBe(false);
  });

  test('replaced file groups are deleted once their replacecommit is older than the earliest commit to retain', async () => {
    const { storage, table } = await buildTable(3);
    const before = await baseInstants(storage);
    await table.insertOverwrite([{ id: 'z', part: 'x', ts: 1, v: 99 }]);
    const overwrite = table.commits.at(-1)!.requestedTime;
    const afterOverwrite = await snapshot(table);
    // Retain 2: the replacecommit is the earliest retained → replaced group stays (time travel before it works).
    await table.upsert([{ id: 'e', part: 'y', ts: 50, v: 50 }]);
    await clean(engineContext(storage), { retainCommits: 2 });
    const xFiles = (await baseInstants(storage))['part=x'] as string[];
    expect(xFiles).toEqual(expect.arrayContaining([...(before['part=x'] as string[]).slice(-1), overwrite]));
    // Two more commits: the replacecommit falls behind the retention window → the old group goes entirely.
    await table.upsert([{ id: 'f', part: 'y', ts: 60, v: 60 }]);
    await table.upsert([{ id: 'f', part: 'y', ts: 70, v: 70 }]);
    await clean(engineContext(storage), { retainCommits: 2 });
    expect((await baseInstants(storage))['part=x']).toEqual([overwrite]);
    const reopened = await openTable(storage);
    expect((await snapshot(reopened)).filter((r) => r.startsWith('x|'))).toEqual(['x|z|99']);
    expect(afterOverwrite.filter((r) => r.startsWith('x|'))).toEqual(['x|z|99']);
  });

  test('a deleted partition disappears entirely (files and partition metadata) once out of retention', async () => {
    const { storage, table } = await buildTable(3);
    await table.deletePartitions(['part=x']);
    const dropped = table.commits.at(-1)!.requestedTime;
    for (let k = 0; k < 3; k++) await table.upsert([{ id: 'e', part: 'y', ts: 100 + k, v: k }]);
    expect((await storage.list('part=x')).length).toBeGreaterThan(1);
    const result = await clean(engineContext(storage), { retainCommits: 2 });
    expect(await storage.list('part=x', { recursive: true })).toEqual([]);
    const md = parseCleanMetadata(await storage.read(`.hoodie/${result?.instant}.clean`), 'md');
    expect(md.partitionMetadata['part=x']?.isPartitionDeleted).toBe(true);
    const plan = parseCleanerPlan(await storage.read(`.hoodie/${result?.instant}.clean.requested`), 'plan');
    expect(plan.partitionsToBeDeleted).toEqual(['part=x']);
    expect((await snapshot(await openTable(storage))).every((r) => r.startsWith('y|'))).toBe(true);
    expect(await notFound(storage, dropped)).toContain(`oldest readable instant is ${result?.earliestInstantToRetain}`);
    expect(await notFound(storage, result?.earliestInstantToRetain as string)).toBeUndefined();
  });

  test('savepointed files survive, and the savepoint stays readable', async () => {
    const { storage, commits, snaps } = await buildTable(8);
    await savepoint(engineContext(storage), { instant: commits[2] as string });
    await clean(engineContext(storage), { retainCommits: 2 });
    const files = await baseInstants(storage);
    // Commit 3 wrote x; its slice and y's slice of commit 2 were the latest as of commit 3.
    expect(files['part=x']).toContain(commits[2]);
    expect(files['part=y']).toContain(commits[1]);
    const reopened = await openTable(storage);
    expect(await snapshot(reopened, commits[2] as string)).toEqual(snaps.get(commits[2] as string));
    expect(await notFound(storage, commits[2] as string)).toBeUndefined();
    const msg = await notFound(storage, commits[3] as string);
    expect(msg).toContain(`savepoint ${commits[2]}`);
  });
});

describe('KEEP_LATEST_FILE_VERSIONS', () => {
  test('keeps the latest N slices of every group and reports the instant from which all snapshots are intact', async () => {
    const { storage, commits, snaps } = await buildTable(9);
    const result = await clean(engineContext(storage), { policy: 'KEEP_LATEST_FILE_VERSIONS', retainFileVersions: 2 });
    // x slices 1,3,5,7,9 → 7,9; y slices 1,2,4,6,8 → 6,8.
    expect(await baseInstants(storage)).toEqual({ 'part=x': [commits[6], commits[8]], 'part=y': [commits[5], commits[7]] });
    expect(result?.filesDeleted).toBe(6);
    // Snapshots from commit 7 on are intact (x's slice 5 is gone, so commit 6 is not).
    expect(result?.earliestInstantToRetain).toBe(commits[6]);
    const reopened = await openTable(storage);
    for (const t of commits.slice(6)) expect(await snapshot(reopened, t)).toEqual(snaps.get(t));
    expect(await notFound(storage, commits[5] as string)).toContain(commits[6]);
  });

  test('replaced groups are deleted entirely right away', async () => {
    const { storage, table } = await buildTable(2);
    await table.insertOverwrite([{ id: 'z', part: 'x', ts: 1, v: 1 }]);
    const overwrite = table.commits.at(-1)!.requestedTime;
    const result = await clean(engineContext(storage), { policy: 'KEEP_LATEST_FILE_VERSIONS', retainFileVersions: 3 });
    expect((await baseInstants(storage))['part=x']).toEqual([overwrite]);
    expect(result?.earliestInstantToRetain).toBe(overwrite);
  });
});

describe('KEEP_LATEST_BY_HOURS', () => {
  test('retains the commits of the last hours', async () => {
    const { storage, commits, snaps } = await buildTable(8);
    const k = 5; // commits[5..] fall within 2 hours of "now"
    const now = new Date(parseInstantTime(commits[k] as string).getTime() + 2 * 3_600_000);
    const result = await clean(engineContext(storage), { policy: 'KEEP_LATEST_BY_HOURS', retainHours: 2, now });
    expect(result?.earliestInstantToRetain).toBe(commits[k]);
    // x: 1,3,5,7 → 7 (≥), 5 (latest before); y: 1,2,4,6,8 → 6, 8 (≥), 4 (latest before).
    expect(await baseInstants(storage)).toEqual({ 'part=x': [commits[4], commits[6]], 'part=y': [commits[3], commits[5], commits[7]] });
    const reopened = await openTable(storage);
    for (const t of commits.slice(k)) expect(await snapshot(reopened, t)).toEqual(snaps.get(t));
    // NOT_FOUND (notFound returns 'other: …' for any other error), naming the oldest readable instant.
    expect(await notFound(storage, commits[k - 1] as string)).toContain(`oldest readable instant is ${commits[k]}`);
  });
});

describe('crash at every storage call of a clean', async () => {
  const { storage: base, commits, snaps } = await buildTable(8);
  const counting = faultyStorage(await copyStorage(base, (files) => memoryStorage({ files })));
  await clean(engineContext(counting), { retainCommits: 3 });
  const total = counting.calls;
  const expectedFiles = await baseInstants(counting);

  test('every crash point leaves a readable table, and the next clean finishes the job', { timeout: 120_000 }, async () => {
    expect(total).toBeGreaterThan(10);
    let pendingSeen = 0;
    for (let n = 1; n <= total; n++) {
      const storage = await copyStorage(base, (files) => memoryStorage({ files }));
      const crashed = await clean(engineContext(faultyStorage(storage, n)), { retainCommits: 3 }).then(() => false, () => true);
      expect(crashed, `call ${n}`).toBe(true);
      const reopened = await openTable(storage);
      expect(await snapshot(reopened), `latest after a crash at ${n}`).toEqual(snaps.get(commits[7] as string));
      for (const t of commits.slice(5)) expect(await snapshot(reopened, t), `as of ${t} after a crash at ${n}`).toEqual(snaps.get(t));
      if (reopened.timeline.some((i) => i.action === 'clean' && i.state !== 'COMPLETED')) pendingSeen++;
      await clean(engineContext(storage), { retainCommits: 3 });
      expect(await baseInstants(storage), `files after the next clean (crash at ${n})`).toEqual(expectedFiles);
      const after = await openTable(storage);
      expect(after.timeline.filter((i) => i.state !== 'COMPLETED'), `no pending instants (crash at ${n})`).toEqual([]);
      expect(after.timeline.filter((i) => i.action === 'clean').length, `one clean instant (crash at ${n})`).toBe(1);
    }
    expect(pendingSeen).toBeGreaterThan(0);
  });
});
