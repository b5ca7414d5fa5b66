// The schema as of an instant the archival moved off the active timeline: the archived commit's own schema
// (time travel to a write that added a column reads that column), not the table's create schema.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable } from '../../src/index.js';

const base = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'ts', type: 'long' }] };
const evolved = { ...base, fields: [...base.fields, { name: 'extra', type: ['null', 'string'], default: null }] };
const dataFields = (s: { fields: readonly { name: string }[] }) => s.fields.map((f) => f.name).filter((n) => !n.startsWith('_hoodie_'));

describe('schema as of an archived instant', () => {
  for (const tableVersion of [6, 9] as const) {
    test(`v${tableVersion}: time travel to an archived write reads the schema it recorded`, async () => {
      const storage = memoryStorage();
      const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', schema: base, tableVersion, metadataTable: false, archive: { automatic: false }, clean: { automatic: false } });
      const first = await table.upsert([{ id: 'a', ts: 1n }]);
      const widened = await table.upsert([{ id: 'b', ts: 1n, extra: 'x' }], { schema: evolved });
      for (let i = 0; i < 4; i++) await table.upsert([{ id: `c${i}`, ts: 1n, extra: null }]);
      const archived = await table.archive({ keepMinCommits: 2, keepMaxCommits: 3 });
      expect(archived.map((i) => i.requestedTime)).toContain(widened.instant);
      const reopened = await openTable(storage);
      expect(reopened.commits.map((c) => c.requestedTime)).not.toContain(widened.instant);
      expect(dataFields(await reopened.avroSchema({ asOf: widened.instant }))).toEqual(['id', 'ts', 'extra']);
      expect(dataFields(await reopened.avroSchema({ asOf: first.instant }))).toEqual(['id', 'ts']);
      const rows: Record<string, unknown>[] = [];
      for await (const r of reopened.rows({ asOf: widened.instant, columns: ['id', 'extra'] })) rows.push(r);
      expect(rows.sort((x, y) => String(x.id).localeCompare(String(y.id)))).toEqual([{ id: 'a', extra: null }, { id: 'b', extra: 'x' }]);
    });
  }

  for (const tableVersion of [6, 9] as const) {
    test(`v${tableVersion}: schemaHistory() still lists the schemas of archived writes, with the instants that introduced them`, async () => {
      const storage = memoryStorage();
      const table = await createTable(storage, { name: 't', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', schema: base, tableVersion, metadataTable: false, archive: { automatic: false }, clean: { automatic: false }, compaction: { inline: false } });
      const first = await table.upsert([{ id: 'a', ts: 1n }]);
      const widened = await table.upsert([{ id: 'b', ts: 1n, extra: 'x' }], { schema: evolved });
      for (let i = 0; i < 4; i++) await table.upsert([{ id: `c${i}`, ts: 1n, extra: null }]);
      const before = await table.schemaHistory();
      expect(before.map((e) => e.instant)).toEqual([first.instant, widened.instant]);
      const archived = await table.archive({ keepMinCommits: 2, keepMaxCommits: 3 });
      expect(archived.map((i) => i.requestedTime)).toEqual(expect.arrayContaining([first.instant, widened.instant]));
      const history = await (await openTable(storage)).schemaHistory();
      expect(history.map((e) => e.instant)).toEqual([first.instant, widened.instant]);
      expect(history.map((e) => dataFields(e.schema))).toEqual([['id', 'ts'], ['id', 'ts', 'extra']]);
      expect(history[1]?.changes).toEqual(before[1]?.changes);
    });
  }
});
