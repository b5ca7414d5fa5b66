// BaseFileWriter.writeColumns: the same file bytes as write(rows) for the same rows (any batch split, typed
// vectors), bad values rejected naming field and batch row with nothing of the batch kept.
import { describe, expect, it } from 'vitest';
import { isLakeletError } from '../../../src/errors.js';
import type { ColumnBatch } from '../../../src/format/parquet/column-batch.js';
import { BaseFileWriter, writeBaseFile, type BaseFileWriterOptions } from '../../../src/format/parquet/write.js';
import { FLAT, GOLDEN_CASES } from './golden/cases.js';

function batchOf(rows: readonly Record<string, unknown>[], options: BaseFileWriterOptions): ColumnBatch {
  const columns: Record<string, unknown[]> = {};
  for (const f of options.schema.fields) columns[f.name] = rows.map((r) => r[f.name]);
  return { length: rows.length, columns };
}

function viaColumns(rows: readonly Record<string, unknown>[], options: BaseFileWriterOptions, chunk: number, typed = false): Uint8Array {
  const w = new BaseFileWriter(options);
  for (let i = 0; i < rows.length; i += chunk) {
    const batch = batchOf(rows.slice(i, i + chunk), options);
    w.writeColumns(typed ? typedBatch(batch) : batch);
  }
  return w.finish();
}

/** Long / double / int columns without nulls as BigInt64Array / Float64Array / Int32Array. */
function typedBatch(batch: ColumnBatch): ColumnBatch {
  const columns: Record<string, ArrayLike<unknown>> = { ...batch.columns };
  for (const [name, v] of Object.entries(batch.columns)) {
    const values = Array.from(v);
    if (values.some((x) => x === null || x === undefined)) continue;
    if (values.every((x) => typeof x === 'bigint')) columns[name] = BigInt64Array.from(values as bigint[]);
    else if (name === 'fare' || name === 'req_double') columns[name] = Float64Array.from(values as number[]);
    else if (name === 'n' || name === 'id') columns[name] = Int32Array.from(values as number[]);
  }
  return { length: batch.length, columns };
}

describe('writeColumns ≡ write', () => {
  for (const c of GOLDEN_CASES) {
    it(`${c.name}: byte-identical in one batch, in batches of 7, and with typed vectors`, () => {
      const expected = writeBaseFile(c.rows, c.options);
      expect(viaColumns(c.rows, c.options, Math.max(1, c.rows.length))).toEqual(expected);
      expect(viaColumns(c.rows, c.options, 7)).toEqual(expected);
      expect(viaColumns(c.rows, c.options, 64, true)).toEqual(expected);
    });
  }

  it('mixes with write() and leaves absent columns null', () => {
    const c = GOLDEN_CASES.find((g) => g.name === 'flat-gzip') as (typeof GOLDEN_CASES)[number];
    const rows = c.rows.map((r) => ({ ...r, note: null }));
    const w = new BaseFileWriter(c.options);
    w.write(rows.slice(0, 10));
    const batch = batchOf(rows.slice(10), c.options);
    const { note: _dropped, ...columns } = batch.columns;
    w.writeColumns({ length: batch.length, columns });
    expect(w.finish()).toEqual(writeBaseFile(rows, c.options));
  });
});

describe('writeColumns rejects a bad batch whole', () => {
  const options: BaseFileWriterOptions = { schema: FLAT, codec: 'UNCOMPRESSED', rowGroupRows: 4 };
  const rows = (GOLDEN_CASES.find((g) => g.name === 'flat-gzip') as (typeof GOLDEN_CASES)[number]).rows.slice(0, 10);

  const expectRejected = (mutate: (b: Record<string, unknown[]>) => void, field: string, row: number): void => {
    const w = new BaseFileWriter(options);
    w.writeColumns(batchOf(rows.slice(0, 3), options));
    const bad = batchOf(rows.slice(3), options) as { length: number; columns: Record<string, unknown[]> };
    mutate(bad.columns);
    let caught: unknown;
    try {
      w.writeColumns(bad);
    } catch (err) {
      caught = err;
    }
    expect(isLakeletError(caught, 'INVALID_ARGUMENT')).toBe(true);
    expect((caught as Error).message).toContain(field);
    expect((caught as Error).message).toContain(`batch row ${row}`);
    expect(w.rowCount).toBe(3);
    w.writeColumns(batchOf(rows.slice(3), options));
    expect(w.finish()).toEqual(writeBaseFile(rows, options));
  };

  it('a value of the wrong type, late in the batch (after a row group would be full)', () => {
    expectRejected((c) => { (c.fare as unknown[])[5] = 'cheap'; }, 'fare', 5);
  });
  it('a null in a required column', () => {
    expectRejected((c) => { (c.city as unknown[])[2] = null; }, 'city', 2);
  });
  it('a missing record key', () => {
    expectRejected((c) => { (c._hoodie_record_key as unknown[])[4] = ''; }, '_hoodie_record_key', 4);
  });
});
