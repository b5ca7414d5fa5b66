// Partition moves under global indexes follow Hudi's merge rule (HoodieIndexUtils.mergeForPartitionUpdatesIfNeeded,
// DefaultHoodieRecordPayload): the incoming record is merged with the stored one first, by the ordering field.
// A stored record with a strictly greater ordering value stays where it is; otherwise (greater or equal
// incoming, Hudi's tie rule) the old location gets a delete and the new partition an insert.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, type IndexType, type Table, type TableType } from '../../src/index.js';

const SCHEMA = {
  type: 'record', name: 'move', namespace: 'model',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'part', type: 'string' },
    { name: 'ts', type: 'long' },
    { name: 'val', type: ['null', 'string'], default: null },
  ],
};

const INDEXES: IndexType[] = ['GLOBAL_BLOOM', 'GLOBAL_SIMPLE', 'RECORD_INDEX'];
const TYPES: TableType[] = ['COPY_ON_WRITE', 'MERGE_ON_READ'];

/** Every row as `part|id|ts|val|_hoodie_partition_path|_hoodie_commit_time`, sorted. */
async function rows(table: Table): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['id', 'part', 'ts', 'val', '_hoodie_partition_path', '_hoodie_commit_time'] })) {
    out.push(`${r.part}|${r.id}|${r.ts}|${r.val}|${r._hoodie_partition_path}|${r._hoodie_commit_time}`);
  }
  return out.sort();
}

async function newTable(type: TableType, index: IndexType): Promise<Table> {
  return createTable(memoryStorage(), {
    name: 'moves', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, index,
    clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false },
  });
}

for (const type of TYPES) {
  for (const index of INDEXES) {
    describe(`partition moves: ${type}, ${index}`, () => {
      test('an older record arriving in another partition does not move the newer one', async () => {
        const table = await newTable(type, index);
        const first = await table.upsert([{ id: 'k1', part: 'a', ts: 5n, val: 'new' }, { id: 'k2', part: 'a', ts: 1n, val: 'other' }]);
        const second = await table.upsert([{ id: 'k1', part: 'b', ts: 3n, val: 'old' }]);
        const expected = [`a|k1|5|new|part=a|${first.instant}`, `a|k2|1|other|part=a|${first.instant}`];
        expect(await rows(table)).toEqual(expected);
        expect(await rows(await openTable(table.storage)), 'reopened').toEqual(expected);
        // Nothing moved: no insert into the other partition, no delete from the old one.
        expect(second.stats.inserted, 'inserted').toBe(0);
        expect(second.stats.deleted, 'deleted').toBe(0);
        // The index still finds k1 in its partition: a later, newer record moves it exactly once.
        const third = await table.upsert([{ id: 'k1', part: 'c', ts: 9n, val: 'moved' }]);
        expect(await rows(table)).toEqual([`a|k2|1|other|part=a|${first.instant}`, `c|k1|9|moved|part=c|${third.instant}`]);
      });

      test('a newer record arriving in another partition moves it', async () => {
        const table = await newTable(type, index);
        const first = await table.upsert([{ id: 'k1', part: 'a', ts: 3n, val: 'old' }, { id: 'k2', part: 'a', ts: 1n, val: 'other' }]);
        const second = await table.upsert([{ id: 'k1', part: 'b', ts: 5n, val: 'new' }]);
        const expected = [`a|k2|1|other|part=a|${first.instant}`, `b|k1|5|new|part=b|${second.instant}`];
        expect(await rows(table)).toEqual(expected);
        expect(await rows(await openTable(table.storage)), 'reopened').toEqual(expected);
        expect(second.stats.inserted, 'inserted').toBe(1);
        expect(second.stats.deleted, 'deleted').toBe(1);
      });

      test('a tie moves it (the incoming record wins on an equal ordering value, as in Hudi)', async () => {
        const table = await newTable(type, index);
        const first = await table.upsert([{ id: 'k1', part: 'a', ts: 4n, val: 'first' }, { id: 'k2', part: 'a', ts: 1n, val: 'other' }]);
        const second = await table.upsert([{ id: 'k1', part: 'b', ts: 4n, val: 'second' }]);
        expect(await rows(table)).toEqual([`a|k2|1|other|part=a|${first.instant}`, `b|k1|4|second|part=b|${second.instant}`]);
      });

      test('in one batch, a losing move and a winning move of two keys', async () => {
        const table = await newTable(type, index);
        const first = await table.upsert([{ id: 'k1', part: 'a', ts: 5n, val: 'stay' }, { id: 'k2', part: 'a', ts: 5n, val: 'go' }]);
        const second = await table.upsert([{ id: 'k1', part: 'b', ts: 2n, val: 'late' }, { id: 'k2', part: 'b', ts: 7n, val: 'gone' }]);
        expect(await rows(table)).toEqual([`a|k1|5|stay|part=a|${first.instant}`, `b|k2|7|gone|part=b|${second.instant}`]);
      });
    });
  }
}
