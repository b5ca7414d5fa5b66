// Bad input to writes: rows without their key or ordering field, wrong types, an empty key, a schema
// change the table cannot take. Each is INVALID_ARGUMENT naming the row and field, and the table's files
// are exactly as before.
import { describe, expect, test } from 'vitest';
import { createTable, LakeletError, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { fixtureCopy } from '../helpers/fixtures.js';

async function listing(storage: Storage): Promise<string[]> {
  const out: string[] = [];
  for (const f of await storage.list('', { recursive: true })) out.push(`${f.path}:${f.size}`);
  return out;
}

async function setup(): Promise<{ storage: Storage; table: Table }> {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['city'], bloomFilter: { numEntries: 100 } });
  await table.upsert([{ id: 'a', ts: 1, city: 'sf', fare: 1.5 }, { id: 'b', ts: 1, city: 'la', fare: 2 }]);
  return { storage, table };
}

async function rejects(p: Promise<unknown>): Promise<LakeletError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(LakeletError);
    return err as LakeletError;
  }
  throw new Error('the write succeeded');
}

describe('writes reject bad rows and leave the table as it was', () => {
  const cases: [string, Record<string, unknown>[], number, string][] = [
    ['a row without its key', [{ id: 'c', ts: 1, city: 'sf', fare: 1 }, { ts: 2, city: 'sf', fare: 1 }], 1, 'id'],
    ['an empty key', [{ id: '', ts: 2, city: 'sf', fare: 1 }], 0, 'id'],
    ['a row without its ordering field', [{ id: 'c', city: 'sf', fare: 1 }], 0, 'ts'],
    ['a value of the wrong type', [{ id: 'c', ts: 1, city: 'sf', fare: 1 }, { id: 'd', ts: 1, city: 'sf', fare: 'expensive' }], 1, 'fare'],
    ['an unknown column', [{ id: 'c', ts: 1, city: 'sf', fare: 1, tip: 3 }], 0, 'tip'],
  ];
  for (const [what, rows, row, field] of cases) {
    test(what, async () => {
      const { storage, table } = await setup();
      const before = await listing(storage);
      const err = await rejects(table.upsert(rows));
      expect(err.code).toBe('INVALID_ARGUMENT');
      expect(err.context.row).toBe(row);
      expect(err.context.field).toBe(field);
      expect(err.message).toContain(`row ${row}`);
      expect(await listing(storage)).toEqual(before);
      expect((await table.query()).numRows).toBe(2);
    });
  }

  test('a schema change the table cannot take', async () => {
    const { storage, table } = await setup();
    const before = await listing(storage);
    const narrowed = { type: 'record', name: 't_record', fields: [{ name: 'id', type: ['null', 'string'] }, { name: 'ts', type: ['null', 'int'] }, { name: 'city', type: ['null', 'string'] }, { name: 'fare', type: ['null', 'double'] }] };
    const err = await rejects(table.upsert([{ id: 'c', ts: 1, city: 'sf', fare: 1 }], { schema: narrowed }));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.context.field).toBe('ts');
    expect(await listing(storage)).toEqual(before);
  });

  test('a compatible schema change (a new nullable column) is taken', async () => {
    const { table } = await setup();
    const wider = (await table.avroSchema());
    const next = { type: 'record', name: wider.name, namespace: wider.namespace, fields: [...wider.fields.filter((f) => !f.name.startsWith('_hoodie_')).map((f) => ({ name: f.name, type: f.type.type === 'union' ? ['null', (f.type.branches[1] as { type: string }).type] : f.type.type })), { name: 'tip', type: ['null', 'double'], default: null }] };
    await table.upsert([{ id: 'c', ts: 1, city: 'sf', fare: 1, tip: 0.5 }], { schema: next });
    const rows = new Map<unknown, Record<string, unknown>>();
    for await (const r of table.rows()) rows.set(r.id, r);
    expect(rows.get('c')?.tip).toBe(0.5);
    expect(rows.get('a')?.tip).toBeNull();
  });

  test('tables without meta fields are read but not written (UNSUPPORTED)', async () => {
    const storage = await fixtureCopy('sample_table/cow/v6_simplekeygen_hivestyle_no_metafields.zip');
    const table = await openTable(storage);
    const err = await rejects(table.upsert([{ id: 9 }]));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.context.field).toBe('hoodie.populate.meta.fields');
  });

  test('creating a table twice → ALREADY_EXISTS; bad partition paths → INVALID_ARGUMENT', async () => {
    const { storage, table } = await setup();
    expect((await rejects(createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id' }))).code).toBe('ALREADY_EXISTS');
    expect((await rejects(table.deletePartitions(['sf']))).context.value).toBe('sf');
    expect((await rejects(table.upsert([{ id: 'x', ts: 1, city: 'sf' }], { index: 'NOPE' as never }))).context.field).toBe('index');
  });
});
