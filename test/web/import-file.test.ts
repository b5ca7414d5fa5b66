// The demo's import, pure: the CSV parser (quoting, CRLF, blank lines, errors with lines), reading CSV / JSON
// lines / parquet files as rows, inferring column types, and typing rows by an edited schema or a table's schema.
import { describe, expect, it } from 'vitest';
import { avroSchemaToJson, createTable, memoryStorage, openTable } from '../../src/index.js';
import { parseCsv } from '../../web/import-csv.js';
import { readImportFile } from '../../web/import-file.js';
import { avroSchemaOf, inferColumns, tableColumns, typedRows } from '../../web/import-schema.js';
import { convertValue, inferColumn } from '../../web/import-types.js';
import { collect } from '../helpers/fixtures.js';
import { failure, thrown } from '../helpers/expect-error.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const at = { path: 'f.csv', line: 3, column: 'c' };

describe('demo import: CSV parsing', () => {
  it('reads quoted cells (separators, doubled quotes, line breaks), CRLF, a BOM, blank lines; null vs ""', () => {
    const csv = parseCsv('\ufeffid,name,note\r\n1,"Smith, J","say ""hi""\nagain"\r\n\r\n2,,""\n', 'f.csv');
    expect(csv.header).toEqual(['id', 'name', 'note']);
    expect(csv.records).toEqual([
      { cells: ['1', 'Smith, J', 'say "hi"\nagain'], line: 2 },
      { cells: ['2', null, ''], line: 5 },
    ]);
    expect(parseCsv('a\nx', 'f.csv').records).toEqual([{ cells: ['x'], line: 2 }]);
  });

  it('refuses ragged rows, bad quotes and bad headers with the line', () => {
    expect(thrown(() => parseCsv('a,b\n1,2\n3\n', 'f.csv')).message).toBe('f.csv line 3: 1 cells, but the header has 2');
    expect(thrown(() => parseCsv('a\n"x\n', 'f.csv')).message).toContain('line 2: unterminated quoted cell');
    expect(thrown(() => parseCsv('a\nx"y\n', 'f.csv')).message).toContain('line 2: a quote inside an unquoted cell');
    expect(thrown(() => parseCsv('a\n"x"y\n', 'f.csv')).message).toContain('line 2: unexpected "y" after a quoted cell');
    expect(thrown(() => parseCsv('a,a\n', 'f.csv')).message).toContain('names column "a" twice');
    expect(thrown(() => parseCsv('', 'f.csv')).code).toBe('INVALID_ARGUMENT');
  });
});

describe('demo import: types', () => {
  it('infers the narrowest type of a column and widens mixed ones', () => {
    expect(inferColumn(['1', '-20', null])).toEqual({ type: 'long', nullable: true });
    expect(inferColumn(['1', '2.5'])).toEqual({ type: 'double', nullable: false });
    expect(inferColumn(['007', '1'])).toEqual({ type: 'string', nullable: false });
    expect(inferColumn(['TRUE', 'false'])).toEqual({ type: 'boolean', nullable: false });
    expect(inferColumn(['2024-01-31', '2024-02-01'])).toEqual({ type: 'date', nullable: false });
    expect(inferColumn(['2024-01-31', '2024-02-01T10:00:00Z'])).toEqual({ type: 'timestamp', nullable: false });
    expect(inferColumn([1, 2n, 3.5])).toEqual({ type: 'double', nullable: false });
    expect(inferColumn([null, undefined])).toEqual({ type: 'string', nullable: true });
    expect(inferColumn([1, 'x'])).toEqual({ type: 'string', nullable: false });
  });

  it('converts values to the chosen type and names file, line and column when one does not fit', () => {
    expect(convertValue(' 42 ', 'long', at)).toBe(42n);
    expect(convertValue(7, 'long', at)).toBe(7n);
    expect(convertValue('1e3', 'double', at)).toBe(1000);
    expect(convertValue('-Infinity', 'double', at)).toBe(-Infinity);
    expect(convertValue('0', 'boolean', at)).toBe(false);
    expect(convertValue('2024-01-31', 'date', at)).toBe('2024-01-31');
    expect(convertValue('2024-01-31 10:00:00', 'timestamp', at)).toEqual(new Date('2024-01-31T10:00:00Z'));
    expect(convertValue({ a: 1n }, 'string', at)).toBe('{"a":"1"}');
    expect(convertValue(null, 'int', at)).toBeNull();
    const err = thrown(() => convertValue('abc', 'long', at));
    expect(err.message).toBe('f.csv line 3: column "c" expects long, got "abc"');
    expect(err.context).toMatchObject({ path: 'f.csv', line: 3, field: 'c', value: 'abc' });
    expect(thrown(() => convertValue(2 ** 31, 'int', at)).code).toBe('INVALID_ARGUMENT');
  });
});

describe('demo import: files to typed rows', () => {
  it('reads a CSV file, infers, renames and retypes by the edited schema, and writes it to a new table', async () => {
    const file = await readImportFile('people.csv', bytes('id,name,age,_hoodie_commit_time\n1,Ann,31,x\n2,Bob,,y\n'));
    expect(file.columns).toEqual(['id', 'name', 'age']);
    const columns = inferColumns(file);
    expect(columns.map((c) => [c.name, c.type, c.nullable])).toEqual([['id', 'long', false], ['name', 'string', false], ['age', 'long', true]]);
    columns[0]!.name = 'person_id';
    columns[2]!.type = 'double';
    const rows = typedRows(file, columns);
    expect(rows).toEqual([{ person_id: 1n, name: 'Ann', age: 31 }, { person_id: 2n, name: 'Bob', age: null }]);
    const table = await createTable(memoryStorage(), { name: 'people', type: 'COPY_ON_WRITE', recordKey: 'person_id', schema: avroSchemaOf(columns, 'person'), metadataTable: false });
    await table.upsert(rows);
    expect((await collect(table.rows({ columns: ['person_id', 'age'] }))).sort((a, b) => Number(a.person_id) - Number(b.person_id)))
      .toEqual([{ person_id: 1n, age: 31 }, { person_id: 2n, age: null }]);
  });

  it('refuses a null in a column made not nullable, and a bad column name', async () => {
    const file = await readImportFile('p.csv', bytes('id,age\n1,\n'));
    const columns = inferColumns(file);
    columns[1]!.nullable = false;
    expect(thrown(() => typedRows(file, columns)).message).toBe('p.csv line 2: column "age" is empty, but "age" is not nullable');
    columns[1]!.name = '9lives';
    expect(thrown(() => avroSchemaOf(columns, 'r')).context).toMatchObject({ field: 'age', value: '9lives' });
  });

  it('reads JSON lines and a JSON array; refuses a non-object line with its number', async () => {
    const lines = await readImportFile('a.jsonl', bytes('{"id":1,"tags":["x"]}\n\n{"id":2,"extra":true}\n'));
    expect(lines.columns).toEqual(['id', 'tags', 'extra']);
    expect(lines.lines).toEqual([1, 3]);
    expect(inferColumns(lines).map((c) => c.type)).toEqual(['long', 'string', 'boolean']);
    expect(typedRows(lines, inferColumns(lines))[0]).toEqual({ id: 1n, tags: '["x"]' });
    expect((await readImportFile('a.json', bytes('[{"id":1},{"id":2}]'))).rows).toHaveLength(2);
    expect((await failure(readImportFile('a.jsonl', bytes('{"id":1}\n[1]\n')))).message).toContain('a.jsonl line 2: expected a JSON object');
    expect((await failure(readImportFile('a.txt', bytes('x')))).code).toBe('INVALID_ARGUMENT');
  });

  it('types rows by an existing table schema, leaving unknown columns for the write to refuse', async () => {
    const table = await createTable(memoryStorage(), {
      name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', metadataTable: false,
      schema: { type: 'record', name: 't', fields: [{ name: 'id', type: 'long' }, { name: 'day', type: { type: 'int', logicalType: 'date' } }, { name: 'n', type: ['null', 'double'], default: null }] },
    });
    const json = avroSchemaToJson(await table.avroSchema()) as { fields: { name: string; type: unknown }[] };
    const file = await readImportFile('t.csv', bytes('id,day,n\n5,2024-03-01,\n'));
    const rows = typedRows(file, tableColumns(file, json));
    expect(rows).toEqual([{ id: 5n, day: '2024-03-01', n: null }]);
    await table.upsert(rows);
    const other = await readImportFile('u.csv', bytes('id,colour\n6,red\n'));
    const err = await failure((await openTable(table.storage)).upsert(typedRows(other, tableColumns(other, json))));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toContain('colour');
  });
});
