// A growable little-endian byte buffer: what the parquet encoder writes pages, headers and the footer into.
// Typed columns are appended by one copy of their bytes (every platform lakelet runs on is little-endian).

import { GrowableBuffer } from '../../growable-buffer.js';

const utf8 = new TextEncoder();

/** Longest string {@link ByteSink.lengthPrefixedUtf8} tries to copy as ASCII (about where encodeInto gets cheaper in V8). */
const SHORT_STRING = 24;

/** Appends bytes, varints and fixed-width numbers to one growing Uint8Array. */
export class ByteSink extends GrowableBuffer {
  constructor(capacity = 1 << 12) {
    super(capacity);
  }

  /** One byte. */
  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  /** Unsigned 32-bit little-endian. */
  u32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
  }

  /** Unsigned LEB128 varint of a non-negative safe integer. */
  varint(v: number): void {
    this.ensure(10);
    while (v > 0x7f) {
      this.buf[this.pos++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.pos++] = v;
  }

  /** Unsigned LEB128 varint of a non-negative bigint. */
  varbig(v: bigint): void {
    this.ensure(10);
    while (v > 0x7fn) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
  }

  /** Raw bytes. */
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** The bytes of a typed array view (little-endian numbers) in one copy. */
  typed(v: ArrayBufferView): void {
    this.bytes(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  }

  /** A string as UTF-8, no length; returns the byte count. */
  utf8(s: string): number {
    this.ensure(s.length * 3);
    const { written } = utf8.encodeInto(s, this.buf.subarray(this.pos));
    this.pos += written;
    return written;
  }

  /** A 4-byte little-endian length followed by the string's UTF-8 (PLAIN BYTE_ARRAY). */
  lengthPrefixedUtf8(s: string): void {
    const n = s.length;
    this.ensure(4 + n * 3);
    const buf = this.buf;
    const at = this.pos;
    let end = at + 4;
    let i = 0;
    // Short ASCII strings are copied by a loop: cheaper than encodeInto's call, subarray and result object.
    if (n <= SHORT_STRING) {
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        buf[end++] = c;
      }
    }
    if (i < n) end += utf8.encodeInto(i === 0 ? s : s.slice(i), buf.subarray(end)).written;
    this.view.setUint32(at, end - at - 4, true);
    this.pos = end;
  }

  /** The written bytes (a view, valid until the next write). */
  written(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  /** Forget the written bytes, keep the buffer. */
  reset(): void {
    this.pos = 0;
  }
}
