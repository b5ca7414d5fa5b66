// Strings a write cannot store exactly: a lone UTF-16 surrogate becomes U+FFFD in UTF-8 (parquet, Avro), so a
// key holding one would never match itself again. Writes refuse them before anything is written (D7).
import { describe, expect, test } from 'vitest';
import { createTable, LakeletError, memoryStorage, openTable } from '../../src/index.js';
import { collect } from '../helpers/fixtures.js';
import { failure } from '../helpers/expect-error.js';

describe('lone surrogates', () => {
  for (const [what, row, field] of [
    ['a record key', { id: 'k\ud800', p: 'x', v: 'a' }, 'id'],
    ['a partition value', { id: 'k', p: '\udfff', v: 'a' }, 'p'],
    ['another string field', { id: 'k', p: 'x', v: 'half \ud83d' }, 'v'],
  ] as const) {
    test(`in ${what}: the upsert is refused naming the row and field; nothing is written`, async () => {
      const storage = memoryStorage();
      const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', partitionBy: ['p'] });
      await table.upsert([{ id: 'a', p: 'x', v: 'first' }]);
      const files = await storage.list('', { recursive: true });
      const err = await failure(table.upsert([{ id: 'b', p: 'x', v: 'ok' }, row]));
      expect(err.code).toBe('INVALID_ARGUMENT');
      expect(err.context).toMatchObject({ row: 1, field });
      expect(err.message).toMatch(/lone UTF-16 surrogate/);
      expect(await storage.list('', { recursive: true })).toEqual(files);
      expect(await collect((await openTable(storage)).rows({ columns: ['id'] }))).toEqual([{ id: 'a' }]);
    });
  }
});
