// The persistent record-level index's on-disk model (pure): key → shard assignment, the manifest naming the
// current shard files and the instant they reflect, and merging one commit's key changes into shards (the
// shard file's bytes are record-index-shard.ts). New indexes hash keys with XXH64 (the `hashKeys64` kernel above
// a batch size, its JS twin below); an index whose manifest names the older FNV hash keeps it.
import { corruptFile } from '../errors.js';
import { encodeKey, packKeys, type Kernels } from '../kernels/kernels.js';
import { xxHash64Into } from '../kernels/js/xxhash.js';

/** Shards of a new index. */
export const DEFAULT_SHARD_COUNT = 64;
/** Version of the manifest and shard formats this code writes and reads. */
export const RECORD_INDEX_VERSION = 1;
/** The first key hash: FNV-1a over the key's UTF-8 (lone surrogates as U+FFFD), then fmix32 ({@link hashRecordKey}). */
export const FNV_SHARD_HASH = 'fnv1a32-utf8-fmix32';
/**
 * The key hash of new indexes: XXH64 (seed 0) of the key's UTF-8 bytes as `encodeKey` produces them (an unpaired
 * surrogate as `?`), its low 32 bits mod the shard count picking the shard.
 */
export const XXH64_SHARD_HASH = 'xxh64-utf8';
/** A key hash a manifest may name. */
export type RecordIndexHash = typeof FNV_SHARD_HASH | typeof XXH64_SHARD_HASH;
/** Every key hash this code reads and writes; a manifest naming another is `CORRUPT_FILE` (the index is rebuilt). */
export const RECORD_INDEX_HASHES: readonly RecordIndexHash[] = [FNV_SHARD_HASH, XXH64_SHARD_HASH];
/** Name of the key hash recorded in the manifest of a new index. */
export const RECORD_INDEX_HASH: RecordIndexHash = XXH64_SHARD_HASH;
/**
 * Keys from which {@link shardsOf} hashes with the `hashKeys64` kernel rather than the JS twin (XXH64 only).
 * Measured in Node 20, WASM SIMD build, uuid-like keys, 2 loaded cores (bench/kernels-in-write.mjs, "shard hash"):
 * the kernel is ~1.5-3.5x faster at 16-256 keys, ~7x at 1,000-2,000 and 12-25x from 4,000 on; but the first
 * kernel call of a process loads the WASM module (~45-50 ms), which small writes (a few keys) should not pay.
 */
export const SHARD_HASH_KERNEL_MIN_KEYS = 1024;

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
  /** The key hash: {@link RECORD_INDEX_HASH} for a new index, kept as found for an existing one. */
  hash: RecordIndexHash;
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

const word = new Uint32Array(2); // one XXH64 result: low 32 bits, high 32 bits
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The shard of a record key under `hash`. */
export function shardOf(key: string, shardCount: number, hash: RecordIndexHash): number {
  if (hash === FNV_SHARD_HASH) return hashRecordKey(key) % shardCount;
  const bytes = encodeKey(key);
  xxHash64Into(bytes, 0, bytes.length, 0, 0, word, 0);
  return (word[0] as number) % shardCount;
}

/**
 * The shard of every key under `hash` (same answers as {@link shardOf}). XXH64 batches of at least `minKeys`
 * (default {@link SHARD_HASH_KERNEL_MIN_KEYS}) run on `kernels.hashKeys64` when given, smaller ones on the JS twin.
 */
export function shardsOf(keys: readonly string[], shardCount: number, hash: RecordIndexHash, kernels?: Pick<Kernels, 'hashKeys64'>, minKeys = SHARD_HASH_KERNEL_MIN_KEYS): Uint32Array {
  const out = new Uint32Array(keys.length);
  if (hash === FNV_SHARD_HASH) {
    for (let i = 0; i < keys.length; i++) out[i] = hashRecordKey(keys[i] as string) % shardCount;
    return out;
  }
  if (keys.length === 0) return out;
  const packed = packKeys(keys);
  if (kernels && keys.length >= minKeys) {
    const h = kernels.hashKeys64(packed);
    const words = new Uint32Array(h.buffer, h.byteOffset, h.length * 2);
    const low = LITTLE_ENDIAN ? 0 : 1;
    for (let i = 0; i < keys.length; i++) out[i] = (words[2 * i + low] as number) % shardCount;
    return out;
  }
  const { bytes, offsets } = packed;
  for (let i = 0; i < keys.length; i++) {
    xxHash64Into(bytes, offsets[i] as number, offsets[i + 1] as number, 0, 0, word, 0);
    out[i] = (word[0] as number) % shardCount;
  }
  return out;
}

/** File name of a shard written for `instant` (`null` → `init`); `token` keeps retries apart. */
export function shardFileName(shard: number, instant: string | null, token: string): string {
  return `shard-${String(shard).padStart(4, '0')}_${instant ?? 'init'}_${token}.rix`;
}

const encoder = new TextEncoder();

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
  if (typeof hash === 'string' && !(RECORD_INDEX_HASHES as readonly string[]).includes(hash)) {
    throw corruptFile(`record index: unknown key hash ${JSON.stringify(hash)} (known: ${RECORD_INDEX_HASHES.join(', ')})`, path);
  }
  const ok = version === RECORD_INDEX_VERSION && typeof hash === 'string'
    && typeof shardCount === 'number' && Number.isInteger(shardCount) && shardCount > 0 && shardCount <= 65536
    && (instant === null || typeof instant === 'string')
    && Array.isArray(pending) && pending.every((p) => typeof p === 'string')
    && typeof keyCount === 'number'
    && Array.isArray(shards) && shards.length === shardCount && shards.every((s) => s === null || (typeof s === 'string' && /^[\w.-]+$/.test(s)));
  if (!ok) throw corruptFile('record index: manifest fields are missing or invalid', path);
  return { version, shardCount, hash: hash as RecordIndexHash, instant, pending: pending as string[], keyCount, shards: shards as (string | null)[] };
}

/** How keys are hashed to shards: the manifest's hash, and the kernels for large batches (see {@link shardsOf}). */
export interface ShardHashing {
  hash: RecordIndexHash;
  kernels?: Pick<Kernels, 'hashKeys64'>;
}

/** Split a commit's changes by shard. */
export function changesByShard(changes: IndexChanges, shardCount: number, hashing: ShardHashing): Map<number, IndexChanges> {
  const out = new Map<number, IndexChanges>();
  const { removed, added } = changes;
  const shards = shardsOf([...removed.map((r) => r.key), ...added.map((a) => a.key)], shardCount, hashing.hash, hashing.kernels);
  const of = (i: number): IndexChanges => {
    const s = shards[i] as number;
    let c = out.get(s);
    if (!c) out.set(s, (c = { removed: [], added: [] }));
    return c;
  };
  for (let i = 0; i < removed.length; i++) of(i).removed.push(removed[i] as KeyLocation);
  for (let i = 0; i < added.length; i++) of(removed.length + i).added.push(added[i] as KeyLocation);
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
export function buildShards(keys: readonly KeyLocation[], shardCount: number, hashing: ShardHashing): ShardEntries[] {
  const shards: ShardEntries[] = Array.from({ length: shardCount }, () => new Map());
  const of = shardsOf(keys.map((k) => k.key), shardCount, hashing.hash, hashing.kernels);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as KeyLocation;
    const entries = shards[of[i] as number] as ShardEntries;
    const where = entries.get(k.key);
    if (!where) entries.set(k.key, [k.location]);
    else if (!where.some((l) => same(l, k.location))) where.push(k.location);
  }
  return shards;
}
