// Archival of the v6 timeline: the planner's limits (min/max, pending writes, savepoints, the clean's earliest
// commit to retain, replacecommits not yet cleaned), archive files that parse back into the archived instants
// and their commit metadata, reads (snapshot, time travel, incremental) across the archived part, reopening,
// and a crash at every storage call.
import { describe, expect, test } from 'vitest';
import { createTable, isLakeletError, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { archive } from '../../src/engine/services/archival.js';
import { clean } from '../../src/engine/services/clean.js';
import { TableState } from '../../src/engine/table-state.js';
import { scanLogBlocks } from '../../src/format/log/block.js';
import { planArchival } from '../../src/plan/archival-plan.js';
import { ArchivedTimeline, archiveFileName, parseArchiveFile } from '../../src/timeline/archived-timeline.js';
import { INIT_INSTANT_TIME } from '../../src/timeline/instant.js';
import { Timeline } from '../../src/timeline/timeline.js';
import { copyStorage, faultyStorage } from '../helpers/storage-faults.js';
import { engineContext } from '../../src/engine/context.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'archive',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }],
};
const OPTIONS = { bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false } };
const KEEP = { keepMinCommits: 3, keepMaxCommits: 5 };

async function rows(table: Table, options: { asOf?: string; from?: string; to?: string } = {}): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['id', 'part', 'v', '_hoodie_commit_time'], ...options })) out.push(`${r.part}|${r.id}|${r.v}|${r._hoodie_commit_time}`);
  return out.sort();
}

/** `n` upserts; commit k inserts row k (partition x for odd k, y for even) and updates row k−1. */
async function buildTable(n: number): Promise<{ storage: Storage; table: Table; commits: string[] }> {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 'arch', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...OPTIONS });
  for (let k = 1; k <= n; k++) {
    const batch = [{ id: `r${k}`, part: k % 2 ? 'x' : 'y', ts: k, v: k }];
    if (k > 1) batch.push({ id: `r${k - 1}`, part: (k - 1) % 2 ? 'x' : 'y', ts: k, v: 100 * k });
    await table.upsert(batch);
  }
  return { storage, table, commits: table.commits.map((c) => c.requestedTime) };
}

/** Every read: snapshot, time travel to each commit, incremental (c[i−1], c[i]] and (init, latest]. */
async function allReads(storage: Storage, commits: string[]): Promise<Record<string, string[]>> {
  const table = await openTable(storage);
  const out: Record<string, string[]> = { snapshot: await rows(table) };
  for (const [i, t] of commits.entries()) {
    out[`asOf ${t}`] = await rows(table, { asOf: t });
    out[`incr ${t}`] = await rows(table, { from: i === 0 ? INIT_INSTANT_TIME : (commits[i - 1] as string), to: t });
  }
  out.all = await rows(table, { from: INIT_INSTANT_TIME });
  return out;
}

async function archived(storage: Storage): Promise<ArchivedTimeline> {
  return (await TableState.load(storage)).archivedTimeline();
}

describe('planArchival (pure)', () => {
  const t = (n: number): string => `202401010000000${String(n).padStart(2, '0')}`;
  const names = (ns: number[], extra: string[] = []) => [...ns.flatMap((n) => [`${t(n)}.commit.requested`, `${t(n)}.inflight`, `${t(n)}.commit`]), ...extra];
  const plan = (files: string[], clean?: { instantTime: string; earliestCommitToRetain: string | undefined }) =>
    planArchival(Timeline.fromFileNames(files), KEEP, clean).instants.map((i) => `${i.requestedTime.slice(-2)}.${i.action}`);

  test('archives down to keepMinCommits once there are more than keepMaxCommits, with every state file', () => {
    expect(plan(names([1, 2, 3, 4, 5]))).toEqual([]);
    expect(plan(names([1, 2, 3, 4, 5, 6]))).toEqual(['01.commit', '02.commit', '03.commit']);
    const p = planArchival(Timeline.fromFileNames(names([1, 2, 3, 4, 5, 6])), KEEP);
    expect(p.files.map((f) => f.fileName)).toEqual(names([1, 2, 3]));
  });

  test('stops before the last completed commit preceding a pending write, the first savepoint, the clean\'s retained commit', () => {
    expect(plan(names([1, 2, 3, 5, 6, 7], [`${t(4)}.commit.requested`]))).toEqual(['01.commit', '02.commit']);
    expect(plan(names([1, 2, 3, 4, 5, 6], [`${t(2)}.savepoint`]))).toEqual(['01.commit']);
    expect(plan(names([1, 2, 3, 4, 5, 6], [`${t(7)}.clean`]), { instantTime: t(7), earliestCommitToRetain: t(3) })).toEqual(['01.commit', '02.commit']);
  });

  test('a replacecommit whose replaced files may remain is not archived, nor anything after it', () => {
    const files = [...names([1, 3, 4, 5, 6]), `${t(2)}.replacecommit.requested`, `${t(2)}.replacecommit.inflight`, `${t(2)}.replacecommit`];
    expect(plan(files)).toEqual(['01.commit']); // never cleaned
    expect(plan([...files, `${t(7)}.clean`], { instantTime: t(7), earliestCommitToRetain: t(4) })).toEqual(['01.commit', '02.replacecommit', '03.commit']);
    expect(plan([...files, `${t(7)}.clean`], { instantTime: t(7), earliestCommitToRetain: t(2) })).toEqual(['01.commit']);
  });

  test('cleans and rollbacks count towards the limits and go in time order; the latest clean stays', () => {
    const files = [...names([1, 3, 4, 5, 6, 7]), `${t(2)}.rollback.requested`, `${t(2)}.rollback`, `${t(8)}.clean.requested`, `${t(8)}.clean`];
    expect(plan(files)).toEqual(['01.commit', '02.rollback', '03.commit', '04.commit', '05.commit']);
    const early = [...names([3, 4, 5, 6, 7]), `${t(1)}.clean`, `${t(2)}.clean`];
    expect(plan(early)).toEqual(['01.clean', '03.commit', '04.commit', '05.commit']);
  });

  test('keepMaxCommits must exceed keepMinCommits', () => {
    let code = '';
    try {
      planArchival(Timeline.fromFileNames([]), { keepMinCommits: 5, keepMaxCommits: 5 });
    } catch (err) {
      code = isLakeletError(err) ? err.code : 'other';
    }
    expect(code).toBe('INVALID_ARGUMENT');
  });
});

describe('archive', () => {
  test('moves the oldest commits into an archive file; reads, reopening and incremental queries are unchanged', async () => {
    const { storage, commits } = await buildTable(8);
    const before = await allReads(storage, commits);
    const beforeState = await TableState.load(storage);
    const metadataBefore = await Promise.all(beforeState.timeline.completedWrites().map((i) => beforeState.commitMetadata(i)));

    const done = await archive(engineContext(storage), KEEP);
    expect(done.map((i) => i.requestedTime)).toEqual(commits.slice(0, 5));
    const reopened = await openTable(storage);
    expect(reopened.commits.map((c) => c.requestedTime)).toEqual(commits.slice(5));
    expect(reopened.timeline.filter((i) => commits.slice(0, 5).includes(i.requestedTime))).toEqual([]);

    // One archive file, one AVRO_DATA block with only a SCHEMA header, three entries per archived commit.
    const files = (await storage.list('.hoodie/archived')).map((f) => f.path);
    expect(files).toEqual([`.hoodie/archived/${archiveFileName(1)}`]);
    const bytes = await storage.read(files[0] as string);
    const scan = scanLogBlocks(bytes);
    expect(scan.corrupt).toEqual([]);
    expect(scan.blocks.map((b) => [b.type, Object.keys(b.header)])).toEqual([['AVRO_DATA', ['SCHEMA']]]);
    const entries = parseArchiveFile(bytes, files[0] as string);
    expect(entries.map((e) => `${e.commitTime}.${e.actionType}.${e.state}`)).toEqual(commits.slice(0, 5).flatMap((c) => [`${c}.commit.REQUESTED`, `${c}.commit.INFLIGHT`, `${c}.commit.COMPLETED`]));
    const timeline = await archived(storage);
    for (const [i, c] of commits.slice(0, 5).entries()) {
      const md = timeline.commitMetadata(c);
      const want = metadataBefore[i];
      expect(md?.operationType).toBe('UPSERT');
      expect(md?.extraMetadata.schema).toBe(want?.extraMetadata.schema);
      const stats = (m: typeof md) => Object.values(m?.partitionToWriteStats ?? {}).flat().map((s) => [s.fileId, s.path, s.partitionPath, s.prevCommit, s.numWrites, s.numInserts, s.numUpdateWrites, s.fileSizeInBytes]);
      expect(stats(md)).toEqual(stats(want));
    }

    // Every read — time travel to archived commits and incremental ranges reaching into them — is unchanged.
    expect(await allReads(storage, commits)).toEqual(before);
    const state = await TableState.load(storage);
    expect((await state.writesInRange(INIT_INSTANT_TIME, commits[7] as string)).map((w) => w.instant.requestedTime)).toEqual(commits);
    expect((await state.writesInRange(commits[1] as string, commits[6] as string)).map((w) => w.instant.requestedTime)).toEqual(commits.slice(2, 7));

    // Nothing more to archive; then three more commits exceed the maximum again → a second archive file.
    expect(await archive(engineContext(storage), KEEP)).toEqual([]);
    const table = await openTable(storage);
    for (let k = 9; k <= 11; k++) await table.upsert([{ id: `r${k}`, part: 'x', ts: k, v: k }]);
    const again = await archive(engineContext(storage), KEEP);
    expect(again.map((i) => i.requestedTime)).toEqual(commits.slice(5, 8));
    expect((await storage.list('.hoodie/archived')).map((f) => f.path.slice(17))).toEqual([archiveFileName(1), archiveFileName(2)]);
    expect((await archived(storage)).completedWrites().map((i) => i.requestedTime)).toEqual(commits);
  });

  test('commits still needed by the last clean stay active', async () => {
    const { storage, commits } = await buildTable(9);
    const result = await clean(engineContext(storage), { retainCommits: 6 });
    expect(result?.earliestInstantToRetain).toBe(commits[3]);
    const done = await archive(engineContext(storage), { keepMinCommits: 2, keepMaxCommits: 3 });
    expect(done.map((i) => i.requestedTime)).toEqual(commits.slice(0, 3));
    const reopened = await openTable(storage);
    expect(reopened.commits[0]?.requestedTime).toBe(commits[3]);
    expect(reopened.timeline.some((i) => i.action === 'clean' && i.state === 'COMPLETED')).toBe(true);
    // The cleaned instants are still refused by name, archived or not.
    const state = await TableState.load(storage);
    await expect(state.checkReadable(commits[1] as string)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(state.checkReadable(commits[3] as string)).resolves.toBeUndefined();
  });
});

describe('crash at every storage call of an archive', async () => {
  const { storage: base, commits } = await buildTable(7);
  const expectedReads = await allReads(base, commits);
  const counting = faultyStorage(await copyStorage(base, (files) => memoryStorage({ files })));
  await archive(engineContext(counting), KEEP);
  const total = counting.calls;

  test('every crash point leaves every read intact, and the next archive succeeds', { timeout: 300_000 }, async () => {
    expect(total).toBeGreaterThan(10);
    let bothPlaces = 0;
    for (let n = 1; n <= total; n++) {
      const storage = await copyStorage(base, (files) => memoryStorage({ files }));
      const crashed = await archive(engineContext(faultyStorage(storage, n)), KEEP).then(() => false, () => true);
      expect(crashed, `call ${n}`).toBe(true);
      const active = (await openTable(storage)).commits.map((c) => c.requestedTime);
      const inArchive = (await archived(storage)).completedWrites().map((i) => i.requestedTime);
      if (active.some((c) => inArchive.includes(c))) bothPlaces++;
      expect([...new Set([...active, ...inArchive])].sort(), `no commit lost (crash at ${n})`).toEqual(commits);
      expect(await allReads(storage, commits), `reads after a crash at ${n}`).toEqual(expectedReads);
      // The next archive brings the active timeline within the limits (a crash after some completed files
      // were deleted may already have done so: then the rest stays in both places until the next archival).
      await archive(engineContext(storage), KEEP);
      const after = await openTable(storage);
      const activeAfter = after.commits.map((c) => c.requestedTime);
      expect(activeAfter, `active after the next archive (crash at ${n})`).toEqual(commits.slice(commits.length - activeAfter.length));
      expect(activeAfter.length).toBeGreaterThanOrEqual(KEEP.keepMinCommits);
      expect(activeAfter.length).toBeLessThanOrEqual(KEEP.keepMaxCommits);
      const archivedAfter = (await archived(storage)).completedWrites().map((i) => i.requestedTime);
      expect([...new Set([...activeAfter, ...archivedAfter])].sort()).toEqual(commits);
      expect(after.timeline.filter((i) => i.state !== 'COMPLETED')).toEqual([]);
      expect(await allReads(storage, commits), `reads after the next archive (crash at ${n})`).toEqual(expectedReads);
    }
    expect(bothPlaces).toBeGreaterThan(0);
  });
});
