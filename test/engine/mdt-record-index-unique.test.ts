// The metadata table's record index holds one location per key: a write that would put one key into two
// file groups (a non-global index across partitions) is refused with a clear error and commits nothing.
import { expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, validateTable } from '../../src/index.js';
import { collect } from '../helpers/fixtures.js';

test('one key into two partitions in one write of a v9 table with a record index: INVALID_ARGUMENT naming the key, nothing committed', async () => {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], tableVersion: 9, metadataTable: true, index: 'BLOOM' });
  await table.upsert([{ id: 'k', p: 'x', ts: 1, v: 'one' }]);
  const completed = (await openTable(storage)).timeline.filter((i) => i.state === 'COMPLETED').length;
  const err = await table.insert([{ id: 'a', p: 'x', ts: 1, v: 'ax' }, { id: 'a', p: 'y', ts: 1, v: 'ay' }]).catch((e: unknown) => e);
  expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', context: { value: 'a', field: 'record_index' } });
  const reopened = await openTable(storage);
  expect(reopened.timeline.filter((i) => i.state === 'COMPLETED').length).toBe(completed);
  expect((await collect(reopened.rows())).map((r) => `${String(r.id)}|${String(r.v)}`)).toEqual(['k|one']);
  // The next write finishes any leftover and the table stays consistent.
  await table.upsert([{ id: 'b', p: 'y', ts: 1, v: 'b' }]);
  expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
});
