// The persistent record-level index's on-disk model (pure): key → shard assignment, the manifest naming the
// current shard files and the instant they reflect, and merging one commit's key changes into shards (the
// shard file's bytes are record-index-shard.ts).
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
