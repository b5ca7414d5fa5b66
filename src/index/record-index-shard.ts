// The record-level index's shard file (pure): sorted record keys, prefix-compressed, each with the file groups
// holding it, behind a magic and version and closed by an FNV-1a checksum; bad bytes are CORRUPT_FILE.
import { corruptFile } from '../errors.js';
import { RECORD_INDEX_VERSION, type ShardEntries, type ShardLocation } from './record-index-format.js';

const MAGIC = [0x4c, 0x4b, 0x52, 0x49]; // "LKRI"

class ByteWriter {
  buf = new Uint8Array(1024);
  pos = 0;
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }
  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }
  varint(v: number): void {
    this.ensure(5);
    while (v >= 0x80) {
      this.buf[this.pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[this.pos++] = v;
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }
}

function fnv1a(bytes: Uint8Array, end: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < end; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return h >>> 0;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 of `key` into `out` (grown when short; lone surrogates as U+FFFD); returns the bytes and length. */
function utf8Into(key: string, out: Uint8Array<ArrayBuffer>): [Uint8Array<ArrayBuffer>, number] {
  if (out.length < key.length * 3) out = new Uint8Array(key.length * 3 + 64);
  let n = 0;
  for (let i = 0; i < key.length; i++) {
    let c = key.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
    } else if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 63);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < key.length ? key.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
          out[n++] = 0xf0 | (cp >> 18);
          out[n++] = 0x80 | ((cp >> 12) & 63);
          out[n++] = 0x80 | ((cp >> 6) & 63);
          out[n++] = 0x80 | (cp & 63);
          continue;
        }
        c = 0xfffd;
      }
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 63);
      out[n++] = 0x80 | (c & 63);
    }
  }
  return [out, n];
}

/**
 * Encode a shard. Layout (integers are unsigned LEB128 varints unless noted):
 * `"LKRI"` · u8 version (1) · location count · per location: partition path (length + UTF-8), file id
 * (length + UTF-8) · key count · per key, ascending in JS string order: bytes shared with the previous
 * key's UTF-8, suffix length, suffix bytes, location count (≥ 1), location indexes · u32 LE FNV-1a of
 * everything before it. Prefix compression keeps sorted keys small (about 4-8 bytes per key for typical
 * ids); a million keys (64 shards) encode and decode in a second or two, without a per-key allocation.
 */
export function encodeShard(entries: ShardEntries): Uint8Array {
  const w = new ByteWriter();
  for (const b of MAGIC) w.byte(b);
  w.byte(RECORD_INDEX_VERSION);
  const byObject = new Map<ShardLocation, number>();
  const byText = new Map<string, number>();
  const locs: ShardLocation[] = [];
  const idOf = (l: ShardLocation): number => {
    let i = byObject.get(l);
    if (i !== undefined) return i;
    const t = `${l.partitionPath}\u0000${l.fileId}`;
    i = byText.get(t);
    if (i === undefined) {
      i = locs.length;
      byText.set(t, i);
      locs.push(l);
    }
    byObject.set(l, i);
    return i;
  };
  const keys = [...entries.keys()].sort();
  for (const k of keys) for (const l of entries.get(k) ?? []) idOf(l);
  w.varint(locs.length);
  for (const l of locs) {
    const p = encoder.encode(l.partitionPath);
    const f = encoder.encode(l.fileId);
    w.varint(p.length);
    w.bytes(p);
    w.varint(f.length);
    w.bytes(f);
  }
  w.varint(keys.length);
  let prev = new Uint8Array(256);
  let prevLen = 0;
  let cur = new Uint8Array(256);
  for (const k of keys) {
    const [buf, len] = utf8Into(k, cur);
    let shared = 0;
    const max = Math.min(prevLen, len);
    while (shared < max && prev[shared] === buf[shared]) shared++;
    w.varint(shared);
    w.varint(len - shared);
    w.bytes(buf.subarray(shared, len));
    const where = entries.get(k) ?? [];
    w.varint(where.length);
    for (const l of where) w.varint(idOf(l));
    cur = prev;
    prev = buf;
    prevLen = len;
  }
  const sum = fnv1a(w.buf, w.pos);
  w.ensure(4);
  new DataView(w.buf.buffer).setUint32(w.pos, sum, true);
  w.pos += 4;
  return w.buf.slice(0, w.pos);
}

/** Decode a shard written by {@link encodeShard}; bad bytes → `CORRUPT_FILE` naming `path` and the offset. */
export function decodeShard(bytes: Uint8Array, path: string): ShardEntries {
  if (bytes.length < 9 || MAGIC.some((b, i) => bytes[i] !== b)) throw corruptFile('record index: not a shard file (bad magic)', path, 0);
  if (bytes[4] !== RECORD_INDEX_VERSION) throw corruptFile(`record index: unsupported shard version ${bytes[4]}`, path, 4);
  const end = bytes.length - 4;
  const stored = new DataView(bytes.buffer, bytes.byteOffset, bytes.length).getUint32(end, true);
  if (fnv1a(bytes, end) !== stored) throw corruptFile('record index: shard checksum mismatch', path, end);
  let pos = 5;
  const varint = (): number => {
    let v = 0;
    let shift = 0;
    for (;;) {
      if (pos >= end) throw corruptFile('record index: truncated shard', path, pos);
      const b = bytes[pos++] as number;
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
      shift += 7;
      if (shift > 28) throw corruptFile('record index: varint too long', path, pos);
    }
  };
  const take = (n: number): Uint8Array => {
    if (pos + n > end) throw corruptFile('record index: truncated shard', path, pos);
    const out = bytes.subarray(pos, pos + n);
    pos += n;
    return out;
  };
  const text = (b: Uint8Array): string => {
    try {
      return decoder.decode(b);
    } catch (err) {
      throw corruptFile('record index: invalid UTF-8', path, pos, err);
    }
  };
  const locCount = varint();
  const locs: ShardLocation[] = [];
  for (let i = 0; i < locCount; i++) {
    const partitionPath = text(take(varint()));
    const fileId = text(take(varint()));
    locs.push({ partitionPath, fileId });
  }
  const keyCount = varint();
  const out: ShardEntries = new Map();
  let prev = new Uint8Array(256);
  let prevLen = 0;
  // While keys are ASCII, bytes are characters: a key is the previous key's prefix plus its suffix.
  let prevKey = '';
  let prevAscii = true;
  for (let i = 0; i < keyCount; i++) {
    const shared = varint();
    const suffix = take(varint());
    if (shared > prevLen) throw corruptFile('record index: bad key prefix length', path, pos);
    const len = shared + suffix.length;
    if (len > prev.length) {
      const next = new Uint8Array(Math.max(len, prev.length * 2));
      next.set(prev.subarray(0, shared));
      prev = next;
    }
    prev.set(suffix, shared);
    prevLen = len;
    let ascii: boolean = prevAscii;
    let tail = '';
    for (let j = 0; j < suffix.length && ascii; j++) {
      const b = suffix[j] as number;
      if (b >= 0x80) ascii = false;
      else tail += String.fromCharCode(b);
    }
    let key: string;
    if (ascii) {
      key = (shared === prevKey.length ? prevKey : prevKey.slice(0, shared)) + tail;
    } else {
      key = text(prev.subarray(0, len));
      ascii = true;
      for (let j = 0; j < len; j++) if ((prev[j] as number) >= 0x80) { ascii = false; break; }
    }
    prevKey = key;
    prevAscii = ascii;
    const n = varint();
    if (n === 0) throw corruptFile('record index: key without a location', path, pos);
    if (n === 1) {
      const l = locs[varint()];
      if (!l) throw corruptFile('record index: location index out of range', path, pos);
      out.set(key, [l]);
      continue;
    }
    const where: ShardLocation[] = [];
    for (let j = 0; j < n; j++) {
      const l = locs[varint()];
      if (!l) throw corruptFile('record index: location index out of range', path, pos);
      where.push(l);
    }
    out.set(key, where);
  }
  if (pos !== end) throw corruptFile('record index: trailing bytes in shard', path, pos);
  return out;
}
