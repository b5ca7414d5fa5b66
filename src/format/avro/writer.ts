// AvroWriter: a growable byte buffer (GrowableBuffer) with Avro binary primitives (zigzag varints, little-endian floats,
// length-prefixed bytes/strings) plus the big-endian ints Hudi's framing uses around Avro data.

import { GrowableBuffer } from '../growable-buffer.js';

const utf8 = new TextEncoder();

/** Growable output buffer for Avro binary encoding. `finish()` returns the written bytes. */
export class AvroWriter extends GrowableBuffer {
  constructor(initialCapacity = 1024) {
    super(initialCapacity);
  }

  /** One raw byte. */
  writeByte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  /** Avro `boolean`. */
  writeBoolean(v: boolean): void {
    this.writeByte(v ? 1 : 0);
  }

  /** Avro `int` (zigzag varint); `v` must be an int32. */
  writeInt(v: number): void {
    this.ensure(5);
    let n = ((v << 1) ^ (v >> 31)) >>> 0;
    while (n > 0x7f) {
      this.buf[this.pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[this.pos++] = n;
  }

  /** Avro `long` (zigzag varint) from a bigint or a safe integer number. */
  writeLong(v: bigint | number): void {
    this.ensure(10);
    if (typeof v === 'number' && v >= -0x40000000 && v < 0x40000000) {
      // Small values: 31-bit zigzag fits in uint32 arithmetic.
      let n = v >= 0 ? v * 2 : -v * 2 - 1;
      while (n > 0x7f) {
        this.buf[this.pos++] = (n & 0x7f) | 0x80;
        n = Math.floor(n / 128);
      }
      this.buf[this.pos++] = n;
      return;
    }
    const b = BigInt.asIntN(64, typeof v === 'bigint' ? v : BigInt(v));
    let n = BigInt.asUintN(64, (b << 1n) ^ (b >> 63n));
    while (n > 0x7fn) {
      this.buf[this.pos++] = Number(n & 0x7fn) | 0x80;
      n >>= 7n;
    }
    this.buf[this.pos++] = Number(n);
  }

  /** Avro `float` (4 bytes little-endian). */
  writeFloat(v: number): void {
    this.ensure(4);
    this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
  }

  /** Avro `double` (8 bytes little-endian). */
  writeDouble(v: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  /** Raw bytes with no length prefix (Avro `fixed`, or framing). */
  writeFixed(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** Avro `bytes`: long length + bytes. */
  writeBytes(bytes: Uint8Array): void {
    this.writeLong(bytes.length);
    this.writeFixed(bytes);
  }

  /** Avro `string`: long length + UTF-8 bytes. */
  writeString(s: string): void {
    let ascii = s.length < 64;
    if (ascii) {
      for (let i = 0; i < s.length; i++) {
        if (s.charCodeAt(i) >= 0x80) {
          ascii = false;
          break;
        }
      }
    }
    if (ascii) {
      this.writeLong(s.length);
      this.ensure(s.length);
      for (let i = 0; i < s.length; i++) this.buf[this.pos++] = s.charCodeAt(i);
      return;
    }
    this.writeBytes(utf8.encode(s));
  }

  /** Big-endian int32 (Hudi framing). */
  writeInt32BE(v: number): void {
    this.ensure(4);
    this.view.setInt32(this.pos, v, false);
    this.pos += 4;
  }

  /** Big-endian int64 from a safe integer (Hudi framing). */
  writeInt64BE(v: number): void {
    this.ensure(8);
    this.view.setBigInt64(this.pos, BigInt(v), false);
    this.pos += 8;
  }

  /** Overwrite a big-endian int32 at an earlier position (for length back-patching). */
  patchInt32BE(at: number, v: number): void {
    this.view.setInt32(at, v, false);
  }

  /** The bytes written so far (a copy sized exactly to `pos`). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
