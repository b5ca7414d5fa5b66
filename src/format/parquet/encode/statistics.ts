// Column-chunk statistics as parquet defines them: min/max of the non-null values (signed for ints, NaN left
// out and zeros as -0.0/+0.0 for floats, unsigned byte order for binaries, code-point order for strings,
// decimals as signed integers), null count, and min/max bytes truncated to 64 bytes for byte arrays.
import type { SchemaElement } from 'hyparquet';
import type { BinaryValue, NumericStore } from '../leaf-column.js';
import { bigIntFromTwosComplement } from '../../../schema/values.js';
import { twosComplement } from '../physical-values.js';

/** The statistics of one chunk, as serialized (Statistics fields 3, 5–9). */
export interface EncodedStatistics {
  nullCount: bigint;
  min?: Uint8Array;
  max?: Uint8Array;
  isMinExact?: boolean;
  isMaxExact?: boolean;
  nanCount?: bigint;
}

/** Byte length bounds of BYTE_ARRAY min/max are truncated to. */
export const STATS_TRUNCATE_LENGTH = 64;

const utf8 = new TextEncoder();

/**
 * Statistics of non-null values `[start, end)` for a leaf whose footer element is `el` (decimal annotations kept),
 * with `nulls` null slots.
 */
export function chunkStatistics(el: SchemaElement, numbers: NumericStore | undefined, binaries: readonly BinaryValue[], start: number, end: number, nulls: number): EncodedStatistics {
  const out: EncodedStatistics = { nullCount: BigInt(nulls) };
  const type = el.type;
  if (type === 'FLOAT' || type === 'DOUBLE') out.nanCount = 0n;
  if (end <= start) return out;
  if (numbers !== undefined) {
    const n = numbers;
    if (n instanceof BigInt64Array) {
      let min = n[start] as bigint;
      let max = min;
      for (let i = start + 1; i < end; i++) {
        const v = n[i] as bigint;
        if (v < min) min = v;
        if (v > max) max = v;
      }
      out.min = int64Bytes(min);
      out.max = int64Bytes(max);
      return out;
    }
    let min = Infinity;
    let max = -Infinity;
    let nans = 0;
    for (let i = start; i < end; i++) {
      const v = n[i] as number;
      if (v !== v) { nans++; continue; }
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (out.nanCount !== undefined) out.nanCount = BigInt(nans);
    if (nans === end - start) return out;
    if (type === 'BOOLEAN') {
      out.min = new Uint8Array([min]);
      out.max = new Uint8Array([max]);
    } else if (type === 'INT32') {
      out.min = fixedBytes(4, (d) => d.setInt32(0, min, true));
      out.max = fixedBytes(4, (d) => d.setInt32(0, max, true));
    } else {
      if (min === 0) min = -0;
      if (max === 0) max = 0;
      const size = type === 'FLOAT' ? 4 : 8;
      const put = (v: number) => (d: DataView) => (size === 4 ? d.setFloat32(0, v, true) : d.setFloat64(0, v, true));
      out.min = fixedBytes(size, put(min));
      out.max = fixedBytes(size, put(max));
    }
    return out;
  }
  if (el.converted_type === 'DECIMAL') return decimalStatistics(out, el, binaries, start, end);
  let min = binaries[start] as BinaryValue;
  let max = min;
  if (typeof min === 'string') {
    for (let i = start + 1; i < end; i++) {
      const v = binaries[i] as string;
      if (compareCodePoints(v, min as string) < 0) min = v;
      else if (compareCodePoints(v, max as string) > 0) max = v;
    }
  } else {
    for (let i = start + 1; i < end; i++) {
      const v = binaries[i] as Uint8Array;
      if (compareBytes(v, min as Uint8Array) < 0) min = v;
      else if (compareBytes(v, max as Uint8Array) > 0) max = v;
    }
  }
  const minBytes = typeof min === 'string' ? utf8.encode(min) : min;
  const maxBytes = typeof max === 'string' ? utf8.encode(max) : max;
  if (type !== 'BYTE_ARRAY' || minBytes.length <= STATS_TRUNCATE_LENGTH) out.min = minBytes;
  else {
    out.min = truncateMin(minBytes, isUtf8(el));
    out.isMinExact = false;
  }
  if (type !== 'BYTE_ARRAY' || maxBytes.length <= STATS_TRUNCATE_LENGTH) out.max = maxBytes;
  else {
    const t = truncateMax(maxBytes, isUtf8(el));
    out.max = t ?? maxBytes;
    if (t !== undefined) out.isMaxExact = false;
  }
  return out;
}

/** Decimals compare as signed integers; a zero bound of a BYTE_ARRAY decimal (zero bytes) keeps no min/max. */
function decimalStatistics(out: EncodedStatistics, el: SchemaElement, binaries: readonly BinaryValue[], start: number, end: number): EncodedStatistics {
  const [min, max] = smallDecimalBounds(binaries, start, end) ?? decimalBounds(binaries, start, end);
  const fixed = el.type === 'FIXED_LEN_BYTE_ARRAY' ? el.type_length : undefined;
  if (fixed === undefined && (min === 0n || max === 0n)) return out;
  out.min = twosComplement(min, fixed);
  out.max = twosComplement(max, fixed);
  return out;
}

/** Signed min and max of two's-complement values, as BigInts. */
function decimalBounds(binaries: readonly BinaryValue[], start: number, end: number): [bigint, bigint] {
  let min = bigIntFromTwosComplement(binaries[start] as Uint8Array);
  let max = min;
  for (let i = start + 1; i < end; i++) {
    const v = bigIntFromTwosComplement(binaries[i] as Uint8Array);
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max];
}

/** The same bounds on doubles when every value has at most 6 bytes (48 bits: exact), else undefined. */
function smallDecimalBounds(binaries: readonly BinaryValue[], start: number, end: number): [bigint, bigint] | undefined {
  let min = Infinity;
  let max = -Infinity;
  for (let i = start; i < end; i++) {
    const b = binaries[i] as Uint8Array;
    if (b.length > 6) return undefined;
    let v = 0;
    for (let j = 0; j < b.length; j++) v = v * 256 + (b[j] as number);
    if (b.length > 0 && (b[0] as number) & 0x80) v -= 2 ** (8 * b.length);
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [BigInt(min), BigInt(max)];
}

function isUtf8(el: SchemaElement): boolean {
  return el.converted_type === 'UTF8' || el.converted_type === 'ENUM' || el.logical_type?.type === 'STRING' || el.logical_type?.type === 'ENUM';
}

/** A lower bound of at most 64 bytes: a prefix (cut at a code point boundary for UTF-8). */
function truncateMin(b: Uint8Array, text: boolean): Uint8Array {
  let end = STATS_TRUNCATE_LENGTH;
  if (text) while (end > 0 && ((b[end] as number) & 0xc0) === 0x80) end--;
  return b.slice(0, end);
}

/** An upper bound of at most 64 bytes, or undefined when there is none shorter. */
function truncateMax(b: Uint8Array, text: boolean): Uint8Array | undefined {
  if (text) {
    let end = STATS_TRUNCATE_LENGTH;
    while (end > 0 && ((b[end] as number) & 0xc0) === 0x80) end--;
    // drop code points from the end until one can be incremented within the length
    const chars = Array.from(new TextDecoder().decode(b.subarray(0, end)));
    while (chars.length > 0) {
      const last = chars.pop() as string;
      const cp = last.codePointAt(0) as number;
      const prefix = utf8.encode(chars.join(''));
      if (cp === 0x10ffff) continue;
      const next = utf8.encode(String.fromCodePoint(cp === 0xd7ff ? 0xe000 : cp + 1));
      if (prefix.length + next.length > STATS_TRUNCATE_LENGTH) continue;
      const out = new Uint8Array(prefix.length + next.length);
      out.set(prefix);
      out.set(next, prefix.length);
      return out;
    }
    return undefined;
  }
  const p = b.slice(0, STATS_TRUNCATE_LENGTH);
  let i = p.length - 1;
  while (i >= 0 && p[i] === 0xff) i--;
  if (i < 0) return undefined;
  const out = p.slice(0, i + 1);
  out[i] = (out[i] as number) + 1;
  return out;
}

/** Unsigned lexicographic byte order. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

/** Strings in code-point (= UTF-8 byte) order: UTF-16 order with surrogates moved above U+E000–U+FFFF. */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  return fix(a.charCodeAt(i)) - fix(b.charCodeAt(i));
}

function fix(c: number): number {
  if (c >= 0xd800) return c <= 0xdfff ? c + 0x2000 : c - 0x800;
  return c;
}

function int64Bytes(v: bigint): Uint8Array {
  return fixedBytes(8, (d) => d.setBigInt64(0, v, true));
}

function fixedBytes(size: number, put: (d: DataView) => void): Uint8Array {
  const out = new Uint8Array(size);
  put(new DataView(out.buffer));
  return out;
}
