// Input files of the CLI's write commands: the format of a file (from --format or its extension) and the
// reader for it — JSON lines (input-jsonl.ts), CSV (input-csv.ts) or parquet (here, through the public API).
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { LakeletError, readParquetFile, type AvroRecordSchema } from '../index.js';
import { parseCsv } from './input-csv.js';
import { parseJsonLines } from './input-jsonl.js';
import { invalid, type InputRows } from './input-rows.js';

export type { InputRows } from './input-rows.js';

/** The input formats of the write commands. */
export const INPUT_FORMATS = ['jsonl', 'csv', 'parquet'] as const;
/** One of {@link INPUT_FORMATS}. */
export type InputFormat = (typeof INPUT_FORMATS)[number];

const EXTENSIONS: Record<string, InputFormat> = { '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.json': 'jsonl', '.csv': 'csv', '.parquet': 'parquet' };

/** The format of `path`: `explicit` when given, else from the extension (`.jsonl`/`.ndjson`/`.json`, `.csv`, `.parquet`). */
export function inputFormatOf(path: string, explicit?: string): InputFormat {
  if (explicit !== undefined) {
    const f = explicit.toLowerCase();
    if (!(INPUT_FORMATS as readonly string[]).includes(f)) throw invalid(`--format must be one of ${INPUT_FORMATS.join(', ')}, got ${JSON.stringify(explicit)}`);
    return f as InputFormat;
  }
  const format = EXTENSIONS[extname(path).toLowerCase()];
  if (format === undefined) throw invalid(`cannot tell the format of ${JSON.stringify(path)} from its extension (use --format ${INPUT_FORMATS.join('|')})`);
  return format;
}

/**
 * Read an input file as rows. With `schema` (the table's data fields), text values are typed by it (see
 * {@link parseCsv} and {@link parseJsonLines}); `_hoodie_*` meta columns are dropped in every format.
 */
export async function readInputFile(path: string, format: InputFormat, schema: AvroRecordSchema | undefined): Promise<InputRows> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new LakeletError(code === 'ENOENT' ? 'NOT_FOUND' : 'STORAGE', `input: cannot read ${JSON.stringify(path)} (${code ?? (err as Error).message})`, { path }, { cause: err });
  }
  if (format === 'parquet') return readParquetInput(bytes, path);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (err) {
    throw new LakeletError('INVALID_ARGUMENT', `input: ${path} is not UTF-8 text`, { path }, { cause: err });
  }
  return format === 'csv' ? parseCsv(text, path, schema) : parseJsonLines(text, path, schema);
}

/**
 * Every row of a parquet file (all row groups) without `_hoodie_*` meta columns, and the file's Avro schema
 * when its footer has one (Hudi and parquet-avro files do). Bad bytes → `CORRUPT_FILE`.
 */
export async function readParquetInput(bytes: Uint8Array, path: string): Promise<InputRows> {
  const { columns, rows, avroSchema } = await readParquetFile(bytes, path);
  if (columns.length === 0) throw invalid(`${path} has no data columns`);
  return avroSchema === undefined ? { rows } : { rows, avroSchema };
}
