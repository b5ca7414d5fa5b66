// How values of a column compare: the comparable kind of an Avro type (with a decimal's scale) and the one
// comparison of two values of that kind, shared by filters, the record merger, dedupe and the merge handles.
import type { AvroSchema } from '../format/avro/schema.js';
import { MicrosDate } from './timestamp-micros.js';
import { nonNullType } from './table-schema.js';

/** The kind of a column, as far as comparisons care. */
export type ComparableKind = 'string' | 'number' | 'bigint' | 'boolean' | 'decimal' | 'date' | 'other';

/** A column's comparable kind and, for decimals, its scale (0 otherwise). */
export interface OrderingKind {
  kind: ComparableKind;
  scale: number;
}

/** How a column's values compare (filters, ordering fields), and a decimal's scale. */
export function comparableKind(type: AvroSchema): OrderingKind {
  const t = nonNullType(type).type;
  const logical = 'logicalType' in t ? t.logicalType : undefined;
  if (logical?.name === 'decimal') return { kind: 'decimal', scale: logical.scale };
  if (logical && /^(date|timestamp|local-timestamp)/.test(logical.name)) return { kind: 'date', scale: 0 };
  switch (t.type) {
    case 'int': case 'float': case 'double': return { kind: 'number', scale: 0 };
    case 'long': return { kind: 'bigint', scale: 0 };
    case 'boolean': return { kind: 'boolean', scale: 0 };
    case 'string': case 'enum': return { kind: 'string', scale: 0 };
    default: return { kind: 'other', scale: 0 };
  }
}

/** Scaled bigint of a decimal string or parsed decimal bound at `scale`. */
function scaled(v: unknown, scale: number): bigint | undefined {
  if (typeof v === 'string') {
    const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(v);
    if (!m) return undefined;
    v = { sign: m[1] === '-' ? -1n : 1n, int: m[2] || '0', frac: m[3] ?? '' };
  }
  if (typeof v === 'number') v = { sign: v < 0 ? -1n : 1n, int: String(Math.trunc(Math.abs(v))), frac: String(Math.abs(v)).split('.')[1] ?? '' };
  if (typeof v !== 'object' || v === null) return undefined;
  const d = v as { sign: bigint; int: string; frac: string };
  // Compare at a scale large enough for both sides.
  const s = Math.max(scale, d.frac.length);
  return d.sign * BigInt(d.int + d.frac.padEnd(s, '0'));
}

const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;

/**
 * A decimal (a plain decimal string, or a filter bound's `num`) as a double when that orders it exactly: at most
 * 15 digits (DBL_DIG), so two distinct decimals never round to one double and rounding keeps their order.
 */
function decimalNumber(v: unknown): number | undefined {
  if (typeof v === 'string') return v.length <= 15 && PLAIN_DECIMAL.test(v) ? Number(v) : undefined;
  return typeof v === 'object' && v !== null ? (v as { num?: number }).num : undefined;
}

/**
 * Compare value `a` with value `b` of one kind: negative, zero, positive, or undefined when incomparable
 * (either is null or undefined). `b` may be a coerced filter value (see expr/filter.ts).
 */
export function compareValues(kind: ComparableKind, scale: number, a: unknown, b: unknown): number | undefined {
  if (a === null || a === undefined || b === null || b === undefined) return undefined;
  if (kind === 'decimal') {
    const p = decimalNumber(a);
    const q = p === undefined ? undefined : decimalNumber(b);
    if (q !== undefined) return (p as number) < q ? -1 : (p as number) > q ? 1 : 0;
    // both sides at one scale, large enough for either (a bound or a string may carry more digits than `scale`)
    const fracDigits = (v: unknown): number => (typeof v === 'object' ? (v as { frac: string }).frac.length : (String(v).split('.')[1] ?? '').length);
    const s = Math.max(scale, fracDigits(a), fracDigits(b));
    const x = scaled(a, s);
    const y = scaled(b, s);
    if (x === undefined || y === undefined) return undefined;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (kind === 'date') {
    const x = a instanceof Date ? preciseMillis(a) : typeof a === 'number' ? a : Date.parse(String(a));
    const y = b instanceof Date ? preciseMillis(b) : (b as number);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (kind === 'bigint' && typeof b === 'number') {
    const x = Number(a as bigint);
    return x < b ? -1 : x > b ? 1 : 0;
  }
  if (kind === 'boolean') {
    const x = a === true || a === 'true';
    return x === b ? 0 : x ? 1 : -1;
  }
  const x = kind === 'bigint' && typeof a === 'number' ? BigInt(a) : kind === 'number' && typeof a === 'bigint' ? Number(a) : a;
  if (kind === 'string' && typeof x !== 'string') return compareValues('string', 0, String(x), b);
  return (x as string | number | bigint) < (b as string | number | bigint) ? -1 : (x as string | number | bigint) > (b as string | number | bigint) ? 1 : 0;
}

/** Epoch milliseconds of a Date, with a MicrosDate's extra microseconds as the fraction (exact to the µs until 2100). */
export function preciseMillis(d: Date): number {
  return d instanceof MicrosDate ? d.getTime() + d.subMillisecondMicros / 1000 : d.getTime();
}
