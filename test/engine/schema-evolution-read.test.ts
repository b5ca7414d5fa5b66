// Reads across a schema change (issue 14): rows written under schema A, then writes under schema B (types
// promoted as Hudi allows, a nullable field added inside a struct, a new top-level column). Old files — untouched
// COW base files, MOR base files under B's log blocks, and after compaction — read in B's types, new columns null;
// an old row upserted under B merges; a COW rewrite, a compaction and a clustering write B's schema; time travel
// to before B reads A's types; a refused change leaves the table as it was and the next valid write succeeds.
import { afterAll, describe, expect, test } from 'vitest';
import { registerWorkerFactory } from '../../src/worker/pool.js';
import { generatedKernelBytes, inProcessWorkers } from '../helpers/in-process-workers.js';
import { createTable, memoryStorage, type Table } from '../../src/index.js';
import { avroSchemaToJson, parseAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import { readParquetFooter } from '../../src/format/parquet/read.js';
import { storageBuffer } from '../../src/storage/async-buffer.js';
import type { Storage } from '../../src/storage/storage.js';
import { failure } from '../helpers/expect-error.js';
import { expectTreeUnchanged, treeSnapshot } from '../helpers/tree-snapshot.js';
import { encodeLogBlock } from '../../src/format/log/block.js';
import { encodeAvroDataBlockContent } from '../../src/format/log/content.js';
import { writeBaseFile } from '../../src/format/parquet/write.js';
import { logVisibility, mergeSlice } from '../../src/merge/slice-merge.js';
import type { RecordMergerOptions } from '../../src/merge/record-merger.js';
import { parseRecordSchema } from '../../src/schema/table-schema.js';

const nullable = (type: unknown) => ({ type: ['null', type], default: null });
const decimal = (precision: number, scale: number) => ({ type: 'bytes', logicalType: 'decimal', precision, scale });
const rider = (fields: unknown[]) => ({ type: 'record', name: 'Rider', fields });

const SCHEMA_A = {
  type: 'record', name: 'trip', fields: [
    { name: 'id', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'p', type: 'string' },
    { name: 'n', type: 'int' }, { name: 'i2d', type: 'int' }, { name: 'l', type: 'long' }, { name: 'f', ...nullable('float') },
    { name: 'bin', ...nullable('bytes') }, { name: 's', ...nullable('string') }, { name: 'amount', ...nullable(decimal(10, 2)) },
    { name: 'rider', ...nullable(rider([{ name: 'age', type: 'int' }])) },
    { name: 'tags', type: { type: 'array', items: 'int' }, default: [] },
    { name: 'i2s', type: 'int', default: 0 }, { name: 'd2s', ...nullable('double') },
  ],
};
const SCHEMA_B = {
  type: 'record', name: 'trip', fields: [
    { name: 'id', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'p', type: 'string' },
    { name: 'n', type: 'long' }, { name: 'i2d', type: 'double' }, { name: 'l', type: 'double' }, { name: 'f', ...nullable('double') },
    { name: 'bin', ...nullable('string') }, { name: 's', ...nullable('bytes') }, { name: 'amount', ...nullable(decimal(12, 4)) },
    { name: 'rider', ...nullable(rider([{ name: 'age', type: 'long' }, { name: 'x', ...nullable('string') }])) },
    { name: 'tags', type: { type: 'array', items: 'long' }, default: [] },
    { name: 'i2s', type: 'string', default: '' }, { name: 'd2s', ...nullable('string') },
    { name: 'extra', ...nullable('string') },
  ],
};

const utf8 = (s: string) => new TextEncoder().encode(s);
const rowA = (id: string, p: string, n: number) => ({
  id, ts: 1n, p, n, i2d: n + 1, l: BigInt(n) * 1000n, f: 1.5, bin: utf8(`b-${id}`), s: `s-${id}`, amount: '12.50',
  rider: { age: n }, tags: [n, n + 1], i2s: n, d2s: n * 1e9,
});
const rowB = (id: string, p: string, n: bigint) => ({
  id, ts: 2n, p, n, i2d: 0.25, l: 2.5, f: 2.25, bin: `B-${id}`, s: utf8(`S-${id}`), amount: '1.2345',
  rider: { age: n, x: 'new' }, tags: [n], i2s: `i${n}`, d2s: 'text', extra: `e-${id}`,
});
/** Row `rowA(id, p, n)` as read under schema B. */
const promotedA = (id: string, p: string, n: number) => ({
  id, ts: 1n, p, n: BigInt(n), i2d: n + 1, l: n * 1000, f: 1.5, bin: `b-${id}`, s: utf8(`s-${id}`), amount: '12.5000',
  rider: { age: BigInt(n), x: null }, tags: [BigInt(n), BigInt(n + 1)], i2s: String(n), d2s: `${n}.0E9`, extra: null,
});

const DATA = SCHEMA_B.fields.map((f) => f.name);
const data = (row: Record<string, unknown>) => Object.fromEntries(DATA.map((k) => [k, row[k]]));

async function rowsOf(table: Table, options: { filters?: string[] } = {}): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const row of table.rows(options)) out.push(data(row));
  return out.sort((a, b) => String(a.id).localeCompare(String(b.id)));
}

/** The writer schema the footer of each latest base file records, by partition. */
async function baseFileSchemas(table: Table, storage: Storage): Promise<Map<string, AvroRecordSchema>> {
  const out = new Map<string, AvroRecordSchema>();
  for (const slice of await table.fileSlices()) {
    if (!slice.baseFile) continue;
    const footer = await readParquetFooter(await storageBuffer(storage, slice.baseFile.path), slice.baseFile.path);
    out.set(slice.partitionPath, parseAvroSchema(footer.keyValues['parquet.avro.schema']!) as AvroRecordSchema);
  }
  return out;
}
const typeOf = (schema: AvroRecordSchema, name: string) => JSON.stringify(avroSchemaToJson(schema.fields.find((f) => f.name === name)!.type));

// COW merges and compactions also run in a worker pool (the promotion runs inside the worker).
const workers = inProcessWorkers(generatedKernelBytes());
registerWorkerFactory(workers.factory);
afterAll(() => workers.close());

describe('reads across schema evolution', () => {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    for (const [tableVersion, pool] of [[6, 0], [9, 0], [6, 1]] as const) {
      test(`${type} v${tableVersion}${pool ? ' (worker pool)' : ''}: old files read in the new types, merged, rewritten and compacted`, async () => {
        const storage = memoryStorage();
        const table = await createTable(storage, { name: 'trips', type, tableVersion, recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], schema: SCHEMA_A, workers: pool });
        const first = await table.upsert([rowA('a', 'old', 5), rowA('b', 'old', 6), rowA('c', 'old2', 7)]);

        // A refused change (int → boolean): nothing is written, the next valid write succeeds.
        const before = await treeSnapshot(storage);
        const refused = { ...SCHEMA_A, fields: SCHEMA_A.fields.map((f) => (f.name === 'n' ? { name: 'n', type: 'boolean' } : f)) };
        const err = await failure(table.upsert([{ ...rowA('z', 'old', 1), n: true }], { schema: refused }));
        expect(err.code).toBe('INVALID_ARGUMENT');
        expect(err.message).toMatch(/'n' changes type from int to boolean/);
        await expectTreeUnchanged(storage, before);

        // Schema B: an insert into a new partition and an update of an old row; old2 stays untouched.
        await table.upsert([rowB('d', 'new', 9n), rowB('b', 'old', 60n)], { schema: SCHEMA_B });
        const expected = [promotedA('a', 'old', 5), data(rowB('b', 'old', 60n)), promotedA('c', 'old2', 7), data(rowB('d', 'new', 9n))];
        expect(await rowsOf(table)).toEqual(expected);
        // A filter on a promoted column finds old rows (their file's statistics are ints).
        expect((await rowsOf(table, { filters: ['n = 5'] })).map((r) => r.id)).toEqual(['a']);
        expect((await rowsOf(table, { filters: ['bin = b-c'] })).map((r) => r.id)).toEqual(['c']);
        // The same on the untouched old2 file, whose row-group statistics are of A's types.
        for (const [filter, ids] of [['n = 7', ['c']], ['n >= 7', ['b', 'c', 'd']], ['l = 7000', ['c']], ['l > 6999.5', ['c']], ['i2d = 8', ['c']], ['amount = 12.5', ['a', 'c']], ['amount > 12.4999', ['a', 'c']]] as const) {
          expect((await rowsOf(table, { filters: [filter] })).map((r) => r.id), filter).toEqual(ids);
        }

        // Time travel to before B: A's schema and types.
        const asOfFirst: Record<string, unknown>[] = [];
        for await (const row of table.rows({ asOf: first.instant, columns: ['id', 'n', 'bin'] })) asOfFirst.push(row);
        expect(asOfFirst.find((r) => r.id === 'c')).toEqual({ id: 'c', n: 7, bin: utf8('b-c') });

        // Arrow output carries B's types for the old rows too.
        const arrow = await table.query({ columns: ['id', 'n', 'l', 'bin', 'amount', 'rider', 'extra'] });
        const byId = new Map(arrow.toArray().map((r) => [String(r.id), r.toJSON() as Record<string, unknown>]));
        expect(byId.get('c')!.n).toBe(7n);
        expect(byId.get('c')!.l).toBe(7000);
        expect(byId.get('c')!.bin).toBe('b-c');
        expect(byId.get('c')!.extra).toBeNull();
        expect(JSON.parse(JSON.stringify((byId.get('c')!.rider as { toJSON(): unknown }).toJSON(), (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)))).toEqual({ age: 7, x: null });

        // The old row upserted under B (an older ordering value loses for the new fields: the record is B's).
        await table.upsert([{ ...rowB('a', 'old', 50n), ts: 3n }]);
        expected[0] = data({ ...rowB('a', 'old', 50n), ts: 3n });
        expect(await rowsOf(table)).toEqual(expected);

        if (type === 'MERGE_ON_READ') {
          expect((await table.compact({ force: true })).length).toBeGreaterThan(0);
          expect(await rowsOf(table)).toEqual(expected);
        }
        // Rewritten files (COW merge of p=old, MOR compaction) carry B's schema; the untouched old2 file keeps A's.
        const schemas = await baseFileSchemas(table, storage);
        expect(typeOf(schemas.get('p=old')!, 'n')).toBe('"long"');
        expect(typeOf(schemas.get('p=old')!, 'extra')).toBe('["null","string"]');
        expect(typeOf(schemas.get('p=old2')!, 'n')).toBe('"int"');
        expect(await rowsOf(table)).toEqual(expected);
        if (pool) expect(workers.log.started).toBeGreaterThan(0);

        // Clustering rewrites the old2 file group (still of schema A) in B's types.
        expect(await table.cluster()).toBeDefined();
        expect(await rowsOf(table)).toEqual(expected);
        expect(typeOf((await baseFileSchemas(table, storage)).get('p=old2')!, 'n')).toBe('"long"');
      });
    }
  }
});

describe('mergeSlice: log blocks written under an older schema', () => {
  const t = (n: number): string => `2024010100000000${n}`;
  const key = { name: '_hoodie_record_key', type: 'string' };
  const oldSchema = { type: 'record', name: 'r', fields: [key, { name: 'ts', type: 'long' }, { name: 'n', type: 'int' }, { name: 'bin', ...nullable('bytes') }, { name: 'rider', ...nullable(rider([{ name: 'age', type: 'int' }])) }] };
  const newSchema = parseRecordSchema({ type: 'record', name: 'r', fields: [key, { name: 'ts', type: 'long' }, { name: 'n', type: 'long' }, { name: 'bin', ...nullable('string') }, { name: 'rider', ...nullable(rider([{ name: 'age', type: 'long' }, { name: 'x', ...nullable('string') }])) }, { name: 'extra', ...nullable('string') }] }, 'test');
  const merge: RecordMergerOptions = { mode: 'EVENT_TIME_ORDERING', orderingFields: ['ts'], orderingKinds: [{ kind: 'bigint', scale: 0 }] };
  const visibility = logVisibility({ completedWrites: [t(1), t(2), t(3)], timelineStart: t(1), asOf: undefined });
  const old = (k: string, ts: bigint, n: number) => ({ _hoodie_record_key: k, ts, n, bin: utf8(`b${n}`), rider: { age: n } });
  const promoted = (k: string, ts: bigint, n: number) => ({ _hoodie_record_key: k, ts, n: BigInt(n), bin: `b${n}`, rider: { age: BigInt(n), x: null } });
  const base = [[{ _hoodie_record_key: 'a', ts: 1n, n: 1n, bin: 'a', rider: null, extra: 'base' }, { _hoodie_record_key: 'b', ts: 1n, n: 2n, bin: 'b', rider: null, extra: 'base' }]];

  test('Avro and parquet data blocks of schema A merge over a base file of schema B in B\'s types', async () => {
    const avro = encodeLogBlock('AVRO_DATA', { INSTANT_TIME: t(2), SCHEMA: JSON.stringify(oldSchema) }, encodeAvroDataBlockContent(oldSchema, [old('a', 2n, 10)]));
    const parquet = encodeLogBlock('PARQUET_DATA', { INSTANT_TIME: t(3), SCHEMA: JSON.stringify(oldSchema) }, writeBaseFile([old('c', 3n, 30)], { schema: parseRecordSchema(oldSchema, 'test'), bloomFilter: false }));
    const bytes = new Uint8Array(avro.length + parquet.length);
    bytes.set(avro);
    bytes.set(parquet, avro.length);
    const logs = [{ path: 'p/.f-0_1.log.1_0-1-1', bytes }];
    const merged = await mergeSlice(base, { logs, visibility, merge, columns: undefined, schema: newSchema });
    const rows = merged.rows.map((r) => ({ ...r }));
    expect(rows).toEqual([promoted('a', 2n, 10), base[0]![1], promoted('c', 3n, 30)]);
    // Without the table schema the records stay as their blocks wrote them.
    const raw = await mergeSlice(base, { logs, visibility, merge, columns: undefined });
    expect(raw.rows[0]!.n).toBe(10);
  });

  test('a partial block of an older schema promotes the columns it carries; absent ones keep the base values, defaults aside', async () => {
    const table = parseRecordSchema({ type: 'record', name: 'r', fields: [key, { name: 'ts', type: 'long' }, { name: 'n', type: 'long' }, { name: 'd', type: 'long', default: 5 }] }, 'test');
    const partialSchema = { type: 'record', name: 'r', fields: [key, { name: 'ts', type: 'long' }, { name: 'n', type: 'int' }] };
    const block = encodeLogBlock('AVRO_DATA', { INSTANT_TIME: t(2), SCHEMA: JSON.stringify(partialSchema), IS_PARTIAL: 'true' }, encodeAvroDataBlockContent(partialSchema, [{ _hoodie_record_key: 'a', ts: 2n, n: 9 }]));
    const merged = await mergeSlice([[{ _hoodie_record_key: 'a', ts: 1n, n: 1n, d: 42n }]], { logs: [{ path: 'p/.f-0_1.log.1_0-1-1', bytes: block }], visibility, merge, columns: undefined, schema: table });
    expect(merged.rows).toEqual([{ _hoodie_record_key: 'a', ts: 2n, n: 9n, d: 42n }]);
  });
});
