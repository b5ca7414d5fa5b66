// One HFile v3 block (hudi-v9-write.md §5): the 33-byte header (magic, on-disk and uncompressed sizes,
// previous block offset, checksum type, bytes per checksum, on-disk data size with header), the payload
// (GZIP or uncompressed) and the per-chunk checksums (NULL, CRC32 or CRC32C; verified when present).

import { gunzipSync, gzipSync } from 'fflate';
import { crc32 } from '../../config/checksum.js';
import { corruptFile, invalidArgument, unsupported } from '../../errors.js';
import { crc32c } from './crc32c.js';

/** Size of a v3 block header (with its checksum fields). */
export const HFILE_BLOCK_HEADER_SIZE = 33;
/** Bytes covered by one checksum, as every writer in the fixtures writes it. */
export const HFILE_BYTES_PER_CHECKSUM = 16384;

/** HFile block types by their 8-byte magic (HBase `BlockType`). */
export const HFILE_BLOCK_MAGIC = {
  DATA: 'DATABLK*',
  ENCODED_DATA: 'DATABLKE',
  LEAF_INDEX: 'IDXLEAF2',
  BLOOM_CHUNK: 'BLMFBLK2',
  META: 'METABLKc',
  INTERMEDIATE_INDEX: 'IDXINTE2',
  ROOT_INDEX: 'IDXROOT2',
  FILE_INFO: 'FILEINF2',
  GENERAL_BLOOM_META: 'BLMFMET2',
  DELETE_FAMILY_BLOOM_META: 'DFBLMET2',
} as const;

/** An HFile block type name. */
export type HFileBlockType = keyof typeof HFILE_BLOCK_MAGIC;

/** Block compression codec, by the ordinal the trailer stores (HBase `Compression.Algorithm`). */
export type HFileCodec = 'GZ' | 'NONE';
const CODEC_IDS: Record<HFileCodec, number> = { GZ: 1, NONE: 2 };
const CODEC_NAMES = ['LZO', 'GZ', 'NONE', 'SNAPPY', 'LZ4', 'BZIP2', 'ZSTD'];

/** The codec of a trailer's `compression_codec` ordinal; codecs lakelet does not decode → UNSUPPORTED. */
export function hfileCodec(id: number, path?: string): HFileCodec {
  if (id === 1) return 'GZ';
  if (id === 2) return 'NONE';
  throw unsupported(`hfile: compression codec ${CODEC_NAMES[id] ?? id} is not supported (only GZ and NONE)`, { path, value: id });
}

/** The trailer ordinal of a codec. */
export function hfileCodecId(codec: HFileCodec): number {
  return CODEC_IDS[codec];
}

/** Checksum types by code (HBase `ChecksumType`). */
export type HFileChecksumType = 'NULL' | 'CRC32' | 'CRC32C';
const CHECKSUM_TYPES: HFileChecksumType[] = ['NULL', 'CRC32', 'CRC32C'];

/** A decoded block header. */
export interface HFileBlockHeader {
  type: HFileBlockType;
  onDiskSizeWithoutHeader: number;
  uncompressedSizeWithoutHeader: number;
  /** Offset of the previous block of the same type, or -1 (Hudi 1.1 always writes -1). */
  prevBlockOffset: number;
  checksumType: HFileChecksumType;
  bytesPerChecksum: number;
  /** Header plus on-disk payload, without the checksums. */
  onDiskDataSizeWithHeader: number;
}

/** A block read and unpacked. */
export interface HFileBlock {
  header: HFileBlockHeader;
  /** The block's file offset. */
  offset: number;
  /** The uncompressed payload. */
  payload: Uint8Array;
}

const ascii = new TextDecoder('latin1');
const MAGIC_TO_TYPE = new Map<string, HFileBlockType>(Object.entries(HFILE_BLOCK_MAGIC).map(([t, m]) => [m, t as HFileBlockType]));

/** Parse the header at `bytes[at]` (the block at file offset `offset`). Bad magic or sizes → CORRUPT_FILE. */
export function parseBlockHeader(bytes: Uint8Array, at: number, offset: number, path?: string): HFileBlockHeader {
  if (at + HFILE_BLOCK_HEADER_SIZE > bytes.length) throw corruptFile('hfile: truncated block header', path, offset);
  const magic = ascii.decode(bytes.subarray(at, at + 8));
  const type = MAGIC_TO_TYPE.get(magic);
  if (type === undefined) throw corruptFile(`hfile: unknown block magic ${JSON.stringify(magic)}`, path, offset);
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, HFILE_BLOCK_HEADER_SIZE);
  const checksumCode = view.getUint8(24);
  const checksumType = CHECKSUM_TYPES[checksumCode];
  if (checksumType === undefined) throw unsupported(`hfile: unknown checksum type ${checksumCode}`, { path, offset, value: checksumCode });
  const header: HFileBlockHeader = {
    type,
    onDiskSizeWithoutHeader: view.getInt32(8, false),
    uncompressedSizeWithoutHeader: view.getInt32(12, false),
    prevBlockOffset: Number(view.getBigInt64(16, false)),
    checksumType,
    bytesPerChecksum: view.getInt32(25, false),
    onDiskDataSizeWithHeader: view.getInt32(29, false),
  };
  const { onDiskSizeWithoutHeader: onDisk, onDiskDataSizeWithHeader: data, uncompressedSizeWithoutHeader: raw } = header;
  if (onDisk < 0 || raw < 0 || header.bytesPerChecksum <= 0 || data < HFILE_BLOCK_HEADER_SIZE || data > onDisk + HFILE_BLOCK_HEADER_SIZE) {
    throw corruptFile(`hfile: inconsistent ${type} block sizes (on disk ${onDisk}, data with header ${data}, uncompressed ${raw})`, path, offset);
  }
  return header;
}

/** Number of checksum bytes for `dataSizeWithHeader` bytes: 4 per started chunk. */
export function checksumBytes(dataSizeWithHeader: number, bytesPerChecksum = HFILE_BYTES_PER_CHECKSUM): number {
  return 4 * Math.ceil(dataSizeWithHeader / bytesPerChecksum);
}

function verifyChecksums(bytes: Uint8Array, at: number, header: HFileBlockHeader, offset: number, path?: string): void {
  if (header.checksumType === 'NULL') return;
  const end = at + HFILE_BLOCK_HEADER_SIZE + header.onDiskSizeWithoutHeader;
  const dataEnd = at + header.onDiskDataSizeWithHeader;
  const chunks = Math.ceil(header.onDiskDataSizeWithHeader / header.bytesPerChecksum);
  if (dataEnd + 4 * chunks > end) throw corruptFile(`hfile: ${header.type} block too short for its ${chunks} checksums`, path, offset);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const sum = header.checksumType === 'CRC32C' ? crc32c : (b: Uint8Array, s: number, e: number) => crc32(b.subarray(s, e));
  for (let i = 0; i < chunks; i++) {
    const start = at + i * header.bytesPerChecksum;
    const stop = Math.min(start + header.bytesPerChecksum, dataEnd);
    const stored = view.getUint32(dataEnd + 4 * i, false);
    if (sum(bytes, start, stop) !== stored) {
      throw corruptFile(`hfile: ${header.checksumType} mismatch in chunk ${i} of the ${header.type} block at offset ${offset}`, path, offset);
    }
  }
}

/**
 * Read the block whose header starts at `bytes[at]` (file offset `offset`): verify its checksums and unpack
 * the payload with `codec`. A block of another type than `expect`, a truncated block, a checksum mismatch or
 * a payload that does not unpack to the header's size → CORRUPT_FILE naming the block offset; an encoded
 * (DATABLKE) data block → UNSUPPORTED.
 */
export function readBlock(bytes: Uint8Array, at: number, offset: number, codec: HFileCodec, path?: string, expect?: HFileBlockType): HFileBlock {
  const header = parseBlockHeader(bytes, at, offset, path);
  if (header.type === 'ENCODED_DATA') throw unsupported('hfile: encoded data blocks (HBase DATA_BLOCK_ENCODING) are not supported', { path, offset });
  if (expect !== undefined && header.type !== expect) throw corruptFile(`hfile: expected a ${expect} block, found ${header.type}`, path, offset);
  if (at + HFILE_BLOCK_HEADER_SIZE + header.onDiskSizeWithoutHeader > bytes.length) throw corruptFile(`hfile: truncated ${header.type} block`, path, offset);
  verifyChecksums(bytes, at, header, offset, path);
  const stored = bytes.subarray(at + HFILE_BLOCK_HEADER_SIZE, at + header.onDiskDataSizeWithHeader);
  let payload: Uint8Array;
  if (codec === 'NONE') {
    payload = stored;
  } else {
    try {
      payload = gunzipSync(stored, { out: new Uint8Array(header.uncompressedSizeWithoutHeader) });
    } catch (err) {
      throw corruptFile(`hfile: ${header.type} block does not gunzip`, path, offset, err);
    }
  }
  if (payload.length !== header.uncompressedSizeWithoutHeader) {
    throw corruptFile(`hfile: ${header.type} block unpacks to ${payload.length} bytes, header says ${header.uncompressedSizeWithoutHeader}`, path, offset);
  }
  // GZIP's own CRC32 of the payload: the only check a block written with checksum type NULL has.
  if (codec === 'GZ' && stored.length >= 8) {
    const trailer = new DataView(stored.buffer, stored.byteOffset + stored.length - 8, 4).getUint32(0, true);
    if (crc32(payload) !== trailer) throw corruptFile(`hfile: ${header.type} block fails its GZIP CRC32`, path, offset);
  }
  return { header, offset, payload };
}

/** Compress a payload as a block stores it (GZIP framed as Java's GZIPOutputStream does: mtime 0, no name unless `filename`). */
export function compressPayload(payload: Uint8Array, codec: HFileCodec, level: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 = 6, filename?: string): Uint8Array {
  if (codec === 'NONE') return payload;
  const gz = gzipSync(payload, filename === undefined ? { level, mtime: 0 } : { level, mtime: 0, filename });
  gz[8] = 0; // XFL and OS bytes as Java writes them
  gz[9] = 0;
  return gz;
}

/**
 * Encode one block the way Hudi 1.1 writes it: header with previous offset -1 and checksum type NULL, the
 * stored (already compressed) payload, then zeroed checksum bytes, 4 per started 16 KiB chunk of header + payload.
 */
export function encodeBlock(type: HFileBlockType, stored: Uint8Array, uncompressedSize: number): Uint8Array {
  if (!Number.isInteger(uncompressedSize) || uncompressedSize < 0) throw invalidArgument(`hfile: bad uncompressed block size ${uncompressedSize}`, { value: uncompressedSize });
  const dataWithHeader = HFILE_BLOCK_HEADER_SIZE + stored.length;
  const out = new Uint8Array(dataWithHeader + checksumBytes(dataWithHeader));
  for (let i = 0; i < 8; i++) out[i] = HFILE_BLOCK_MAGIC[type].charCodeAt(i);
  const view = new DataView(out.buffer);
  view.setInt32(8, out.length - HFILE_BLOCK_HEADER_SIZE, false);
  view.setInt32(12, uncompressedSize, false);
  view.setBigInt64(16, -1n, false);
  view.setUint8(24, 0);
  view.setInt32(25, HFILE_BYTES_PER_CHECKSUM, false);
  view.setInt32(29, dataWithHeader, false);
  out.set(stored, HFILE_BLOCK_HEADER_SIZE);
  return out;
}
