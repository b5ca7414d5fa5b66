// Bad input: damaged log blocks, base files cut short, unknown table versions, a missing
// hoodie.properties, a Lance table, corrupt commit metadata. Each gives a LakeletError with its code and
// the offending file, and what was committed stays readable.
import { describe, expect, test } from 'vitest';
import { LakeletError, openTable, type ReadWarning, type Storage } from '../../src/index.js';
import { collect, fixtureCopy } from '../helpers/fixtures.js';
import { failure } from '../helpers/expect-error.js';

async function replace(storage: Storage, path: string, change: (b: Uint8Array) => Uint8Array): Promise<void> {
  await storage.write(path, change(await storage.read(path)));
}

async function findFile(storage: Storage, test: (path: string) => boolean): Promise<string> {
  const path = (await storage.list('', { recursive: true })).map((f) => f.path).find(test);
  if (!path) throw new Error('no such file in the fixture');
  return path;
}

const TRIPS = 'quickstart_trips_table/mor/avro/v6_trips_8i1u.zip';
const riderD = async (storage: Storage, onWarning?: (w: ReadWarning) => void) =>
  (await collect((await openTable(storage)).rows({ filters: ['rider = rider-D'], ...(onWarning ? { onWarning } : {}) }))).map((r) => r.fare);

describe('log files', () => {
  test('a truncated log block is skipped like Hudi does and reported with its file', async () => {
    const storage = await fixtureCopy(TRIPS);
    const log = await findFile(storage, (p) => /\/\.[^/]+\.log\.\d+_/.test(p));
    await replace(storage, log, (b) => b.slice(0, b.length - 10));
    const warnings: ReadWarning[] = [];
    expect(await riderD(storage, (w) => warnings.push(w))).toEqual([33.9]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: 'CORRUPT_LOG_BLOCK', path: log, offset: 0 });
    const arrow = await (await openTable(storage)).query();
    expect(JSON.parse(arrow.schema.metadata.get('lakelet.warnings') ?? '[]')[0].path).toBe(log);
  });

  test('a block whose trailing size is wrong is corrupt; a valid block after it still counts', async () => {
    const storage = await fixtureCopy(TRIPS);
    const log = await findFile(storage, (p) => /\/\.[^/]+\.log\.\d+_/.test(p));
    const original = await storage.read(log);
    const damaged = original.slice();
    damaged[damaged.length - 1] = (damaged[damaged.length - 1] ?? 0) ^ 0xff; // the trailing total-size field
    const both = new Uint8Array(original.length * 2);
    both.set(damaged, 0);
    both.set(original, original.length);
    await storage.write(log, both);
    const warnings: ReadWarning[] = [];
    expect(await riderD(storage, (w) => warnings.push(w))).toEqual([25]);
    expect(warnings.map((w) => [w.path, w.offset])).toEqual([[log, 0]]);
  });

  test('garbage inside a well-framed Avro data block → CORRUPT_FILE naming the log file', async () => {
    const storage = await fixtureCopy(TRIPS);
    const log = await findFile(storage, (p) => /\/\.[^/]+\.log\.\d+_/.test(p));
    await replace(storage, log, (b) => {
      const c = b.slice();
      // The record length field sits 12 bytes before the end of content + footer + trailer: make it huge.
      const lengthAt = c.length - 8 - 4 - 240 + 8;
      c[lengthAt] = 0x7f;
      return c;
    });
    const err = await failure(riderD(storage));
    expect(err.code).toBe('CORRUPT_FILE');
    expect(err.context.path).toBe(log);
  });
});

describe('base files and timeline files', () => {
  test('a base file cut short → CORRUPT_FILE naming it; other tables stay readable', async () => {
    const storage = await fixtureCopy('sample_table/cow/v6_nonpartitioned.zip');
    const base = await findFile(storage, (p) => p.endsWith('_20240418173551906.parquet'));
    await replace(storage, base, (b) => b.slice(0, Math.floor(b.length / 2)));
    const table = await openTable(storage);
    const err = await failure(table.query());
    expect(err.code).toBe('CORRUPT_FILE');
    expect(err.context.path).toBe(base);
    expect(err.message).toContain(base);
    // Time travel to the first commit reads the older, intact file.
    expect((await table.query({ asOf: '20240418173550988' })).numRows).toBe(3);
  });

  test('a base file with a damaged data page → CORRUPT_FILE naming it', async () => {
    const storage = await fixtureCopy('sample_table/cow/v6_nonpartitioned.zip');
    const base = await findFile(storage, (p) => p.endsWith('_20240418173551906.parquet'));
    await replace(storage, base, (b) => {
      const c = b.slice();
      for (let i = 4; i < 400; i++) c[i] = 0xee;
      return c;
    });
    const err = await failure((await openTable(storage)).query());
    expect(err.code).toBe('CORRUPT_FILE');
    expect(err.context.path).toBe(base);
  });

  test('corrupt commit metadata → CORRUPT_FILE naming the instant file', async () => {
    const storage = await fixtureCopy('sample_table/cow/v6_nonpartitioned.zip');
    await storage.write('.hoodie/20240418173551906.commit', new TextEncoder().encode('{"partitionToWriteStats": [oops'));
    const err = await failure((await openTable(storage)).query());
    expect(err.code).toBe('CORRUPT_FILE');
    expect(err.context.path).toBe('.hoodie/20240418173551906.commit');
  });
});

describe('table configuration', () => {
  const setProperty = async (storage: Storage, key: string, value: string) => {
    await replace(storage, '.hoodie/hoodie.properties', (b) => {
      const lines = new TextDecoder().decode(b).split('\n').filter((l) => !l.startsWith(`${key}=`));
      return new TextEncoder().encode([...lines, `${key}=${value}`].join('\n'));
    });
  };

  test('an unknown table version → UNSUPPORTED naming the value and the file', async () => {
    const storage = await fixtureCopy('sample_table/cow/v6_nonpartitioned.zip');
    await setProperty(storage, 'hoodie.table.version', '2');
    const err = await failure(openTable(storage));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.context).toMatchObject({ path: '.hoodie/hoodie.properties', value: '2' });
    expect(err.message).toContain('"2"');
  });

  test('a missing hoodie.properties → INVALID_TABLE naming it', async () => {
    const storage = await fixtureCopy('sample_table/cow/v6_nonpartitioned.zip');
    await storage.delete('.hoodie/hoodie.properties');
    const err = await failure(openTable(storage));
    expect(err.code).toBe('INVALID_TABLE');
    expect(err.context.path).toBe('.hoodie/hoodie.properties');
  });

  test('a Lance table → UNSUPPORTED naming the format', async () => {
    const storage = await fixtureCopy('sample_table/mor/avro/v9_nonpartitioned_rollback.zip');
    await setProperty(storage, 'hoodie.table.base.file.format', 'LANCE');
    const err = await failure(openTable(storage));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.context.value).toBe('LANCE');
  });

  test('bad query arguments → INVALID_ARGUMENT naming the column or value', async () => {
    const table = await openTable(await fixtureCopy('sample_table/cow/v6_nonpartitioned.zip'));
    expect((await failure(table.query({ columns: ['nope'] }))).context.field).toBe('nope');
    expect((await failure(table.query({ filters: [['nope', '=', 1]] }))).code).toBe('INVALID_ARGUMENT');
    expect((await failure(table.query({ filters: [['id', '=', 'abc']] }))).context.value).toBe('abc');
    expect((await failure(table.query({ asOf: 'yesterday' }))).context.value).toBe('yesterday');
    expect((await failure(table.query({ filters: ['id ~ 3'] }))).code).toBe('INVALID_ARGUMENT');
  });
});
