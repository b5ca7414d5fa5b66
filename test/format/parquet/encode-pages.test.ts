// lakelet's parquet encoder beyond the golden files' single pages: chunks over 1 MiB split into several pages at
// row boundaries with an offset index, read back by our reader and hyparquet; code-point order of strings.
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { parseAvroSchema, type AvroRecordSchema } from '../../../src/format/avro/schema.js';
import { bufferFromBytes, readParquetFooter, readParquetRows } from '../../../src/format/parquet/read.js';
import { compareCodePoints } from '../../../src/format/parquet/encode/statistics.js';
import { BaseFileWriter } from '../../../src/format/parquet/write.js';

const SCHEMA = parseAvroSchema({
  type: 'record', name: 'big', fields: [
    { name: 'x', type: 'double' },
    { name: 's', type: 'string' },
    { name: 'xs', type: ['null', { type: 'array', items: 'long' }] },
  ],
}) as AvroRecordSchema;

describe('multi-page column chunks', () => {
  it('split at row boundaries, with an offset index, and read back whole', async () => {
    const n = 150_000;
    const x = new Float64Array(n);
    const s: string[] = [];
    const xs: (bigint[] | null)[] = [];
    for (let i = 0; i < n; i++) {
      x[i] = i * 1.000001 + 0.5;
      s.push(`value-${i}-${'é'.repeat(i % 4)}`);
      xs.push(i % 7 === 0 ? null : [BigInt(i), BigInt(-i), BigInt(i * 3)]);
    }
    const w = new BaseFileWriter({ schema: SCHEMA, codec: 'SNAPPY', populateMetaFields: false, rowGroupRows: n });
    w.writeColumns({ length: n, columns: { x, s, xs } });
    const bytes = w.finish();
    const meta = parquetMetadata(bytes.slice().buffer as ArrayBuffer);
    const chunks = meta.row_groups[0]?.columns ?? [];
    expect(chunks.map((c) => c.offset_index_offset !== undefined)).toEqual([true, true, true]);
    const file = bufferFromBytes(bytes);
    const rows = await readParquetRows(file, await readParquetFooter(file, 'big.parquet'), 'big.parquet');
    expect(rows.length).toBe(n);
    for (const i of [0, 1, 7, 65_535, 131_072, n - 1]) expect(rows[i]).toEqual({ x: x[i], s: s[i], xs: xs[i] });
    const objects = await parquetReadObjects({ file: bytes.slice().buffer as ArrayBuffer, rowStart: n - 3 });
    expect(objects.map((o) => o.s)).toEqual(s.slice(n - 3));
  });
});

describe('string statistics order', () => {
  it('compares by code point (UTF-8 byte order), not UTF-16 code unit', () => {
    expect(compareCodePoints('\uffff', '𝄞')).toBeLessThan(0);
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0);
    expect(compareCodePoints('b', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('𝄞', '𝄞')).toBe(0);
  });
});
