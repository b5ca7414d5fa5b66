// HFile data-block entries (HBase KeyValue cells as Hudi writes them): int32 key length, int32 value length,
// the key (int16 row length, row = the UTF-8 record key, family length 0, timestamp Long.MAX, type 4 = Put),
// the value, and one MVCC VLong (0). Keys compare as unsigned bytes of the row, as HoodieHBaseKVComparator does.

import { corruptFile } from '../../errors.js';
import { readVLong } from './vlong.js';

/** One key/value entry of an HFile. */
export interface HFileEntry {
  /** The row key (the record key), decoded from UTF-8. */
  key: string;
  /** The row key bytes as stored. */
  keyBytes: Uint8Array;
  /** The value bytes (for Hudi, the Avro binary of the record): a view into the decoded block, not a copy. */
  value: Uint8Array;
}

/** Bytes of a KeyValue key around the row: int16 row length before, family length + timestamp + type after. */
export const KEY_OVERHEAD = 2 + 1 + 8 + 1;
/** Put, the only cell type Hudi writes. */
const TYPE_PUT = 4;

const utf8 = new TextDecoder('utf-8');

/** Unsigned lexicographic comparison of two byte arrays (a prefix sorts first). */
export function compareKeyBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** True when `key` starts with `prefix`. */
export function hasKeyPrefix(key: Uint8Array, prefix: Uint8Array): boolean {
  if (prefix.length > key.length) return false;
  for (let i = 0; i < prefix.length; i++) if (key[i] !== prefix[i]) return false;
  return true;
}

/**
 * Decode every entry of a data-block payload (block at file offset `offset`). `withMvcc` is the file's
 * KEY_VALUE_VERSION = 1 (an MVCC VLong follows each value). Entries running past the payload → CORRUPT_FILE.
 */
export function decodeDataBlockEntries(payload: Uint8Array, offset: number, withMvcc: boolean, path?: string): HFileEntry[] {
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const entries: HFileEntry[] = [];
  let p = 0;
  while (p < payload.length) {
    if (p + 8 > payload.length) throw corruptFile(`hfile: truncated entry at payload byte ${p} of the data block`, path, offset);
    const keyLength = view.getInt32(p, false);
    const valueLength = view.getInt32(p + 4, false);
    const keyStart = p + 8;
    const valueStart = keyStart + keyLength;
    const end = valueStart + valueLength;
    if (keyLength < KEY_OVERHEAD || valueLength < 0 || end > payload.length) {
      throw corruptFile(`hfile: entry at payload byte ${p} of the data block runs past the block (key ${keyLength}, value ${valueLength})`, path, offset);
    }
    const rowLength = view.getUint16(keyStart, false);
    if (rowLength + KEY_OVERHEAD > keyLength) throw corruptFile(`hfile: entry at payload byte ${p} has row length ${rowLength} beyond its key length ${keyLength}`, path, offset);
    const keyBytes = payload.subarray(keyStart + 2, keyStart + 2 + rowLength);
    entries.push({ key: utf8.decode(keyBytes), keyBytes, value: payload.subarray(valueStart, end) });
    p = withMvcc ? readVLong(payload, end, payload.length, path).next : end;
  }
  return entries;
}

/** Size of one encoded entry with a row of `keyLength` bytes and a value of `valueLength` bytes. */
export function encodedEntrySize(keyLength: number, valueLength: number): number {
  return 8 + KEY_OVERHEAD + keyLength + valueLength + 1;
}

/** Write one entry (row `keyBytes`, `value`, MVCC 0) into `out` at `at`; returns the offset after it. */
export function writeEntry(out: Uint8Array, at: number, keyBytes: Uint8Array, value: Uint8Array): number {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setInt32(at, keyBytes.length + KEY_OVERHEAD, false);
  view.setInt32(at + 4, value.length, false);
  view.setUint16(at + 8, keyBytes.length, false);
  out.set(keyBytes, at + 10);
  let p = at + 10 + keyBytes.length;
  out[p++] = 0; // family length
  view.setUint32(p, 0x7fffffff, false); // timestamp Long.MAX_VALUE
  view.setUint32(p + 4, 0xffffffff, false);
  p += 8;
  out[p++] = TYPE_PUT;
  out.set(value, p);
  p += value.length;
  out[p++] = 0; // MVCC
  return p;
}
