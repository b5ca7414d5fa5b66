// The fixed 4,096-byte HFile v3 trailer: magic `TRABLK"$`, a varint-delimited TrailerProto (HBase
// FileTrailerProto field numbers), zero padding, and the version int (minor << 24 | major) in the last 4 bytes.

import { corruptFile, unsupported } from '../../errors.js';
import { concatBytes, protoBytesField, protoVarintField, readProtoFields } from './protobuf.js';
import { encodeVarint, readVarint } from './varint.js';

/** Size of the v3 trailer. */
export const HFILE_TRAILER_SIZE = 4096;
const MAGIC = 'TRABLK"$';
/** The comparator both Hudi writers name. */
export const HOODIE_KV_COMPARATOR = 'org.apache.hudi.io.storage.HoodieHBaseKVComparator';

/** The decoded trailer. Absent optional fields read as 0 (comparator as ''). */
export interface HFileTrailer {
  fileInfoOffset: number;
  loadOnOpenDataOffset: number;
  /** Field 3: Hudi 1.1 stores the total uncompressed size of the data blocks' entries here. */
  uncompressedDataIndexSize: number;
  totalUncompressedBytes: number;
  dataIndexCount: number;
  metaIndexCount: number;
  entryCount: number;
  numDataIndexLevels: number;
  /** -1 in an empty file. */
  firstDataBlockOffset: number;
  lastDataBlockOffset: number;
  comparatorClassName: string;
  /** The codec ordinal (1 = GZ, 2 = NONE). */
  compressionCodec: number;
  majorVersion: number;
  minorVersion: number;
  /** Field numbers present in the stored protobuf, in order (tells the writers apart). */
  fields: number[];
}

const NUMERIC: [number, keyof HFileTrailer][] = [
  [1, 'fileInfoOffset'],
  [2, 'loadOnOpenDataOffset'],
  [3, 'uncompressedDataIndexSize'],
  [4, 'totalUncompressedBytes'],
  [5, 'dataIndexCount'],
  [6, 'metaIndexCount'],
  [7, 'entryCount'],
  [8, 'numDataIndexLevels'],
  [9, 'firstDataBlockOffset'],
  [10, 'lastDataBlockOffset'],
  [12, 'compressionCodec'],
];

/** Decode the trailer from the file's last 4,096 bytes (`fileLength` for error offsets). No trailer magic → CORRUPT_FILE; not HFile v3 → UNSUPPORTED. */
export function decodeTrailer(tail: Uint8Array, fileLength: number, path?: string): HFileTrailer {
  const at = fileLength - HFILE_TRAILER_SIZE;
  if (tail.length !== HFILE_TRAILER_SIZE) throw corruptFile(`hfile: file of ${fileLength} bytes is shorter than the ${HFILE_TRAILER_SIZE}-byte trailer`, path, 0);
  for (let i = 0; i < 8; i++) if (tail[i] !== MAGIC.charCodeAt(i)) throw corruptFile(`hfile: no TRABLK"$ trailer magic ${HFILE_TRAILER_SIZE} bytes before the end`, path, at);
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  const version = view.getUint32(HFILE_TRAILER_SIZE - 4, false);
  const majorVersion = version & 0xffffff;
  const minorVersion = version >>> 24;
  if (majorVersion !== 3) throw unsupported(`hfile: HFile version ${majorVersion} is not supported (only 3)`, { path, value: majorVersion });
  const length = readVarint(tail, 8, HFILE_TRAILER_SIZE - 4, path);
  const end = length.next + length.value;
  if (end > HFILE_TRAILER_SIZE - 4) throw corruptFile('hfile: trailer protobuf runs past the trailer', path, at);
  const trailer: HFileTrailer = {
    fileInfoOffset: 0, loadOnOpenDataOffset: 0, uncompressedDataIndexSize: 0, totalUncompressedBytes: 0, dataIndexCount: 0,
    metaIndexCount: 0, entryCount: 0, numDataIndexLevels: 0, firstDataBlockOffset: 0, lastDataBlockOffset: 0,
    comparatorClassName: '', compressionCodec: 0, majorVersion, minorVersion, fields: [],
  };
  const record = trailer as unknown as Record<string, unknown>;
  for (const f of readProtoFields(tail, length.next, end, path)) {
    trailer.fields.push(f.field);
    const name = NUMERIC.find(([n]) => n === f.field)?.[1];
    if (name !== undefined && f.varint !== undefined) record[name] = f.varint;
    if (f.field === 11 && f.bytes !== undefined) trailer.comparatorClassName = new TextDecoder().decode(f.bytes);
  }
  return trailer;
}

/** The trailer values a writer sets (the rest follow from the format). */
export type HFileTrailerFields = Omit<HFileTrailer, 'fields' | 'majorVersion' | 'minorVersion' | 'totalUncompressedBytes'>;

/**
 * Encode the trailer as Hudi 1.1 writes it: fields 1–3 and 5–12 (no total uncompressed bytes, no encryption
 * key), zero padding, version `00 00 00 03`.
 */
export function encodeTrailer(t: HFileTrailerFields): Uint8Array {
  const proto = concatBytes([
    ...NUMERIC.filter(([n]) => n !== 4 && n !== 12).map(([n, name]) => protoVarintField(n, t[name as keyof HFileTrailerFields] as number)),
    protoBytesField(11, new TextEncoder().encode(t.comparatorClassName)),
    protoVarintField(12, t.compressionCodec),
  ]);
  const out = new Uint8Array(HFILE_TRAILER_SIZE);
  for (let i = 0; i < 8; i++) out[i] = MAGIC.charCodeAt(i);
  const length = encodeVarint(proto.length);
  out.set(length, 8);
  out.set(proto, 8 + length.length);
  out[HFILE_TRAILER_SIZE - 1] = 3;
  return out;
}
