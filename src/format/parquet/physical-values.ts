// lakelet's value model (values.ts) → the physical values the parquet encoder writes: 32/64-bit integers, dates,
// fixed bytes, UUIDs and exact decimals, each checked, with an `INVALID_ARGUMENT` naming the field otherwise.
import { LakeletError } from '../../errors.js';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export function int32(v: unknown, at: string, original: unknown): number {
  const n = typeof v === 'bigint' && v >= BigInt(INT32_MIN) && v <= BigInt(INT32_MAX) ? Number(v) : v;
  if (typeof n === 'number' && Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX) return n;
  return invalid(at, 'a 32-bit integer', original);
}

export function int64(v: unknown, at: string): bigint {
  if (typeof v === 'bigint' && v >= INT64_MIN && v <= INT64_MAX) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  return invalid(at, 'a 64-bit integer (bigint)', v);
}

export function validTime(d: Date, at: string): number {
  const t = d.getTime();
  return Number.isNaN(t) ? invalid(at, 'a valid Date', d) : t;
}

export function bytesOf(v: unknown, at: string, size: number | undefined): Uint8Array {
  if (!(v instanceof Uint8Array)) return invalid(at, size === undefined ? 'a Uint8Array' : `a Uint8Array of ${size} bytes`, v);
  if (size !== undefined && v.length !== size) return invalid(at, `a Uint8Array of ${size} bytes`, v);
  return v;
}

export function uuidBytes(v: string, at: string): Uint8Array {
  const hex = v.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) return invalid(at, 'a UUID', v);
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

const DECIMAL_RE = /^([+-])?(\d*)(?:\.(\d*))?$/;

/** A decimal string (or plain number) → its unscaled integer at `scale`, exactly; too many digits → error. */
export function decimalUnscaled(v: unknown, precision: number, scale: number, at: string): bigint {
  let text: string | undefined;
  if (typeof v === 'string') text = v.trim();
  else if (typeof v === 'number' && Number.isFinite(v) && !/e/i.test(String(v))) text = String(v);
  const m = text === undefined ? null : DECIMAL_RE.exec(text);
  const intPart = m?.[2] ?? '';
  let frac = m?.[3] ?? '';
  if (!m || (intPart === '' && frac === '')) return invalid(at, `a decimal(${precision},${scale}) string`, v);
  if (frac.length > scale) {
    if (!/^0*$/.test(frac.slice(scale))) return invalid(at, `a decimal with at most ${scale} fraction digits`, v);
    frac = frac.slice(0, scale);
  }
  const digits = (intPart + frac.padEnd(scale, '0')).replace(/^0+/, '');
  if (digits.length > precision) return invalid(at, `a decimal of at most ${precision} digits`, v);
  const unscaled = digits === '' ? 0n : BigInt(digits);
  return m[1] === '-' ? -unscaled : unscaled;
}

const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A decimal's big-endian two's complement bytes (`size` bytes, or the shortest form): what
 * `twosComplement(decimalUnscaled(...))` gives, on doubles for a plain string of at most 14 digits with exactly
 * `scale` fraction digits (exact: under 2^47), with BigInts (and its errors) for anything else.
 */
export function decimalBytes(v: unknown, precision: number, scale: number, size: number | undefined, at: string): Uint8Array {
  const m = typeof v === 'string' ? PLAIN_DECIMAL.exec(v) : null;
  if (m && (m[3] ?? '').length === scale) {
    const digits = (m[2] as string) + (m[3] ?? '');
    const abs = digits.length <= 14 ? Number(digits) : NaN;
    if (abs === 0 || (abs > 0 && String(abs).length <= precision)) return smallTwosComplement(m[1] === '-' ? -abs : abs, size);
  }
  return twosComplement(decimalUnscaled(v, precision, scale, at), size);
}

/** {@link twosComplement} of an integer below 2^47 in magnitude, on doubles. */
function smallTwosComplement(v: number, size: number | undefined): Uint8Array {
  let n = size ?? 1;
  if (size === undefined) while (v < -(2 ** (8 * n - 1)) || v >= 2 ** (8 * n - 1)) n++;
  const out = new Uint8Array(n);
  let t = v < 0 ? v + 2 ** 48 : v; // 48-bit two's complement; bytes above it are the sign's
  for (let i = n - 1, k = 0; i >= 0; i--, k++) {
    if (k < 6) {
      out[i] = t % 256;
      t = Math.floor(t / 256);
    } else {
      out[i] = v < 0 ? 0xff : 0;
    }
  }
  return out;
}

/**
 * Big-endian two's complement bytes of `value`: the shortest form (as Java's `BigInteger.toByteArray`, at least
 * one byte) when `size` is undefined, else sign-extended to exactly `size` bytes.
 */
export function twosComplement(value: bigint, size?: number): Uint8Array {
  let n = 1;
  if (size === undefined) {
    while (value < -(1n << BigInt(8 * n - 1)) || value >= 1n << BigInt(8 * n - 1)) n++;
  } else {
    n = size;
  }
  const out = new Uint8Array(n);
  let rest = value;
  for (let i = n - 1; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

function describe(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (v instanceof Uint8Array) return `${v.length} bytes`;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'an invalid Date' : `Date ${v.toISOString()}`;
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

/** Throw `INVALID_ARGUMENT` for a value that does not fit its field. */
export function invalid(at: string, expected: string, v: unknown): never {
  throw new LakeletError('INVALID_ARGUMENT', `base file writer: field "${at}" expects ${expected}, got ${describe(v)}`, { field: at });
}
