// The FILE_INFO block payload: "PBUF", a varint length, then a FileInfoProto (repeated BytesBytesPair
// map_entry = 1 { bytes first = 1; bytes second = 2 }). Names are UTF-8; values stay bytes.

import { corruptFile } from '../../errors.js';
import { concatBytes, protoBytesField, readProtoFields } from './protobuf.js';
import { encodeVarint, readVarint } from './varint.js';

/** File-info pairs in stored order: name → value bytes. */
export type HFileInfo = Map<string, Uint8Array>;

const PBUF = [0x50, 0x42, 0x55, 0x46];
const utf8 = new TextDecoder('utf-8');
const encoder = new TextEncoder();

/** Decode a FILE_INFO payload (block at file offset `offset`). A missing `PBUF` magic or bad protobuf → CORRUPT_FILE. */
export function decodeFileInfo(payload: Uint8Array, offset: number, path?: string): HFileInfo {
  for (let i = 0; i < 4; i++) if (payload[i] !== PBUF[i]) throw corruptFile('hfile: file info does not start with PBUF', path, offset);
  const length = readVarint(payload, 4, payload.length, path);
  const end = length.next + length.value;
  if (end > payload.length) throw corruptFile('hfile: file info runs past its block', path, offset);
  const info: HFileInfo = new Map();
  for (const entry of readProtoFields(payload, length.next, end, path)) {
    if (entry.field !== 1 || entry.bytes === undefined) continue;
    let name: Uint8Array | undefined;
    let value: Uint8Array = new Uint8Array(0);
    for (const part of readProtoFields(entry.bytes, 0, entry.bytes.length, path)) {
      if (part.field === 1 && part.bytes !== undefined) name = part.bytes;
      if (part.field === 2 && part.bytes !== undefined) value = part.bytes;
    }
    if (name === undefined) throw corruptFile('hfile: file info pair without a name', path, offset);
    info.set(utf8.decode(name), value);
  }
  return info;
}

/** Encode file-info pairs (in the map's order) as a FILE_INFO payload. */
export function encodeFileInfo(info: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const pairs: Uint8Array[] = [];
  for (const [name, value] of info) pairs.push(protoBytesField(1, concatBytes([protoBytesField(1, encoder.encode(name)), protoBytesField(2, value)])));
  const body = concatBytes(pairs);
  return concatBytes([Uint8Array.from(PBUF), encodeVarint(body.length), body]);
}
