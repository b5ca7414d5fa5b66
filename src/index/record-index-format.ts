// The persistent record-level index's on-disk pieces (pure): key → shard assignment, the binary shard file
// format (sorted keys → file-group locations), the manifest naming the current shard files and the instant
// they reflect, and merging one commit's key changes into shards.
import { corruptFile } from '../errors.js';

/** Shards of a new index. */
export const DEFAULT_SHARD_COUNT = 64;
/** Version of the manifest and shard formats this code writes and reads. */
export const RECORD_INDEX_VERSION = 1;
/** Name of the key hash recorded in the manifest. */
export const RECORD_INDEX_HASH = 'fnv1a32-utf8-fmix32';

/** Where a key lives: a file group. */
export interface ShardLocation {
  partitionPath: string;
  fileId: string;
}

/**
 * One shard's content: record key → the file groups holding it. Almost always one location; a key
 * written twice by a non-deduplicating insert keeps every group it was written to, oldest first.
 */
export type ShardEntries = Map<string, ShardLocation[]>;

/** One key at one location. */
export interface KeyLocation {
  key: string;
  location: ShardLocation;
}

/**
 * What a commit changed: keys that left a file group (deletes, partition moves, groups replaced by an
 * overwrite) and keys written into one (inserts). Removals apply before additions. Updates in place
 * change nothing: the key stays in its group.
 */
export interface IndexChanges {
  removed: KeyLocation[];
  added: KeyLocation[];
}

/** `manifest.json`: format version, shard count, the instant reflected, and each shard's current file. */
export interface RecordIndexManifest {
  version: number;
  shardCount: number;
  /** The key hash (always {@link RECORD_INDEX_HASH}). */
  hash: string;
  /**
   * The latest completed write whose changes are in the index (null: built for a table without one).
   * Every completed write up to it is reflected, except those listed in `pending`.
   */
  instant: string | null;
  /** Write instants older than `instant` that were still pending when the index was written. */
  pending: string[];
  /** Keys in the index. */
  keyCount: number;
  /** File name (inside layout.ts's `RECORD_INDEX_DIR`) of each shard; null when the shard is empty. */
  shards: (string | null)[];
}

/**
 * Stable 32-bit hash of a record key: FNV-1a over its UTF-8 bytes (lone surrogates as U+FFFD, like
 * TextEncoder), finished with murmur3's fmix32 so that the low bits spread well.
 */
export function hashRecordKey(key: string): number {
  let h = 0x811c9dc5;
  const n = key.length;
  for (let i = 0; i < n; i++) {
    let c = key.charCodeAt(i);
    if (c < 0x80) {
      h = Math.imul(h ^ c, 0x01000193);
      continue;
    }
    if (c < 0x800) {
      h = Math.imul(h ^ (0xc0 | (c >> 6)), 0x01000193);
      h = Math.imul(h ^ (0x80 | (c & 63)), 0x01000193);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < n ? key.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
        h = Math.imul(h ^ (0xf0 | (cp >> 18)), 0x01000193);
        h = Math.imul(h ^ (0x80 | ((cp >> 12) & 63)), 0x01000193);
        h = Math.imul(h ^ (0x80 | ((cp >> 6) & 63)), 0x01000193);
        h = Math.imul(h ^ (0x80 | (cp & 63)), 0x01000193);
        continue;
      }
      c = 0xfffd;
    }
    h = Math.imul(h ^ (0xe0 | (c >> 12)), 0x01000193);
    h = Math.imul(h ^ (0x80 | ((c >> 6) & 63)), 0x01000193);
    h = Math.imul(h ^ (0x80 | (c & 63)), 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The shard of a record key: `hashRecordKey(key) mod shardCount`. */
export function shardOf(key: string, shardCount: number): number {
  return hashRecordKey(key) % shardCount;
}

/** File name of a shard written for `instant` (`null` → `init`); `token` keeps retries apart. */
export function shardFileName(shard: number, instant: string | null, token: string): string {
  return `shard-${String(shard).padStart(4, '0')}_${instant ?? 'init'}_${token}.rix`;
}

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

/** The manifest as JSON bytes. */
export function serializeManifest(m: RecordIndexManifest): Uint8Array {
  return encoder.encode(JSON.stringify(m, null, 1));
}

/** Parse and validate a manifest; anything unexpected → `CORRUPT_FILE`. */
export function parseManifest(bytes: Uint8Array, path: string): RecordIndexManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    throw corruptFile('record index: manifest is not JSON', path, undefined, err);
  }
  const o = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const { version, shardCount, hash, instant, pending, keyCount, shards } = o;
  const ok = version === RECORD_INDEX_VERSION && hash === RECORD_INDEX_HASH
    && typeof shardCount === 'number' && Number.isInteger(shardCount) && shardCount > 0 && shardCount <= 65536
    && (instant === null || typeof instant === 'string')
    && Array.isArray(pending) && pending.every((p) => typeof p === 'string')
    && typeof keyCount === 'number'
    && Array.isArray(shards) && shards.length === shardCount && shards.every((s) => s === null || (typeof s === 'string' && /^[\w.-]+$/.test(s)));
  if (!ok) throw corruptFile('record index: manifest fields are missing or invalid', path);
  return { version, shardCount, hash, instant, pending: pending as string[], keyCount, shards: shards as (string | null)[] };
}

/** Split a commit's changes by shard. */
export function changesByShard(changes: IndexChanges, shardCount: number): Map<number, IndexChanges> {
  const out = new Map<number, IndexChanges>();
  const of = (key: string): IndexChanges => {
    const s = shardOf(key, shardCount);
    let c = out.get(s);
    if (!c) out.set(s, (c = { removed: [], added: [] }));
    return c;
  };
  for (const r of changes.removed) of(r.key).removed.push(r);
  for (const a of changes.added) of(a.key).added.push(a);
  return out;
}

const same = (a: ShardLocation, b: ShardLocation): boolean => a.partitionPath === b.partitionPath && a.fileId === b.fileId;

/** Apply changes (all of this shard's keys) to a shard in place: removals first, then additions. */
export function applyChanges(entries: ShardEntries, changes: IndexChanges): void {
  for (const { key, location } of changes.removed) {
    const where = entries.get(key);
    if (!where) continue;
    const left = where.filter((l) => !same(l, location));
    if (left.length === 0) entries.delete(key);
    else entries.set(key, left);
  }
  for (const { key, location } of changes.added) {
    const where = entries.get(key);
    if (!where) entries.set(key, [location]);
    else if (!where.some((l) => same(l, location))) entries.set(key, [...where, location]);
  }
}

/**
 * Drop every location in one of `groups` (keys `partition\0fileId`) from a shard in place; returns true
 * when something changed. Used to re-derive groups whose content changed outside the index's view.
 */
export function dropGroups(entries: ShardEntries, groups: ReadonlySet<string>): boolean {
  let changed = false;
  for (const [key, where] of entries) {
    const left = where.filter((l) => !groups.has(`${l.partitionPath}\u0000${l.fileId}`));
    if (left.length === where.length) continue;
    changed = true;
    if (left.length === 0) entries.delete(key);
    else entries.set(key, left);
  }
  return changed;
}

/** Distribute located keys into `shardCount` fresh shards. */
export function buildShards(keys: Iterable<KeyLocation>, shardCount: number): ShardEntries[] {
  const shards: ShardEntries[] = Array.from({ length: shardCount }, () => new Map());
  for (const k of keys) {
    const entries = shards[shardOf(k.key, shardCount)] as ShardEntries;
    const where = entries.get(k.key);
    if (!where) entries.set(k.key, [k.location]);
    else if (!where.some((l) => same(l, k.location))) where.push(k.location);
  }
  return shards;
}
