// The record-level index's catch-up (never trust an index behind the timeline): how a manifest relates to a
// table state (current, replay newer commits from their metadata, or rebuild from the slices), the replay and
// the rebuild (persisted under the commit lock), and the snapshot of the index as of a state, memoised.
import { isLakeletError } from '../../errors.js';
import { fileGroupKey } from '../../file-group/file-slice.js';
import { orderingSpec } from '../../merge/ordering.js';
import { RECORD_INDEX_DIR, recordIndexFilePath } from '../../layout.js';
import {
  DEFAULT_SHARD_COUNT, RECORD_INDEX_HASH, SHARD_HASH_KERNEL_MIN_KEYS,
  applyChanges, buildShards, changesByShard, dropGroups,
  type KeyLocation, type RecordIndexHash, type RecordIndexManifest, type ShardEntries, type ShardHashing,
} from '../../index/record-index-format.js';
import { decodeShard } from '../../index/record-index-shard.js';
import type { Storage } from '../../storage/storage.js';
import type { CommitMetadata } from '../../timeline/commit-metadata.js';
import { compareInstantTimes, WRITE_ACTIONS, type Instant } from '../../timeline/instant.js';
import { parseRestoreMetadata } from '../../timeline/restore-metadata.js';
import { parseRollbackMetadata } from '../../timeline/rollback-metadata.js';
import type { Clock } from '../clock.js';
import { mainThreadKernels, type KernelsChoice } from '../kernels.js';
import { readRecordIndexManifest, writeIndex } from './record-index-write.js';
import { sliceKeyReaderFor, type SliceKeyReader } from './tag.js';
import type { TableState } from '../table-state.js';

/** Options of the record-index functions. */
export interface RecordIndexOptions {
  /** Shards of an index built from scratch (default 64; an existing index keeps its manifest's count). */
  shardCount?: number;
  /** Time source of the commit lock the manifest is changed under (default: system; pass the write's clock). */
  clock?: Clock;
  /** The write's heartbeat timeout, for breaking a commit lock a crashed holder left (default 60 s). */
  heartbeatTimeoutMs?: number;
  /** Kernels of the key hash for large batches (default `'auto'`; pass the write's choice). */
  kernels?: KernelsChoice;
}

/** How `count` keys are hashed under `hash`: with the calling thread's kernels when the batch is large enough. */
export async function shardHashing(hash: RecordIndexHash, count: number, options: RecordIndexOptions): Promise<ShardHashing> {
  return count >= SHARD_HASH_KERNEL_MIN_KEYS ? { hash, kernels: await mainThreadKernels(options.kernels) } : { hash };
}

/** An index known to reflect a table state: its manifest and the shards decoded so far (by file name). */
export interface RecordIndexSnapshot {
  manifest: RecordIndexManifest;
  /** How the snapshot was reached: the manifest as found, a replay of newer commits, or a rebuild. */
  source: 'current' | 'replayed' | 'rebuilt';
  cache: Map<string, ShardEntries>;
}

/** How an index relates to a table state. */
export type CatchUp =
  | { kind: 'current'; latest: string | null }
  | { kind: 'replay'; latest: string | null; writes: { instant: Instant; metadata: CommitMetadata }[] }
  | { kind: 'rebuild'; latest: string | null; reason: string };


const snapshots = new WeakMap<TableState, Promise<RecordIndexSnapshot>>();

/** The memoised snapshot of `state`, if one was made (a failed one is forgotten). */
export function cachedSnapshot(state: TableState): Promise<RecordIndexSnapshot> | undefined {
  return snapshots.get(state);
}

/** Remember `snapshot` as the index as of `state` (after a rebuild outside {@link ensureCurrent}). */
export function rememberSnapshot(state: TableState, snapshot: RecordIndexSnapshot): void {
  snapshots.set(state, Promise.resolve(snapshot));
}

/** Reads the live keys of a slice of `state` (merge-on-read slices with logs: after merging their logs). */
export async function sliceKeyReader(state: TableState): Promise<SliceKeyReader> {
  const schema = await state.schemaAsOf(undefined);
  const { orderingFields, orderingKinds } = orderingSpec(state.config.orderingFields, schema);
  return sliceKeyReaderFor(state, orderingFields, orderingKinds);
}

/**
 * Decide whether `manifest` reflects `state`: current; behind by completed writes that can be replayed
 * from their commit metadata (compactions only rewrite groups in place and are skipped); or to be rebuilt —
 * no manifest, its instant no longer a completed write (rolled back, restored away, archived), or a
 * rollback/restore since then that undid a write the index reflects.
 */
export async function catchUpPlan(state: TableState, manifest: RecordIndexManifest | undefined): Promise<CatchUp> {
  const { timeline } = state;
  const latest = timeline.latestWrite()?.requestedTime ?? null;
  if (!manifest) return { kind: 'rebuild', latest, reason: 'no manifest' };
  const base = manifest.instant;
  if (base !== null && !timeline.isCompletedWrite(base)) return { kind: 'rebuild', latest, reason: `instant ${base} is not a completed write` };
  const pending = new Set(manifest.pending);
  const reflected = (t: string) => base !== null && compareInstantTimes(t, base) <= 0 && !pending.has(t);
  const isMor = state.config.tableType === 'MERGE_ON_READ';
  for (const i of timeline.instants) {
    if (i.action !== 'rollback' && i.action !== 'restore') continue;
    if (base !== null && compareInstantTimes(i.requestedTime, base) <= 0) continue;
    if (i.state !== 'COMPLETED') return { kind: 'rebuild', latest, reason: `${i.action} ${i.requestedTime} is pending` };
    const path = state.instantPath(i);
    const bytes = await state.storage.read(path);
    const undone = i.action === 'rollback'
      ? parseRollbackMetadata(bytes, path).instantsRollback
      : (() => {
        const md = parseRestoreMetadata(bytes, path);
        return md.restoreInstantInfo.length > 0 ? md.restoreInstantInfo : md.instantsToRollback.map((commitTime) => ({ commitTime, action: '' }));
      })();
    const commits = i.action === 'rollback' && undone.length === 0 ? parseRollbackMetadata(bytes, path).commitsRollback.map((commitTime) => ({ commitTime, action: '' })) : undone;
    for (const u of commits) {
      // A rolled-back compaction (merge-on-read `commit`) moved no key; anything else the index reflects did.
      if (!reflected(u.commitTime) || (isMor && u.action === 'commit')) continue;
      return { kind: 'rebuild', latest, reason: `${i.action} ${i.requestedTime} undid ${u.commitTime}` };
    }
  }
  const writes: { instant: Instant; metadata: CommitMetadata }[] = [];
  let newer = false;
  for (const w of timeline.completedWrites()) {
    const t = w.requestedTime;
    if (base !== null && !(compareInstantTimes(t, base) > 0 || pending.has(t))) continue;
    newer = true;
    const metadata = await state.commitMetadata(w);
    if (!metadata.compacted) writes.push({ instant: w, metadata });
  }
  // Built for an empty table: the active timeline may not hold every write since (archival), so rebuild.
  if (base === null && newer) return { kind: 'rebuild', latest, reason: 'built before the first commit' };
  if (writes.length === 0) return { kind: 'current', latest };
  return { kind: 'replay', latest, writes };
}

export async function readShard(storage: Storage, manifest: RecordIndexManifest, shard: number, cache: Map<string, ShardEntries>): Promise<ShardEntries> {
  const name = manifest.shards[shard];
  if (!name) return new Map();
  const cached = cache.get(name);
  if (cached) return cached;
  const path = recordIndexFilePath(name);
  const entries = decodeShard(await storage.read(path), path);
  cache.set(name, entries);
  return entries;
}

/** A shard file the manifest names is missing or unreadable (the index is then rebuilt). */
export function isShardDamage(err: unknown): boolean {
  if (!isLakeletError(err, 'NOT_FOUND') && !isLakeletError(err, 'CORRUPT_FILE')) return false;
  const path = err.context.path;
  return typeof path === 'string' && path.startsWith(`${RECORD_INDEX_DIR}/`);
}

/** Write instants still pending in `state` that are older than `instant`. */
export function pendingBefore(state: TableState, instant: string | null): string[] {
  if (instant === null) return [];
  return state.timeline.pending().filter((i) => WRITE_ACTIONS.has(i.action) && compareInstantTimes(i.requestedTime, instant) < 0).map((i) => i.requestedTime);
}

/**
 * Build the whole index from the keys of every latest slice, keeping the previous manifest's key hash (an index
 * is never re-hashed behind its readers' backs; a new one gets {@link RECORD_INDEX_HASH}).
 */
export async function rebuild(state: TableState, previous: RecordIndexManifest | undefined, latest: string | null, options: RecordIndexOptions): Promise<RecordIndexSnapshot> {
  const shardCount = options.shardCount ?? DEFAULT_SHARD_COUNT;
  const readKeys = await sliceKeyReader(state);
  const located: KeyLocation[] = [];
  for (const slice of (await state.fileSystemView()).latestSlices()) {
    const location = { partitionPath: slice.partitionPath, fileId: slice.fileId };
    for (const key of await readKeys(slice)) located.push({ key, location });
  }
  const hash = previous?.hash ?? RECORD_INDEX_HASH;
  const shards = buildShards(located, shardCount, await shardHashing(hash, located.length, options));
  const cache = new Map<string, ShardEntries>();
  const changed = new Map(shards.map((s, i) => [i, s] as const));
  const keyCount = shards.reduce((a, s) => a + s.size, 0);
  const { manifest } = await writeIndex(state.storage, previous, { shardCount, hash, instant: latest, pending: pendingBefore(state, latest) }, Array.from({ length: shardCount }, () => null), changed, keyCount, cache, options);
  return { manifest, source: 'rebuilt', cache };
}

/**
 * Replay completed writes the index misses: the file groups they wrote or replaced are re-derived from
 * their current slices (every location in them dropped from every shard, then their live keys added).
 */
async function replay(state: TableState, manifest: RecordIndexManifest, plan: Extract<CatchUp, { kind: 'replay' }>, cache: Map<string, ShardEntries>, lock: RecordIndexOptions): Promise<RecordIndexSnapshot> {
  const touched = new Set<string>();
  for (const { metadata } of plan.writes) {
    for (const [partition, stats] of Object.entries(metadata.partitionToWriteStats)) for (const s of stats) touched.add(fileGroupKey(s.partitionPath || partition, s.fileId));
    for (const [partition, ids] of Object.entries(metadata.partitionToReplaceFileIds)) for (const id of ids) touched.add(fileGroupKey(partition, id));
  }
  const readKeys = await sliceKeyReader(state);
  const added: KeyLocation[] = [];
  for (const slice of (await state.fileSystemView()).latestSlices()) {
    if (!touched.has(fileGroupKey(slice.partitionPath, slice.fileId))) continue;
    const location = { partitionPath: slice.partitionPath, fileId: slice.fileId };
    for (const key of await readKeys(slice)) added.push({ key, location });
  }
  const byShard = changesByShard({ removed: [], added }, manifest.shardCount, await shardHashing(manifest.hash, added.length, lock));
  const changed = new Map<number, ShardEntries>();
  let keyCount = 0;
  for (let i = 0; i < manifest.shardCount; i++) {
    if (!manifest.shards[i] && !byShard.has(i)) continue;
    const entries = new Map(await readShard(state.storage, manifest, i, cache));
    const dropped = dropGroups(entries, touched);
    const add = byShard.get(i);
    if (add) applyChanges(entries, add);
    if (dropped || add) changed.set(i, entries);
    keyCount += entries.size;
  }
  const { manifest: next } = await writeIndex(state.storage, manifest, { shardCount: manifest.shardCount, hash: manifest.hash, instant: plan.latest, pending: pendingBefore(state, plan.latest) }, manifest.shards, changed, keyCount, cache, lock);
  return { manifest: next, source: 'replayed', cache };
}

/**
 * The index as of `state` from `manifest` and its catch-up plan: as found, replayed, or rebuilt (also when a
 * shard file the replay needs is missing or corrupt). The snapshot returned reflects `state` even when another
 * update changed the manifest meanwhile and this one was not persisted (its shards are all in `cache`).
 */
export async function bringCurrent(state: TableState, manifest: RecordIndexManifest | undefined, plan: CatchUp, options: RecordIndexOptions, cache: Map<string, ShardEntries>): Promise<RecordIndexSnapshot> {
  if (plan.kind === 'current' && manifest) return { manifest, source: 'current', cache };
  if (plan.kind === 'replay' && manifest) {
    try {
      return await replay(state, manifest, plan, cache, options);
    } catch (err) {
      if (!isShardDamage(err)) throw err;
    }
  }
  return rebuild(state, manifest, plan.latest, { ...options, shardCount: options.shardCount ?? manifest?.shardCount });
}

/**
 * The index as of `state`, brought up to date first when it is behind (replayed or rebuilt, and
 * persisted). Memoised per `state`.
 */
export function ensureCurrent(state: TableState, options: RecordIndexOptions = {}): Promise<RecordIndexSnapshot> {
  let p = snapshots.get(state);
  if (!p) {
    p = (async () => {
      const manifest = await readRecordIndexManifest(state.storage);
      return bringCurrent(state, manifest, await catchUpPlan(state, manifest), options, new Map());
    })();
    snapshots.set(state, p);
    p.catch(() => snapshots.delete(state));
  }
  return p;
}
