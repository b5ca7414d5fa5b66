// The physical path of the copy-on-write merge (format/parquet/physical-vector.ts, issue 13): which old columns
// move as stored bytes, that the columnar reader hands them over as the file's bytes, and that the writer takes
// only marked vectors that way (an unmarked array of bytes for a string column is still refused). That the merged
// files are byte-identical to the row merge's is shown for every case in cow-merge-columnar.test.ts.
import { describe, expect, it } from 'vitest';
import { isLakeletError } from '../../src/errors.js';
import { isPhysical, markPhysical } from '../../src/format/parquet/physical-vector.js';
import { readParquetColumns } from '../../src/format/parquet/read-columns.js';
import { bufferFromBytes, readParquetFooter, readParquetRows } from '../../src/format/parquet/read.js';
import { BaseFileWriter, writeBaseFile } from '../../src/format/parquet/write.js';
import { twosComplement } from '../../src/format/parquet/physical-values.js';
import { physicalColumns } from '../../src/merge/cow-merge.js';
import { ALL_TYPES, FLAT, GOLDEN_CASES } from '../format/parquet/golden/cases.js';

const utf8 = new TextEncoder();
const rowsOf = (name: string): Record<string, unknown>[] => (GOLDEN_CASES.find((g) => g.name === name) as { rows: Record<string, unknown>[] }).rows;
/** A decimal string of `scale` as the two's complement bytes of its unscaled value. */
const unscaled = (v: string, scale: number, size?: number): Uint8Array => {
  const [int = '', frac = ''] = v.replace('-', '').split('.');
  const n = BigInt(int + frac.padEnd(scale, '0')) * (v.startsWith('-') ? -1n : 1n);
  return twosComplement(n, size);
};

describe('physical columns of a copy-on-write merge', () => {
  it('are the flat string and decimal columns, uuid strings included; not the record key, the file name, enums, bytes, fixed or compared fields', async () => {
    const file = bufferFromBytes(writeBaseFile(rowsOf('all-types-snappy'), { schema: ALL_TYPES }));
    const footer = await readParquetFooter(file, 'x');
    const writer = new BaseFileWriter({ schema: ALL_TYPES });
    const all = physicalColumns(footer, writer, footer.columns, []);
    expect([...all].sort()).toEqual(['_hoodie_commit_seqno', '_hoodie_commit_time', '_hoodie_partition_path', 'dec_10_5', 'dec_30_0', 'dec_5_2', 'req_str', 'str', 'uid'].sort());
    expect([...physicalColumns(footer, writer, footer.columns, ['str', 'dec_5_2'])].sort()).toEqual([...all].filter((c) => c !== 'str' && c !== 'dec_5_2').sort());
  });

  it('are none when the writer stores a column differently (a decimal of another scale)', async () => {
    const other = { ...ALL_TYPES, fields: ALL_TYPES.fields.map((f) => (f.name === 'dec_5_2' ? { ...f, type: { type: 'bytes', logicalType: 'decimal', precision: 5, scale: 1 } } : f)) } as typeof ALL_TYPES;
    const file = bufferFromBytes(writeBaseFile(rowsOf('all-types-snappy'), { schema: ALL_TYPES }));
    const footer = await readParquetFooter(file, 'x');
    const columns = physicalColumns(footer, new BaseFileWriter({ schema: other }), footer.columns, []);
    expect(columns.has('dec_5_2')).toBe(false);
    expect(columns.has('dec_30_0')).toBe(true);
  });

  it('are read as the stored bytes of each value, nulls kept, the vector marked', async () => {
    const rows = rowsOf('all-types-gzip-bloom');
    const file = bufferFromBytes(writeBaseFile(rows, { schema: ALL_TYPES, rowGroupRows: 8 }));
    const footer = await readParquetFooter(file, 'x');
    const physical = new Set(['str', 'req_str', 'dec_5_2', 'dec_10_5']);
    const batch = await readParquetColumns(file, footer, 'x', { columns: ['str', 'req_str', 'dec_5_2', 'dec_10_5', 'i64'], rowStart: 3, rowEnd: 15, physical });
    const expected = rows.slice(3, 15);
    for (const name of physical) expect(isPhysical(batch.columns[name] as unknown[]), name).toBe(true);
    expect(isPhysical(batch.columns.i64 as unknown[])).toBe(false);
    const str = Array.from(batch.columns.str as unknown[]);
    expect(str.map((v) => (v == null ? null : v))).toEqual(expected.map((r) => (r.str == null ? null : utf8.encode(r.str as string))));
    expect(str.some((v) => v instanceof Uint8Array && v.some((b) => b > 0x7f))).toBe(true);
    expect(Array.from(batch.columns.dec_5_2 as unknown[]).map((v) => (v == null ? null : v)))
      .toEqual(expected.map((r) => (r.dec_5_2 == null ? null : unscaled(r.dec_5_2 as string, 2))));
    expect(Array.from(batch.columns.dec_10_5 as unknown[]).map((v) => (v == null ? null : v)))
      .toEqual(expected.map((r) => (r.dec_10_5 == null ? null : unscaled(r.dec_10_5 as string, 5, 5))));
    // The same read without `physical` still gives lakelet's values.
    const values = await readParquetColumns(file, footer, 'x', { columns: ['str'], rowStart: 3, rowEnd: 15 });
    expect(Array.from(values.columns.str as unknown[]).map((v) => v ?? null)).toEqual(expected.map((r) => r.str ?? null));
  });

  it('are taken by the writer only when marked; a marked vector mixed with fresh strings reads back as the strings', async () => {
    const rows = rowsOf('flat-gzip');
    const columnsOf = (rs: Record<string, unknown>[]): Record<string, unknown[]> =>
      Object.fromEntries(FLAT.fields.map((f) => [f.name, rs.map((r) => r[f.name])]));
    const half = rows.length / 2;
    const asBytes = (v: unknown): unknown => (typeof v === 'string' ? utf8.encode(v) : v);
    const first = columnsOf(rows.slice(0, half));
    const unmarked = new BaseFileWriter({ schema: FLAT });
    let refused: unknown;
    try {
      unmarked.writeColumns({ length: half, columns: { ...first, city: (first.city as unknown[]).map(asBytes) } });
    } catch (err) {
      refused = err;
    }
    expect(isLakeletError(refused, 'INVALID_ARGUMENT')).toBe(true);

    const w = new BaseFileWriter({ schema: FLAT, rowGroupRows: 1000 });
    w.writeColumns({ length: half, columns: { ...first, city: markPhysical((first.city as unknown[]).map(asBytes)), note: markPhysical((first.note as unknown[]).map(asBytes)) } });
    w.writeColumns({ length: rows.length - half, columns: columnsOf(rows.slice(half)) });
    const bytes = w.finish();
    const reference = bufferFromBytes(writeBaseFile(rows, { schema: FLAT, rowGroupRows: 1000 }));
    const file = bufferFromBytes(bytes);
    expect(await readParquetRows(file, await readParquetFooter(file, 'x'), 'x'))
      .toEqual(await readParquetRows(reference, await readParquetFooter(reference, 'x'), 'x'));
    expect(bytes).toEqual(new Uint8Array(reference.slice(0, reference.byteLength) as ArrayBuffer));
  });
});
