// AvroReader: a bounds-checked cursor over Avro binary encoding (zigzag varints, IEEE floats, length-
// prefixed bytes/strings). Every out-of-range read becomes CORRUPT_FILE with the path and byte offset.

import { corruptFile } from '../../errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const TWO_POW_32 = 4294967296;

/**
 * Cursor over Avro binary data. `pos` is the absolute offset into `bytes`; reads never go past `end`.
 * `path` and `baseOffset` only decorate error messages (offsets are reported as `baseOffset + pos`).
 */
export class AvroReader {
  /** Current read position (absolute index into `bytes`). */
  pos: number;
  /** Exclusive end of the readable region. */
  readonly end: number;
  /** The data being read. */
  readonly bytes: Uint8Array;
  /** DataView over `bytes` (for floats and big-endian framing ints). */
  readonly view: DataView;
  /** File name used in error messages. */
  readonly path: string | undefined;
  /** Offset of `bytes[0]` within that file, added to offsets in error messages. */
  readonly baseOffset: number;

  constructor(bytes: Uint8Array, path?: string, start = 0, end = bytes.length, baseOffset = 0) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = start;
    this.end = Math.min(end, bytes.length);
    this.path = path;
    this.baseOffset = baseOffset;
  }

  /** Bytes left before `end`. */
  get remaining(): number {
    return this.end - this.pos;
  }

  /** A CORRUPT_FILE error at the current (or given) position. */
  error(message: string, at = this.pos, cause?: unknown): Error {
    return corruptFile(`avro: ${message}`, this.path, this.baseOffset + at, cause);
  }

  /** Throw unless `n` more bytes are available. */
  need(n: number): void {
    if (n < 0 || this.pos + n > this.end) throw this.error(`need ${n} bytes but only ${this.end - this.pos} remain`);
  }

  /** Step over the next `n` bytes (throwing unless they are there); returns where they start. */
  private take(n: number): number {
    this.need(n);
    const at = this.pos;
    this.pos += n;
    return at;
  }

  /** One unsigned byte. */
  readByte(): number {
    if (this.pos >= this.end) throw this.error('unexpected end of data');
    return this.bytes[this.pos++] as number;
  }

  /** Avro `boolean`: one byte, 0 or 1. */
  readBoolean(): boolean {
    const b = this.readByte();
    if (b > 1) throw this.error(`invalid boolean byte ${b}`, this.pos - 1);
    return b === 1;
  }

  /** Avro `int`: zigzag varint of at most 5 bytes, result in the int32 range. */
  readInt(): number {
    const start = this.pos;
    let value = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw this.error('truncated int', start);
      const b = this.bytes[this.pos++] as number;
      value |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) break;
      shift += 7;
      if (shift > 28) throw this.error('int varint longer than 5 bytes', start);
    }
    return (value >>> 1) ^ -(value & 1);
  }

  /** Avro `long` as an exact bigint (zigzag varint of at most 10 bytes). */
  readLong(): bigint {
    const start = this.pos;
    // Fast path: up to 7 varint bytes (49 bits) are exact in a double.
    let value = 0;
    let mul = 1;
    for (let i = 0; i < 7; i++) {
      if (this.pos >= this.end) throw this.error('truncated long', start);
      const b = this.bytes[this.pos++] as number;
      value += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) {
        return BigInt(value % 2 === 0 ? value / 2 : -(value + 1) / 2);
      }
      mul *= 128;
    }
    let big = BigInt(value);
    let shift = 49n;
    for (;;) {
      if (this.pos >= this.end) throw this.error('truncated long', start);
      const b = this.bytes[this.pos++] as number;
      big |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) break;
      shift += 7n;
      if (shift > 63n) throw this.error('long varint longer than 10 bytes', start);
    }
    big = BigInt.asUintN(64, big);
    return (big >> 1n) ^ -(big & 1n);
  }

  /** Avro `long` as a double: exact up to 2^53, rounded beyond (for timestamps, where Date is coarser anyway). */
  readLongAsDouble(): number {
    const start = this.pos;
    let value = 0;
    let mul = 1;
    for (let i = 0; i < 7; i++) {
      if (this.pos >= this.end) throw this.error('truncated long', start);
      const b = this.bytes[this.pos++] as number;
      value += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
      mul *= 128;
    }
    this.pos = start;
    return Number(this.readLong());
  }

  /** Avro `long` as a number; throws CORRUPT_FILE if it is outside the safe-integer range. */
  readLongNumber(): number {
    const start = this.pos;
    const v = this.readLong();
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) throw this.error(`long ${v} is too large here`, start);
    return Number(v);
  }

  /** A length or count prefix (Avro long) that must be ≥ 0 and fit in the remaining bytes when `bounded`. */
  readLength(bounded = true): number {
    const start = this.pos;
    const n = this.readLongNumber();
    if (n < 0) throw this.error(`negative length ${n}`, start);
    if (bounded && n > this.end - this.pos) throw this.error(`length ${n} exceeds the ${this.end - this.pos} remaining bytes`, start);
    return n;
  }

  /** Avro `float` (4 bytes little-endian). */
  readFloat(): number {
    return this.view.getFloat32(this.take(4), true);
  }

  /** Avro `double` (8 bytes little-endian). */
  readDouble(): number {
    return this.view.getFloat64(this.take(8), true);
  }

  /** `n` raw bytes as a view into the underlying buffer (no copy). */
  readFixedView(n: number): Uint8Array {
    const at = this.take(n);
    return this.bytes.subarray(at, at + n);
  }

  /** `n` raw bytes, copied (safe to keep after the source buffer is reused). */
  readFixed(n: number): Uint8Array {
    return this.readFixedView(n).slice();
  }

  /** Avro `bytes`: long length + bytes, copied. */
  readBytes(): Uint8Array {
    return this.readFixed(this.readLength());
  }

  /** Avro `bytes` as a view into the underlying buffer (no copy). */
  readBytesView(): Uint8Array {
    return this.readFixedView(this.readLength());
  }

  /** Avro `string`: long length + UTF-8 bytes. Invalid UTF-8 is CORRUPT_FILE. */
  readString(): string {
    const start = this.pos;
    const n = this.readLength();
    const from = this.take(n);
    return decodeUtf8(this.bytes, from, from + n, this, start);
  }

  /** Skip `n` bytes. */
  skip(n: number): void {
    this.take(n);
  }

  /** Big-endian int32 (used by Hudi's framing around Avro data, not by Avro itself). */
  readInt32BE(): number {
    return this.view.getInt32(this.take(4), false);
  }

  /** Big-endian int64 as a number; values beyond 2^53 are CORRUPT_FILE. */
  readInt64BE(): number {
    this.need(8);
    const hi = this.view.getInt32(this.pos, false);
    const lo = this.view.getUint32(this.pos + 4, false);
    if (hi < -0x200000 || hi > 0x1fffff) throw this.error('int64 out of the safe-integer range');
    this.pos += 8;
    return hi * TWO_POW_32 + lo;
  }
}

/** Decode UTF-8 in [from, to) with an ASCII fast path for short strings; invalid UTF-8 → CORRUPT_FILE. */
export function decodeUtf8(bytes: Uint8Array, from: number, to: number, reader?: AvroReader, at = from): string {
  if (to - from <= 24) {
    let s = '';
    let i = from;
    for (; i < to; i++) {
      const b = bytes[i] as number;
      if (b >= 0x80) break;
      s += String.fromCharCode(b);
    }
    if (i === to) return s;
  }
  try {
    return utf8.decode(bytes.subarray(from, to));
  } catch (err) {
    if (reader !== undefined) throw reader.error('invalid UTF-8 in string', at, err);
    throw corruptFile('avro: invalid UTF-8 in string', undefined, at, err);
  }
}
