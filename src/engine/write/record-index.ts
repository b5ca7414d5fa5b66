// The persistent record-level index (`index: 'RECORD_INDEX'`) against storage: lookups that read only the
// shards the keys hash to, the post-commit update (new shard files, then the manifest), and the catch-up
// that never trusts an index behind the timeline (replay from commit metadata, or rebuild from the slices).
// Every manifest change runs under the commit lock, so two concurrent updates never delete each other's shards.
import { isLakeletError } from '../../errors.js';
import { fileGroupKey, type FileSlice } from '../../file-group/file-slice.js';
import { orderingSpec } from '../../merge/ordering.js';
import {
  DEFAULT_SHARD_COUNT, RECORD_INDEX_DIR,
  applyChanges, buildShards, changesByShard, decodeShard, dropGroups, shardOf,
  type IndexChanges, type KeyLocation, type RecordIndexManifest, type ShardEntries,
} from '../../index/record-index-format.js';
import type { RecordLocation } from '../../index/index-type.js';
import type { Storage } from '../../storage/storage.js';
import type { CommitMetadata } from '../../timeline/commit-metadata.js';
import { compareInstantTimes, WRITE_ACTIONS, type Instant } from '../../timeline/instant.js';
import { parseRestoreMetadata } from '../../timeline/restore-metadata.js';
import { parseRollbackMetadata } from '../../timeline/rollback-metadata.js';
import type { Clock } from '../clock.js';
import { readRecordIndexManifest, writeIndex } from './record-index-write.js';
import { sliceKeyReaderFor, type SliceKeyReader, type TagMap } from './tag.js';
import type { TableState } from '../table-state.js';
import { loadTableState } from '../context.js';

/** Options of the record-index functions. */
export interface RecordIndexOptions {
  /** Shards of an index built from scratch (default 64; an existing index keeps its manifest's count). */
  shardCount?: number;
  /** Time source of the commit lock the manifest is changed under (default: system; pass the write's clock). */
  clock?: Clock;
  /** The write's heartbeat timeout, for breaking a commit lock a crashed holder left (default 60 s). */
  heartbeatTimeoutMs?: number;
}

/** An index known to reflect a table state: its manifest and the shards decoded so far (by file name). */
export interface RecordIndexSnapshot {
  manifest: RecordIndexManifest;
  /** How the snapshot was reached: the manifest as found, a replay of newer commits, or a rebuild. */
  source: 'current' | 'replayed' | 'rebuilt';
  cache: Map<string, ShardEntries>;
}

/** What an index update did. */
export interface RecordIndexUpdate {
  /**
   * `incremental`: only the touched shards were rewritten; `replayed`/`rebuilt`: the catch-up path ran;
   * `superseded`: another update changed the manifest meanwhile, or another actor held the commit lock, so
   * this one wrote nothing (a later catch-up covers it); `current`: nothing to do.
   */
  mode: 'incremental' | 'replayed' | 'rebuilt' | 'current' | 'superseded';
  shardsWritten: number;
}

/** How an index relates to a table state. */
type CatchUp =
  | { kind: 'current'; latest: string | null }
  | { kind: 'replay'; latest: string | null; writes: { instant: Instant; metadata: CommitMetadata }[] }
  | { kind: 'rebuild'; latest: string | null; reason: string };

export { readRecordIndexManifest };

const snapshots = new WeakMap<TableState, Promise<RecordIndexSnapshot>>();

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
async function catchUpPlan(state: TableState, manifest: RecordIndexManifest | undefined): Promise<CatchUp> {
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

async function readShard(storage: Storage, manifest: RecordIndexManifest, shard: number, cache: Map<string, ShardEntries>): Promise<ShardEntries> {
  const name = manifest.shards[shard];
  if (!name) return new Map();
  const cached = cache.get(name);
  if (cached) return cached;
  const path = `${RECORD_INDEX_DIR}/${name}`;
  const entries = decodeShard(await storage.read(path), path);
  cache.set(name, entries);
  return entries;
}

/** A shard file the manifest names is missing or unreadable (the index is then rebuilt). */
function isShardDamage(err: unknown): boolean {
  if (!isLakeletError(err, 'NOT_FOUND') && !isLakeletError(err, 'CORRUPT_FILE')) return false;
  const path = err.context.path;
  return typeof path === 'string' && path.startsWith(`${RECORD_INDEX_DIR}/`);
}

/** Write instants still pending in `state` that are older than `instant`. */
function pendingBefore(state: TableState, instant: string | null): string[] {
  if (instant === null) return [];
  return state.timeline.pending().filter((i) => WRITE_ACTIONS.has(i.action) && compareInstantTimes(i.requestedTime, instant) < 0).map((i) => i.requestedTime);
}

/** Build the whole index from the keys of every latest slice. */
async function rebuild(state: TableState, previous: RecordIndexManifest | undefined, latest: string | null, options: RecordIndexOptions): Promise<RecordIndexSnapshot> {
  const shardCount = options.shardCount ?? DEFAULT_SHARD_COUNT;
  const readKeys = await sliceKeyReader(state);
  const located: KeyLocation[] = [];
  for (const slice of (await state.fileSystemView()).latestSlices()) {
    const location = { partitionPath: slice.partitionPath, fileId: slice.fileId };
    for (const key of await readKeys(slice)) located.push({ key, location });
  }
  const shards = buildShards(located, shardCount);
  const cache = new Map<string, ShardEntries>();
  const changed = new Map(shards.map((s, i) => [i, s] as const));
  const keyCount = shards.reduce((a, s) => a + s.size, 0);
  const { manifest } = await writeIndex(state.storage, previous, { shardCount, instant: latest, pending: pendingBefore(state, latest) }, Array.from({ length: shardCount }, () => null), changed, keyCount, cache, options);
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
  const byShard = changesByShard({ removed: [], added }, manifest.shardCount);
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
  const { manifest: next } = await writeIndex(state.storage, manifest, { shardCount: manifest.shardCount, instant: plan.latest, pending: pendingBefore(state, plan.latest) }, manifest.shards, changed, keyCount, cache, lock);
  return { manifest: next, source: 'replayed', cache };
}

/**
 * The index as of `state` from `manifest` and its catch-up plan: as found, replayed, or rebuilt (also when a
 * shard file the replay needs is missing or corrupt). The snapshot returned reflects `state` even when another
 * update changed the manifest meanwhile and this one was not persisted (its shards are all in `cache`).
 */
async function bringCurrent(state: TableState, manifest: RecordIndexManifest | undefined, plan: CatchUp, options: RecordIndexOptions, cache: Map<string, ShardEntries>): Promise<RecordIndexSnapshot> {
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

/**
 * Every location of each key in the latest slices of `state`, reading only the shards the keys hash to.
 * Keys not in the table are absent. A location outside the table's view (a damaged index) forces a rebuild.
 */
export async function lookupLocations(state: TableState, keys: Iterable<string>, options: RecordIndexOptions = {}): Promise<Map<string, RecordLocation[]>> {
  const view = await state.fileSystemView();
  const sliceOf = new Map<string, FileSlice>(view.latestSlices().map((s) => [fileGroupKey(s.partitionPath, s.fileId), s]));
  const wanted = [...new Set(keys)];
  for (let attempt = 0; ; attempt++) {
    let snapshot = await ensureCurrent(state, options);
    const out = new Map<string, RecordLocation[]>();
    let damaged = false;
    try {
      const byShard = new Map<number, string[]>();
      for (const k of wanted) {
        const s = shardOf(k, snapshot.manifest.shardCount);
        byShard.set(s, [...(byShard.get(s) ?? []), k]);
      }
      for (const [s, ks] of byShard) {
        const entries = await readShard(state.storage, snapshot.manifest, s, snapshot.cache);
        for (const k of ks) {
          const where = entries.get(k);
          if (!where) continue;
          const locs: RecordLocation[] = [];
          for (const l of where) {
            const slice = sliceOf.get(fileGroupKey(l.partitionPath, l.fileId));
            if (!slice) damaged = true;
            else locs.push({ partitionPath: l.partitionPath, fileId: l.fileId, baseInstantTime: slice.baseInstantTime });
          }
          if (locs.length > 0) out.set(k, locs);
        }
      }
    } catch (err) {
      if (!isLakeletError(err, 'NOT_FOUND') && !isLakeletError(err, 'CORRUPT_FILE')) throw err;
      damaged = true;
    }
    if (!damaged || attempt > 0) return out;
    // A shard file missing or corrupt, or a location the table no longer has: rebuild once.
    snapshot = await rebuild(state, snapshot.manifest, state.timeline.latestWrite()?.requestedTime ?? null, { ...options, shardCount: snapshot.manifest.shardCount });
    snapshots.set(state, Promise.resolve(snapshot));
  }
}

/**
 * Tag keys with the record index: key → its location. Only the shards the keys hash to are read.
 *
 * Keys in several file groups: `RECORD_INDEX` is global (as in Hudi), so upserts and deletes find a key in
 * any partition, and a deduplicating write keeps one copy of each key. Only a non-deduplicating `insert`
 * can put a key into a second group (or partition); the index then keeps every group holding it (oldest
 * first). A delete by key removes it from all of them; an upsert updates (or moves) the copy written last
 * and leaves the others — the same as lakelet's other global indexes, which also tag one copy.
 */
export async function lookup(state: TableState, keys: Iterable<string>, options: RecordIndexOptions = {}): Promise<TagMap> {
  const out: TagMap = new Map();
  for (const [k, locs] of await lookupLocations(state, keys, options)) {
    const last = locs[locs.length - 1];
    if (last) out.set(k, last);
  }
  return out;
}

/**
 * After `instant` completed: apply its `changes` to the shards they touch when the index reflected every
 * other completed write (the usual case), else catch up from the timeline (which covers `instant` too).
 * `state` is the state the write started from (its decoded shards are reused).
 *
 * Concurrent writers: writes still pending when a manifest is written are recorded in it and replayed
 * once they complete; a write requested after a later one completed and was indexed is not seen (lakelet
 * writers of one table serialise through the table write lock). The manifest changes under the commit lock
 * and only from the manifest the update read: when another update got there first (or the lock is busy),
 * this one writes nothing (`superseded`) and a later catch-up replays it. A shard file missing or corrupt when read: rebuilt.
 */
export async function update(state: TableState, instant: string, changes: IndexChanges, options: RecordIndexOptions = {}): Promise<RecordIndexUpdate> {
  const storage = state.storage;
  const fresh = await loadTableState(storage);
  const manifest = await readRecordIndexManifest(storage);
  const plan = await catchUpPlan(fresh, manifest);
  const cache = (await snapshots.get(state)?.catch(() => undefined))?.cache ?? new Map<string, ShardEntries>();
  if (plan.kind === 'current') return { mode: 'current', shardsWritten: 0 };
  if (manifest && manifest.instant !== null && plan.kind === 'replay' && plan.writes.length === 1 && plan.writes[0]?.instant.requestedTime === instant) {
    const changed = new Map<number, ShardEntries>();
    let keyCount = manifest.keyCount;
    let damaged = false;
    try {
      for (const [s, c] of changesByShard(changes, manifest.shardCount)) {
        const entries = new Map(await readShard(storage, manifest, s, cache));
        const before = entries.size;
        applyChanges(entries, c);
        keyCount += entries.size - before;
        changed.set(s, entries);
      }
    } catch (err) {
      if (!isShardDamage(err)) throw err;
      damaged = true; // a shard file gone or corrupt: rebuilt below, rather than failing every later write
    }
    if (!damaged) {
      const written = await writeIndex(storage, manifest, { shardCount: manifest.shardCount, instant: plan.latest, pending: pendingBefore(fresh, plan.latest) }, manifest.shards, changed, keyCount, cache, options);
      return { mode: written.persisted ? 'incremental' : 'superseded', shardsWritten: written.persisted ? changed.size : 0 };
    }
    const snapshot = await rebuild(fresh, manifest, plan.latest, { ...options, shardCount: options.shardCount ?? manifest.shardCount });
    return { mode: 'rebuilt', shardsWritten: snapshot.manifest.shards.filter((s) => s !== null).length };
  }
  const snapshot = await bringCurrent(fresh, manifest, plan, options, cache);
  return { mode: snapshot.source === 'rebuilt' ? 'rebuilt' : 'replayed', shardsWritten: snapshot.manifest.shards.filter((s) => s !== null).length };
}

/** Every entry of the index (all shards), for tests and inspection. */
export async function readAllEntries(storage: Storage, manifest: RecordIndexManifest): Promise<ShardEntries> {
  const out: ShardEntries = new Map();
  const cache = new Map<string, ShardEntries>();
  for (let i = 0; i < manifest.shardCount; i++) for (const [k, v] of await readShard(storage, manifest, i, cache)) out.set(k, v);
  return out;
}
