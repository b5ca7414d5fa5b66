// Partition filters find what the writer wrote: hostile partition values (slashes, percent signs, dots,
// backslashes, empty strings, controls, emoji) in hive, plain and url-encoded layouts, written then read back
// through `rows({ filters })` (`=` and `!=`) and `fileSlices({ filters })` (issue 9 item 7, D4).
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable } from '../../src/index.js';
import { collect } from '../helpers/fixtures.js';
import { Random } from '../helpers/random.js';

const FIXED = ['a/b', '50%off', '..', '../../etc', 'a\\b', '', 'a%2Fb', 'a%252Fb', '%', '.hidden', '.', 'a=b', 'a:b', '😀', 'two words', ' lead', 'tab\there', 'nl\nx', '\u0001', 'del\u007f', '__HIVE_DEFAULT_PARTITION__x', 'plain'];

/** Seeded random strings over an alphabet of the characters that need care in a path. */
function randomValues(seed: number, count: number): string[] {
  const rnd = new Random(seed);
  const alphabet = ['a', 'B', '/', '%', '2', 'F', '5', 'C', '\\', '.', '=', ' ', ':', '\u0002', '😀', 'é', '#', '?'];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = '';
    const len = 1 + rnd.int(6);
    for (let j = 0; j < len; j++) s += rnd.pick(alphabet);
    out.push(s);
  }
  return out;
}

const VALUES = [...new Set([...FIXED, ...randomValues(17, 10)])];

const CONFIGS = [
  { name: 'hive style', hiveStylePartitioning: true, urlEncodePartitioning: false },
  { name: 'plain style', hiveStylePartitioning: false, urlEncodePartitioning: false },
  { name: 'hive style, url-encoded', hiveStylePartitioning: true, urlEncodePartitioning: true },
  { name: 'plain style, url-encoded', hiveStylePartitioning: false, urlEncodePartitioning: true },
];

describe.each(CONFIGS)('partition values that need escaping ($name)', ({ name: _name, ...config }) => {
  test('= and != filters and fileSlices find exactly the rows of each value', async () => {
    const storage = memoryStorage();
    const created = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['city'], ...config });
    const input = VALUES.map((city, i) => ({ id: i, city, ts: 1 }));
    await created.upsert([...input, { id: VALUES.length, city: null, ts: 1 }]);
    const table = await openTable(storage);
    const all = await collect(table.rows({ columns: ['id', 'city', '_hoodie_partition_path'] }));
    expect(all).toHaveLength(VALUES.length + 1);
    const pathOf = new Map(all.map((r) => [Number(r.id), r._hoodie_partition_path as string]));
    const ids = (rows: Record<string, unknown>[]) => rows.map((r) => Number(r.id)).sort((a, b) => a - b);
    for (const [i, city] of VALUES.entries()) {
      const eq = await collect(table.rows({ columns: ['id'], filters: [['city', '=', city]] }));
      expect(ids(eq), `city = ${JSON.stringify(city)}`).toEqual([i]);
      const slices = await table.fileSlices({ filters: [['city', '=', city]] });
      expect(slices.map((s) => s.partitionPath), `fileSlices city = ${JSON.stringify(city)}`).toEqual([pathOf.get(i)]);
      // != prunes only the value's own partition (the default one also holds the null row, which != never matches).
      const others = await table.fileSlices({ filters: [['city', '!=', city]] });
      const want = [...new Set(all.filter((r) => Number(r.id) !== i || city === '').map((r) => r._hoodie_partition_path as string))].sort();
      expect(others.map((s) => s.partitionPath).sort(), `fileSlices city != ${JSON.stringify(city)}`).toEqual(want);
    }
    // Reading every other partition is slow: rows for != are checked for the values that failed before.
    for (const city of ['a/b', '', 'a%2Fb']) {
      const i = VALUES.indexOf(city);
      const ne = await collect(table.rows({ columns: ['id'], filters: [['city', '!=', city]] }));
      expect(ids(ne), `city != ${JSON.stringify(city)}`).toEqual(VALUES.map((_, j) => j).filter((j) => j !== i));
    }
  });
});
