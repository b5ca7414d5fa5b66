// Field values as Hudi's key generators see them: nested (`a.b`) field lookup in a row and the Java `toString`
// of each value (`HoodieAvroUtils.getNestedFieldValAsString`): 1.0 → "1.0", dates → "2024-01-15", decimals as BigDecimal.
import { invalidArgument, type LakeletError } from '../errors.js';
import type { AvroRecordSchema, AvroSchema } from '../format/avro/schema.js';
import { nonNullType } from '../schema/table-schema.js';
import { epochMicros } from '../schema/timestamp-micros.js';

/** Java `Double.toString`: shortest round-trip digits, `1.0`, `1.0E7`, `1.0E-4`, `NaN`, `Infinity`, `-0.0`. */
export function javaDoubleToString(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  return javaDecimalText(x, x.toExponential());
}

/** Java `Float.toString` of a float32 value: shortest digits that round-trip through float32. */
export function javaFloatToString(x: number): string {
  if (!Number.isFinite(x) || x === 0) return javaDoubleToString(x);
  const f = Math.fround(x);
  for (let p = 1; p <= 9; p++) {
    const text = f.toExponential(p - 1);
    if (Math.fround(Number(text)) === f) return javaDecimalText(f, text);
  }
  return javaDecimalText(f, f.toExponential(8));
}

/** Lay out digits from JS exponential text (`d.ddde±x`) the way Java prints floating-point numbers. */
function javaDecimalText(x: number, exponential: string): string {
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(exponential);
  if (m === null) return String(x);
  const sign = m[1] as string;
  const digits = ((m[2] as string) + (m[3] ?? '')).replace(/0+$/, '') || '0';
  const exp = Number(m[4]);
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e7) {
    if (exp >= 0) {
      const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
      const frac = digits.slice(exp + 1) || '0';
      return `${sign}${intPart}.${frac}`;
    }
    return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  }
  return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${exp}`;
}

/** Java `BigDecimal.toString` of `unscaled × 10^-scale` (scientific notation when the exponent is below -6). */
export function javaBigDecimalToString(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString();
  const adjusted = digits.length - 1 - scale;
  let text: string;
  if (scale >= 0 && adjusted >= -6) {
    if (scale === 0) text = digits;
    else if (digits.length > scale) text = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
    else text = `0.${'0'.repeat(scale - digits.length)}${digits}`;
  } else {
    text = (digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits) + 'E' + (adjusted >= 0 ? '+' : '') + adjusted;
  }
  return (negative ? '-' : '') + text;
}

/** A decimal string of lakelet's value model (`"-12.50"`) as Java's BigDecimal prints it with `scale`. */
function decimalText(value: string, scale: number): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (m === null || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) return value;
  const frac = (m[3] ?? '').padEnd(scale, '0');
  if (frac.length > scale) return value;
  const unscaled = BigInt((m[2] || '0') + frac) * (m[1] === '-' ? -1n : 1n);
  return javaBigDecimalToString(unscaled, scale);
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/** `yyyy-MM-dd` of a Date's UTC calendar day (Java `LocalDate.toString`). */
export function isoDate(d: Date): string {
  const y = d.getUTCFullYear();
  const year = y >= 0 && y <= 9999 ? pad(y, 4) : y < 0 ? `-${pad(-y, 4)}` : `+${y}`;
  return `${year}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
}

/** The INVALID_ARGUMENT error for a value of a kind no key or partition path can be made of. */
function unkeyable(field: string, value: unknown, what: string): LakeletError {
  return invalidArgument(`keygen: field '${field}' holds ${what}, which cannot be part of a record key or partition path`, { field, value });
}

/**
 * The string Hudi's Avro key generators make of a field value (`getNestedFieldValAsString`, with
 * `consistent.logical.timestamp.enabled=false`, Hudi's default), or null for null/undefined.
 * - int/long → decimal digits; float/double → Java `Float`/`Double.toString` (`1.0`, `1.0E10`).
 * - numbers without a known type: integers as digits, others as Java doubles.
 * - decimal (when the type says so) → Java `BigDecimal.toString`; other strings unchanged; booleans `true`/`false`.
 * - Date: `date` → `yyyy-MM-dd`; `timestamp-millis`/`local-timestamp-millis` → epoch milliseconds;
 *   `timestamp-micros`, `local-timestamp-micros` and Dates of unknown type → epoch microseconds (the raw long Hudi sees).
 * - bytes, fixed, records, arrays, maps → `INVALID_ARGUMENT` (Hudi would print a Java object reference).
 */
export function hudiValueString(value: unknown, type: AvroSchema | undefined, field: string): string | null {
  if (value === null || value === undefined) return null;
  const t = type === undefined ? undefined : nonNullType(type).type;
  const logical = t !== undefined && 'logicalType' in t ? t.logicalType?.name : undefined;
  if (typeof value === 'string') {
    if (t !== undefined && 'logicalType' in t && t.logicalType?.name === 'decimal') return decimalText(value, t.logicalType.scale);
    return value;
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') {
    if (logical === 'decimal' && t !== undefined && 'logicalType' in t && t.logicalType?.name === 'decimal') return javaBigDecimalToString(value * 10n ** BigInt(t.logicalType.scale), t.logicalType.scale);
    return value.toString();
  }
  if (typeof value === 'number') {
    const base = t?.type;
    if (logical === 'decimal' && t !== undefined && 'logicalType' in t && t.logicalType?.name === 'decimal') return decimalText(String(value), t.logicalType.scale);
    if (base === 'float') return javaFloatToString(value);
    if (base === 'double') return javaDoubleToString(value);
    if (Number.isSafeInteger(value)) return String(value);
    if (base === 'int' || base === 'long') throw unkeyable(field, value, `the non-integer ${String(value)} for an integer type`);
    return javaDoubleToString(value);
  }
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw unkeyable(field, value, 'an invalid Date');
    if (logical === 'date') return isoDate(value);
    if (logical === 'timestamp-millis' || logical === 'local-timestamp-millis') return String(ms);
    return epochMicros(value).toString();
  }
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return failBytes(field, value);
  if (Array.isArray(value)) throw unkeyable(field, value, 'an array');
  throw unkeyable(field, value, typeof value === 'object' ? 'a record or map' : `a ${typeof value}`);
}

function failBytes(field: string, value: unknown): never {
  throw unkeyable(field, value, 'bytes');
}

/** A (possibly nested, dotted) field's value in a row, and its type when a schema is given. */
export function lookupField(row: Readonly<Record<string, unknown>>, field: string, schema: AvroRecordSchema | undefined): { value: unknown; type: AvroSchema | undefined } {
  if (Object.prototype.hasOwnProperty.call(row, field)) {
    return { value: row[field], type: schema?.fields.find((f) => f.name === field)?.type };
  }
  let value: unknown = row;
  let type: AvroSchema | undefined = schema;
  for (const part of field.split('.')) {
    if (value === null || value === undefined) return { value: null, type: undefined };
    if (typeof value !== 'object' || Array.isArray(value) || value instanceof Date || value instanceof Uint8Array) {
      throw invalidArgument(`keygen: field '${field}' cannot be resolved: '${part}' is not inside a record`, { field, value });
    }
    const record = value as Record<string, unknown>;
    value = Object.prototype.hasOwnProperty.call(record, part) ? record[part] : undefined;
    const rt: AvroSchema | undefined = type === undefined ? undefined : nonNullType(type).type;
    type = rt?.type === 'record' ? rt.fields.find((f) => f.name === part)?.type : undefined;
  }
  return { value, type };
}
