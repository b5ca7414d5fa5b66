// CDC log files around the table services and failures: the logging mode's spellings (Hudi's of every era, any
// case), clean removing `.cdc` files with their slice, rollback deleting a rolled-back write's `.cdc` file, a
// crash at every storage call of a CDC write leaving no trace (crash-harness.ts), and ranges read from files.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { cdcLoggingModeOf, parseCdcLoggingMode } from '../../src/config/cdc-config.js';
import { canonical, CDC_SCHEMA, Model, row } from '../helpers/cdc-model.js';
import { failure } from '../helpers/expect-error.js';
import { input, runCrashMatrix, standardSetup, type CrashCase } from '../helpers/crash-harness.js';
import { mrow } from '../helpers/crash-model.js';
import { memoryKind } from '../helpers/crash-stores.js';

const EARLIEST = '00000000000000000';

async function newTable(storage: Storage, tableVersion: 6 | 9): Promise<Table> {
  return createTable(storage, { name: 'c', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: CDC_SCHEMA, clean: { automatic: false }, archive: { automatic: false }, tableVersion, metadataTable: false, cdc: {} });
}

const cdcFiles = async (storage: Storage) => (await storage.list('', { recursive: true })).map((f) => f.path).filter((p) => p.endsWith('.cdc')).sort();
const baseFiles = async (storage: Storage) => (await storage.list('', { recursive: true })).map((f) => f.path).filter((p) => p.endsWith('.parquet'));
/** The instant in a `.cdc` file's name. */
const cdcInstant = (path: string) => /_(\d{17})\.log\.1_[\d-]+\.cdc$/.exec(path)?.[1];

describe('supplemental logging mode spellings', () => {
  test.each([
    ['DATA_BEFORE_AFTER', 'DATA_BEFORE_AFTER'], ['data_before_after', 'DATA_BEFORE_AFTER'], ['WITH_BEFORE_AFTER', 'DATA_BEFORE_AFTER'], ['cdc_data_before_after', 'DATA_BEFORE_AFTER'],
    ['data_before', 'DATA_BEFORE'], ['With_Before', 'DATA_BEFORE'], ['CDC_DATA_BEFORE', 'DATA_BEFORE'],
    ['op_key_only', 'OP_KEY_ONLY'], ['KEY_OP', 'OP_KEY_ONLY'], ['op_key', 'OP_KEY_ONLY'], [' cdc_op_key ', 'OP_KEY_ONLY'],
  ])('%s → %s', (text, mode) => {
    expect(parseCdcLoggingMode(text)).toBe(mode);
  });

  test('unknown → UNSUPPORTED naming the property; disabled → none; enabled without a mode → Hudi\'s default', () => {
    expect(() => parseCdcLoggingMode('FULL')).toThrow(expect.objectContaining({ code: 'UNSUPPORTED', context: expect.objectContaining({ field: 'hoodie.table.cdc.supplemental.logging.mode', value: 'FULL' }) }));
    expect(cdcLoggingModeOf(new Map([['hoodie.table.cdc.supplemental.logging.mode', 'OP_KEY_ONLY']]))).toBeUndefined();
    expect(cdcLoggingModeOf(new Map([['hoodie.table.cdc.enabled', 'TRUE']]))).toBe('DATA_BEFORE_AFTER');
    expect(cdcLoggingModeOf(new Map([['hoodie.table.cdc.enabled', 'true'], ['hoodie.table.cdc.supplemental.logging.mode', 'key_op']]))).toBe('OP_KEY_ONLY');
  });

  test('a table whose properties spell the mode the old way is written in that mode', async () => {
    const storage = memoryStorage();
    const table = await newTable(storage, 6);
    await table.upsert([row('a', 'p0', 1, 'x')]);
    const props = new TextDecoder().decode(await storage.read('.hoodie/hoodie.properties'));
    expect(props).toContain('hoodie.table.cdc.supplemental.logging.mode=DATA_BEFORE_AFTER');
    // Rewriting the mode in 0.13's lower case: the checksum covers only the name, so the table still opens.
    await storage.write('.hoodie/hoodie.properties', new TextEncoder().encode(props.replace('logging.mode=DATA_BEFORE_AFTER', 'logging.mode=op_key_only')));
    const reopened = await openTable(storage);
    await reopened.upsert([row('a', 'p0', 2, 'y')]);
    const [file] = await cdcFiles(storage);
    const text = new TextDecoder().decode(await storage.read(file!));
    expect(text).toContain('"name":"record_key"');
    expect(text).not.toContain('"name":"before"');
    expect((await reopened.changes({ from: EARLIEST, cdcSource: 'files' })).map((c) => c.op)).toEqual(['i', 'u']);
  });
});

for (const version of [6, 9] as const) {
  describe(`COPY_ON_WRITE v${version}`, () => {
    test('clean removes the .cdc files of the slices it deletes, keeps those of retained slices', async () => {
      const storage = memoryStorage();
      const table = await newTable(storage, version);
      const model = new Model();
      const instants: string[] = [];
      for (let i = 1; i <= 5; i++) {
        const batch = [row('k1', 'p0', i, `v${i}`), row(`n${i}`, 'p0', i, 'new')];
        const t = (await table.upsert(batch)).instant;
        model.upsert(t, batch);
        instants.push(t);
      }
      expect((await cdcFiles(storage)).map(cdcInstant)).toEqual(instants.slice(1));
      expect(await table.clean({ retainCommits: 2 })).toBeDefined();
      const bases = new Set((await baseFiles(storage)).map((p) => /_(\d{17})\.parquet$/.exec(p)?.[1]));
      const left = await cdcFiles(storage);
      expect(left.length).toBeGreaterThan(0);
      expect(left.length).toBeLessThan(instants.length - 1);
      // Exactly the .cdc files whose slice (base file of the same instant) is still there.
      expect(left.map(cdcInstant)).toEqual(instants.slice(1).filter((t) => bases.has(t)));
      const oldest = (await table.retention()).oldestReadable?.instant;
      const from = instants.find((t) => t >= oldest!)!;
      const later = new Set(instants.filter((t) => t > from));
      expect(canonical(await table.changes({ from, cdcSource: 'files' }))).toEqual(canonical(model.changes.filter((c) => later.has(c.commitTime))));
    });

    test('rollback deletes the rolled-back write\'s .cdc file; ranges read from files equal the model', async () => {
      const storage = memoryStorage();
      const table = await newTable(storage, version);
      const model = new Model();
      const t1 = (await table.upsert([row('a', 'p0', 1, 'a1'), row('b', 'p0', 1, 'b1')])).instant;
      model.upsert(t1, [row('a', 'p0', 1, 'a1'), row('b', 'p0', 1, 'b1')]);
      const t2 = (await table.delete(['a'])).instant;
      model.delete(t2, ['a']);
      const t3 = (await table.upsert([row('a', 'p0', 3, 'a3')])).instant; // the reinsert
      model.upsert(t3, [row('a', 'p0', 3, 'a3')]);
      expect((await table.changes({ from: t1, to: t3, cdcSource: 'files' })).map((c) => `${c.op}${String((c.after ?? c.before)?.id)}`)).toEqual(['da', 'ia']);
      const t4 = (await table.upsert([row('b', 'p0', 4, 'b4')])).instant;
      expect((await cdcFiles(storage)).map(cdcInstant)).toEqual([t2, t3, t4]);
      await table.rollback(t4);
      expect((await cdcFiles(storage)).map(cdcInstant)).toEqual([t2, t3]);
      expect(await table.changes({ from: EARLIEST, cdcSource: 'files' })).toEqual(await table.changes({ from: EARLIEST, cdcSource: 'infer' }));
      expect(canonical(await table.changes({ from: EARLIEST, cdcSource: 'files' }))).toEqual(canonical(model.changes));
    });

    test('a rewritten base file without its .cdc file: files → NOT_FOUND naming it; auto infers', async () => {
      const storage = memoryStorage();
      const table = await newTable(storage, version);
      await table.upsert([row('a', 'p0', 1, 'a1')]);
      await table.upsert([row('a', 'p0', 2, 'a2')]);
      const [file] = await cdcFiles(storage);
      await storage.delete(file!);
      const err = await failure(table.changes({ from: EARLIEST, cdcSource: 'files' }));
      expect({ code: err.code, path: err.context.path }).toEqual({ code: 'NOT_FOUND', path: file });
      expect((await failure(table.changes({ from: EARLIEST, cdcSource: 'bogus' as never }))).code).toBe('INVALID_ARGUMENT');
    });
  });
}

test('a table without CDC: files mode refuses a rewritten base file, auto and infer agree', async () => {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 'c', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: CDC_SCHEMA, metadataTable: false });
  await table.upsert([row('a', 'p0', 1, 'a1')]);
  await table.upsert([row('a', 'p0', 2, 'a2')]);
  expect(await cdcFiles(storage)).toEqual([]);
  expect(await table.changes({ from: EARLIEST })).toEqual(await table.changes({ from: EARLIEST, cdcSource: 'infer' }));
  expect((await failure(table.changes({ from: EARLIEST, cdcSource: 'files' }))).code).toBe('NOT_FOUND');
});

const CDC_UPSERT = [mrow('a', 'x', 5, 55), mrow('c', 'y', 5, 66), mrow('n', 'x', 1, 1)];
const cdcCase: CrashCase = {
  name: 'upsert on a CDC table (COPY_ON_WRITE)', type: 'COPY_ON_WRITE', effect: 'write',
  setup: async (env) => {
    await standardSetup(env, 'COPY_ON_WRITE', { cdc: { mode: 'DATA_BEFORE_AFTER' } });
  },
  act: async (open, env) => (await open()).upsert(CDC_UPSERT.map(input), env.options),
  apply: (m, t) => m.upsert(CDC_UPSERT, t),
};

test('a crash at every storage call of a CDC write leaves the table before or after it and no stray .cdc file', { timeout: 600_000 }, async () => {
  const outcomes = await runCrashMatrix(cdcCase, memoryKind(), ['before', 'after']);
  expect(outcomes.length).toBeGreaterThan(10);
});
