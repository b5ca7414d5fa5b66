// Hadoop's WritableUtils VLong (zero-compressed long): one byte for -112..127, else a length byte
// (-113..-120 positive, -121..-128 negative) followed by the big-endian magnitude. HBase writes index-entry
// key lengths and the KeyValue MVCC version this way.

import { corruptFile, invalidArgument } from '../../errors.js';
import type { VarintRead } from './varint.js';

/** Size in bytes of the VLong starting with `first` (the signed first byte). */
function vlongSize(first: number): number {
  if (first >= -112) return 1;
  return first < -120 ? -119 - first : -111 - first;
}

/** Read a Hadoop VLong at `at` (values within ±2^53). A VLong running past `end` is CORRUPT_FILE. */
export function readVLong(bytes: Uint8Array, at: number, end: number = bytes.length, path?: string): VarintRead {
  if (at >= end) throw corruptFile('hfile: truncated VLong', path, at);
  const first = ((bytes[at] as number) << 24) >> 24;
  const size = vlongSize(first);
  if (size === 1) return { value: first, next: at + 1 };
  if (at + size > end) throw corruptFile('hfile: truncated VLong', path, at);
  let magnitude = 0;
  for (let i = 1; i < size; i++) magnitude = magnitude * 256 + (bytes[at + i] as number);
  if (!Number.isSafeInteger(magnitude)) throw corruptFile('hfile: VLong exceeds 2^53', path, at);
  // Negative values are stored as their one's complement.
  const value = first < -120 ? -magnitude - 1 : magnitude;
  return { value, next: at + size };
}

/** Bytes of `value` as a Hadoop VLong (`value` a safe integer). */
export function encodeVLong(value: number): Uint8Array {
  if (!Number.isSafeInteger(value)) throw invalidArgument(`hfile: VLong value must be a safe integer, got ${value}`, { value });
  if (value >= -112 && value <= 127) return Uint8Array.of(value & 0xff);
  const negative = value < 0;
  let magnitude = negative ? -value - 1 : value;
  const digits: number[] = [];
  while (magnitude > 0) {
    digits.unshift(magnitude % 256);
    magnitude = Math.floor(magnitude / 256);
  }
  const lead = (negative ? -120 : -112) - digits.length;
  return Uint8Array.from([lead & 0xff, ...digits]);
}
