// The root block indexes of the load-on-open section: the data index (per data block: offset, on-disk size,
// first key) and the meta index (per meta block: offset, size, name). Each entry: int64 offset, int32 size,
// key length (Hadoop VLong; Hudi 1.1 writes a protobuf varint there, equal below 128 — both are read), key.

import { corruptFile } from '../../errors.js';
import { concatBytes } from './protobuf.js';
import { readVarint } from './varint.js';
import { encodeVLong, readVLong } from './vlong.js';
import type { VarintRead } from './varint.js';
import { KEY_OVERHEAD } from './key-value.js';

/** One root-index entry. */
export interface HFileIndexEntry {
  /** File offset of the block. */
  offset: number;
  /** On-disk size of the block, header and checksums included. */
  size: number;
  /** The index key as stored: for data blocks a KeyValue key (int16 row length + row [+ family, timestamp, type]); for meta blocks the name. */
  key: Uint8Array;
}

/** The row of a data-index key (Hudi 1.1 stores int16 length + row, HBase the whole KeyValue key). */
export function indexKeyRow(key: Uint8Array): Uint8Array {
  if (key.length < 2) return key;
  const rowLength = ((key[0] as number) << 8) | (key[1] as number);
  return key.subarray(2, Math.min(key.length, 2 + rowLength));
}

/** True when a data-index key of `length` bytes starting at `at` has an int16 row length that fits either flavour. */
function plausibleDataKey(bytes: Uint8Array, at: number, length: number, end: number): boolean {
  if (length < 2 || at + length > end) return false;
  const rowLength = ((bytes[at] as number) << 8) | (bytes[at + 1] as number);
  return length === rowLength + 2 || length === rowLength + KEY_OVERHEAD;
}

function readKeyLength(bytes: Uint8Array, at: number, end: number, dataIndex: boolean, path?: string): VarintRead {
  const candidates: VarintRead[] = [];
  try {
    candidates.push(readVLong(bytes, at, end, path));
  } catch {
    // fall through to the varint reading
  }
  try {
    candidates.push(readVarint(bytes, at, end, path));
  } catch {
    // neither reads: reported below
  }
  for (const c of candidates) {
    if (c.value < 0 || c.next + c.value > end) continue;
    if (!dataIndex || plausibleDataKey(bytes, c.next, c.value, end)) return c;
  }
  throw corruptFile('hfile: unreadable index key length', path, at);
}

/** Decode `count` root-index entries from an index block payload (`dataIndex` for the data index). Trailing bytes are ignored. */
export function decodeRootIndex(payload: Uint8Array, count: number, dataIndex: boolean, blockOffset: number, path?: string): HFileIndexEntry[] {
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const entries: HFileIndexEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 12 > payload.length) throw corruptFile(`hfile: root index ends after ${i} of ${count} entries`, path, blockOffset);
    const offset = Number(view.getBigInt64(p, false));
    const size = view.getInt32(p + 8, false);
    const length = readKeyLength(payload, p + 12, payload.length, dataIndex, path);
    entries.push({ offset, size, key: payload.subarray(length.next, length.next + length.value) });
    p = length.next + length.value;
  }
  return entries;
}

/** Encode root-index entries (key lengths as Hadoop VLong). */
export function encodeRootIndex(entries: readonly HFileIndexEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const e of entries) {
    const head = new Uint8Array(12);
    const view = new DataView(head.buffer);
    view.setBigInt64(0, BigInt(e.offset), false);
    view.setInt32(8, e.size, false);
    parts.push(head, encodeVLong(e.key.length), e.key);
  }
  return concatBytes(parts);
}
