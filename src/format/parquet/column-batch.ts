// A batch of rows held as top-level column vectors: what the columnar write path hands the base-file writer
// (BaseFileWriter.writeColumns) and what the columnar base-file reader returns, so that a copy-on-write rewrite
// moves untouched rows from the old file to the new one without building a row object for each.

/**
 * Rows as column vectors in lakelet's value model (the same values a row object holds: string, number, bigint,
 * boolean, Uint8Array, Date/MicrosDate, nested plain objects, arrays and maps). `columns[name][i]` is row `i`'s
 * value of the top-level field `name`; `null` or `undefined` is a null. A field the batch does not carry is null
 * in every row. A vector may be a typed array (Float64Array for a double, Int32Array for an int, BigInt64Array for
 * a long) when the column holds no nulls.
 */
export interface ColumnBatch {
  /** Number of rows; every vector has at least this many entries. */
  readonly length: number;
  /** One vector per top-level field, by field name. */
  readonly columns: Readonly<Record<string, ArrayLike<unknown>>>;
}

/** Row `i` of a batch as a row object (for the few rows a merge must look at whole). */
export function batchRow(batch: ColumnBatch, i: number): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [name, vector] of Object.entries(batch.columns)) row[name] = vector[i] ?? null;
  return row;
}
