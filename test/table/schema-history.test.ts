// Table.schemaHistory(): each distinct schema the completed writes recorded, with the instant that introduced
// it — a new nullable column (the write's `schema` option) starts a new entry, a write with the same schema does not.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable } from '../../src/index.js';
import { avroSchemaToJson } from '../../src/format/avro/schema.js';

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
