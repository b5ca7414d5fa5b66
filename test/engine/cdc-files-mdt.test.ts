// CDC log files on a v9 table with a metadata table, and createTable's cdc option checks.
import { expect, test } from 'vitest';
import { createTable, memoryStorage } from '../../src/index.js';
import { canonical, CDC_SCHEMA, Model, row } from '../helpers/cdc-model.js';
import { failure } from '../helpers/expect-error.js';

test('createTable refuses an unknown cdc.mode with INVALID_ARGUMENT, writing nothing', async () => {
  const storage = memoryStorage();
  const err = await failure(createTable(storage, { name: 'c', type: 'COPY_ON_WRITE', recordKey: 'id', schema: CDC_SCHEMA, cdc: { mode: 'FULL' as never } }));
  expect({ code: err.code, field: err.context.field }).toEqual({ code: 'INVALID_ARGUMENT', field: 'cdc.mode' });
  expect(await storage.list('', { recursive: true })).toEqual([]);
});

test('v9 with a metadata table: CDC writes, changes from files == inferred == model', async () => {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 'c', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: CDC_SCHEMA, tableVersion: 9, cdc: { mode: 'DATA_BEFORE' } });
  const model = new Model();
  for (const [kind, arg] of [['u', [row('a', 'p0', 1, 'a1'), row('b', 'p0', 1, 'b1')]], ['u', [row('a', 'p0', 2, 'a2')]], ['d', ['b']], ['u', [row('b', 'p0', 3, 'b3')]]] as const) {
    if (kind === 'u') model.upsert((await table.upsert([...arg] as never)).instant, [...arg] as never);
    else model.delete((await table.delete([...arg] as string[])).instant, [...arg] as string[]);
  }
  expect((await storage.list('', { recursive: true })).filter((f) => f.path.endsWith('.cdc')).length).toBe(3);
  const files = await table.changes({ from: '00000000000000000', cdcSource: 'files' });
  expect(files).toEqual(await table.changes({ from: '00000000000000000', cdcSource: 'infer' }));
  expect(canonical(files)).toEqual(canonical(model.changes));
});
