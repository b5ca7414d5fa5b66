// The columnar base-file read: rows of a parquet file as one vector per top-level field (a ColumnBatch) instead of
// row objects, for the copy-on-write merge. Leaves are collected by the same code as readParquetRows (read.ts);
// the values are the ones readParquetRows puts in rows, except the columns asked for physically (their stored
// bytes, see physical-vector.ts).
import { parquetSchema } from 'hyparquet';
import { corruptFile, LakeletError } from '../../errors.js';
import type { ColumnBatch } from './column-batch.js';
import { leafKey, planLeafRead, readLeafData, type AsyncBuffer, type DenseLeaf, type LeafReadPlan, type ParquetFooter, type ReadParquetRowsOptions } from './read.js';
import type { RawDecimalElement } from './assemble.js';
import { markPhysical } from './physical-vector.js';

/** Options of {@link readParquetColumns}: readParquetRows' (columns, rowStart, rowEnd), plus `physical`. */
export interface ReadParquetColumnsOptions extends ReadParquetRowsOptions {
  /**
   * Flat byte-array columns (see {@link flatLeafElements}) to hand over as stored: each value the leaf's bytes
   * (strings undecoded, decimals unscaled) or null, the vector marked physical (physical-vector.ts).
   */
  physical?: ReadonlySet<string> | undefined;
}

/** The element of every flat top-level leaf (not nested, not repeated) of a file, by column name. */
export function flatLeafElements(footer: ParquetFooter): Map<string, RawDecimalElement> {
  const out = new Map<string, RawDecimalElement>();
  for (const c of parquetSchema(footer.metadata).children) {
    if (c.children.length === 0 && c.element.repetition_type !== 'REPEATED') out.set(c.element.name, c.element as RawDecimalElement);
  }
  return out;
}

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
  const physical = options.physical;
  const isPhysical = (name: string, flat: unknown): boolean => flat !== undefined && physical?.has(name) === true;
  const part = (pick: (s: LeafReadPlan['selected'][number]) => boolean): LeafReadPlan => {
    const selected = plan.selected.filter(pick);
    return { ...plan, selected, columns: selected.map((s) => s.name) };
  };
  // Physical columns come from a read of their own with strings left as bytes; the rest are read as usual.
  const leafData = physical === undefined || physical.size === 0
    ? await readLeafData(file, footer, path, plan)
    : new Map([
      ...await readLeafData(file, footer, path, part((s) => !isPhysical(s.name, s.assembler.flat))),
      ...await readLeafData(file, footer, path, part((s) => isPhysical(s.name, s.assembler.flat)), { stringsAsBytes: true }),
    ]);
  try {
    const columns: Record<string, ArrayLike<unknown>> = {};
    for (const { name, element, assembler } of plan.selected) {
      const data = assembler.leaves.map((l) => leafData.get(leafKey(l)) as DenseLeaf);
      const { flat, read } = assembler;
      if (flat) {
        const dense = data[0] as DenseLeaf;
        if (isPhysical(name, flat) && Array.isArray(dense)) {
          // The dense array belongs to this read; stored bytes as they are (nulls stay null or undefined).
          columns[name] = markPhysical(dense);
          continue;
        }
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
