// CSV input of the CLI's write commands (RFC 4180 with a header row): cells typed by the table schema when it
// has one, else each column by the narrowest type all its cells fit.
import type { AvroRecordSchema } from '../index.js';
import { baseType, fromBase64, INTEGER_RE, JsonNumber, parseJson, plainNumber, SPECIAL_DOUBLES, typedJson } from './input-json.js';
import { invalid, isMetaField, type AvroSchema, type InputRows } from './input-rows.js';

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
