// Input rows checked against the table schema and coerced into lakelet's value model (values.ts), and the
// schema-evolution rules a new write schema must satisfy against the table's current one.
import { LakeletError } from '../errors.js';
import type { AvroField, AvroRecordSchema, AvroSchema } from '../format/avro/schema.js';
import { loneSurrogateProblem } from './well-formed.js';
import { fractionMicros, MicrosDate } from './timestamp-micros.js';
import { bigIntFromTwosComplement, formatDecimal } from './values.js';

/** Checks one user row and returns it normalized (fields in schema order, values in the value model). */
export type RowValidator = (row: unknown, rowIndex: number) => Record<string, unknown>;

type Coerce = (value: unknown, path: string, row: number) => unknown;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const MS_PER_DAY = 86_400_000;

function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : `Date(${value.toISOString()})`;
  if (value instanceof Uint8Array) return `Uint8Array(${value.length})`;
  if (value instanceof ArrayBuffer) return `ArrayBuffer(${value.byteLength})`;
  try {
    const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return String(value);
  }
}

function fail(row: number, path: string, message: string, value: unknown): LakeletError {
  return new LakeletError('INVALID_ARGUMENT', `row ${row}: field '${path}' ${message}`, { row, field: path, value });
}

function expects(row: number, path: string, typeName: string, value: unknown, why = ''): LakeletError {
  return fail(row, path, `expects ${typeName}, got ${show(value)}${why}`, value);
}

/** `text`, unless it holds a lone surrogate (stored as UTF-8 it would change: a key would no longer match). */
function wellFormed(text: string, path: string, row: number): string {
  const problem = loneSurrogateProblem(text);
  if (problem !== undefined) throw fail(row, path, problem, text);
  return text;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/** A short name of a type, for messages: `double`, `decimal(10,2)`, `timestamp-micros`, `record Trip`. */
export function avroTypeName(type: AvroSchema): string {
  switch (type.type) {
    case 'record': return `record ${type.name}`;
    case 'enum': return `enum ${type.name}`;
    case 'fixed': return type.logicalType?.name === 'decimal' ? `decimal(${type.logicalType.precision},${type.logicalType.scale})` : `fixed(${type.size})`;
    case 'array': return `array<${avroTypeName(type.items)}>`;
    case 'map': return `map<${avroTypeName(type.values)}>`;
    case 'union': return type.branches.map(avroTypeName).join(' | ');
    default:
      if (type.logicalType?.name === 'decimal') return `decimal(${type.logicalType.precision},${type.logicalType.scale})`;
      return type.logicalType?.name ?? type.type;
  }
}

// ---- decimals ----

/** Canonical decimal text with exactly `scale` digits, or a reason why the value does not fit. */
function decimalValue(value: unknown, precision: number, scale: number): string | { reason: string } {
  let text: string;
  if (typeof value === 'string') text = value.trim();
  else if (typeof value === 'bigint') text = value.toString();
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { reason: '' };
    text = expandExponent(String(value));
  } else return { reason: '' };
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (m === null || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) return { reason: '' };
  const intPart = (m[2] ?? '').replace(/^0+/, '');
  let frac = m[3] ?? '';
  if (frac.length > scale) {
    if (/[^0]/.test(frac.slice(scale))) return { reason: ` (more than ${scale} fraction digits)` };
    frac = frac.slice(0, scale);
  }
  if (intPart.length + scale > precision) return { reason: ` (more than ${precision - scale} integer digits for precision ${precision})` };
  const unscaled = BigInt((intPart || '0') + frac.padEnd(scale, '0'));
  return formatDecimal(m[1] === '-' ? -unscaled : unscaled, scale);
}

/** `1e-7` → `0.0000001`, `1.5e+21` → `1500000000000000000000` (JS number text without exponent). */
function expandExponent(text: string): string {
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (m === null) return text;
  const digits = (m[2] as string) + (m[3] ?? '');
  const point = 1 + Number(m[4]);
  if (point <= 0) return `${m[1]}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return m[1] + digits.padEnd(point, '0');
  return `${m[1]}${digits.slice(0, point)}.${digits.slice(point)}`;
}

// ---- dates and timestamps ----

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** An ISO-8601 date or date-time string as a Date (no zone = UTC), or undefined when it is not one. */
function parseIsoString(text: string): Date | undefined {
  const m = ISO_RE.exec(text.trim());
  if (m === null) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), month - 1, day);
  if (date.getUTCDate() !== day) return undefined;
  date.setUTCHours(Number(h), Number(mi), Number(s), Number(frac.padEnd(3, '0').slice(0, 3)));
  let ms = date.getTime();
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const zm = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
    if (zm === null) return undefined;
    ms -= (Number(zm[2]) * 60 + Number(zm[3])) * 60_000 * (zm[1] === '-' ? -1 : 1);
  }
  // More than three fraction digits: keep the microseconds (digits past the sixth are dropped).
  const extra = fractionMicros(frac);
  return extra === 0 ? new Date(ms) : new MicrosDate(BigInt(ms) * 1000n + BigInt(extra));
}

// ---- defaults ----

/** An Avro JSON default value converted to the value model. */
function defaultValue(type: AvroSchema, json: unknown, path: string): unknown {
  const bad = (): LakeletError => new LakeletError('INVALID_ARGUMENT', `schema: field '${path}' has a default ${show(json)} that does not fit ${avroTypeName(type)}`, { field: path, value: json });
  if (json === null) {
    if (type.type === 'null' || (type.type === 'union' && type.branches[0]?.type === 'null')) return null;
    throw bad();
  }
  switch (type.type) {
    case 'union': {
      const first = type.branches[0];
      if (first === undefined) throw bad();
      return defaultValue(first, json, path);
    }
    case 'boolean': if (typeof json !== 'boolean') throw bad(); return json;
    case 'int': {
      if (typeof json !== 'number' || !Number.isInteger(json)) throw bad();
      return type.logicalType?.name === 'date' ? new Date(json * MS_PER_DAY) : json;
    }
    case 'long': {
      if (typeof json !== 'number' || !Number.isInteger(json)) throw bad();
      const logical = type.logicalType?.name;
      if (logical === 'timestamp-millis' || logical === 'local-timestamp-millis') return new Date(json);
      if (logical === 'timestamp-micros' || logical === 'local-timestamp-micros') return new MicrosDate(BigInt(json));
      return BigInt(json);
    }
    case 'float': case 'double': if (typeof json !== 'number') throw bad(); return type.type === 'float' ? Math.fround(json) : json;
    case 'string': case 'enum': if (typeof json !== 'string') throw bad(); return json;
    case 'bytes': case 'fixed': {
      if (typeof json !== 'string') throw bad();
      const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0) & 0xff);
      if (type.logicalType?.name === 'decimal') return formatDecimal(bigIntFromTwosComplement(bytes), type.logicalType.scale);
      return bytes;
    }
    case 'array': if (!Array.isArray(json)) throw bad(); return json.map((x, i) => defaultValue(type.items, x, `${path}[${i}]`));
    case 'map': {
      if (!isPlainObject(json)) throw bad();
      return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, defaultValue(type.values, v, `${path}.${k}`)]));
    }
    case 'record': {
      if (!isPlainObject(json)) throw bad();
      const out: Record<string, unknown> = {};
      for (const f of type.fields) {
        if (f.name in json) out[f.name] = defaultValue(f.type, json[f.name], `${path}.${f.name}`);
        else if (f.hasDefault) out[f.name] = defaultValue(f.type, f.default, `${path}.${f.name}`);
        else throw bad();
      }
      return out;
    }
    default: throw bad();
  }
}

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

const isNullable = (t: AvroSchema): boolean => t.type === 'null' || (t.type === 'union' && t.branches.some((b) => b.type === 'null'));

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

// ---- schema evolution ----

const NUMERIC_RANK: Record<string, number> = { int: 0, long: 1, float: 2, double: 3 };

/** Why values of `from` cannot be read as `to`, or undefined when they can. */
function incompatibility(from: AvroSchema, to: AvroSchema, path: string, seen: Set<string>): { path: string; reason: string } | undefined {
  const fromNull = isNullable(from);
  const toNull = isNullable(to);
  if (fromNull && !toNull) return { path, reason: 'changes from nullable to required' };
  const fromBranches = from.type === 'union' ? from.branches.filter((b) => b.type !== 'null') : [from];
  const toBranches = to.type === 'union' ? to.branches.filter((b) => b.type !== 'null') : [to];
  for (const fb of fromBranches) {
    let firstProblem: { path: string; reason: string } | undefined;
    let ok = false;
    for (const tb of toBranches) {
      const problem = branchIncompatibility(fb, tb, path, seen);
      if (problem === undefined) {
        ok = true;
        break;
      }
      firstProblem ??= problem;
    }
    if (!ok) return firstProblem ?? { path, reason: `changes type from ${avroTypeName(fb)} to ${avroTypeName(to)}` };
  }
  return undefined;
}

function branchIncompatibility(from: AvroSchema, to: AvroSchema, path: string, seen: Set<string>): { path: string; reason: string } | undefined {
  const change = { path, reason: `changes type from ${avroTypeName(from)} to ${avroTypeName(to)}` };
  const fl = 'logicalType' in from ? from.logicalType : undefined;
  const tl = 'logicalType' in to ? to.logicalType : undefined;
  if (fl?.name === 'decimal' || tl?.name === 'decimal') {
    if (fl?.name !== 'decimal' || tl?.name !== 'decimal') return change;
    if (fl.scale !== tl.scale || tl.precision < fl.precision) return { path, reason: `changes ${avroTypeName(from)} to ${avroTypeName(to)} (the scale must stay and the precision may only grow)` };
    return undefined;
  }
  if ((fl?.name ?? '') !== (tl?.name ?? '')) return change;
  if (from.type in NUMERIC_RANK && to.type in NUMERIC_RANK && fl === undefined) {
    const a = NUMERIC_RANK[from.type] as number;
    const b = NUMERIC_RANK[to.type] as number;
    return b >= a ? undefined : { path, reason: `narrows ${from.type} to ${to.type}` };
  }
  if (from.type !== to.type) return change;
  switch (from.type) {
    case 'fixed':
      return to.type === 'fixed' && to.size === from.size ? undefined : { path, reason: `changes ${avroTypeName(from)} to ${avroTypeName(to)}` };
    case 'enum': {
      if (to.type !== 'enum') return change;
      const removed = from.symbols.filter((s) => !to.symbols.includes(s));
      return removed.length === 0 ? undefined : { path, reason: `removes enum symbol(s) ${removed.join(', ')}` };
    }
    case 'array':
      return to.type === 'array' ? incompatibility(from.items, to.items, `${path}[]`, seen) : change;
    case 'map':
      return to.type === 'map' ? incompatibility(from.values, to.values, `${path}{}`, seen) : change;
    case 'record':
      return to.type === 'record' ? recordIncompatibility(from, to, path, seen) : change;
    default:
      return undefined;
  }
}

function recordIncompatibility(from: AvroRecordSchema, to: AvroRecordSchema, path: string, seen: Set<string>): { path: string; reason: string } | undefined {
  const key = `${from.fullName}->${to.fullName}@${path}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  const prefix = path === '' ? '' : `${path}.`;
  for (const f of from.fields) {
    const g = to.fields.find((x) => x.name === f.name);
    if (g === undefined) return { path: prefix + f.name, reason: 'is removed (Hudi refuses column drops by default)' };
    const problem = incompatibility(f.type, g.type, prefix + f.name, seen);
    if (problem !== undefined) return problem;
  }
  for (const g of to.fields) {
    if (from.fields.some((f) => f.name === g.name)) continue;
    if (!isNullable(g.type) && !g.hasDefault) return { path: prefix + g.name, reason: `is added as required ${avroTypeName(g.type)} without a default (existing rows have no value)` };
  }
  return undefined;
}

/**
 * Check that a Hudi table whose schema is `oldSchema` can take writes with `newSchema` (both without meta fields),
 * throwing `INVALID_ARGUMENT` naming the first offending (dotted) field. Allowed: new fields that are nullable or
 * have a default, field order changes, int → long/float/double, long → float/double, float → double,
 * required → nullable, new enum symbols, decimal precision growth at the same scale. Refused: removed fields,
 * nullable → required, narrowing or any other type change (including string ↔ bytes and logical-type changes).
 */
export function checkSchemaEvolution(oldSchema: AvroRecordSchema, newSchema: AvroRecordSchema): void {
  const problem = recordIncompatibility(oldSchema, newSchema, '', new Set());
  if (problem !== undefined) {
    throw new LakeletError('INVALID_ARGUMENT', `schema evolution: field '${problem.path}' ${problem.reason}`, { field: problem.path });
  }
}
