// The column types the demo's import offers (a subset of Avro's: what a CSV, JSON lines or parquet column
// usually holds), inferring one per column from sample values, and turning one value into that type for a
// write (lakelet's value model: long → bigint, date → `YYYY-MM-DD`, timestamp → Date or ISO text).
import { LakeletError } from '../src/index.js';

/** A column type of the import's schema editor. */
export type ColumnType = 'string' | 'boolean' | 'int' | 'long' | 'float' | 'double' | 'date' | 'timestamp';

/** Every {@link ColumnType}, in the order the editor lists them. */
export const COLUMN_TYPES: readonly ColumnType[] = ['string', 'boolean', 'int', 'long', 'float', 'double', 'date', 'timestamp'];

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/;
const INT32 = 2 ** 31;
const SPECIAL: Record<string, number> = { nan: NaN, infinity: Infinity, '-infinity': -Infinity };

/** The narrowest type one non-null value fits. */
function typeOf(value: unknown): ColumnType {
  switch (typeof value) {
    case 'boolean': return 'boolean';
    case 'bigint': return 'long';
    case 'number': return Number.isInteger(value) ? 'long' : 'double';
    case 'string': {
      const s = value.trim();
      if (/^[+-]?0\d/.test(s)) return 'string'; // 007 is a code, not a number
      if (INTEGER.test(s)) return 'long';
      if (NUMBER.test(s)) return 'double';
      if (/^(true|false)$/i.test(s)) return 'boolean';
      if (DATE.test(s) && !Number.isNaN(Date.parse(s))) return 'date';
      if (TIMESTAMP.test(s) && !Number.isNaN(Date.parse(s.replace(' ', 'T')))) return 'timestamp';
      return 'string';
    }
  }
  return value instanceof Date ? 'timestamp' : 'string';
}

/** The type both `a` and `b` fit: numbers widen to double, a date to a timestamp, anything else to string. */
function widen(a: ColumnType, b: ColumnType): ColumnType {
  if (a === b) return a;
  const numeric = new Set<ColumnType>(['int', 'long', 'float', 'double']);
  if (numeric.has(a) && numeric.has(b)) return 'double';
  if ((a === 'date' && b === 'timestamp') || (a === 'timestamp' && b === 'date')) return 'timestamp';
  return 'string';
}

/** One column's inferred type and whether it held nulls (a column of nulls only is a nullable string). */
export function inferColumn(values: Iterable<unknown>): { type: ColumnType; nullable: boolean } {
  let type: ColumnType | undefined;
  let nullable = false;
  for (const v of values) {
    if (v === null || v === undefined) {
      nullable = true;
      continue;
    }
    const t = typeOf(v);
    type = type === undefined ? t : widen(type, t);
  }
  return { type: type ?? 'string', nullable: nullable || type === undefined };
}

/** Where a value came from, for errors: the file and the line (CSV, JSON lines) or row (parquet). */
export interface ValueSource {
  path: string;
  line: number;
  column: string;
}

const expects = (at: ValueSource, type: ColumnType, value: unknown) => new LakeletError('INVALID_ARGUMENT',
  `${at.path} line ${at.line}: column ${JSON.stringify(at.column)} expects ${type}, got ${JSON.stringify(typeof value === 'bigint' ? value.toString() : value)}`,
  { path: at.path, line: at.line, field: at.column, value: typeof value === 'bigint' ? value.toString() : value });

/** `value` as a write of a `type` column takes it; null stays null; unconvertible → `INVALID_ARGUMENT` naming `at`. */
export function convertValue(value: unknown, type: ColumnType, at: ValueSource): unknown {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value.trim() : undefined;
  switch (type) {
    case 'string':
      if (typeof value === 'string') return value;
      if (value instanceof Date) return value.toISOString();
      return typeof value === 'object' ? JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) : String(value);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (text !== undefined && /^(true|1)$/i.test(text)) return true;
      if (text !== undefined && /^(false|0)$/i.test(text)) return false;
      break;
    case 'int': {
      const n = typeof value === 'bigint' || typeof value === 'number' ? Number(value) : text !== undefined && INTEGER.test(text) ? Number(text) : NaN;
      if (Number.isInteger(n) && n >= -INT32 && n < INT32) return n;
      break;
    }
    case 'long':
      if (typeof value === 'bigint') return value;
      if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
      if (text !== undefined && INTEGER.test(text)) return BigInt(text);
      break;
    case 'float':
    case 'double':
      if (typeof value === 'number') return value;
      if (typeof value === 'bigint') return Number(value);
      if (text !== undefined && NUMBER.test(text)) return Number(text);
      if (text !== undefined && text.toLowerCase() in SPECIAL) return SPECIAL[text.toLowerCase()];
      break;
    case 'date':
      if (value instanceof Date) return value.toISOString().slice(0, 10);
      if (text !== undefined && DATE.test(text) && !Number.isNaN(Date.parse(text))) return text;
      break;
    case 'timestamp':
      if (value instanceof Date) return value;
      if (typeof value === 'number' && Number.isFinite(value)) return new Date(value);
      if (text !== undefined && (TIMESTAMP.test(text) || DATE.test(text))) {
        const d = new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) || DATE.test(text) ? text.replace(' ', 'T') : `${text.replace(' ', 'T')}Z`);
        if (!Number.isNaN(d.getTime())) return d;
      }
      break;
  }
  throw expects(at, type, value);
}

/** The Avro type of a column: nullable ones are `["null", T]` with a null default. */
export function avroField(name: string, type: ColumnType, nullable: boolean): Record<string, unknown> {
  const base = type === 'date' ? { type: 'int', logicalType: 'date' }
    : type === 'timestamp' ? { type: 'long', logicalType: 'timestamp-micros' }
      : type;
  return nullable ? { name, type: ['null', base], default: null } : { name, type: base };
}

/** The column type of an Avro field type in JSON (a `["null", T]` union by its T), or undefined when the editor has none. */
export function columnTypeOf(avroType: unknown): { type: ColumnType; nullable: boolean } | undefined {
  let t = avroType;
  let nullable = false;
  if (Array.isArray(t)) {
    const rest = t.filter((b) => b !== 'null' && (b as { type?: unknown }).type !== 'null');
    nullable = rest.length < t.length;
    if (rest.length !== 1) return undefined;
    t = rest[0];
  }
  const name = typeof t === 'string' ? t : (t as { type?: unknown }).type;
  const logical = typeof t === 'object' && t !== null ? (t as { logicalType?: unknown }).logicalType : undefined;
  if (logical === 'date') return { type: 'date', nullable };
  if (typeof logical === 'string' && logical.includes('timestamp')) return { type: 'timestamp', nullable };
  if (logical !== undefined) return undefined;
  return typeof name === 'string' && (COLUMN_TYPES as readonly string[]).includes(name) && name !== 'date' && name !== 'timestamp'
    ? { type: name as ColumnType, nullable } : undefined;
}
