// A whole parquet file as rows in lakelet's value model, for Node callers loading data into a table (the CLI's
// `--input file.parquet`): every row group, `_hoodie_*` meta columns left out, the file's Avro schema kept.
import { readHudiFooter } from '../format/parquet/hudi-footer.js';
import { bufferFromBytes, readParquetFooter, readParquetRows } from '../format/parquet/read.js';
import { isMetaField } from '../schema/table-schema.js';

/** What {@link readParquetFile} returns. */
export interface ParquetFileRows {
  /** The data columns (meta columns left out), in file order; empty when the file has none (then no rows). */
  columns: string[];
  /** Every row: long → bigint, decimal → string, date/timestamp → Date, bytes → Uint8Array. */
  rows: Record<string, unknown>[];
  /** The file's Avro schema (`parquet.avro.schema` footer key, JSON), when it has one (Hudi and parquet-avro files do). */
  avroSchema?: string;
}

/**
 * Read every row of a parquet file's bytes without the `_hoodie_*` meta columns, ready for `table.upsert` and
 * the other writes. `path` names the file in errors; bad bytes → `CORRUPT_FILE`.
 */
export async function readParquetFile(bytes: Uint8Array, path = 'parquet file'): Promise<ParquetFileRows> {
  const file = bufferFromBytes(bytes);
  const footer = await readParquetFooter(file, path);
  const columns = footer.columns.filter((c) => !isMetaField(c));
  const rows = columns.length === 0 ? [] : await readParquetRows(file, footer, path, { columns });
  const { avroSchema } = readHudiFooter(footer.keyValues, { path, bloom: false });
  return avroSchema === undefined ? { columns, rows } : { columns, rows, avroSchema };
}
