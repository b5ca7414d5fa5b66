// Table.schemaHistory(): each distinct schema the completed writes recorded, with the instant that introduced
// it — a new nullable column (the write's `schema` option) starts a new entry, a write with the same schema does not.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable } from '../../src/index.js';
import { avroSchemaToJson } from '../../src/format/avro/schema.js';
import { openFixture } from '../helpers/fixtures.js';

const fieldNames = (s: { fields: readonly { name: string }[] }) => s.fields.map((f) => f.name).filter((n) => !n.startsWith('_hoodie_'));

describe('Table.schemaHistory', () => {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`${type}: one entry per schema, at the write that introduced it`, async () => {
      const storage = memoryStorage();
      const table = await createTable(storage, { name: 't', type, recordKey: 'id', orderingField: 'ts' });
      expect(await table.schemaHistory()).toEqual([]);
      const first = await table.upsert([{ id: 'a', ts: 1, v: 'x' }]);
      await table.upsert([{ id: 'b', ts: 2, v: 'y' }]);
      // The table's schema (as inferred from the first rows) plus one nullable column.
      const current = avroSchemaToJson(await table.avroSchema()) as { fields: { name: string }[] };
      const evolved = { ...current, fields: [...current.fields.filter((f) => !f.name.startsWith('_hoodie_')), { name: 'extra', type: ['null', 'string'], default: null }] };
      const widened = await table.upsert([{ id: 'c', ts: 3, v: 'z', extra: 'new' }], { schema: evolved });
      await table.upsert([{ id: 'd', ts: 4, v: 'w', extra: null }]);
      const history = await table.schemaHistory();
      expect(history.map((h) => h.instant)).toEqual([first.instant, widened.instant]);
      expect(fieldNames(history[0]!.schema)).toEqual(['id', 'ts', 'v']);
      expect(fieldNames(history[1]!.schema)).toEqual(['id', 'ts', 'v', 'extra']);
      // A table opened afresh reads the same history from storage.
      expect((await (await openTable(storage)).schemaHistory()).map((h) => h.instant)).toEqual([first.instant, widened.instant]);
    });
  }
});

describe('Table.schemaHistory shaping', () => {
  test('entries carry the meta fields as avroSchema() does on a table that has them', async () => {
    const table = await createTable(memoryStorage(), { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts' });
    await table.upsert([{ id: 'a', ts: 1 }]);
    const history = await table.schemaHistory();
    expect(history).toHaveLength(1);
    expect(avroSchemaToJson(history[0]!.schema)).toEqual(avroSchemaToJson(await table.avroSchema()));
    expect(history[0]!.schema.fields[0]!.name).toBe('_hoodie_commit_time');
  });

  test('a table without meta fields (Spark-written, populate.meta.fields=false) shows none, as avroSchema() does', async () => {
    const table = await openFixture('sample_table/cow/v6_simplekeygen_hivestyle_no_metafields.zip');
    const history = await table.schemaHistory();
    expect(history.length).toBeGreaterThan(0);
    const last = history[history.length - 1]!.schema;
    expect(last.fields.some((f) => f.name.startsWith('_hoodie_'))).toBe(false);
    expect(avroSchemaToJson(last)).toEqual(avroSchemaToJson(await table.avroSchema()));
  });
});
