// Byte sort keys for the layout sort (pure): each row's key, packed back to back, such that comparing two keys as
// unsigned bytes gives the order layout-keys.ts's compareSortValues gives column by column. Precomputed once per
// row, they let one radix sort (the `sortKeys` kernel, WASM or its JS twin) order the rows instead of a comparator
// that re-encodes values on every comparison. Per column: a null is 0x00; any other value is 0x01 then either its
// 8-byte order key (numbers, dates, bigints, booleans) or its bytes (strings as UTF-8) with 0x00 escaped as
// 0x00 0xFF and ended by 0x00 0x00, so a proper prefix sorts first and the next column never bleeds into it.
import type { PackedKeys } from '../kernels/kernels.js';
import { KEY_BYTES, orderKey } from './layout-keys.js';

const utf8 = new TextEncoder();

/** Growable byte buffer of packed keys. */
class KeyBuffer {
  bytes = new Uint8Array(1024);
  pos = 0;

  ensure(extra: number): void {
    if (this.pos + extra <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.pos + extra));
    next.set(this.bytes.subarray(0, this.pos));
    this.bytes = next;
  }

  push(byte: number): void {
    this.ensure(1);
    this.bytes[this.pos++] = byte;
  }

  append(src: Uint8Array): void {
    this.ensure(src.length);
    this.bytes.set(src, this.pos);
    this.pos += src.length;
  }

  /** `src` with 0x00 escaped as 0x00 0xFF, then the terminator 0x00 0x00. */
  appendEscaped(src: Uint8Array): void {
    this.ensure(src.length * 2 + 2);
    for (const b of src) {
      this.bytes[this.pos++] = b;
      if (b === 0) this.bytes[this.pos++] = 0xff;
    }
    this.bytes[this.pos++] = 0;
    this.bytes[this.pos++] = 0;
  }
}

/** Appends one value's linear key (see the file header). */
function appendValue(out: KeyBuffer, value: unknown): void {
  if (value === null || value === undefined) {
    out.push(0);
    return;
  }
  out.push(1);
  if (typeof value === 'string') out.appendEscaped(utf8.encode(value));
  else if (value instanceof Uint8Array) out.appendEscaped(value);
  else out.append(orderKey(value));
}

/**
 * The packed byte keys of `n` rows given as column vectors: row `r`'s key is `prefix?.[r]` (a fixed-width curve
 * key, or nothing) followed by its linear key over `columns`. Byte order of two keys is the curve order, then the
 * column-by-column order of {@link compareSortValues}.
 */
export function packLayoutKeys(columns: readonly ArrayLike<unknown>[], n: number, prefix?: readonly Uint8Array[]): PackedKeys {
  const out = new KeyBuffer();
  out.ensure(n * (1 + columns.length * (1 + KEY_BYTES) + (prefix?.[0]?.length ?? 0)));
  const offsets = new Uint32Array(n + 1);
  for (let r = 0; r < n; r++) {
    const p = prefix?.[r];
    if (p) out.append(p);
    for (const c of columns) appendValue(out, c[r]);
    offsets[r + 1] = out.pos;
  }
  return { bytes: out.bytes.subarray(0, out.pos), offsets };
}
