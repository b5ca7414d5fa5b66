// Reading a file the demo imports into rows: CSV (cells as text, typed later by the schema editor), JSON lines
// (or one JSON array) and parquet (through hyparquet, as the library reads base files). `_hoodie_*` columns are
// left out, so files exported from a Hudi table import cleanly.
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { LakeletError } from '../src/index.js';
import { parseCsv } from './import-csv.js';

/** The formats the import reads. */
export type ImportFormat = 'csv' | 'jsonl' | 'parquet';

/** A file read for import: its columns in file order and its rows of raw values, with each row's line. */
export interface ImportFile {
  name: string;
  format: ImportFormat;
  columns: string[];
  rows: Record<string, unknown>[];
  /** The line (CSV, JSON lines) or row number (parquet, JSON array) of each row, from 1. */
  lines: number[];
}

const isMeta = (name: string) => name.startsWith('_hoodie_');

/** The format of a file by its extension; undefined when the import does not read it. */
export function importFormatOf(name: string): ImportFormat | undefined {
  const ext = /\.([^.]+)$/.exec(name.toLowerCase())?.[1];
  if (ext === 'csv') return 'csv';
  if (ext === 'jsonl' || ext === 'ndjson' || ext === 'json') return 'jsonl';
  if (ext === 'parquet') return 'parquet';
  return undefined;
}

function text(bytes: Uint8Array, name: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (err) {
    throw new LakeletError('INVALID_ARGUMENT', `${name} is not UTF-8 text`, { path: name }, { cause: err });
  }
}

function jsonRows(source: string, name: string): { rows: Record<string, unknown>[]; lines: number[] } {
  const rows: Record<string, unknown>[] = [];
  const lines: number[] = [];
  const add = (value: unknown, line: number) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new LakeletError('INVALID_ARGUMENT', `${name} line ${line}: expected a JSON object, got ${JSON.stringify(value)}`, { path: name, line });
    }
    rows.push(value as Record<string, unknown>);
    lines.push(line);
  };
  const parse = (s: string, line: number): unknown => {
    try {
      return JSON.parse(s);
    } catch (err) {
      throw new LakeletError('INVALID_ARGUMENT', `${name} line ${line}: not JSON (${(err as Error).message})`, { path: name, line }, { cause: err });
    }
  };
  if (source.trimStart().startsWith('[')) {
    const all = parse(source, 1);
    if (!Array.isArray(all)) throw new LakeletError('INVALID_ARGUMENT', `${name}: expected a JSON array of objects`, { path: name });
    all.forEach((v, i) => add(v, i + 1));
  } else {
    source.split('\n').forEach((s, i) => {
      if (s.trim() !== '') add(parse(s, i + 1), i + 1);
    });
  }
  return { rows, lines };
}

/** Every column named in `rows`, in first-seen order, meta columns left out. */
function columnsOf(rows: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) if (!isMeta(k)) seen.add(k);
  return [...seen];
}

async function parquetRows(bytes: Uint8Array, name: string): Promise<{ columns: string[]; rows: Record<string, unknown>[] }> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let columns: string[];
  try {
    columns = parquetSchema(parquetMetadata(file)).children.map((c) => c.element.name).filter((c) => !isMeta(c));
  } catch (err) {
    throw new LakeletError('CORRUPT_FILE', `${name} is not a parquet file (${(err as Error).message})`, { path: name }, { cause: err });
  }
  if (columns.length === 0) throw new LakeletError('INVALID_ARGUMENT', `${name} has no data columns`, { path: name });
  const rows = await parquetReadObjects({ file, columns, compressors }) as Record<string, unknown>[];
  return { columns, rows };
}

/** Read `bytes` of the file `name` (its extension says the format) as rows; `INVALID_ARGUMENT` for other files. */
export async function readImportFile(name: string, bytes: Uint8Array): Promise<ImportFile> {
  const format = importFormatOf(name);
  if (format === 'parquet') {
    const { columns, rows } = await parquetRows(bytes, name);
    return { name, format, columns, rows, lines: rows.map((_, i) => i + 1) };
  }
  if (format === 'jsonl') {
    const { rows, lines } = jsonRows(text(bytes, name), name);
    return { name, format, columns: columnsOf(rows), rows, lines };
  }
  if (format === 'csv') {
    const csv = parseCsv(text(bytes, name), name);
    const columns = csv.header.filter((c) => !isMeta(c));
    const rows = csv.records.map((r) => Object.fromEntries(csv.header.map((c, i) => [c, r.cells[i] ?? null]).filter(([c]) => !isMeta(c as string))));
    return { name, format, columns, rows, lines: csv.records.map((r) => r.line) };
  }
  throw new LakeletError('INVALID_ARGUMENT', `${name}: the import reads .csv, .jsonl / .ndjson / .json and .parquet files`, { path: name });
}
