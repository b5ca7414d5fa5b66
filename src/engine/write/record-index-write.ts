// The record index's one write step: under the commit lock, the changed shard files, then the manifest (only
// if it is still the one the update started from), then the removal of shard files no manifest names.
import { isLakeletError } from '../../errors.js';
import { baseName, RECORD_INDEX_DIR, RECORD_INDEX_MANIFEST, recordIndexFilePath } from '../../layout.js';
import {
  RECORD_INDEX_VERSION, parseManifest, serializeManifest, shardFileName,
  type RecordIndexManifest, type ShardEntries,
} from '../../index/record-index-format.js';
import { encodeShard } from '../../index/record-index-shard.js';
import type { Storage } from '../../storage/storage.js';
import { formatInstantTime } from '../../timeline/instant-time.js';
import { systemClock, type Clock } from '../clock.js';
import { withCommitLock } from '../commit/commit-lock.js';
import { HEARTBEAT_TIMEOUT_MS, heartbeatExpired } from '../commit/heartbeat.js';

/** How an index write takes the commit lock: as the write it follows does. */
export interface IndexLockOptions {
  /** Time source of the lock (default: system; pass the write's clock). */
  clock?: Clock;
  /** The write's heartbeat timeout: a lock whose owner's heartbeat is older is broken (0: at once). */
  heartbeatTimeoutMs?: number;
}

/**
 * Read the manifest; undefined when it is missing or unreadable (the index is then rebuilt), which includes a
 * manifest naming a key hash this code does not know (parseManifest's `CORRUPT_FILE` names it).
 */
export async function readRecordIndexManifest(storage: Storage): Promise<RecordIndexManifest | undefined> {
  try {
    return parseManifest(await storage.read(RECORD_INDEX_MANIFEST), RECORD_INDEX_MANIFEST);
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND') || isLakeletError(err, 'CORRUPT_FILE')) return undefined;
    throw err;
  }
}

const token = (): string => crypto.randomUUID().slice(0, 8);

/** Do two manifests (or their absence) say the same? */
export function sameManifest(a: RecordIndexManifest | undefined, b: RecordIndexManifest | undefined): boolean {
  if (!a || !b) return a === b;
  const text = (m: RecordIndexManifest) => new TextDecoder().decode(serializeManifest(m));
  return text(a) === text(b);
}

/** What {@link writeIndex} did: the manifest it wrote (or would have), and whether it wrote it. */
export interface WrittenIndex {
  manifest: RecordIndexManifest;
  /** False: the manifest on storage was no longer `previous`, so nothing was written. */
  persisted: boolean;
}

/**
 * Under the commit lock: re-read the manifest and, only if it is still `previous`, write the changed shards under
 * fresh instant-stamped names, then the manifest (the store's `write` is atomic: a crash before it leaves the old
 * manifest, which still names only old, intact shard files), then delete shard files named by neither the new
 * nor the previous manifest (readers of the previous one keep working; orphans of crashed updates go). When
 * another update changed the manifest meanwhile, or the lock is held by another actor, nothing is written: its manifest records the instant it
 * reflects and the writes pending then, so {@link catchUpPlan} replays (or rebuilds) whatever this update would
 * have added. Without the lock two updates would each delete the other's new shards as orphans. `cache` gets
 * the new shards' entries either way (the caller's snapshot stays usable in memory).
 */
export async function writeIndex(
  storage: Storage,
  previous: RecordIndexManifest | undefined,
  next: Omit<RecordIndexManifest, 'shards' | 'keyCount' | 'version'>,
  baseShards: (string | null)[],
  changed: Map<number, ShardEntries>,
  keyCount: number,
  cache: Map<string, ShardEntries>,
  lock: IndexLockOptions = {},
): Promise<WrittenIndex> {
  const clock = lock.clock ?? systemClock;
  const timeoutMs = lock.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const shards = [...baseShards];
  const t = token();
  const files: [string, ShardEntries][] = [];
  for (const [i, entries] of changed) {
    const old = shards[i];
    if (old) cache.delete(old);
    if (entries.size === 0) {
      shards[i] = null;
      continue;
    }
    const name = shardFileName(i, next.instant, t);
    files.push([name, entries]);
    shards[i] = name;
    cache.set(name, entries);
  }
  const manifest: RecordIndexManifest = { version: RECORD_INDEX_VERSION, shardCount: next.shardCount, hash: next.hash, instant: next.instant, pending: next.pending, keyCount, shards };
  // The lock's owner is named by the current time as an instant (no heartbeat: its own time vouches for it).
  const owner = formatInstantTime(new Date(clock.now()));
  // No waiting for the lock: a holder is committing (or crashed holding it) and the next write's catch-up
  // covers whatever this update would have written; a lock lost meanwhile (`held()`) likewise writes nothing.
  let persisted: boolean;
  try {
    persisted = await withCommitLock(storage, owner, async (held) => {
      if (!sameManifest(await readRecordIndexManifest(storage), previous)) return false;
      for (const [name, entries] of files) await storage.write(recordIndexFilePath(name), encodeShard(entries));
      await held();
      await storage.write(RECORD_INDEX_MANIFEST, serializeManifest(manifest));
      const keep = new Set([...shards, ...(previous?.shards ?? [])].filter((s): s is string => s !== null));
      for (const f of await storage.list(RECORD_INDEX_DIR)) {
        const name = baseName(f.path);
        if (f.kind === 'file' && name.endsWith('.rix') && !keep.has(name)) await storage.delete(f.path);
      }
      return true;
    }, { clock, waitMs: 0, ownerGone: (o) => heartbeatExpired(storage, o, timeoutMs, clock) });
  } catch (err) {
    if (!isLakeletError(err, 'CONFLICT')) throw err;
    persisted = false;
  }
  return { manifest, persisted };
}

