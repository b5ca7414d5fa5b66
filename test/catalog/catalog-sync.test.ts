// The write options `catalogSync` and `syncTo`: after each committed write the table's catalog entry is
// refreshed, and `syncTo` receives the Hive statements since the last sync; a failing catalog or sink is a
// warning on the result (the commit stands), and the statements it missed are sent with the next sync.
import { describe, expect, test } from 'vitest';
import { createTable, listTables, memoryStorage, prefixedStorage, type Storage } from '../../src/index.js';
import { call, pausingStorage } from '../helpers/pausing-storage.js';
import { parseAll } from './hive-check.js';

const SCHEMA = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'p', type: 'string' }, { name: 'ts', type: 'long' }] };
const OPTIONS = { clean: { automatic: false }, archive: { automatic: false } };

async function trips(root: Storage, type: 'COPY_ON_WRITE' | 'MERGE_ON_READ' = 'COPY_ON_WRITE') {
  return createTable(prefixedStorage(root, 'tables/trips'), { name: 'trips', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], schema: SCHEMA, ...OPTIONS });
}

describe('catalogSync', () => {
  test('each committed write refreshes the entry in the catalog of the root', async () => {
    const root = memoryStorage();
    const table = await trips(root);
    const first = await table.upsert([{ id: 'a', p: 'x', ts: 1n }], { catalogSync: true });
    expect(first.warnings).toEqual([]);
    expect(await listTables(root)).toMatchObject([{ name: 'trips', path: 'tables/trips', partitions: ['p=x'], latestInstant: first.instant }]);
    const second = await table.upsert([{ id: 'b', p: 'y', ts: 1n }], { catalogSync: true });
    expect(await listTables(root)).toMatchObject([{ name: 'trips', partitions: ['p=x', 'p=y'], latestInstant: second.instant }]);
    // Without the option the entry stays as it was.
    await table.upsert([{ id: 'c', p: 'z', ts: 1n }]);
    expect((await listTables(root))[0]?.latestInstant).toBe(second.instant);
  });

  test('an explicit root, path and name', async () => {
    const root = memoryStorage();
    const catalogRoot = memoryStorage();
    const table = await trips(root);
    await table.upsert([{ id: 'a', p: 'x', ts: 1n }], { catalogSync: { root: catalogRoot, path: 'elsewhere/trips', name: 'trips_v2' } });
    expect(await listTables(catalogRoot)).toMatchObject([{ name: 'trips_v2', path: 'elsewhere/trips' }]);
    expect(await listTables(root)).toEqual([]);
  });

  test('a catalog that cannot be written is a warning; the commit stands', async () => {
    const inner = memoryStorage();
    const root = pausingStorage(inner);
    const table = await trips(root);
    root.failAt(call('writeIfAbsent', /^\.lakelet-catalog\//));
    const result = await table.upsert([{ id: 'a', p: 'x', ts: 1n }], { catalogSync: true });
    expect(result.warnings).toMatchObject([{ service: 'catalog', code: 'STORAGE' }]);
    expect(table.commits.map((c) => c.requestedTime)).toEqual([result.instant]);
  });

  test('two tables written at once with catalogSync: both entries survive the race for the same version', async () => {
    const inner = memoryStorage();
    const one = pausingStorage(inner, 'one');
    const two = pausingStorage(inner, 'two');
    const schema = { ...SCHEMA };
    const a = await createTable(prefixedStorage(one, 'tables/a'), { name: 'a', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', schema, ...OPTIONS });
    const b = await createTable(prefixedStorage(two, 'tables/b'), { name: 'b', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', schema, ...OPTIONS });
    const held = one.pauseAt(call('writeIfAbsent', /^\.lakelet-catalog\/catalog-00000001\.json$/));
    const writeA = a.upsert([{ id: 'x', p: 'x', ts: 1n }], { catalogSync: true });
    await held.reached;
    const resultB = await b.upsert([{ id: 'y', p: 'y', ts: 1n }], { catalogSync: true });
    held.release();
    const resultA = await writeA;
    expect([resultA.warnings, resultB.warnings]).toEqual([[], []]);
    expect((await listTables(inner)).map((t) => [t.name, t.latestInstant])).toEqual([['a', resultA.instant], ['b', resultB.instant]]);
  });

  test('bad option values are INVALID_ARGUMENT before anything is written', async () => {
    const root = memoryStorage();
    const table = await trips(root);
    await expect(table.upsert([{ id: 'a', p: 'x', ts: 1n }], { catalogSync: 'yes' as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', context: { field: 'catalogSync' } });
    await expect(table.upsert([{ id: 'a', p: 'x', ts: 1n }], { syncTo: 42 as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', context: { field: 'syncTo' } });
    expect(table.commits).toEqual([]);
  });
});

describe('syncTo', () => {
  test('receives the statements since the last sync, tracked in the catalog entry', async () => {
    const root = memoryStorage();
    const table = await trips(root, 'MERGE_ON_READ');
    const sent: string[][] = [];
    const syncTo = { send: async (s: string[]) => { sent.push(s); }, database: 'lake', basePath: 's3a://bucket/trips' };
    const first = await table.upsert([{ id: 'a', p: 'x', ts: 1n }], { catalogSync: true, syncTo, compaction: { inline: false } });
    expect(parseAll(sent[0] ?? []).map((s) => `${s.kind} ${s.table}`)).toEqual(['create trips_ro', 'add trips_ro', 'set-properties trips_ro', 'create trips_rt', 'add trips_rt', 'set-properties trips_rt']);
    expect((await listTables(root))[0]?.lastSync).toEqual({ instant: first.instant, completionTime: null });

    // A failing sink: a warning, and the sync is not recorded ...
    const failing = { ...syncTo, send: async () => { throw new Error('metastore down'); } };
    const second = await table.upsert([{ id: 'b', p: 'y', ts: 1n }], { catalogSync: true, syncTo: failing, compaction: { inline: false } });
    expect(second.warnings).toMatchObject([{ service: 'catalog', code: 'UNEXPECTED', message: expect.stringContaining('metastore down') }]);
    expect((await listTables(root))[0]?.lastSync?.instant).toBe(first.instant);

    // ... so the next sync sends both new partitions.
    const third = await table.upsert([{ id: 'c', p: 'z', ts: 1n }], { catalogSync: true, syncTo, compaction: { inline: false } });
    const adds = parseAll(sent[1] ?? []).filter((s) => s.kind === 'add' && s.table === 'trips_ro');
    expect(adds.flatMap((s) => (s.kind === 'add' ? s.partitions.map((p) => p.spec.p) : []))).toEqual(['y', 'z']);
    expect(parseAll(sent[1] ?? []).some((s) => s.kind === 'create')).toBe(false);
    expect((await listTables(root))[0]?.lastSync?.instant).toBe(third.instant);
  });

  test('without a catalog, each write sends the statements of its own commit', async () => {
    const root = memoryStorage();
    const table = await trips(root);
    const sent: string[][] = [];
    await table.upsert([{ id: 'a', p: 'x', ts: 1n }], { syncTo: async (s) => { sent.push(s); } });
    await table.upsert([{ id: 'b', p: 'x', ts: 2n }], { syncTo: async (s) => { sent.push(s); } });
    await table.upsert([{ id: 'c', p: 'y', ts: 2n }], { syncTo: async (s) => { sent.push(s); } });
    expect(sent.map((s) => parseAll(s).map((x) => x.kind))).toEqual([['create', 'add', 'set-properties'], ['set-properties'], ['add', 'set-properties']]);
    expect(await listTables(root)).toEqual([]);
  });

  test('without a catalog, a MOR write followed by its inline compaction still sends its new partition', async () => {
    const root = memoryStorage();
    const table = await trips(root, 'MERGE_ON_READ');
    const sent: string[][] = [];
    const options = { syncTo: async (s: string[]) => { sent.push(s); }, compaction: { inline: true, deltaCommits: 2 } };
    await table.upsert([{ id: 'a', p: 'x', ts: 1n }], options);
    await table.upsert([{ id: 'a', p: 'x', ts: 2n }, { id: 'b', p: 'y', ts: 1n }], options); // a log file; the second deltacommit triggers a compaction
    await table.refresh();
    expect(table.timeline.filter((i) => i.state === 'COMPLETED').map((i) => i.action)).toContain('commit');
    const adds = parseAll(sent[1] ?? []).flatMap((s) => (s.kind === 'add' && s.table === 'trips_ro' ? s.partitions.map((p) => p.spec.p) : []));
    expect(adds).toEqual(['y']);
  });
});
