// Instants a read is given: the forms Hudi accepts (14/17 digits, yyyyMMdd, ISO dates) and nothing else, an
// incremental window whose start is after its end, and time travel to before the table's first commit: the
// empty table, as Hudi answers, never "clean deleted its files" (D11).
import { describe, expect, test } from 'vitest';
import { createTable, LakeletError, memoryStorage, openTable, type Table } from '../../src/index.js';
import { normalizeInstant } from '../../src/engine/read/query.js';
import { collect } from '../helpers/fixtures.js';
import { failure, thrown } from '../helpers/expect-error.js';

async function twoCommits(): Promise<{ table: Table; c1: string; c2: string }> {
  const storage = memoryStorage();
  const created = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id' });
  const c1 = (await created.upsert([{ id: 1, v: 'a' }])).instant;
  const c2 = (await created.upsert([{ id: 2, v: 'b' }])).instant;
  return { table: await openTable(storage), c1, c2 };
}

describe('normalizeInstant', () => {
  test('takes 14 and 17 digit instants, yyyyMMdd, and ISO dates and times (UTC) as Hudi does', () => {
    expect(normalizeInstant('20240418173550', 'asOf')).toBe('20240418173550000');
    expect(normalizeInstant('20240418173550988', 'asOf')).toBe('20240418173550988');
    expect(normalizeInstant('20240418', 'asOf')).toBe('20240418000000000');
    expect(normalizeInstant('2024-04-18', 'asOf')).toBe('20240418000000000');
    expect(normalizeInstant('2024-04-18 17:35:50', 'asOf')).toBe('20240418173550000');
    expect(normalizeInstant('2024-04-18 17:35:50.988', 'asOf')).toBe('20240418173550988');
    expect(normalizeInstant('00000000000000', 'from')).toBe('00000000000000000');
    expect(normalizeInstant(new Date(Date.UTC(2024, 3, 18, 17, 35, 50, 988)), 'asOf')).toBe('20240418173550988');
  });

  test('refuses other lengths and impossible dates instead of padding them', () => {
    for (const bad of ['2024041817355', '202404181', '2024041817', '202404181735509', '2024041817355098', '202404181735509880', '20241318000000', '20240432000000', '20240418243550', '20240418176050', '2024-04-18T17:35', 'yesterday', '']) {
      const err = thrown(() => normalizeInstant(bad, 'asOf'));
      expect(err.code, bad).toBe('INVALID_ARGUMENT');
      expect(err.message).toContain(JSON.stringify(bad));
    }
  });
});

describe('reads', () => {
  test('an incremental window whose start is after its end is INVALID_ARGUMENT', async () => {
    const { table, c1, c2 } = await twoCommits();
    const err = await failure(collect(table.rows({ from: c2, to: c1 })));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toMatch(new RegExp(`^query: from ${c2} is later than to ${c1}`));
    expect((await failure(table.fileSlices({ from: c2, to: c1 }))).code).toBe('INVALID_ARGUMENT');
    expect(await collect(table.rows({ from: c1, to: c1 }))).toEqual([]); // (c1, c1] is empty, not wrong
    expect((await collect(table.rows({ from: c1, to: c2, columns: ['id'] })))).toEqual([{ id: 2n }]);
  });

  test('time travel to before the first commit is the empty table, also after a clean (not "clean deleted its files")', async () => {
    const storage = memoryStorage();
    const created = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', clean: { automatic: false }, archive: { automatic: false } });
    const c1 = (await created.upsert([{ id: 1, ts: 1 }])).instant;
    for (let ts = 2; ts <= 5; ts++) await created.upsert([{ id: 1, ts }]);
    expect(await created.clean({ retainCommits: 1 })).toBeDefined();
    const table = await openTable(storage);
    for (const asOf of ['2000-01-01', '19700101000000000']) {
      expect(await collect(table.rows({ asOf }))).toEqual([]);
      expect(await table.fileSlices({ asOf })).toEqual([]);
      expect(await collect(table.rows({ from: '00000000000000', to: asOf }))).toEqual([]);
    }
    // Instants the clean did make unreadable still say so.
    const err = await failure(collect(table.rows({ asOf: c1 })));
    expect(err.code).toBe('NOT_FOUND');
    expect(err.message).toMatch(/no longer readable \(clean/);
  });

  test('time travel on a table without commits is the empty table', async () => {
    const table = await createTable(memoryStorage(), { name: 't', type: 'MERGE_ON_READ', recordKey: 'id' });
    expect(await collect(table.rows({ asOf: '20240101000000' }))).toEqual([]);
  });
});
