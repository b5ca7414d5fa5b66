// Input files of the CLI's write commands: JSON lines (exact numbers: big integers as bigint, decimals as
// text), CSV (RFC 4180 with a header row) and parquet, as rows typed against the table schema when it has one.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { LakeletError, META_FIELDS, readParquetFile, type AvroRecordSchema } from '../index.js';

type AvroSchema = AvroRecordSchema['fields'][number]['type'];
const META: ReadonlySet<string> = new Set(META_FIELDS);
const isMetaField = (name: string): boolean => META.has(name);

/** The input formats of the write commands. */
export const INPUT_FORMATS = ['jsonl', 'csv', 'parquet'] as const;
/** One of {@link INPUT_FORMATS}. */
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** Rows read from an input file. */
export interface InputRows {
  rows: Record<string, unknown>[];
  /** The 1-based line each row starts on (text formats only), for error messages. */
  lines?: number[];
  /** Parquet: the file's Avro schema (`parquet.avro.schema` footer key, JSON), when it has one. */
  avroSchema?: string;
}

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

function invalid(message: string, context: Record<string, unknown> = {}): LakeletError {
  return new LakeletError('INVALID_ARGUMENT', `input: ${message}`, context);
}

// ---- JSON with exact numbers ----

/** A JSON number kept as its source text until its target type is known. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const INTEGER_RE = /^-?(?:0|[1-9]\d*)$/;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Parse one JSON text; numbers become {@link JsonNumber}. Errors are `SyntaxError`s naming the column. */
export function parseJson(text: string): unknown {
  let i = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at column ${i + 1}`);
  };
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const literal = (word: string, value: unknown): unknown => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return value;
    }
    return fail(`unexpected ${describeAt(text, i)}`);
  };
  const string = (): string => {
    i++; // opening quote
    let out = '';
    let from = i;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) fail('control character in a string');
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += text.slice(from, i);
      const e = text[i + 1];
      if (e === 'u') {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else {
        const ch = e === undefined ? undefined : ESCAPES[e];
        if (ch === undefined) fail('bad escape');
        out += ch;
        i += 2;
      }
      from = i;
    }
    out += text.slice(from, i);
    i++;
    return out;
  };
  const value = (depth: number): unknown => {
    if (depth > 512) fail('nesting too deep');
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      space();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        space();
        if (text[i] !== '"') fail(`expected a property name, got ${describeAt(text, i)}`);
        const key = string();
        space();
        if (text[i] !== ':') fail(`expected ':', got ${describeAt(text, i)}`);
        i++;
        // defineProperty: a "__proto__" key stays an own property, as with JSON.parse.
        Object.defineProperty(obj, key, { value: value(depth + 1), enumerable: true, writable: true, configurable: true });
        space();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return obj;
        } else fail(`expected ',' or '}', got ${describeAt(text, i)}`);
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      space();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(depth + 1));
        space();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return arr;
        } else fail(`expected ',' or ']', got ${describeAt(text, i)}`);
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    NUMBER_RE.lastIndex = i;
    const m = NUMBER_RE.exec(text);
    if (m === null) return fail(`unexpected ${describeAt(text, i)}`);
    i += m[0].length;
    return new JsonNumber(m[0]);
  };
  const out = value(0);
  space();
  if (i < text.length) fail(`unexpected ${describeAt(text, i)} after the value`);
  return out;
}

function describeAt(text: string, i: number): string {
  const c = text[i];
  return c === undefined ? 'end of input' : `character ${JSON.stringify(c)}`;
}

/** A JSON number without a target type: a safe integer → number, a bigger integer → bigint, else a double. */
function plainNumber(n: JsonNumber): number | bigint {
  if (INTEGER_RE.test(n.text)) {
    const v = Number(n.text);
    return Number.isSafeInteger(v) ? v : BigInt(n.text);
  }
  return Number(n.text);
}

/** The non-null branch of a nullable union with one other branch, else the type itself. */
function baseType(type: AvroSchema): { type: AvroSchema; nullable: boolean } {
  if (type.type !== 'union') return { type, nullable: type.type === 'null' };
  const others = type.branches.filter((b) => b.type !== 'null');
  const nullable = others.length < type.branches.length;
  return others.length === 1 ? { type: others[0] as AvroSchema, nullable } : { type, nullable };
}

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function fromBase64(text: string): Uint8Array | string {
  return BASE64_RE.test(text) ? new Uint8Array(Buffer.from(text, 'base64')) : text;
}

/**
 * Turn a parsed JSON value into lakelet's value model, guided by `type` when known: numbers exactly (long →
 * bigint, decimal → its digits as text, int/float/double → number), digit strings into long/int (so the
 * output of `lakelet query`, which prints unsafe longs as strings, reads back), base64 text into bytes,
 * `"NaN"`/`"Infinity"`/`"-Infinity"` into float/double.
 * Values that do not fit are passed on unchanged for the write's validator to name.
 */
export function typedJson(value: unknown, type: AvroSchema | undefined): unknown {
  if (value === null) return null;
  if (type === undefined) {
    if (value instanceof JsonNumber) return plainNumber(value);
    if (Array.isArray(value)) return value.map((v) => typedJson(v, undefined));
    if (typeof value === 'object') return mapValues(value as Record<string, unknown>, () => undefined);
    return value;
  }
  const t = baseType(type).type;
  const logical = 'logicalType' in t ? t.logicalType?.name : undefined;
  if (value instanceof JsonNumber) {
    if (logical === 'decimal') return value.text;
    if (t.type === 'long' && logical === undefined) {
      if (INTEGER_RE.test(value.text)) return BigInt(value.text);
      const n = Number(value.text);
      return Number.isSafeInteger(n) ? BigInt(n) : n;
    }
    return t.type === 'union' ? plainNumber(value) : Number(value.text);
  }
  if (typeof value === 'string') {
    if (logical === undefined && (t.type === 'long' || t.type === 'int') && INTEGER_RE.test(value.trim())) {
      return t.type === 'long' ? BigInt(value.trim()) : Number(value.trim());
    }
    if ((t.type === 'bytes' || t.type === 'fixed') && logical !== 'decimal') return fromBase64(value);
    // JSON has no NaN or infinities: `lakelet query` prints them as "NaN", "Infinity", "-Infinity".
    if (t.type === 'float' || t.type === 'double') return SPECIAL_DOUBLES[value.trim().toLowerCase()] ?? value;
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => typedJson(v, t.type === 'array' ? t.items : undefined));
  if (typeof value === 'object') {
    if (t.type === 'record') return mapValues(value as Record<string, unknown>, (k) => t.fields.find((f) => f.name === k)?.type);
    if (t.type === 'map') return mapValues(value as Record<string, unknown>, () => t.values);
    return mapValues(value as Record<string, unknown>, () => undefined);
  }
  return value;
}

function mapValues(obj: Record<string, unknown>, typeOf: (key: string) => AvroSchema | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) Object.defineProperty(out, k, { value: typedJson(v, typeOf(k)), enumerable: true, writable: true, configurable: true });
  return out;
}

// ---- JSON lines ----

/**
 * Parse JSON lines: one object per line, blank lines skipped. Numbers are exact: integers beyond 2^53 become
 * bigint, and with a schema values are typed by {@link typedJson}. A line that is not a JSON object →
 * `INVALID_ARGUMENT` naming the file and line.
 */
export function parseJsonLines(text: string, source: string, schema?: AvroRecordSchema): InputRows {
  const rows: Record<string, unknown>[] = [];
  const lines: number[] = [];
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let start = 0;
  let lineNo = 0;
  while (start <= body.length) {
    let end = body.indexOf('\n', start);
    if (end < 0) end = body.length;
    lineNo++;
    const line = body.slice(start, end);
    start = end + 1;
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = parseJson(line);
    } catch (err) {
      throw invalid(`${source} line ${lineNo}: invalid JSON (${(err as Error).message})`, { path: source, line: lineNo });
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw invalid(`${source} line ${lineNo}: expected a JSON object, got ${Array.isArray(parsed) ? 'an array' : parsed instanceof JsonNumber ? 'a number' : parsed === null ? 'null' : `a ${typeof parsed}`}`, { path: source, line: lineNo });
    }
    const row: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
      if (isMetaField(k)) continue;
      const type = schema ? schema.fields.find((f) => f.name === k)?.type : undefined;
      Object.defineProperty(row, k, { value: typedJson(v, type), enumerable: true, writable: true, configurable: true });
    }
    rows.push(row);
    lines.push(lineNo);
  }
  return { rows, lines };
}

// ---- CSV ----

/** One CSV cell: its text and whether it was quoted (a quoted empty cell is an empty string, an unquoted one null). */
interface Cell {
  text: string;
  quoted: boolean;
}

/** Split RFC 4180 text into records of cells, with the line each record starts on; blank lines are skipped. */
function csvRecords(text: string, source: string): { cells: Cell[]; line: number }[] {
  const out: { cells: Cell[]; line: number }[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < text.length) {
    const startLine = line;
    const cells: Cell[] = [];
    for (;;) {
      let cell: Cell;
      if (text[i] === '"') {
        const fieldLine = line;
        i++;
        let value = '';
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) throw invalid(`${source} line ${fieldLine}: unterminated quoted field`, { path: source, line: fieldLine });
          const chunk = text.slice(i, q);
          for (const ch of chunk) if (ch === '\n') line++;
          value += chunk;
          if (text[q + 1] === '"') {
            value += '"';
            i = q + 2;
          } else {
            i = q + 1;
            break;
          }
        }
        const next = text[i];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          throw invalid(`${source} line ${line}: unexpected ${JSON.stringify(next)} after a quoted field`, { path: source, line });
        }
        cell = { text: value, quoted: true };
      } else {
        let j = i;
        while (j < text.length && text[j] !== ',' && text[j] !== '\n' && text[j] !== '\r') j++;
        const value = text.slice(i, j);
        if (value.includes('"')) throw invalid(`${source} line ${line}: a quote inside an unquoted field (quote the whole field and double the quote)`, { path: source, line });
        cell = { text: value, quoted: false };
        i = j;
      }
      cells.push(cell);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '\r') i++;
      if (text[i] === '\n') i++;
      line++;
      break;
    }
    const blank = cells.length === 1 && cells[0]?.text === '' && cells[0].quoted === false;
    if (!blank) out.push({ cells, line: startLine });
  }
  return out;
}

/**
 * Parse CSV (RFC 4180: a header row, `,` separators, `"` quoting with doubled quotes, LF or CRLF; blank lines
 * skipped). An unquoted empty cell is null (or "" for a required string field); a quoted empty cell `""` is "".
 * With a schema, the header must name only its fields (`_hoodie_*` columns are dropped) and cells are typed by
 * it: int/long/float/double from digits, boolean from true/false/1/0, bytes from base64, records/arrays/maps from
 * JSON text; strings, decimals, dates and timestamps stay text for the validator. Without a schema each column
 * gets one type from all its cells: whole numbers → integers (bigint beyond 2^53; no leading zeros), numbers →
 * doubles, true/false → booleans, anything else → strings.
 */
export function parseCsv(text: string, source: string, schema?: AvroRecordSchema): InputRows {
  const records = csvRecords(text, source);
  const header = records.shift();
  if (header === undefined) throw invalid(`${source} is empty (a CSV input needs a header row)`, { path: source });
  const names = header.cells.map((c) => c.text);
  const seen = new Set<string>();
  for (const n of names) {
    if (n === '') throw invalid(`${source} line ${header.line}: the header has an empty column name`, { path: source, line: header.line });
    if (seen.has(n)) throw invalid(`${source} line ${header.line}: the header names column ${JSON.stringify(n)} twice`, { path: source, line: header.line });
    seen.add(n);
  }
  const keep = names.map((n) => !isMetaField(n));
  if (schema) {
    for (const n of names) {
      if (!isMetaField(n) && !schema.fields.some((f) => f.name === n)) {
        throw invalid(`${source} line ${header.line}: column ${JSON.stringify(n)} is not in the table schema (${schema.fields.map((f) => f.name).join(', ')})`, { path: source, line: header.line, field: n });
      }
    }
  }
  for (const r of records) {
    if (r.cells.length !== names.length) throw invalid(`${source} line ${r.line}: ${r.cells.length} fields, but the header has ${names.length}`, { path: source, line: r.line });
  }
  const convert = names.map((n, c): ((cell: Cell, line: number) => unknown) => {
    if (schema) {
      const field = schema.fields.find((f) => f.name === n);
      return (cell, line) => csvTyped(cell, field?.type, source, line, n);
    }
    return csvInferred(records.map((r) => r.cells[c] as Cell));
  });
  const rows: Record<string, unknown>[] = [];
  const lines: number[] = [];
  for (const r of records) {
    const row: Record<string, unknown> = {};
    r.cells.forEach((cell, c) => {
      if (!keep[c]) return;
      const v = (convert[c] as (cell: Cell, line: number) => unknown)(cell, r.line);
      if (v !== undefined) Object.defineProperty(row, names[c] as string, { value: v, enumerable: true, writable: true, configurable: true });
    });
    rows.push(row);
    lines.push(r.line);
  }
  return { rows, lines };
}

const DECIMAL_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const SPECIAL_DOUBLES: Record<string, number> = { nan: NaN, infinity: Infinity, '+infinity': Infinity, '-infinity': -Infinity };

/** One cell typed by its field's Avro type; undefined for a missing value (the field's default applies). */
function csvTyped(cell: Cell, type: AvroSchema | undefined, source: string, line: number, column: string): unknown {
  if (type === undefined) return cell.text;
  const { type: t, nullable } = baseType(type);
  const s = cell.text;
  if (s === '' && !cell.quoted) return nullable ? null : t.type === 'string' ? '' : undefined;
  const logical = 'logicalType' in t ? t.logicalType?.name : undefined;
  const trimmed = s.trim();
  switch (t.type) {
    case 'boolean': {
      const b = trimmed.toLowerCase();
      return b === 'true' || b === '1' ? true : b === 'false' || b === '0' ? false : s;
    }
    case 'int':
      if (logical === undefined || logical === 'time-millis') return INTEGER_RE.test(trimmed) ? Number(trimmed) : s;
      return s;
    case 'long':
      if (logical === undefined) return INTEGER_RE.test(trimmed) ? BigInt(trimmed) : s;
      return INTEGER_RE.test(trimmed) ? Number(trimmed) : s; // timestamps: epoch ms, else ISO text
    case 'float':
    case 'double': {
      if (DECIMAL_RE.test(trimmed)) return Number(trimmed);
      const special = SPECIAL_DOUBLES[trimmed.toLowerCase()];
      return special ?? s;
    }
    case 'bytes':
    case 'fixed':
      return logical === 'decimal' ? trimmed : fromBase64(trimmed);
    case 'record':
    case 'array':
    case 'map': {
      try {
        return typedJson(parseJson(s), t);
      } catch (err) {
        throw invalid(`${source} line ${line}: column ${JSON.stringify(column)} needs JSON text (${(err as Error).message})`, { path: source, line, field: column });
      }
    }
    default:
      return s;
  }
}

/** A converter for one column without a schema: the narrowest type every non-null cell fits. */
function csvInferred(cells: readonly Cell[]): (cell: Cell) => unknown {
  const values = cells.filter((c) => c.quoted || c.text !== '').map((c) => c.text);
  const isNull = (c: Cell) => !c.quoted && c.text === '';
  if (values.length > 0 && values.every((v) => INTEGER_RE.test(v))) {
    return (c) => (isNull(c) ? null : plainNumber(new JsonNumber(c.text)));
  }
  if (values.length > 0 && values.every((v) => DECIMAL_RE.test(v))) return (c) => (isNull(c) ? null : Number(c.text));
  if (values.length > 0 && values.every((v) => /^(true|false)$/i.test(v))) return (c) => (isNull(c) ? null : c.text.toLowerCase() === 'true');
  return (c) => (isNull(c) ? null : c.text);
}
