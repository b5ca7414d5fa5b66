// Non-deduplicating inserts keep every copy of a key (Hudi's INSERT with combine-before-insert off): the copies
// stay visible on merge-on-read tables once a log applies to their file group and after compaction, an upsert
// of the key updates each copy, and a delete by key removes all of them.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, type IndexType, type Table } from '../../src/index.js';
import { SCHEMA } from '../helpers/table-model.js';

async function rows(table: Table): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['id', 'part', 'ts', 'val'] })) out.push(`${r.id}/${r.part}/${r.ts}/${r.val}`);
  return out.sort();
}

for (const index of ['SIMPLE', 'GLOBAL_SIMPLE', 'RECORD_INDEX'] as IndexType[]) {
  describe(`duplicate-key insert on merge-on-read, ${index}`, () => {
    test('both copies survive a log on their group, compaction, an upsert of the key, and go with a delete', async () => {
      const table = await createTable(memoryStorage(), {
        name: 'dups', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, index,
        compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false },
      });
      const inserted = await table.insert([{ id: 'd', part: 'p0', ts: 1n, val: 1 }, { id: 'd', part: 'p0', ts: 2n, val: 2 }, { id: 'k', part: 'p0', ts: 1n, val: 3 }]);
      expect(inserted.stats.inserted).toBe(3);
      expect(await rows(table)).toEqual(['d/p0/1/1', 'd/p0/2/2', 'k/p0/1/3']);
      // An upsert of another key of the same group puts a log on it: the merged read keeps both copies.
      await table.upsert([{ id: 'k', part: 'p0', ts: 5n, val: 9 }]);
      expect(await rows(table)).toEqual(['d/p0/1/1', 'd/p0/2/2', 'k/p0/5/9']);
      expect((await table.compact()).length).toBe(1);
      expect(await rows(table), 'after compaction').toEqual(['d/p0/1/1', 'd/p0/2/2', 'k/p0/5/9']);
      expect(await rows(await openTable(table.storage)), 'reopened').toEqual(['d/p0/1/1', 'd/p0/2/2', 'k/p0/5/9']);
      // An upsert of the duplicated key merges with each copy.
      await table.upsert([{ id: 'd', part: 'p0', ts: 7n, val: 7 }]);
      expect(await rows(table)).toEqual(['d/p0/7/7', 'd/p0/7/7', 'k/p0/5/9']);
      await table.delete(['d']);
      expect(await rows(table)).toEqual(['k/p0/5/9']);
    });
  });
}
