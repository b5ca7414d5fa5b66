// The little of the protobuf wire format the HFile trailer and file-info block need: a message split into
// fields (varint and length-delimited; fixed 32/64 skipped over), and the field encoders to write them back.

import { corruptFile } from '../../errors.js';
import { encodeVarint, readVarint } from './varint.js';

/** One field of a decoded protobuf message: varints as numbers, length-delimited fields as byte views. */
export type ProtoField = { field: number; varint: number; bytes?: undefined } | { field: number; bytes: Uint8Array; varint?: undefined };

/** Split the protobuf message in `bytes[start, end)` into its fields, in wire order. Bad wire data → CORRUPT_FILE. */
export function readProtoFields(bytes: Uint8Array, start: number, end: number, path?: string): ProtoField[] {
  const fields: ProtoField[] = [];
  let p = start;
  while (p < end) {
    const tag = readVarint(bytes, p, end, path);
    p = tag.next;
    const field = Math.floor(tag.value / 8);
    const wire = tag.value % 8;
    if (wire === 0) {
      const v = readVarint(bytes, p, end, path);
      fields.push({ field, varint: v.value });
      p = v.next;
    } else if (wire === 2) {
      const len = readVarint(bytes, p, end, path);
      if (len.next + len.value > end) throw corruptFile(`hfile: protobuf field ${field} runs past its message`, path, p);
      fields.push({ field, bytes: bytes.subarray(len.next, len.next + len.value) });
      p = len.next + len.value;
    } else if (wire === 1 || wire === 5) {
      p += wire === 1 ? 8 : 4;
      if (p > end) throw corruptFile(`hfile: protobuf field ${field} runs past its message`, path, p);
    } else {
      throw corruptFile(`hfile: unsupported protobuf wire type ${wire} for field ${field}`, path, p);
    }
  }
  return fields;
}

/** Bytes of a varint field (`field` number, unsigned `value`). */
export function protoVarintField(field: number, value: number): Uint8Array {
  return concatBytes([encodeVarint(field * 8), encodeVarint(value)]);
}

/** Bytes of a length-delimited field. */
export function protoBytesField(field: number, value: Uint8Array): Uint8Array {
  return concatBytes([encodeVarint(field * 8 + 2), encodeVarint(value.length), value]);
}

/** Concatenate byte arrays into one new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
