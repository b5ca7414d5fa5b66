// Parquet reader nested values: enums, 2-level (parquet-avro) and 3-level lists with the spec's compatibility rules,
// null vs empty lists, maps with null values and null groups at every depth; cross-checked against DuckDB.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOffsetIndex } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAvroSchema, type AvroRecordSchema } from '../../../src/format/avro/schema.js';
import { writeBaseFile } from '../../../src/format/parquet/write.js';
import { bufferFromBytes, readParquetFooter, readParquetRows, type ParquetFooter, type ReadParquetRowsOptions } from '../../../src/format/parquet/read.js';

const opt = (type: unknown): unknown => ['null', type];

/** Write rows with our BaseFileWriter (parquet-avro layout, no meta fields). */
function write(fields: unknown[], rows: Record<string, unknown>[], rowGroupRows?: number): Uint8Array {
  const schema = parseAvroSchema({ type: 'record', name: 'r', namespace: 'test', fields }) as AvroRecordSchema;
  return writeBaseFile(rows, { schema, populateMetaFields: false, bloomFilter: false, ...(rowGroupRows ? { rowGroupRows } : {}) });
}

async function read(bytes: Uint8Array, options?: ReadParquetRowsOptions, edit?: (f: ParquetFooter) => ParquetFooter): Promise<Record<string, unknown>[]> {
  const file = bufferFromBytes(bytes);
  let footer = await readParquetFooter(file, 't.parquet');
  if (edit) footer = edit(footer);
  return readParquetRows(file, footer, 't.parquet', options);
}

/** Rename a schema element (the `nth` one named `from`) and the column paths through it, in a footer copy. */
function renameElement(from: string, to: string, parent: string): (f: ParquetFooter) => ParquetFooter {
  return (f) => {
    const schema = f.metadata.schema;
    const at = schema.findIndex((e, i) => e.name === from && schema[i - 1]?.name === parent);
    expect(at).toBeGreaterThan(0);
    const renamed = schema.map((e, i) => (i === at ? { ...e, name: to } : e));
    const row_groups = f.metadata.row_groups.map((g) => ({
      ...g,
      columns: g.columns.map((c) => {
        const p = c.meta_data?.path_in_schema;
        if (!c.meta_data || !p || p[0] !== parent || p[1] !== from) return c;
        return { ...c, meta_data: { ...c.meta_data, path_in_schema: [parent, to, ...p.slice(2)] } };
      }),
    }));
    return { ...f, metadata: { ...f.metadata, schema: renamed, row_groups } };
  };
}

describe('enum columns', () => {
  it('read as strings at the top level and nested in lists, maps and records', async () => {
    const color = { type: 'enum', name: 'color', symbols: ['RED', 'GREEN', 'BLUE'] };
    const fields = [
      { name: 'c', type: opt(color) },
      { name: 'req', type: 'color' },
      { name: 'list', type: opt({ type: 'array', items: 'color' }) },
      { name: 'map', type: opt({ type: 'map', values: opt('color') }) },
      { name: 'rec', type: opt({ type: 'record', name: 'rec', fields: [{ name: 'c', type: opt('color') }] }) },
    ];
    const rows = [
      { c: 'GREEN', req: 'RED', list: ['BLUE', 'RED'], map: { a: 'GREEN', b: null }, rec: { c: 'BLUE' } },
      { c: null, req: 'BLUE', list: [], map: {}, rec: { c: null } },
      { c: 'RED', req: 'GREEN', list: null, map: null, rec: null },
    ];
    expect(await read(write(fields, rows))).toStrictEqual(rows);
  });
});

describe('2-level lists (parquet-avro `repeated … array`)', () => {
  it('tell null, empty and non-empty lists of primitives apart', async () => {
    const fields = [
      { name: 'id', type: 'int' },
      { name: 'tags', type: opt({ type: 'array', items: 'string' }) },
      { name: 'req', type: { type: 'array', items: 'long' } },
    ];
    const rows = [
      { id: 0, tags: null, req: [] },
      { id: 1, tags: [], req: [1n] },
      { id: 2, tags: ['a'], req: [] },
      { id: 3, tags: ['a', '', 'c'], req: [2n, 3n] },
      { id: 4, tags: [], req: [] },
    ];
    expect(await read(write(fields, rows))).toStrictEqual(rows);
  });

  it('keep empty inner lists of a list of lists', async () => {
    const fields = [{ name: 'm', type: opt({ type: 'array', items: { type: 'array', items: 'double' } }) }];
    const rows = [{ m: [[]] }, { m: [[], [1.5, 2], []] }, { m: [] }, { m: null }, { m: [[0]] }];
    expect(await read(write(fields, rows))).toStrictEqual(rows);
  });

  it('read a repeated group named "array" as the element, even with a single field', async () => {
    const single = { type: 'record', name: 'single', fields: [{ name: 'v', type: opt('int') }] };
    const fields = [
      { name: 'singles', type: opt({ type: 'array', items: single }) },
      { name: 'deep', type: opt({ type: 'array', items: { type: 'record', name: 'wrap', fields: [{ name: 'inner', type: opt('single') }] } }) },
    ];
    const rows = [
      { singles: [{ v: 7 }, { v: 8 }], deep: [{ inner: { v: 1 } }, { inner: null }, { inner: { v: null } }] },
      { singles: [{ v: null }], deep: [] },
      { singles: [], deep: null },
      { singles: null, deep: [{ inner: null }] },
    ];
    expect(await read(write(fields, rows))).toStrictEqual(rows);
  });

  it('read several-field elements as records, with null fields and null nested records', async () => {
    const point = { type: 'record', name: 'point', fields: [
      { name: 'x', type: opt('double') },
      { name: 'tag', type: opt({ type: 'record', name: 'tag', fields: [{ name: 'name', type: opt('string') }, { name: 'ids', type: opt({ type: 'array', items: 'int' }) }] }) },
    ] };
    const fields = [{ name: 'points', type: opt({ type: 'array', items: point }) }];
    const rows = [
      { points: [{ x: 1, tag: { name: 'a', ids: [1, 2] } }, { x: null, tag: null }, { x: 2, tag: { name: null, ids: null } }, { x: 3, tag: { name: 'b', ids: [] } }] },
      { points: [] },
      { points: null },
    ];
    expect(await read(write(fields, rows))).toStrictEqual(rows);
  });

  it('apply the spec\'s naming rules: `<list>_tuple` and several fields keep the record, other names unwrap it', async () => {
    const single = { type: 'record', name: 'single', fields: [{ name: 'v', type: opt('int') }] };
    const pair = { type: 'record', name: 'pair', fields: [{ name: 'a', type: 'int' }, { name: 'b', type: opt('string') }] };
    const fields = [
      { name: 'singles', type: opt({ type: 'array', items: single }) },
      { name: 'pairs', type: opt({ type: 'array', items: pair }) },
      { name: 'tags', type: opt({ type: 'array', items: 'string' }) },
    ];
    const rows = [
      { singles: [{ v: 7 }, { v: null }], pairs: [{ a: 1, b: 'x' }], tags: ['t'] },
      { singles: [], pairs: [], tags: [] },
      { singles: null, pairs: null, tags: null },
    ];
    const bytes = write(fields, rows);
    const tuple = await read(bytes, undefined, renameElement('array', 'singles_tuple', 'singles'));
    expect(tuple.map((r) => r.singles)).toStrictEqual([[{ v: 7 }, { v: null }], [], null]);
    // a one-field repeated group with another name is the 3-level form: its field is the element
    const bag = await read(bytes, undefined, renameElement('array', 'bag', 'singles'));
    expect(bag.map((r) => r.singles)).toStrictEqual([[7, null], [], null]);
    const pairs = await read(bytes, undefined, renameElement('array', 'bag', 'pairs'));
    expect(pairs.map((r) => r.pairs)).toStrictEqual([[{ a: 1, b: 'x' }], [], null]);
    const tags = await read(bytes, undefined, renameElement('array', 'element', 'tags'));
    expect(tags.map((r) => r.tags)).toStrictEqual([['t'], [], null]);
  });
});

describe('maps and records', () => {
  it('read null, empty and null-valued maps, map values that are records, lists or maps', async () => {
    const mval = { type: 'record', name: 'mval', fields: [{ name: 'score', type: opt('double') }, { name: 'ok', type: opt('boolean') }] };
    const fields = [
      { name: 'attrs', type: opt({ type: 'map', values: opt('long') }) },
      { name: 'recs', type: opt({ type: 'map', values: opt(mval) }) },
      { name: 'lists', type: opt({ type: 'map', values: opt({ type: 'array', items: 'int' }) }) },
      { name: 'maps', type: opt({ type: 'map', values: opt({ type: 'map', values: 'string' }) }) },
    ];
    const rows = [
      {
        attrs: { one: 1n, none: null, ['__proto__']: 2n },
        recs: { a: { score: 0.5, ok: true }, b: null, c: { score: null, ok: null } },
        lists: { a: [1, 2], e: [], n: null },
        maps: { x: { y: 'z' }, e: {}, n: null },
      },
      { attrs: {}, recs: {}, lists: {}, maps: {} },
      { attrs: null, recs: null, lists: null, maps: null },
      { attrs: { only: null }, recs: { only: null }, lists: { only: [] }, maps: { only: {} } },
    ];
    const back = await read(write(fields, rows));
    expect(back).toStrictEqual(rows);
    expect(Object.getPrototypeOf(back[0]?.attrs)).toBe(Object.prototype);
  });

  it('read records null at each depth as null (never undefined)', async () => {
    const fields = [{ name: 'a', type: opt({ type: 'record', name: 'A', fields: [
      { name: 'x', type: opt('int') },
      { name: 'b', type: opt({ type: 'record', name: 'B', fields: [
        { name: 'y', type: opt('string') },
        { name: 'c', type: opt({ type: 'record', name: 'C', fields: [{ name: 'z', type: opt('long') }, { name: 'w', type: 'int' }] }) },
      ] }) },
      { name: 'req', type: { type: 'record', name: 'R', fields: [{ name: 'q', type: opt('int') }] } },
    ] }) }];
    const rows = [
      { a: null },
      { a: { x: null, b: null, req: { q: null } } },
      { a: { x: 1, b: { y: null, c: null }, req: { q: 1 } } },
      { a: { x: 2, b: { y: 'y', c: { z: null, w: 0 } }, req: { q: 2 } } },
      { a: { x: 3, b: { y: 'y', c: { z: 5n, w: 6 } }, req: { q: 3 } } },
    ];
    expect(await read(write(fields, rows))).toStrictEqual(rows);
  });

  it('read row ranges and projections across row groups', async () => {
    const fields = [
      { name: 'id', type: 'int' },
      { name: 'tags', type: opt({ type: 'array', items: 'string' }) },
      { name: 'rec', type: opt({ type: 'record', name: 'rec', fields: [{ name: 'v', type: opt('int') }] }) },
      { name: 'm', type: opt({ type: 'map', values: opt('int') }) },
    ];
    const rows = Array.from({ length: 23 }, (_, i) => ({
      id: i,
      tags: i % 3 === 0 ? null : i % 3 === 1 ? [] : Array.from({ length: i % 5 }, (_, j) => `t${j}`),
      rec: i % 4 === 0 ? null : { v: i % 4 === 1 ? null : i },
      m: i % 2 ? { k: i % 3 ? i : null } : null,
    }));
    const bytes = write(fields, rows, 5);
    expect(await read(bytes)).toStrictEqual(rows);
    expect(await read(bytes, { rowStart: 3, rowEnd: 17 })).toStrictEqual(rows.slice(3, 17));
    expect(await read(bytes, { rowStart: 21, rowEnd: 99 })).toStrictEqual(rows.slice(21));
    expect(await read(bytes, { rowStart: 30 })).toStrictEqual([]);
    expect(await read(bytes, { columns: ['rec', 'id', 'nope'], rowStart: 4, rowEnd: 9 }))
      .toStrictEqual(rows.slice(4, 9).map((r) => ({ id: r.id, rec: r.rec })));
  });
});

describe('3-level lists written by other tools', () => {
  it('hyparquet-writer: null, empty and null-holding lists; lists of nullable records', async () => {
    const bytes = new Uint8Array(parquetWriteBuffer({
      columnData: [
        { name: 'l', data: [[1, null, 3], [], null, [null]] },
        { name: 's', data: [[{ x: 1 }, null, { x: null }], null, [], [null]] },
      ],
      schema: [
        { name: 'root', num_children: 2 },
        { name: 'l', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', repetition_type: 'OPTIONAL', type: 'INT32' },
        { name: 's', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', repetition_type: 'OPTIONAL', num_children: 1 },
        { name: 'x', repetition_type: 'OPTIONAL', type: 'INT32' },
      ],
    }));
    expect(await read(bytes)).toStrictEqual([
      { l: [1, null, 3], s: [{ x: 1 }, null, { x: null }] },
      { l: [], s: null },
      { l: null, s: [] },
      { l: [null], s: [null] },
    ]);
  });

  it('hyparquet-writer: several pages per column chunk and row group, read whole and by row range', async () => {
    const n = 3000;
    const l = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? null : Array.from({ length: i % 7 }, (_, j) => (j === 2 ? null : i + j))));
    const st = Array.from({ length: n }, (_, i) => (i % 5 === 0 ? null : { v: i % 2 === 0 ? null : i }));
    const bytes = new Uint8Array(parquetWriteBuffer({
      columnData: [{ name: 'id', data: Int32Array.from({ length: n }, (_, i) => i) }, { name: 'l', data: l }, { name: 'st', data: st }],
      schema: [
        { name: 'root', num_children: 3 },
        { name: 'id', repetition_type: 'REQUIRED', type: 'INT32' },
        { name: 'l', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', repetition_type: 'OPTIONAL', type: 'INT32' },
        { name: 'st', repetition_type: 'OPTIONAL', num_children: 1 },
        { name: 'v', repetition_type: 'OPTIONAL', type: 'INT32' },
      ],
      pageSize: 512,
      rowGroupSize: 1200,
    }));
    const file = bufferFromBytes(bytes);
    const footer = await readParquetFooter(file, 'p');
    expect(footer.rowGroupRows).toEqual([1200, 1200, 600]);
    for (const chunk of footer.metadata.row_groups[0]?.columns ?? []) {
      const { offset_index_offset: at, offset_index_length: len } = chunk;
      const index = readOffsetIndex({ view: new DataView(bytes.buffer, bytes.byteOffset + Number(at), len), offset: 0 });
      expect(index.page_locations.length, chunk.meta_data?.path_in_schema.join('.')).toBeGreaterThan(2);
    }
    const expected = Array.from({ length: n }, (_, i) => ({ id: i, l: l[i], st: st[i] }));
    expect(await readParquetRows(file, footer, 'p')).toStrictEqual(expected);
    expect(await readParquetRows(file, footer, 'p', { rowStart: 1100, rowEnd: 2500 })).toStrictEqual(expected.slice(1100, 2500));
    expect(await readParquetRows(file, footer, 'p', { rowStart: 2999, columns: ['st'] })).toStrictEqual([{ st: st[2999] }]);
  });

  describe('DuckDB', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lakelet-pq-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    async function duck(sql: string): Promise<Record<string, unknown>[]> {
      const { DuckDBInstance } = await import('@duckdb/node-api');
      const db = await DuckDBInstance.create(':memory:');
      const c = await db.connect();
      try {
        return (await c.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
      } finally {
        c.closeSync();
      }
    }

    it('reads its lists, lists of lists and of structs, structs and maps as DuckDB does', async () => {
      const path = join(dir, 'nested.parquet');
      await duck(`COPY (SELECT * FROM (VALUES
          (1, [1, 2]::INT[], ['a', NULL]::VARCHAR[], {'a': 1, 'b': {'c': 'x'}}, MAP {'k1': 1, 'k2': NULL}, [[1], [], NULL]::INT[][], [{'x': 1}, NULL]),
          (2, []::INT[], []::VARCHAR[], {'a': NULL, 'b': NULL}, MAP {}::MAP(VARCHAR, INT), [[]]::INT[][], []),
          (3, NULL, [NULL]::VARCHAR[], NULL, NULL, NULL, NULL),
          (4, [NULL]::INT[], NULL, {'a': 2, 'b': {'c': NULL}}, MAP {'z': NULL}, []::INT[][], [NULL]),
          (5, [NULL, 3]::INT[], ['', NULL, 'b'], {'a': NULL, 'b': {'c': 'y'}}, MAP {'': 0}, [NULL, [NULL]]::INT[][], [{'x': NULL}])
        ) t(id, l, s, st, m, ll, ls)) TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 2)`);
      const ours = await read(new Uint8Array(readFileSync(path)));
      expect(ours.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
      const cols = ['l', 's', 'st', 'm', 'll', 'ls'];
      const theirs = await duck(`SELECT ${cols.map((c) => `to_json(${c})::VARCHAR AS ${c}`).join(', ')} FROM read_parquet('${path}') ORDER BY id`);
      expect(ours.map((r) => Object.fromEntries(cols.map((c) => [c, r[c]])))).toStrictEqual(
        theirs.map((r) => Object.fromEntries(cols.map((c) => [c, r[c] === null ? null : JSON.parse(r[c] as string)]))),
      );
      expect(ours[1]).toStrictEqual({ id: 2, l: [], s: [], st: { a: null, b: null }, m: {}, ll: [[]], ls: [] });
      expect(ours[2]).toStrictEqual({ id: 3, l: null, s: [null], st: null, m: null, ll: null, ls: null });
    });
  });
});
