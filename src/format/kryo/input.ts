// KryoInput: a bounds-checked cursor over Kryo 4.x (`com.esotericsoftware:kryo-shaded:4.0.2`, what Hudi 0.10–0.13
// depend on) primitive encodings as its `Input` reads them: 7-bit varints least-significant group first (ints up
// to 5 bytes, longs up to 9 with a whole 9th byte), zigzag for signed values, big-endian fixed-width numbers, and
// `readString`'s two string forms. Every out-of-range read is CORRUPT_FILE naming the path and byte offset.

import { corruptFile } from '../../errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Cursor over Kryo-serialized bytes. `pos` indexes `bytes`; `path` and `baseOffset` (the offset of `bytes[0]` in
 * the file) only decorate errors.
 */
export class KryoInput {
  /** Current read position (index into `bytes`). */
  pos = 0;
  /** The data being read. */
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  /** File name used in error messages. */
  readonly path: string | undefined;
  /** Offset of `bytes[0]` within that file. */
  readonly baseOffset: number;

  constructor(bytes: Uint8Array, path?: string, baseOffset = 0) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.path = path;
    this.baseOffset = baseOffset;
  }

  /** Bytes left. */
  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  /** File offset of `at` (default: the current position). */
  offsetOf(at = this.pos): number {
    return this.baseOffset + at;
  }

  /** A CORRUPT_FILE error at the current (or given) position. */
  error(message: string, at = this.pos): Error {
    return corruptFile(`kryo: ${message}`, this.path, this.offsetOf(at));
  }

  private take(n: number): number {
    if (this.pos + n > this.bytes.length) throw this.error(`need ${n} bytes but only ${this.remaining} remain`);
    const at = this.pos;
    this.pos += n;
    return at;
  }

  /** One unsigned byte. */
  readUnsignedByte(): number {
    return this.bytes[this.take(1)] as number;
  }

  /** `Input.readByte`: one signed byte. */
  readByte(): number {
    return this.view.getInt8(this.take(1));
  }

  /** `Input.readBoolean`: one byte, 1 is true. */
  readBoolean(): boolean {
    return this.readUnsignedByte() === 1;
  }

  /** `Input.readShort`: 2 bytes big-endian, signed. */
  readShort(): number {
    return this.view.getInt16(this.take(2));
  }

  /** `Input.readChar`: 2 bytes big-endian, one UTF-16 code unit. */
  readChar(): string {
    return String.fromCharCode(this.view.getUint16(this.take(2)));
  }

  /** `Input.readFloat`: the int bits, 4 bytes big-endian. */
  readFloat(): number {
    return this.view.getFloat32(this.take(4));
  }

  /** `Input.readDouble`: the long bits, 8 bytes big-endian. */
  readDouble(): number {
    return this.view.getFloat64(this.take(8));
  }

  /** `Input.readVarInt(optimizePositive)`: up to 5 bytes; without `optimizePositive` the value is zigzag-decoded. */
  readVarInt(optimizePositive: boolean): number {
    const start = this.pos;
    let result = 0;
    for (let i = 0; i < 5; i++) {
      if (this.pos >= this.bytes.length) throw this.error('truncated varint', start);
      const b = this.bytes[this.pos++] as number;
      // As Kryo: 7 bits of each byte; of the 5th only the low 4 land in the 32-bit int.
      result |= (b & 0x7f) << (7 * i);
      if ((b & 0x80) === 0) break;
    }
    return optimizePositive ? result | 0 : (result >>> 1) ^ -(result & 1);
  }

  /** `Input.readVarLong(optimizePositive)`: up to 9 bytes (the 9th whole); zigzag without `optimizePositive`. */
  readVarLong(optimizePositive: boolean): bigint {
    const start = this.pos;
    let result = 0n;
    for (let i = 0; i < 9; i++) {
      if (this.pos >= this.bytes.length) throw this.error('truncated varlong', start);
      const b = this.bytes[this.pos++] as number;
      if (i === 8) {
        result |= BigInt(b) << 56n;
        break;
      }
      result |= BigInt(b & 0x7f) << BigInt(7 * i);
      if ((b & 0x80) === 0) break;
    }
    result = BigInt.asUintN(64, result);
    return optimizePositive ? BigInt.asIntN(64, result) : BigInt.asIntN(64, (result >> 1n) ^ -(result & 1n));
  }

  /** `Input.readBytes(n)`. */
  readBytes(n: number): Uint8Array {
    if (n < 0) throw this.error(`negative byte count ${n}`);
    const at = this.take(n);
    return this.bytes.subarray(at, at + n);
  }

  /**
   * `Input.readString`. A first byte without the high bit starts the ASCII form: bytes up to and including the
   * first one with the high bit set (cleared). Otherwise the UTF-8 form: a length of 6 bits in the first byte
   * (bit 7 says more follow, 7 bits each) counting UTF-16 units + 1 (0 = null, 1 = ""), then each unit in 1–3
   * bytes as Java's `String.charAt` gives them (surrogates one by one).
   */
  readString(): string | null {
    const start = this.pos;
    const first = this.readUnsignedByte();
    if ((first & 0x80) === 0) {
      let end = start;
      while (end < this.bytes.length && ((this.bytes[end] as number) & 0x80) === 0) end++;
      if (end >= this.bytes.length) throw this.error('unterminated ASCII string', start);
      let s = '';
      for (let i = start; i < end; i++) s += String.fromCharCode(this.bytes[i] as number);
      s += String.fromCharCode((this.bytes[end] as number) & 0x7f);
      this.pos = end + 1;
      return s;
    }
    let length = first & 0x3f;
    if ((first & 0x40) !== 0) {
      for (let shift = 6; shift <= 27; shift += 7) {
        const b = this.readUnsignedByte();
        length |= (b & 0x7f) << shift;
        if ((b & 0x80) === 0) break;
      }
    }
    if (length === 0) return null;
    if (length === 1) return '';
    const count = length - 1;
    if (count > this.remaining) throw this.error(`string of ${count} chars exceeds the ${this.remaining} bytes left`, start);
    const units = new Array<number>(count);
    for (let i = 0; i < count; i++) {
      const at = this.pos;
      const b = this.readUnsignedByte();
      switch (b >> 4) {
        case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7:
          units[i] = b;
          break;
        case 12: case 13:
          units[i] = ((b & 0x1f) << 6) | (this.readUnsignedByte() & 0x3f);
          break;
        case 14:
          units[i] = ((b & 0x0f) << 12) | ((this.readUnsignedByte() & 0x3f) << 6) | (this.readUnsignedByte() & 0x3f);
          break;
        default:
          throw this.error(`byte 0x${b.toString(16)} cannot start a char of a UTF-8 string`, at);
      }
    }
    let s = '';
    for (let i = 0; i < count; i += 4096) s += String.fromCharCode(...units.slice(i, i + 4096));
    return s;
  }

  /** Decode `bytes` as strict UTF-8 (Avro `Utf8` contents); malformed → CORRUPT_FILE at `at`. */
  decodeUtf8(bytes: Uint8Array, at: number): string {
    try {
      return utf8.decode(bytes);
    } catch (cause) {
      throw corruptFile('kryo: invalid UTF-8 in a Utf8 value', this.path, this.offsetOf(at), cause);
    }
  }
}
