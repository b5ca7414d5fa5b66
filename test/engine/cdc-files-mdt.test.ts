// CDC log files: on a v9 table with a metadata table, createTable's cdc option checks, and proof that cdcSource files reads the images from the .cdc file.
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

test('changes with cdcSource files take the images from the .cdc file itself (a rewritten file shows through)', async () => {
  const { scanLogBlocks } = await import('../../src/format/log/block.js');
  const { decodeAvroDataBlock, dataBlockSchema } = await import('../../src/format/log/content.js');
  const { encodeCdcLog } = await import('../../src/engine/write/cdc-logger.js');
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 'c', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: CDC_SCHEMA, metadataTable: false, cdc: {} });
  await table.upsert([row('a', 'p0', 1, 'a1')]);
  const t2 = (await table.upsert([row('a', 'p0', 2, 'a2')])).instant;
  const path = (await storage.list('', { recursive: true })).map((f) => f.path).find((p) => p.endsWith('.cdc'))!;
  const block = scanLogBlocks(await storage.read(path)).blocks[0]!;
  const [rec] = decodeAvroDataBlock({ ...block, type: 'AVRO_DATA' }, path, dataBlockSchema(block, path)).records;
  expect(rec).toEqual({ op: 'u', ts_ms: t2, before: { id: 'a', part: 'p0', ts: 1n, val: 'a1' }, after: { id: 'a', part: 'p0', ts: 2n, val: 'a2' } });
  const tampered = { _hoodie_record_key: 'a', id: 'a', part: 'p0', ts: 2n, val: 'from-the-cdc-file' };
  await storage.write(path, encodeCdcLog('DATA_BEFORE_AFTER', (await table.avroSchema()) as never, t2, [{ key: 'a', op: 'u', before: { id: 'a', part: 'p0', ts: 1n, val: 'a1' }, after: tampered }]));
  const last = (changes: { after: unknown }[]) => (changes[changes.length - 1]!.after as { val: string }).val;
  expect(last(await table.changes({ from: '00000000000000000', cdcSource: 'files' }))).toBe('from-the-cdc-file');
  expect(last(await table.changes({ from: '00000000000000000', cdcSource: 'infer' }))).toBe('a2');
});
