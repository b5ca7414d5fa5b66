// The catalog of a storage root: register, list, refresh, drop (with and without the files), name conflicts,
// and two writers registering two tables concurrently — interleaved deterministically through pausing
// wrappers — losing neither entry, including a writer whose base version was trimmed while it waited.
import { describe, expect, test } from 'vitest';
import { createTable, dropTable, listTables, memoryStorage, openTable, prefixedStorage, registerTable, type Storage } from '../../src/index.js';
import { call, pausingStorage } from '../helpers/pausing-storage.js';

const SCHEMA = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'p', type: 'string' }, { name: 'ts', type: 'long' }] };

async function tableAt(root: Storage, path: string, name: string, partitioned = true): Promise<string> {
  const table = await createTable(prefixedStorage(root, path), { name, type: partitioned ? 'COPY_ON_WRITE' : 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', ...(partitioned ? { partitionBy: ['p'] } : {}), schema: SCHEMA });
  const result = await table.upsert([{ id: 'a', p: 'x', ts: 1n }, { id: 'b', p: 'y', ts: 1n }]);
  return result.instant;
}

describe('catalog', () => {
  test('register, list and refresh entries', async () => {
    const root = memoryStorage();
    const instant = await tableAt(root, 'tables/trips', 'trips');
    await tableAt(root, 'tables/events', 'events', false);
    expect(await listTables(root)).toEqual([]);
    const entry = await registerTable(root, 'tables/trips');
    expect(entry).toMatchObject({ name: 'trips', path: 'tables/trips', tableName: 'trips', type: 'COPY_ON_WRITE', partitionFields: ['p'], partitions: ['p=x', 'p=y'], latestInstant: instant });
    expect((entry.schema as { fields: { name: string }[] }).fields.map((f) => f.name)).toEqual(['_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name', 'id', 'p', 'ts']);
    await registerTable(root, 'tables/events', { name: 'ev' });
    const listed = await listTables(root);
    expect(listed.map((t) => [t.name, t.path, t.type, t.partitions])).toEqual([['ev', 'tables/events', 'MERGE_ON_READ', []], ['trips', 'tables/trips', 'COPY_ON_WRITE', ['p=x', 'p=y']]]);
    expect(listed.every((t) => typeof t.version === 'number')).toBe(true);

    // Registering again refreshes the entry (one entry per path).
    const trips = prefixedStorage(root, 'tables/trips');
    const later = await (await openTable(trips)).upsert([{ id: 'c', p: 'z', ts: 2n }]);
    const refreshed = await registerTable(root, 'tables/trips');
    expect(refreshed).toMatchObject({ partitions: ['p=x', 'p=y', 'p=z'], latestInstant: later.instant });
    expect((await listTables(root)).length).toBe(2);
  });

  test('a name held by another path is CONFLICT; a folder without a table is refused', async () => {
    const root = memoryStorage();
    await tableAt(root, 'a', 'same');
    await tableAt(root, 'b', 'same');
    await registerTable(root, 'a');
    await expect(registerTable(root, 'b')).rejects.toMatchObject({ code: 'CONFLICT', context: { path: 'b', value: 'same' } });
    await expect(registerTable(root, 'b', { name: 'bad name' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', context: { field: 'name' } });
    await expect(registerTable(root, 'nothing-here')).rejects.toMatchObject({ code: expect.stringMatching(/NOT_FOUND|INVALID_TABLE/) });
    expect((await listTables(root)).map((t) => t.path)).toEqual(['a']);
  });

  test('dropTable unregisters, and deletes the files only when asked', async () => {
    const root = memoryStorage();
    await tableAt(root, 'tables/a', 'a');
    await tableAt(root, 'tables/b', 'b');
    await registerTable(root, 'tables/a');
    await registerTable(root, 'tables/b');
    const removed = await dropTable(root, 'a');
    expect(removed.path).toBe('tables/a');
    expect((await root.list('tables/a/.hoodie')).length).toBeGreaterThan(0);
    await dropTable(root, 'b', { deleteFiles: true });
    expect(await root.list('tables/b', { recursive: true })).toEqual([]);
    expect(await listTables(root)).toEqual([]);
    await expect(dropTable(root, 'a')).rejects.toMatchObject({ code: 'NOT_FOUND', context: { value: 'a' } });
  });

  test('two writers registering two tables at once lose neither entry', async () => {
    const root = memoryStorage();
    await tableAt(root, 'tables/a', 'a');
    await tableAt(root, 'tables/b', 'b');
    const a = pausingStorage(root, 'A');
    const b = pausingStorage(root, 'B');
    // A has read the (empty) catalog and is about to create version 1; B registers meanwhile.
    const held = a.pauseAt(call('writeIfAbsent', /^\.lakelet-catalog\/catalog-00000001\.json$/));
    const first = registerTable(a, 'tables/a');
    await held.reached;
    await registerTable(b, 'tables/b');
    held.release();
    await first;
    expect((await listTables(root)).map((t) => t.name)).toEqual(['a', 'b']);
    // A lost version 1 to B and created version 2 on top of it.
    expect(a.calls.filter((c) => c.method === 'writeIfAbsent').map((c) => c.path)).toEqual(['.lakelet-catalog/catalog-00000001.json', '.lakelet-catalog/catalog-00000002.json']);
  });

  test('a writer whose base version was trimmed while it waited does its change again on top', async () => {
    const root = memoryStorage();
    await tableAt(root, 'tables/a', 'a');
    await tableAt(root, 'tables/b', 'b');
    const a = pausingStorage(root, 'A');
    const held = a.pauseAt(call('writeIfAbsent', /catalog-00000001\.json$/));
    const first = registerTable(a, 'tables/a');
    await held.reached;
    // B refreshes its entry 12 times: versions 1..12 exist, then the oldest are trimmed (version 1 among them).
    for (let i = 0; i < 12; i++) await registerTable(root, 'tables/b');
    expect((await root.list('.lakelet-catalog')).some((f) => f.path.endsWith('catalog-00000001.json'))).toBe(false);
    held.release();
    await first; // its version 1 was created below version 12: it must not count
    expect((await listTables(root)).map((t) => t.name)).toEqual(['a', 'b']);
  });
});
