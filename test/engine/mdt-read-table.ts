// A v9 table with a metadata table and many partitions, for the HTTP request-count tests: a copy of the v9 COW
// fixture (TIMESTAMP key generator, yyyy/MM/dd/HH partitions, MDT with files, column_stats, partition_stats,
// record_index) plus `extra` rows that lakelet's writer upserts into `extra` new hourly partitions.
import type { Storage } from '../../src/index.js';
import { openTable } from '../../src/index.js';
import { collect, fixtureCopy } from '../helpers/fixtures.js';

/** The v9 COW fixture with an MDT, copied into memory, with `extra` new partitions of one row each. */
export async function manyPartitionTable(extra: number): Promise<Storage> {
  const storage = await fixtureCopy('sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip');
  const table = await openTable(storage);
  const template = (await collect(table.rows()))[0] as Record<string, unknown>;
  const rows = Array.from({ length: extra }, (_, i) => {
    const row: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(template)) if (!k.startsWith('_hoodie_')) row[k] = v;
    row.txn_id = `NEW-${String(i).padStart(4, '0')}`;
    row.ts_str = new Date(Date.UTC(2024, 1, 1 + Math.floor(i / 8), i % 8)).toISOString();
    return row;
  });
  await table.upsert(rows);
  await table.close();
  return storage;
}
