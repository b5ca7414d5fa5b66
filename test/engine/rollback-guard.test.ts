// A rollback of a completed write whose replaced file versions the cleaner deleted is refused before anything
// is written (the table would otherwise point at missing files); with the versions still there it proceeds.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, type Storage } from '../../src/index.js';
import { manualClock } from '../../src/engine/clock.js';
import { collect } from '../helpers/fixtures.js';

const OPTIONS = { clean: { automatic: false }, archive: { automatic: false }, clock: manualClock(Date.UTC(2026, 0, 1)) } as const;

async function tree(storage: Storage): Promise<string[]> {
  return (await storage.list('', { recursive: true, includeTemporary: true })).map((f) => `${f.path}:${f.size}`).sort();
}

async function threeVersions(tableVersion: 6 | 9) {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], tableVersion, metadataTable: false, ...OPTIONS });
  for (const ts of [1, 2, 3]) await table.upsert([{ id: 'a', p: 'x', ts, v: `v${ts}` }], OPTIONS);
  return { storage, table };
}

describe.each([6, 9] as const)('rollback guard, table version %i', (tableVersion) => {
  test('the versions the latest commit replaced were cleaned: refused, nothing written, the table reads as before', async () => {
    const { storage, table } = await threeVersions(tableVersion);
    // The clean keeps what the latest commit's readers need and the version before it (v1's file goes).
    await table.clean({ retainCommits: 1 });
    await table.rollback(); // undoes v3: v2's file is still there
    expect((await collect((await openTable(storage)).rows())).map((r) => r.v)).toEqual(['v2']);
    const before = await tree(storage);
    const err = await table.rollback().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((err as Error).message).toMatch(/cleaner already deleted/);
    expect(await tree(storage)).toEqual(before);
    const rows = await collect((await openTable(storage)).rows());
    expect(rows.map((r) => r.v)).toEqual(['v2']);
  });

  test('with the replaced version still there the rollback proceeds and the previous value is back', async () => {
    const { storage, table } = await threeVersions(tableVersion);
    const reopened = await openTable(storage);
    const latest = reopened.timeline.filter((i) => i.state === 'COMPLETED').at(-1)!;
    // The latest commit replaced an earlier version of the file group (what the guard looks at).
    expect(Object.values((await reopened.commitMetadata(latest)).partitionToWriteStats).flat().some((s) => s.prevCommit !== undefined && s.prevCommit !== 'null')).toBe(true);
    await table.rollback();
    const rows = await collect((await openTable(storage)).rows());
    expect(rows.map((r) => r.v)).toEqual(['v2']);
  });
});
