// Order-preserving 8-byte keys for space-filling-curve layouts (Hudi's ZOrderingUtil): numbers map to their
// IEEE-754 bits with the sign handled so byte order is numeric order, 64-bit integers get the sign bit flipped,
// strings and byte arrays are their (UTF-8) bytes truncated or zero-padded to 8. Nulls are all zeros.
import { invalidArgument } from '../errors.js';

/** Bytes in one column's curve key, as in Hudi. */
export const KEY_BYTES = 8;

/** Most columns a curve sort takes (Hudi's limit for z-order/hilbert). */
export const MAX_LAYOUT_COLUMNS = 4;

const utf8 = new TextEncoder();

/** The 8-byte order-preserving key of one sort value: a < b implies key(a) <= key(b) (strictly for numbers). */
export function orderKey(value: unknown): Uint8Array {
  const out = new Uint8Array(KEY_BYTES);
  if (value === null || value === undefined) return out;
  const view = new DataView(out.buffer);
  if (typeof value === 'number' || value instanceof Date) {
    const n = typeof value === 'number' ? value : value.getTime();
    view.setFloat64(0, n === 0 ? 0 : n); // -0 and 0 share a key
    if (out[0]! & 0x80) for (let i = 0; i < KEY_BYTES; i++) out[i] = ~out[i]! & 0xff;
    else out[0] = out[0]! | 0x80;
    return out;
  }
  if (typeof value === 'bigint') {
    if (value < -(1n << 63n) || value >= 1n << 63n) throw invalidArgument('layout: bigint sort value outside int64', { value });
    view.setBigInt64(0, value);
    out[0] = out[0]! ^ 0x80;
    return out;
  }
  if (typeof value === 'boolean') {
    out[KEY_BYTES - 1] = value ? 1 : 0;
    return out;
  }
  if (typeof value === 'string' || value instanceof Uint8Array) {
    const bytes = typeof value === 'string' ? utf8.encode(value) : value;
    out.set(bytes.subarray(0, KEY_BYTES));
    return out;
  }
  throw invalidArgument(`layout: cannot sort by a value of type ${typeof value}`, { value: String(value) });
}

/** Compares two sort values in full (not just their keys): nulls first, strings by UTF-8 bytes. */
export function compareSortValues(a: unknown, b: unknown): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an === bn ? 0 : an ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareBytes(utf8.encode(a), utf8.encode(b));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  const ka = orderKey(a);
  const kb = orderKey(b);
  return compareBytes(ka, kb);
}

/** Unsigned lexicographic byte comparison. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
