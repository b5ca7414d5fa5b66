// Protobuf base-128 varints (unsigned, little-endian groups of 7 bits), as the HFile trailer, file-info block
// and Hudi 1.1's index writer use them. Values are JS numbers (HFile offsets and counts stay below 2^53).

import { corruptFile, invalidArgument } from '../../errors.js';

/** A decoded varint and the offset just past it. */
export interface VarintRead {
  value: number;
  next: number;
}

/**
 * Read a protobuf varint at `at`. A 64-bit value with the top bit set reads as its signed (two's complement)
 * value, as protobuf's int64/uint64 carry -1 (e.g. an empty HFile's first data block offset). Values outside
 * ±2^53, or a varint running past `end` or past ten bytes, are CORRUPT_FILE naming `path` and the offset.
 */
export function readVarint(bytes: Uint8Array, at: number, end: number = bytes.length, path?: string): VarintRead {
  let value = 0n;
  for (let p = at, shift = 0n; p < end && p < at + 10; p++, shift += 7n) {
    const b = bytes[p] as number;
    value |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) {
      const signed = BigInt.asIntN(64, value);
      const n = Number(signed);
      if (!Number.isSafeInteger(n)) throw corruptFile('hfile: varint outside ±2^53', path, at);
      return { value: n, next: p + 1 };
    }
  }
  throw corruptFile('hfile: truncated or overlong varint', path, at);
}

/** Bytes of `value` as a protobuf varint; a negative value is written as its 64-bit two's complement (10 bytes). */
export function encodeVarint(value: number): Uint8Array {
  if (!Number.isSafeInteger(value)) throw invalidArgument(`hfile: varint value must be a safe integer, got ${value}`, { value });
  const out: number[] = [];
  let v = BigInt.asUintN(64, BigInt(value));
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}
