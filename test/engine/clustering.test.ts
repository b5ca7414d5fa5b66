// Clustering (issue 19): a table of 200 small commits is rewritten into few files near the target size, sorted by a
// column so that a filter on it reads far fewer files; the snapshot, commit times and seqnos are unchanged, time
// travel before it and incremental queries over it see nothing new, the cleaner later removes the replaced files,
// and the replacecommit looks as Spark's clustering replacecommit in the fixtures. COW and MOR, v6 and v9.
import { describe, expect, test } from 'vitest';
import { readAvroContainer } from '../../src/format/avro/container.js';
import { baseName } from '../../src/layout.js';
import { parseCommitMetadata } from '../../src/timeline/commit-metadata.js';
import { fixtureStorage } from '../helpers/fixtures.js';
import { baseFiles, row, smallFilesTable, snapshot } from './clustering-helpers.js';
import { validateTable, type Storage, type Table } from '../../src/index.js';

const TARGET = 64 * 1024;

/** The data files a read with `filters` opens, and its rows. */
async function filteredRead(table: Table, counting: Awaited<ReturnType<typeof smallFilesTable>>['counting'], filters: string[]): Promise<{ files: number; rows: string[] }> {
  counting.reset();
  const rows = await snapshot(table, { filters });
  return { files: counting.dataFilesRead().size, rows };
}

/** The completed instant file of `instant` (its name on the timeline). */
async function completedFile(storage: Storage, instant: string): Promise<string> {
  const names = [...(await storage.list('.hoodie')), ...(await storage.list('.hoodie/timeline'))].map((f) => f.path);
  const found = names.find((p) => baseName(p).startsWith(instant) && baseName(p).endsWith('.replacecommit') && !baseName(p).includes('.replacecommit.'));
  if (!found) throw new Error(`no completed replacecommit for ${instant}`);
  return found;
}

describe('clustering', () => {
  test('200 small commits (COW v6): files near the target size, snapshot unchanged, a filter on the sort column reads ≥5× fewer files, cleaner removes the replaced files', async () => {
    const { storage, table, counting } = await smallFilesTable('COPY_ON_WRITE', 6, 200);
    const before = await snapshot(table);
    const lastWrite = table.commits.at(-1)!.requestedTime;
    const filesBefore = await baseFiles(table);
    expect(filesBefore).toHaveLength(400); // two partitions: a new file group in each per commit
    const readBefore = await filteredRead(table, counting, ['v = 421']);
    const result = await table.cluster({ sortColumns: ['v'], targetFileSizeBytes: TARGET, smallFileLimitBytes: 1 << 20 });
    expect(result).toBeDefined();
    expect(result!.fileGroupsReplaced).toBe(400);
    expect(result!.recordsWritten).toBe(1000);
    // Snapshot (meta columns included, commit time and seqno too) unchanged; far fewer files.
    expect(await snapshot(table)).toEqual(before);
    const filesAfter = await baseFiles(table);
    expect(filesAfter.length).toBe(result!.fileGroupsWritten);
    expect(filesAfter.length).toBeLessThanOrEqual(filesBefore.length / 10);
    const total = filesAfter.reduce((n, f) => n + f.size, 0);
    // One partition's last file may be a remainder; the others come near the target.
    for (const f of filesAfter) expect(f.size).toBeLessThanOrEqual(TARGET * 1.5);
    expect(total / filesAfter.length).toBeGreaterThan(TARGET * 0.3);
    const readAfter = await filteredRead(table, counting, ['v = 421']);
    expect(readAfter.rows).toEqual(readBefore.rows);
    expect(readAfter.rows).toHaveLength(1);
    expect(readBefore.files).toBeGreaterThanOrEqual(5 * readAfter.files);
    expect(readAfter.files).toBeGreaterThan(0);
    // Time travel before the clustering reads the old files; an incremental query over it returns nothing.
    expect(await snapshot(table, { asOf: lastWrite })).toEqual(before);
    expect(await snapshot(table, { from: lastWrite, to: result!.instant })).toEqual([]);
    // The cleaner removes the replaced files once the clustering is older than what it retains.
    await table.insert([row(5000)]);
    await table.clean({ retainCommits: 1 });
    const left = new Set((await storage.list('', { recursive: true })).map((f) => f.path));
    expect(filesBefore.filter((f) => left.has(f.path))).toEqual([]);
    expect(filesAfter.every((f) => left.has(f.path))).toBe(true);
    expect((await snapshot(table)).length).toBe(1001);
    expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
  }, 240_000);

  for (const [type, version] of [['MERGE_ON_READ', 6], ['COPY_ON_WRITE', 9], ['MERGE_ON_READ', 9]] as const) {
    test(`${type} v${version}: slices with logs are clustered merged; replaced groups, commit times and seqnos as before`, async () => {
      const { storage, table, counting } = await smallFilesTable(type, version, 40);
      // Updates and a delete: on merge-on-read they are log files on top of the small base files.
      await table.upsert([{ ...row(3), ts: 2, s: 'updated' }, { ...row(17), ts: 2, v: 999 }]);
      await table.delete([row(8).id as string]);
      const before = await snapshot(table);
      const lastWrite = table.commits.at(-1)!.requestedTime;
      if (type === 'MERGE_ON_READ') expect((await table.fileSlices()).some((s) => s.logFiles.length > 0)).toBe(true);
      const readBefore = await filteredRead(table, counting, ['v = 421']);
      const result = await table.cluster({ sortColumns: ['v'], targetFileSizeBytes: TARGET, smallFileLimitBytes: 1 << 20 });
      expect(result!.recordsWritten).toBe(199);
      expect(await snapshot(table)).toEqual(before);
      const slices = await table.fileSlices();
      expect(slices.every((s) => s.logFiles.length === 0 && s.baseInstantTime === result!.instant)).toBe(true);
      expect(slices.length).toBe(result!.fileGroupsWritten);
      expect(slices.length).toBeLessThanOrEqual(80 / 8);
      const readAfter = await filteredRead(table, counting, ['v = 421']);
      expect(readAfter.rows).toEqual(readBefore.rows);
      expect(readBefore.files).toBeGreaterThanOrEqual(5 * Math.max(1, readAfter.files));
      expect(await snapshot(table, { asOf: lastWrite })).toEqual(before);
      expect(await snapshot(table, { from: lastWrite, to: result!.instant })).toEqual([]);
      const md = await table.commitMetadata(result!.instant);
      expect(md.operationType).toBe('CLUSTER');
      expect(Object.values(md.partitionToReplaceFileIds).flat()).toHaveLength(result!.fileGroupsReplaced);
      expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
      // A later write goes on as usual.
      await table.upsert([{ ...row(5), ts: 3, s: 'after' }]);
      expect((await snapshot(table)).length).toBe(199);
    }, 240_000);
  }

  test('nothing to cluster: undefined, nothing written', async () => {
    const { storage, table } = await smallFilesTable('COPY_ON_WRITE', 6, 2);
    const names = (await storage.list('', { recursive: true })).map((f) => f.path);
    expect(await table.cluster({ smallFileLimitBytes: 10 })).toBeUndefined();
    expect((await storage.list('', { recursive: true })).map((f) => f.path)).toEqual(names);
  });

  test('an unknown sort column is INVALID_ARGUMENT before anything is written', async () => {
    const { table } = await smallFilesTable('COPY_ON_WRITE', 6, 2);
    await expect(table.cluster({ sortColumns: ['nope'] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', context: { value: 'nope' } });
    expect(table.commits.map((c) => c.action)).toEqual(['commit', 'commit']);
  });

  test('v9: the replacecommit has the fields of Spark\'s clustering replacecommit (v9_txns_simple_nometa)', async () => {
    const { storage, table } = await smallFilesTable('COPY_ON_WRITE', 9, 6);
    const result = await table.cluster({ sortColumns: ['v'] });
    const ours = readAvroContainer(await storage.read(await completedFile(storage, result!.instant)), 'ours').records[0] as Record<string, unknown>;
    const fixture = await fixtureStorage('sample_table/cow/v9_txns_simple_nometa.zip');
    const spark = readAvroContainer(await fixture.read('.hoodie/timeline/20260307135709297_20260307135709818.replacecommit'), 'spark').records[0] as Record<string, unknown>;
    expect(Object.keys(ours).sort()).toEqual(Object.keys(spark).sort());
    expect(ours.operationType).toBe(spark.operationType);
    expect(ours.compacted).toBe(false);
    const statKeys = (md: Record<string, unknown>) => Object.keys(Object.values(md.partitionToWriteStats as Record<string, Record<string, unknown>[]>)[0]![0]!).sort();
    expect(statKeys(ours)).toEqual(statKeys(spark));
    const stats = Object.values(ours.partitionToWriteStats as Record<string, Record<string, unknown>[]>).flat();
    // As Spark's: new file groups (prevCommit "null"), every record an insert.
    for (const s of stats) {
      expect(s.prevCommit).toBe('null');
      expect(s.numInserts).toEqual(s.numWrites);
    }
    const replaced = ours.partitionToReplaceFileIds as Record<string, string[]>;
    expect(Object.values(replaced).flat()).toHaveLength(12);
    // The plan is a `.clustering.requested` in the fixture's shape; the inflight file is empty, as Spark's.
    const inflight = await storage.read(`.hoodie/timeline/${result!.instant}.clustering.inflight`);
    expect(inflight.length).toBe(0);
    expect(parseCommitMetadata(await storage.read(await completedFile(storage, result!.instant)), 'x').operationType).toBe('CLUSTER');
  });

  test('v6: the plan is a .replacecommit.requested with operation CLUSTER, completed as a replacecommit', async () => {
    const { storage, table } = await smallFilesTable('COPY_ON_WRITE', 6, 4);
    const result = await table.cluster({});
    const names = (await storage.list('.hoodie')).map((f) => baseName(f.path)).filter((n) => n.startsWith(result!.instant));
    expect(names.sort()).toEqual([`${result!.instant}.replacecommit`, `${result!.instant}.replacecommit.inflight`, `${result!.instant}.replacecommit.requested`]);
    const md = JSON.parse(new TextDecoder().decode(await storage.read(`.hoodie/${result!.instant}.replacecommit`))) as Record<string, unknown>;
    expect(md.operationType).toBe('CLUSTER');
    expect(Object.keys(md)).toContain('partitionToReplaceFileIds');
  });
});
