// The demo's exports, pure: query rows as CSV and parquet (read back by the import: same values and types),
// and a table as a zip (full: every file; snapshot: only the latest slices) that opens with the same rows.
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { createTable, memoryStorage, openTable, tableStorage, zipStorage } from '../../src/index.js';
import { csvCell, rowsToCsv } from '../../web/export-csv.js';
import { rowsToParquet } from '../../web/export-parquet.js';
import { exportPaths, tableZip } from '../../web/export-zip.js';
import { readImportFile } from '../../web/import-file.js';
import { inferColumns, typedRows } from '../../web/import-schema.js';
import { collect, openFixture } from '../helpers/fixtures.js';

const SCHEMA = {
  type: 'record', name: 'r', fields: [
    { name: 'id', type: 'long' }, { name: 'name', type: ['null', 'string'], default: null }, { name: 'score', type: ['null', 'double'], default: null },
    { name: 'ok', type: ['null', 'boolean'], default: null }, { name: 'day', type: ['null', { type: 'int', logicalType: 'date' }], default: null },
    { name: 'at', type: ['null', { type: 'long', logicalType: 'timestamp-micros' }], default: null },
    { name: 'tags', type: ['null', { type: 'array', items: 'string' }], default: null },
  ],
};

async function sample() {
  const table = await createTable(memoryStorage(), { name: 'r', type: 'COPY_ON_WRITE', recordKey: 'id', schema: SCHEMA, metadataTable: false });
  await table.upsert([
    { id: 1n, name: 'a, "quoted"\nline', score: 1.5, ok: true, day: '2024-01-02', at: new Date('2024-01-02T03:04:05.678Z'), tags: ['x', 'y'] },
    { id: 2n, name: '', score: null, ok: false, day: null, at: null, tags: null },
  ]);
  const rows = (await collect(table.rows({ columns: SCHEMA.fields.map((f) => f.name) }))).sort((a, b) => Number(a.id) - Number(b.id));
  return { table, rows, schema: await table.avroSchema(), columns: SCHEMA.fields.map((f) => f.name) };
}

describe('demo export: query results', () => {
  it('quotes CSV cells only when needed; null is empty, "" is quoted', () => {
    expect([csvCell(null), csvCell(''), csvCell('a'), csvCell('a,b'), csvCell('say "x"'), csvCell(' pad'), csvCell(3), csvCell({ a: 1 })])
      .toEqual(['', '""', 'a', '"a,b"', '"say ""x"""', '" pad"', '3', '"{""a"":1}"']);
  });

  it('writes CSV the import reads back to the same values', async () => {
    const { rows, schema, columns } = await sample();
    const csv = rowsToCsv(columns, rows, schema);
    expect(csv.split('\r\n')[0]).toBe('id,name,score,ok,day,at,tags');
    const back = await readImportFile('q.csv', new TextEncoder().encode(csv));
    const typed = typedRows(back, inferColumns(back));
    expect(typed).toEqual([
      { id: 1n, name: 'a, "quoted"\nline', score: 1.5, ok: true, day: '2024-01-02', at: new Date('2024-01-02T03:04:05.678Z'), tags: '["x","y"]' },
      { id: 2n, name: '', score: null, ok: false, day: null, at: null, tags: null },
    ]);
  });

  it('writes parquet the import (hyparquet) reads back with its types', async () => {
    const { rows, schema, columns } = await sample();
    const back = await readImportFile('q.parquet', rowsToParquet(columns, rows, schema));
    expect(back.columns).toEqual(columns);
    expect(back.rows).toEqual([
      { id: 1n, name: 'a, "quoted"\nline', score: 1.5, ok: true, day: new Date('2024-01-02T00:00:00Z'), at: new Date('2024-01-02T03:04:05.678Z'), tags: '["x","y"]' },
      { id: 2n, name: '', score: null, ok: false, day: null, at: null, tags: null },
    ]);
  });
});

describe('demo export: a table as a zip', () => {
  it('holds every file of the table under its folder, and opens with the same rows', async () => {
    const source = await openFixture('sample_table/cow/v6_nonpartitioned.zip');
    const files = (await source.storage.list('', { recursive: true })).map((f) => f.path);
    let progress = 0;
    const zip = await tableZip(source, { folder: 'v6', onProgress: (done, total) => { progress = done / total; } });
    expect(progress).toBe(1);
    expect(Object.keys(unzipSync(zip)).sort()).toEqual(files.map((f) => `v6/${f}`).sort());
    const copy = await openTable(await tableStorage(zipStorage(zip)));
    const key = (r: Record<string, unknown>) => String(r._hoodie_record_key);
    expect((await collect(copy.rows())).sort((a, b) => key(a).localeCompare(key(b)))).toEqual((await collect(source.rows())).sort((a, b) => key(a).localeCompare(key(b))));
  });

  it('as a snapshot leaves out replaced file versions but keeps the timeline and the latest rows', async () => {
    const table = await createTable(memoryStorage(), { name: 'r', type: 'COPY_ON_WRITE', recordKey: 'id', schema: SCHEMA, metadataTable: false });
    await table.upsert([{ id: 1n, name: 'old' }]);
    await table.upsert([{ id: 1n, name: 'new' }]);
    const all = await exportPaths(table, false);
    const snapshot = await exportPaths(table, true);
    const parquet = (paths: string[]) => paths.filter((p) => p.endsWith('.parquet'));
    expect(parquet(all)).toHaveLength(2);
    expect(parquet(snapshot)).toEqual([(await table.fileSlices())[0]?.baseFile?.path]);
    expect(snapshot.filter((p) => p.startsWith('.hoodie/'))).toEqual(all.filter((p) => p.startsWith('.hoodie/')));
    const copy = await openTable(await tableStorage(zipStorage(await tableZip(table, { folder: 'r', snapshot: true }))));
    expect((await collect(copy.rows({ columns: ['id', 'name'] })))).toEqual([{ id: 1n, name: 'new' }]);
  });
});
