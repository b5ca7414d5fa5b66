// Reading an instant a concurrent archival just moved (issue 9, concurrent model seeds MOR 5043/5072, COW
// 5037/5195): a table state loaded before the archival, a writer and a clean whose read of a commit file is
// held while the archival runs all find the commit metadata in the archive instead of failing with NOT_FOUND.
import { describe, expect, test } from 'vitest';
import { archive } from '../../src/engine/services/archival.js';
import { removeOrphanFiles } from '../../src/engine/services/orphan-files.js';
import { TableState } from '../../src/engine/table-state.js';
import { createTable, isLakeletError, memoryStorage, openTable, type Storage } from '../../src/index.js';
import { call, pausingStorage } from '../helpers/pausing-storage.js';
import { engineContext } from '../../src/engine/context.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'race',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }],
};
const KEEP = { keepMinCommits: 3, keepMaxCommits: 5 };

/** A table with `n` commits; commit k writes row r<k> = k. */
async function buildTable(type: 'COPY_ON_WRITE' | 'MERGE_ON_READ', n: number): Promise<{ storage: Storage; commits: string[] }> {
  const storage = memoryStorage();
  const table = await createTable(storage, {
    name: 'race', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA,
    bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false },
  });
  for (let k = 1; k <= n; k++) await table.upsert([{ id: `r${k}`, part: k % 2 ? 'x' : 'y', ts: k, v: k }]);
  return { storage, commits: table.commits.map((c) => c.requestedTime) };
}

async function values(storage: Storage): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for await (const r of (await openTable(storage)).rows({ columns: ['id', 'v'] })) out[String(r.id)] = Number(r.v);
  return out;
}

const expectedRows = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`r${i + 1}`, i + 1]));

describe('an instant archived while it is read', () => {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`${type}: a state loaded before the archival reads the archived commits' metadata from the archive`, async () => {
      const { storage } = await buildTable(type, 8);
      const reference = await TableState.load(storage);
      const writes = reference.timeline.completedWrites();
      const expected = await Promise.all(writes.map((i) => reference.commitMetadata(i)));
      const state = await TableState.load(storage);
      const archived = await archive(engineContext(storage), KEEP);
      expect(archived.length, 'the archival moved instants the state still lists').toBeGreaterThan(0);
      for (const i of archived) expect(writes.some((w) => w.requestedTime === i.requestedTime)).toBe(true);
      const got = await Promise.all(writes.map((i) => state.commitMetadata(i)));
      // The archive keeps the write stats' fields (its Avro record adds null ones): compare the files they name.
      const files = (m: (typeof got)[number]) => Object.values(m.partitionToWriteStats).flat().map((s) => `${s.partitionPath}/${s.fileId}:${s.path}:${s.numWrites}`);
      expect(got.map(files)).toEqual(expected.map(files));
      expect(got.map((m) => m.extraMetadata.schema)).toEqual(expected.map((m) => m.extraMetadata.schema));
      const slices = (await state.fileSystemView()).latestSlices().map((s) => s.baseFile?.path ?? s.logFiles.map((l) => l.path).join(','));
      const fresh = (await (await TableState.load(storage)).fileSystemView()).latestSlices().map((s) => s.baseFile?.path ?? s.logFiles.map((l) => l.path).join(','));
      expect(slices.sort()).toEqual(fresh.sort());
    });

    test(`${type}: a writer whose read of a commit file is held while the archival moves it commits`, async () => {
      const { storage, commits } = await buildTable(type, 8);
      const first = commits[0] as string;
      const writerStorage = pausingStorage(storage, 'writer');
      const pause = writerStorage.pauseAt(call('read', new RegExp(`^\\.hoodie/${first}\\.(delta)?commit$`)));
      const writer = (await openTable(writerStorage)).upsert([{ id: 'r9', part: 'x', ts: 9, v: 9 }, { id: 'r1', part: 'x', ts: 9, v: 100 }]);
      await pause.reached;
      const archived = await archive(engineContext(storage), KEEP);
      expect(archived.map((i) => i.requestedTime)).toContain(first);
      pause.release();
      await expect(writer).resolves.toBeDefined();
      expect(await values(storage)).toEqual({ ...expectedRows(9), r1: 100 });
    });
  }

  test('a clean whose read of a commit file is held while the archival moves it finishes', async () => {
    const { storage, commits } = await buildTable('COPY_ON_WRITE', 8);
    const first = commits[0] as string;
    const cleanerStorage = pausingStorage(storage, 'cleaner');
    const pause = cleanerStorage.pauseAt(call('read', `.hoodie/${first}.commit`));
    const cleaning = removeOrphanFiles(engineContext(cleanerStorage), { now: Date.now(), minAgeMs: 0 });
    await pause.reached;
    expect((await archive(engineContext(storage), KEEP)).map((i) => i.requestedTime)).toContain(first);
    pause.release();
    const removed = await cleaning.catch((err: unknown) => (isLakeletError(err) ? `${err.code}: ${err.message}` : err));
    expect(removed, 'nothing committed is an orphan').toEqual([]);
    expect(await values(storage)).toEqual(expectedRows(8));
  });
});
