// The columnar base-file read: rows of a parquet file as one vector per top-level field (a ColumnBatch) instead of
// row objects, for the copy-on-write merge. Leaves are collected by the same code as readParquetRows (read.ts);
// the values are the ones readParquetRows puts in rows.
import { corruptFile, LakeletError } from '../../errors.js';
import type { ColumnBatch } from './column-batch.js';
import { leafKey, planLeafRead, readLeafData, type AsyncBuffer, type DenseLeaf, type ParquetFooter, type ReadParquetRowsOptions } from './read.js';
import type { RawDecimalElement } from './assemble.js';

/** Options of {@link readParquetColumns}: the same as readParquetRows' (columns, rowStart, rowEnd). */
export type ReadParquetColumnsOptions = ReadParquetRowsOptions;

/** Whether a flat leaf's values reach lakelet's value model unconverted (no decimal scale, no enum decoding). */
function unconverted(el: RawDecimalElement): boolean {
  return el.lakeletDecimalScale === undefined && el.converted_type !== 'ENUM' && el.logical_type?.type !== 'ENUM';
}

/**
 * Read rows `rowStart … rowEnd` of a parquet file as a {@link ColumnBatch}: one vector per selected top-level
 * column, holding exactly the values {@link readParquetRows} would put in the rows' fields. A plain (non-nested)
 * column comes straight from its decoded leaf: a typed array (Float64Array, Int32Array, BigInt64Array, …) when
 * hyparquet decoded it typed (no nulls, no conversion), else a plain array with nulls as `null`. Nested columns
 * are assembled per value. Decoding failures → `CORRUPT_FILE` naming `path`.
 */
export async function readParquetColumns(file: AsyncBuffer, footer: ParquetFooter, path: string, options: ReadParquetColumnsOptions = {}): Promise<ColumnBatch> {
  const plan = planLeafRead(footer, options);
  if (!plan) return { length: 0, columns: {} };
  const count = plan.end - plan.start;
  const leafData = await readLeafData(file, footer, path, plan);
  try {
    const columns: Record<string, ArrayLike<unknown>> = {};
    for (const { name, element, assembler } of plan.selected) {
      const data = assembler.leaves.map((l) => leafData.get(leafKey(l)) as DenseLeaf);
      const { flat, read } = assembler;
      if (flat) {
        const dense = data[0] as DenseLeaf;
        if (!Array.isArray(dense) && unconverted(element)) {
          columns[name] = dense;
          continue;
        }
        // The dense array belongs to this read: convert in place (typed arrays that need converting are copied).
        const vector: unknown[] = Array.isArray(dense) ? dense : new Array(count);
        for (let r = 0; r < count; r++) vector[r] = flat(dense[r]);
        columns[name] = vector;
        continue;
      }
      const vector: unknown[] = new Array(count);
      const slots: unknown[] = new Array(data.length);
      for (let r = 0; r < count; r++) {
        for (let k = 0; k < data.length; k++) slots[k] = (data[k] as DenseLeaf)[r];
        vector[r] = read(slots);
      }
      columns[name] = vector;
    }
    return { length: count, columns };
  } catch (err) {
    if (err instanceof LakeletError) throw err;
    throw corruptFile(`parquet: cannot decode data (${(err as Error).message})`, path, undefined, err);
  }
}
