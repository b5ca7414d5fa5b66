// createTable's key generator: inferred as Hudi infers it when none is given, and an explicit choice that
// cannot take the given record key / partition fields refused before anything is written (issue 17).
import { describe, expect, test } from 'vitest';
import { createTable, LakeletError, memoryStorage, openTable, type Storage } from '../../src/index.js';
import type { KeyGeneratorKind } from '../../src/keygen/key-generator.js';
import { collect } from '../helpers/fixtures.js';
import { failure } from '../helpers/expect-error.js';

const ROWS = [
  { id: 1, id2: 'x', a: 'p', b: 'q', ts: 1 },
  { id: 2, id2: 'y', a: 'p', b: 'r', ts: 1 },
];

describe('createTable infers the key generator as Hudi does', () => {
  const cases: { recordKey: string[]; partitionBy: string[]; want: KeyGeneratorKind; path: string }[] = [
    { recordKey: ['id'], partitionBy: [], want: 'NON_PARTITION', path: '' },
    { recordKey: ['id', 'id2'], partitionBy: [], want: 'NON_PARTITION', path: '' },
    { recordKey: ['id'], partitionBy: ['a'], want: 'SIMPLE', path: 'a=p' },
    { recordKey: ['id', 'id2'], partitionBy: ['a'], want: 'COMPLEX', path: 'a=p' },
    { recordKey: ['id'], partitionBy: ['a', 'b'], want: 'COMPLEX', path: 'a=p/b=q' },
    { recordKey: ['id', 'id2'], partitionBy: ['a', 'b'], want: 'COMPLEX', path: 'a=p/b=q' },
  ];
  for (const c of cases) {
    test(`${c.recordKey.length} key field(s), ${c.partitionBy.length} partition field(s) → ${c.want}; writes and reads`, async () => {
      const storage = memoryStorage();
      const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: c.recordKey, orderingField: 'ts', partitionBy: c.partitionBy });
      expect(table.config.keyGeneratorType).toBe(c.want);
      await table.upsert(ROWS);
      await table.upsert([{ ...ROWS[0], ts: 2 }]);
      const rows = await collect((await openTable(storage)).rows());
      expect(rows).toHaveLength(2);
      const first = rows.find((r) => Number(r.id) === 1) as Record<string, unknown>;
      expect(first._hoodie_partition_path).toBe(c.path);
      // Complex keys are `field:value` pairs even with one field (Hudi's ComplexKeyGenerator).
      const key = c.recordKey.length > 1 ? 'id:1,id2:x' : c.want === 'COMPLEX' ? 'id:1' : '1';
      expect(first._hoodie_record_key).toBe(key);
      expect(Number(first.ts)).toBe(2);
    });
  }
});

describe('an explicit key generator that cannot take the fields is refused before anything is written', () => {
  const cases: { keyGenerator: KeyGeneratorKind; recordKey: string[]; partitionBy: string[]; names: RegExp }[] = [
    { keyGenerator: 'SIMPLE', recordKey: ['id'], partitionBy: ['a', 'b'], names: /SIMPLE.*partition.*a,b/ },
    { keyGenerator: 'SIMPLE', recordKey: ['id', 'id2'], partitionBy: ['a'], names: /SIMPLE.*record key.*id,id2/ },
    { keyGenerator: 'NON_PARTITION', recordKey: ['id'], partitionBy: ['a'], names: /NON_PARTITION.*partition.*\(a\)/ },
  ];
  for (const c of cases) {
    test(`${c.keyGenerator} with key ${c.recordKey.join(',')} and partitions ${c.partitionBy.join(',')}`, async () => {
      const storage = memoryStorage();
      const err = await failure(createTable(storage, { name: 't', type: 'MERGE_ON_READ', recordKey: c.recordKey, partitionBy: c.partitionBy, keyGenerator: c.keyGenerator }));
      expect(err.code).toBe('INVALID_ARGUMENT');
      expect(err.message).toMatch(/^createTable: /);
      expect(err.message).toMatch(c.names);
      expect(await storage.list('', { recursive: true })).toEqual([]);
    });
  }

  test('a TIMESTAMP key generator needs one partition field', async () => {
    const storage = memoryStorage();
    const err = await failure(createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', partitionBy: ['a', 'b'], keyGenerator: { type: 'TIMESTAMP', timestampType: 'EPOCHMILLISECONDS', outputDateFormat: 'yyyy/MM/dd' } }));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toMatch(/TIMESTAMP.*partition.*a,b/);
    expect(await storage.list('', { recursive: true })).toEqual([]);
  });

  test('explicit choices that fit are kept and work: COMPLEX with one key and one partition', async () => {
    const storage = memoryStorage();
    const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', partitionBy: ['a'], keyGenerator: 'COMPLEX' });
    expect(table.config.keyGeneratorType).toBe('COMPLEX');
    await table.upsert(ROWS);
    const rows = await collect((await openTable(storage)).rows({ filters: [['id', '=', 2]] }));
    expect(rows.map((r) => r._hoodie_record_key)).toEqual(['id:2']);
  });
});

describe('a table created without a schema: the first write that fails changes nothing (D8)', () => {
  /** A store whose first data-file write fails (a full disk, a dropped connection). */
  function failingFirstDataFile(inner: Storage): Storage {
    let failed = false;
    const fail = (path: string) => {
      if (failed || !path.endsWith('.parquet')) return;
      failed = true;
      throw new LakeletError('STORAGE', `test: injected failure writing ${path}`, { path });
    };
    return Object.assign(Object.create(inner) as Storage, {
      write: async (path: string, bytes: Uint8Array) => { fail(path); return inner.write(path, bytes); },
      writeIfAbsent: async (path: string, bytes: Uint8Array) => { fail(path); return inner.writeIfAbsent(path, bytes); },
    });
  }
  const properties = async (storage: Storage) => new TextDecoder().decode(await storage.read('.hoodie/hoodie.properties'));

  test('a write failing mid-way leaves hoodie.properties without the inferred schema; the next write sets its own', async () => {
    const inner = memoryStorage();
    await createTable(inner, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', partitionBy: ['a'] });
    const before = await properties(inner);
    const err = await failure((await openTable(failingFirstDataFile(inner))).upsert([{ id: 1, a: 'p', v: 1 }]));
    expect(err.code).toBe('STORAGE');
    expect(await properties(inner)).toBe(before);
    // A first write with another shape of rows is not held to the failed write's schema.
    await (await openTable(inner)).upsert([{ id: 1, a: 'p', v: 'text' }]);
    expect(await properties(inner)).toMatch(/hoodie\.table\.create\.schema=.*"v".*"string"/);
    expect(await collect((await openTable(inner)).rows({ columns: ['id', 'v'] }))).toEqual([{ id: 1n, v: 'text' }]);
  });

  test('a partition value longer than a file name can be is refused before anything is written', async () => {
    const storage = memoryStorage();
    await createTable(storage, { name: 't', type: 'MERGE_ON_READ', recordKey: 'id', partitionBy: ['a'] });
    const files = await storage.list('', { recursive: true });
    const long = 'é'.repeat(127); // the folder a=ééé… is 256 bytes in UTF-8
    const err = await failure((await openTable(storage)).upsert([{ id: 1, a: 'ok', v: 1 }, { id: 2, a: long, v: 1 }]));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toMatch(/256 bytes/);
    expect(err.message).toContain('éééé');
    expect(err.context).toMatchObject({ row: 1, field: 'a' });
    expect(await storage.list('', { recursive: true })).toEqual(files);
    await (await openTable(storage)).upsert([{ id: 2, a: 'é'.repeat(126), v: 1 }]); // 255 bytes
    expect(await collect((await openTable(storage)).rows({ columns: ['id'] }))).toEqual([{ id: 2n }]);
  });
});

describe('createTable options', () => {
  test('table-defining options never become write defaults; write options do', async () => {
    const { writeDefaultsOf } = await import('../../src/engine/create-table.js');
    const defaults = writeDefaultsOf({
      name: 't', databaseName: 'db', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], hiveStylePartitioning: false,
      urlEncodePartitioning: true, keyGenerator: 'COMPLEX', schema: { type: 'record', name: 'r', fields: [] }, recordMergeMode: 'COMMIT_TIME_ORDERING',
      index: 'SIMPLE', codec: 'SNAPPY', workers: 0,
    });
    expect(defaults).toEqual({ index: 'SIMPLE', codec: 'SNAPPY', workers: 0 });
  });
});
