// Input rows checked against the table schema and coerced into lakelet's value model (values.ts): the row
// validator compiler (compileRowValidator), one coercion function per Avro type.
import { LakeletError } from '../errors.js';
import type { AvroField, AvroRecordSchema, AvroSchema } from '../format/avro/schema.js';
import { avroTypeName, isNullable } from './avro-types.js';
import { defaultValue, MS_PER_DAY } from './defaults.js';
import { decimalValue, parseIsoString } from './parse-literals.js';
import { expects, fail, isPlainObject, show, wellFormed } from './row-errors.js';
import { MicrosDate } from './timestamp-micros.js';

/** Checks one user row and returns it normalized (fields in schema order, values in the value model). */
export type RowValidator = (row: unknown, rowIndex: number) => Record<string, unknown>;

type Coerce = (value: unknown, path: string, row: number) => unknown;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

// ---- compilation ----

function compile(type: AvroSchema, memo: Map<AvroSchema, Coerce>): Coerce {
  const known = memo.get(type);
  if (known !== undefined) return known;
  // Records may be recursive: register a forwarder before compiling the body.
  if (type.type === 'record') {
    let body: Coerce | undefined;
    const forward: Coerce = (v, p, r) => (body as Coerce)(v, p, r);
    memo.set(type, forward);
    body = compileRecord(type, memo);
    return forward;
  }
  const fn = compileNode(type, memo);
  memo.set(type, fn);
  return fn;
}

function compileNode(type: AvroSchema, memo: Map<AvroSchema, Coerce>): Coerce {
  const name = avroTypeName(type);
  const logical = 'logicalType' in type ? type.logicalType : undefined;
  if (logical?.name === 'decimal') {
    const { precision, scale } = logical;
    return (v, p, r) => {
      const out = decimalValue(v, precision, scale);
      if (typeof out === 'string') return out;
      throw expects(r, p, name, v, out.reason);
    };
  }
  switch (type.type) {
    case 'null':
      return (v, p, r) => { if (v === null || v === undefined) return null; throw expects(r, p, 'null', v); };
    case 'boolean':
      return (v, p, r) => { if (typeof v === 'boolean') return v; throw expects(r, p, name, v); };
    case 'int': {
      if (logical?.name === 'date') {
        return (v, p, r) => {
          const d = v instanceof Date ? v : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v.trim()) ? parseIsoString(v) : undefined;
          if (d === undefined || Number.isNaN(d.getTime())) throw expects(r, p, 'date (a Date or a "YYYY-MM-DD" string)', v);
          return new Date(Math.floor(d.getTime() / MS_PER_DAY) * MS_PER_DAY);
        };
      }
      if (logical?.name === 'time-millis') {
        return (v, p, r) => {
          const n = typeof v === 'bigint' ? Number(v) : v;
          if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n < MS_PER_DAY) return n;
          throw expects(r, p, 'time-millis (milliseconds after midnight)', v);
        };
      }
      return (v, p, r) => {
        if (typeof v === 'number' && Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX) return v;
        if (typeof v === 'bigint' && v >= BigInt(INT32_MIN) && v <= BigInt(INT32_MAX)) return Number(v);
        throw expects(r, p, 'int', v, typeof v === 'number' && Number.isInteger(v) ? ' (outside the 32-bit range)' : '');
      };
    }
    case 'long': {
      const lname = logical?.name;
      if (lname === 'timestamp-millis' || lname === 'timestamp-micros' || lname === 'local-timestamp-millis' || lname === 'local-timestamp-micros') {
        return (v, p, r) => {
          let d: Date | undefined;
          if (v instanceof Date) d = v;
          else if (typeof v === 'string') d = parseIsoString(v);
          else if (typeof v === 'number' && Number.isFinite(v)) d = new Date(v);
          // A bigint is the column's own unit: epoch microseconds (kept exactly) or milliseconds.
          else if (typeof v === 'bigint' && v >= INT64_MIN && v <= INT64_MAX) d = lname.endsWith('micros') ? new MicrosDate(v) : new Date(Number(v));
          if (d === undefined || Number.isNaN(d.getTime())) throw expects(r, p, `${lname} (a Date, an ISO-8601 string, epoch milliseconds, or a bigint in the column's unit)`, v);
          return v instanceof Date ? v : d;
        };
      }
      return (v, p, r) => {
        if (typeof v === 'bigint') {
          if (v >= INT64_MIN && v <= INT64_MAX) return v;
          throw expects(r, p, name, v, ' (outside the 64-bit range)');
        }
        if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
        throw expects(r, p, name, v, typeof v === 'number' && Number.isInteger(v) ? ' (not a safe integer: pass a bigint)' : '');
      };
    }
    case 'float':
    case 'double': {
      const single = type.type === 'float';
      return (v, p, r) => {
        const n = typeof v === 'bigint' ? Number(v) : v;
        if (typeof n === 'number') return single ? Math.fround(n) : n;
        throw expects(r, p, name, v);
      };
    }
    case 'string':
      return (v, p, r) => { if (typeof v === 'string') return wellFormed(v, p, r); throw expects(r, p, name, v); };
    case 'bytes':
      return (v, p, r) => {
        if (v instanceof Uint8Array) return v;
        if (v instanceof ArrayBuffer) return new Uint8Array(v);
        throw expects(r, p, 'bytes (Uint8Array)', v);
      };
    case 'fixed': {
      const size = type.size;
      return (v, p, r) => {
        const bytes = v instanceof Uint8Array ? v : v instanceof ArrayBuffer ? new Uint8Array(v) : undefined;
        if (bytes === undefined) throw expects(r, p, `${name} (Uint8Array of ${size} bytes)`, v);
        if (bytes.length !== size) throw expects(r, p, name, v, ` (length ${bytes.length}, expected ${size})`);
        return bytes;
      };
    }
    case 'enum': {
      const symbols = new Set(type.symbols);
      return (v, p, r) => {
        if (typeof v === 'string' && symbols.has(v)) return v;
        throw expects(r, p, `${name} (one of ${type.symbols.join(', ')})`, v);
      };
    }
    case 'array': {
      const item = compile(type.items, memo);
      return (v, p, r) => {
        if (!Array.isArray(v)) throw expects(r, p, name, v);
        return v.map((x, i) => item(x, `${p}[${i}]`, r));
      };
    }
    case 'map': {
      const value = compile(type.values, memo);
      return (v, p, r) => {
        let entries: [unknown, unknown][];
        if (v instanceof Map) entries = [...(v as Map<unknown, unknown>)];
        else if (isPlainObject(v)) entries = Object.entries(v);
        else throw expects(r, p, `${name} (an object or Map)`, v);
        const out: Record<string, unknown> = {};
        for (const [k, x] of entries) {
          if (typeof k !== 'string') throw expects(r, p, `${name} with string keys`, k);
          wellFormed(k, p, r);
          Object.defineProperty(out, k, { value: value(x, `${p}.${k}`, r), enumerable: true, writable: true, configurable: true });
        }
        return out;
      };
    }
    case 'union': {
      const nullable = type.branches.some((b) => b.type === 'null');
      const others = type.branches.filter((b) => b.type !== 'null').map((b) => compile(b, memo));
      const only = others.length === 1 ? others[0] : undefined;
      return (v, p, r) => {
        if (v === null || v === undefined) {
          if (nullable) return null;
          throw expects(r, p, name, v);
        }
        if (only !== undefined) return only(v, p, r);
        for (const branch of others) {
          try {
            return branch(v, p, r);
          } catch {
            // try the next branch
          }
        }
        throw expects(r, p, name, v);
      };
    }
    default:
      throw new LakeletError('INVALID_ARGUMENT', `schema: unsupported type ${name}`, { value: name });
  }
}

function compileRecord(type: AvroRecordSchema, memo: Map<AvroSchema, Coerce>): Coerce {
  const fields = type.fields.map((f: AvroField) => ({
    name: f.name,
    coerce: compile(f.type, memo),
    nullable: isNullable(f.type),
    hasDefault: f.hasDefault,
    default: f.hasDefault ? f.default : undefined,
    type: f.type,
  }));
  const known = new Set(type.fields.map((f) => f.name));
  return (v, path, row) => {
    if (!isPlainObject(v)) {
      if (path === '') throw new LakeletError('INVALID_ARGUMENT', `row ${row}: expected an object, got ${show(v)}`, { row, value: v });
      throw expects(row, path, avroTypeName(type), v);
    }
    const prefix = path === '' ? '' : `${path}.`;
    for (const key of Object.keys(v)) {
      if (!known.has(key)) throw fail(row, prefix + key, `is not in the table schema (${type.fields.map((f) => f.name).join(', ')})`, v[key]);
    }
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      const fieldPath = prefix + f.name;
      const value = Object.prototype.hasOwnProperty.call(v, f.name) ? v[f.name] : undefined;
      if (value === undefined) {
        if (f.hasDefault) out[f.name] = defaultValue(f.type, f.default, fieldPath);
        else if (f.nullable) out[f.name] = null;
        else throw fail(row, fieldPath, `is required (${avroTypeName(f.type)}) but missing`, undefined);
        continue;
      }
      out[f.name] = f.coerce(value, fieldPath, row);
    }
    return out;
  };
}

/**
 * Compile a validator for rows of `schema` (a record schema without meta fields). The validator checks one row
 * and returns a new object with the schema's fields in order, values coerced into lakelet's value model:
 * - int: integers in the 32-bit range (bigints in range too); long: bigint, or safe-integer numbers (strings are refused);
 * - float/double: numbers (bigints converted; floats rounded to float32); string; boolean;
 * - bytes: Uint8Array or ArrayBuffer; fixed: the same with the exact length; enum: one of the symbols;
 * - decimal: string, number or bigint → text with exactly `scale` fraction digits; too many integer digits for the
 *   precision, or non-zero digits beyond the scale, are refused;
 * - date: Date (truncated to its UTC day) or `YYYY-MM-DD`; timestamps: Date, ISO-8601 text (no zone = UTC) or epoch ms;
 * - records, arrays and maps (objects or `Map`s with string keys) recursively; unions: null, else the first branch that fits.
 * Missing (or undefined) fields take their default, else null when nullable, else fail; unknown fields fail.
 * Errors: `INVALID_ARGUMENT` "row 17: field 'fare' expects double, got \"abc\"" with context `{ row, field, value }`.
 */
export function compileRowValidator(schema: AvroRecordSchema): RowValidator {
  const coerce = compile(schema, new Map());
  return (row, rowIndex) => coerce(row, '', rowIndex) as Record<string, unknown>;
}
