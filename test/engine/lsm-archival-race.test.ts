// Reading an instant a concurrent layout-2 archival just moved into the LSM history (the v9 twin of
// archive-race.test.ts): a table state loaded before the archival finds the archived commits' metadata in the
// history, and a writer whose read of a commit file is held while the archival moves it still commits.
import { describe, expect, test } from 'vitest';
import { engineContext } from '../../src/engine/context.js';
import { archive } from '../../src/engine/services/archival.js';
import { TableState } from '../../src/engine/table-state.js';
import { createTable, memoryStorage, openTable, type Storage } from '../../src/index.js';
import { call, pausingStorage } from '../helpers/pausing-storage.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'race',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }],
};
const KEEP = { keepMinCommits: 3, keepMaxCommits: 5 };

/** A version-9 table with `n` commits; commit k writes row r<k> = k. */
async function buildTable(type: 'COPY_ON_WRITE' | 'MERGE_ON_READ', n: number): Promise<{ storage: Storage; commits: string[] }> {
  const storage = memoryStorage();
  const table = await createTable(storage, {
    tableVersion: 9, metadataTable: false, name: 'race', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA,
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

describe('a v9 instant archived into the LSM history while it is read', () => {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`${type}: a state loaded before the archival reads the archived commits' metadata from the history`, async () => {
      const { storage } = await buildTable(type, 8);
      const reference = await TableState.load(storage);
      const writes = reference.timeline.completedWrites();
      const expected = await Promise.all(writes.map((i) => reference.commitMetadata(i)));
      const state = await TableState.load(storage);
      const archived = await archive(engineContext(storage), KEEP);
      expect(archived.length).toBeGreaterThan(0);
      // The history holds the completed files' own bytes: the metadata decodes to exactly the same.
      expect(await Promise.all(writes.map((i) => state.commitMetadata(i)))).toEqual(expected);
      const paths = async (s: TableState) => (await s.fileSystemView()).latestSlices().map((x) => [x.baseFile?.path, ...x.logFiles.map((l) => l.path)].join(',')).sort();
      expect(await paths(state)).toEqual(await paths(await TableState.load(storage)));
      expect(await values(storage)).toEqual(expectedRows(8));
    });

    test(`${type}: a writer whose read of a commit file is held while the archival moves it commits`, async () => {
      const { storage, commits } = await buildTable(type, 8);
      const first = commits[0] as string;
      const writerStorage = pausingStorage(storage, 'writer');
      const pause = writerStorage.pauseAt(call('read', new RegExp(`^\\.hoodie/timeline/${first}_\\d+\\.(delta)?commit$`)));
      const writer = (await openTable(writerStorage)).upsert([{ id: 'r9', part: 'x', ts: 9, v: 9 }, { id: 'r1', part: 'x', ts: 9, v: 100 }]);
      await pause.reached;
      const archived = await archive(engineContext(storage), KEEP);
      expect(archived.map((i) => i.requestedTime)).toContain(first);
      pause.release();
      await expect(writer).resolves.toBeDefined();
      expect(await values(storage)).toEqual({ ...expectedRows(9), r1: 100 });
    });
  }
});
