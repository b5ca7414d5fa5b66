// Writing an HFile exactly as Hudi 1.1's HFileWriterImpl does (the `v9_*` fixtures): data blocks cut at the
// block size, one meta block per meta entry, the load-on-open section (root data index, meta index, file
// info) and the trailer; checksum type NULL with zeroed checksum bytes, previous offsets -1, index key
// lengths as Hadoop VLong. No block ends in the window where hudi-rs reads 4 bytes short.

import { invalidArgument } from '../../errors.js';
import { encodeRootIndex, type HFileIndexEntry } from './block-index.js';
import { compressPayload, encodeBlock, HFILE_BLOCK_HEADER_SIZE, checksumBytes, hfileCodecId, type HFileBlockType, type HFileCodec } from './block.js';
import { encodeFileInfo } from './file-info.js';
import { javaHashMapOrder } from './java-hash-order.js';
import { compareKeyBytes, encodedEntrySize, KEY_OVERHEAD, writeEntry } from './key-value.js';
import { concatBytes } from './protobuf.js';
import { encodeTrailer, HOODIE_KV_COMPARATOR } from './trailer.js';

/** Hudi's data block size for HFiles, base files and log blocks alike (`hoodie.hfile.block.size`, 1 MiB). */
export const HUDI_HFILE_BLOCK_SIZE = 1024 * 1024;

/** One entry to write. */
export interface HFileWriteEntry {
  /** The record key (UTF-8 encoded when a string). */
  key: string | Uint8Array;
  value: Uint8Array;
}

/** Options of {@link writeHFile}. */
export interface HFileWriteOptions {
  /** Block codec (default GZ, Hudi's default). */
  codec?: HFileCodec;
  /** Data block size target in uncompressed bytes (default {@link HUDI_HFILE_BLOCK_SIZE}). */
  blockSize?: number;
  /** Caller file-info pairs (e.g. `schema`), added after `MAX_MEMSTORE_TS_KEY` and before the writer's own. */
  fileInfo?: Iterable<readonly [string, Uint8Array]>;
  /** Meta blocks by name (e.g. `bloomFilter`), one block each. */
  metaBlocks?: Iterable<readonly [string, Uint8Array]>;
  /**
   * `hfile.CREATE_TIME_TS` in epoch milliseconds. Hudi 1.1 writes the wall clock, HBase wrote 0; no reader
   * uses it. Default 0, so the same input gives the same bytes; pass the write's clock time to match Hudi 1.1.
   */
  createTime?: number;
}

const encoder = new TextEncoder();

function int32(v: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setInt32(0, v, false);
  return out;
}

function int64(v: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigInt64(0, BigInt(v), false);
  return out;
}

/**
 * True when a block with `stored` payload bytes makes hudi-rs read it 4 bytes short: hudi-rs counts checksum
 * chunks over the on-disk size that already includes the checksums, so header + payload in the last 4 bytes
 * of a 16 KiB chunk adds a chunk it then expects (e.g. 16,348–16,351 payload bytes).
 */
export function inHudiRsShortReadWindow(stored: number): boolean {
  const dataWithHeader = HFILE_BLOCK_HEADER_SIZE + stored;
  const withChecksums = dataWithHeader + checksumBytes(dataWithHeader);
  return checksumBytes(withChecksums) !== checksumBytes(dataWithHeader);
}

const LEVELS = [6, 9, 1, 2, 3, 4, 5, 7, 8] as const;

/**
 * Pack one block. GZIP at Java's default level 6; should the result land in the hudi-rs short-read window,
 * another level, and failing that (incompressible data compresses alike at every level) a one-letter gzip
 * FNAME field, which moves it 2 bytes per letter: every reader decodes these alike.
 */
export function packBlock(type: HFileBlockType, payload: Uint8Array, codec: HFileCodec): Uint8Array {
  if (codec === 'NONE') {
    if (inHudiRsShortReadWindow(payload.length)) {
      throw invalidArgument(`hfile: an uncompressed ${type} block of ${payload.length} bytes would be misread by hudi-rs; use GZ or another block size`, { field: type, value: payload.length });
    }
    return encodeBlock(type, payload, payload.length);
  }
  for (const level of LEVELS) {
    const stored = compressPayload(payload, codec, level);
    if (!inHudiRsShortReadWindow(stored.length)) return encodeBlock(type, stored, payload.length);
  }
  for (let name = 'x'; ; name += 'x') {
    const stored = compressPayload(payload, codec, 6, name);
    if (!inHudiRsShortReadWindow(stored.length)) return encodeBlock(type, stored, payload.length);
  }
}

/** Longest index row whose key length (int16 + row) both index-length readings agree on: below 128. */
const MAX_AGREED_INDEX_ROW = 125;

/**
 * The row a data-index entry names for a block starting with `first`. Java readers (Hudi's and HBase's) read
 * the index key length as a Hadoop VLong, hudi-rs as a protobuf varint; the two agree below 128. A longer first
 * key is replaced, as HBase's own writer shortens index keys, by its shortest prefix that still sorts after
 * the previous block's last key (`previous`): every reader seeks correctly on such a key. The first block's
 * key is never shortened (Hudi's Java reader relies on it being the file's first key), and when no prefix that
 * short exists the full key goes in too, its length a VLong: what the Java readers expect.
 */
export function indexRow(first: Uint8Array, previous: Uint8Array | undefined): Uint8Array {
  if (first.length <= MAX_AGREED_INDEX_ROW || previous === undefined) return first;
  let differ = 0;
  while (differ < previous.length && previous[differ] === first[differ]) differ++;
  return differ + 1 <= MAX_AGREED_INDEX_ROW ? first.subarray(0, differ + 1) : first;
}

interface PendingEntry {
  keyBytes: Uint8Array;
  value: Uint8Array;
}

function encodeDataPayload(entries: readonly PendingEntry[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const e of entries) at = writeEntry(out, at, e.keyBytes, e.value);
  return out;
}

/**
 * Write an HFile of `entries` (sorted by key bytes, keys unique: otherwise INVALID_ARGUMENT naming the key).
 * File info: `MAX_MEMSTORE_TS_KEY`, the caller's pairs, then `hfile.LASTKEY`, `hfile.AVG_KEY_LEN`,
 * `hfile.CREATE_TIME_TS`, `hfile.AVG_VALUE_LEN`, `KEY_VALUE_VERSION`, emitted in Java HashMap order as Hudi
 * does. An empty file has no data block and a first data block offset of -1.
 */
export function writeHFile(entries: Iterable<HFileWriteEntry>, options: HFileWriteOptions = {}): Uint8Array {
  const codec = options.codec ?? 'GZ';
  const blockSize = options.blockSize ?? HUDI_HFILE_BLOCK_SIZE;
  if (!Number.isInteger(blockSize) || blockSize <= 0) throw invalidArgument(`hfile: block size must be a positive integer, got ${blockSize}`, { field: 'blockSize', value: blockSize });
  const parts: Uint8Array[] = [];
  let offset = 0;
  const emit = (bytes: Uint8Array): number => {
    const at = offset;
    parts.push(bytes);
    offset += bytes.length;
    return at;
  };

  const dataIndex: HFileIndexEntry[] = [];
  let block: PendingEntry[] = [];
  let blockBytes = 0;
  let totalPayload = 0;
  let count = 0;
  let keyTotal = 0;
  let valueTotal = 0;
  let firstDataBlockOffset = -1;
  let lastDataBlockOffset = 0;
  let previous: Uint8Array | undefined;
  let lastOfPreviousBlock: Uint8Array | undefined;
  const flush = (): void => {
    if (block.length === 0) return;
    if (codec === 'NONE' && block.length > 1 && inHudiRsShortReadWindow(blockBytes)) {
      // Uncompressed blocks cannot be resized: end this one an entry early, the entry opens the next block.
      const carried = block.pop() as PendingEntry;
      const carriedSize = encodedEntrySize(carried.keyBytes.length, carried.value.length);
      blockBytes -= carriedSize;
      flush();
      block = [carried];
      blockBytes = carriedSize;
      return;
    }
    const first = block[0] as PendingEntry;
    const at = emit(packBlock('DATA', encodeDataPayload(block, blockBytes), codec));
    if (firstDataBlockOffset < 0) firstDataBlockOffset = at;
    lastDataBlockOffset = at;
    const row = indexRow(first.keyBytes, lastOfPreviousBlock);
    const indexKey = new Uint8Array(2 + row.length);
    new DataView(indexKey.buffer).setUint16(0, row.length, false);
    indexKey.set(row, 2);
    dataIndex.push({ offset: at, size: offset - at, key: indexKey });
    lastOfPreviousBlock = (block[block.length - 1] as PendingEntry).keyBytes;
    totalPayload += blockBytes;
    block = [];
    blockBytes = 0;
  };
  for (const entry of entries) {
    const keyBytes = typeof entry.key === 'string' ? encoder.encode(entry.key) : entry.key;
    if (keyBytes.length > 0xffff - KEY_OVERHEAD) throw invalidArgument(`hfile: key of ${keyBytes.length} bytes is longer than a row may be`, { field: 'key', value: keyBytes.length });
    if (previous !== undefined && compareKeyBytes(previous, keyBytes) >= 0) {
      const why = compareKeyBytes(previous, keyBytes) === 0 ? 'duplicate key' : 'keys out of order';
      throw invalidArgument(`hfile: ${why}: ${JSON.stringify(new TextDecoder().decode(keyBytes))} after ${JSON.stringify(new TextDecoder().decode(previous))}`, { field: 'key', value: new TextDecoder().decode(keyBytes) });
    }
    previous = keyBytes;
    const size = encodedEntrySize(keyBytes.length, entry.value.length);
    while (block.length > 0 && blockBytes + size > blockSize) flush(); // twice when flush() carried an entry over
    block.push({ keyBytes, value: entry.value });
    blockBytes += size;
    count++;
    keyTotal += keyBytes.length;
    valueTotal += entry.value.length;
  }
  while (block.length > 0) flush();

  const metaIndex: HFileIndexEntry[] = [];
  const metas = new Map(options.metaBlocks ?? []);
  for (const name of javaHashMapOrder([...metas.keys()])) {
    const at = emit(packBlock('META', metas.get(name) as Uint8Array, codec));
    metaIndex.push({ offset: at, size: offset - at, key: encoder.encode(name) });
  }

  const loadOnOpenDataOffset = emit(packBlock('ROOT_INDEX', encodeRootIndex(dataIndex), codec));
  emit(packBlock('ROOT_INDEX', encodeRootIndex(metaIndex), codec));
  const info = new Map<string, Uint8Array>([['MAX_MEMSTORE_TS_KEY', int64(0)]]);
  for (const [name, value] of options.fileInfo ?? []) info.set(name, value);
  const lastKey = previous === undefined ? new Uint8Array(0) : concatBytes([Uint8Array.of(previous.length >> 8, previous.length & 0xff), previous]);
  info.set('hfile.LASTKEY', lastKey);
  info.set('hfile.AVG_KEY_LEN', int32(count === 0 ? 0 : Math.floor(keyTotal / count)));
  info.set('hfile.CREATE_TIME_TS', int64(options.createTime ?? 0));
  info.set('hfile.AVG_VALUE_LEN', int32(count === 0 ? 0 : Math.floor(valueTotal / count)));
  if (!info.has('KEY_VALUE_VERSION')) info.set('KEY_VALUE_VERSION', int32(1));
  const ordered = new Map(javaHashMapOrder([...info.keys()]).map((k) => [k, info.get(k) as Uint8Array]));
  const fileInfoOffset = emit(packBlock('FILE_INFO', encodeFileInfo(ordered), codec));

  emit(
    encodeTrailer({
      fileInfoOffset,
      loadOnOpenDataOffset,
      uncompressedDataIndexSize: totalPayload,
      dataIndexCount: dataIndex.length,
      metaIndexCount: metaIndex.length,
      entryCount: count,
      numDataIndexLevels: 1,
      firstDataBlockOffset,
      lastDataBlockOffset,
      comparatorClassName: HOODIE_KV_COMPARATOR,
      compressionCodec: hfileCodecId(codec),
    }),
  );
  return concatBytes(parts);
}
