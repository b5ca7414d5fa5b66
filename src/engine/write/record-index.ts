// The persistent record-level index (`index: 'RECORD_INDEX'`) against storage: lookups that read only the
// shards the keys hash to, the post-commit update (new shard files, then the manifest; the catch-up of
// record-index-catch-up.ts when the index is behind), and the `Index` a write tags with.
// Every manifest change runs under the commit lock, so two concurrent updates never delete each other's shards.
import { isLakeletError } from '../../errors.js';
import { fileGroupKey, type FileSlice } from '../../file-group/file-slice.js';
import { applyChanges, changesByShard, shardsOf, type IndexChanges, type RecordIndexManifest, type ShardEntries } from '../../index/record-index-format.js';
import type { RecordLocation } from '../../index/index-type.js';
import type { Storage } from '../../storage/storage.js';
import { loadTableState } from '../context.js';
import type { TableState } from '../table-state.js';
import {
  bringCurrent, cachedSnapshot, catchUpPlan, ensureCurrent, isShardDamage, pendingBefore, readShard, rebuild, rememberSnapshot,
  shardHashing, type RecordIndexOptions,
} from './record-index-catch-up.js';
import { readRecordIndexManifest, writeIndex } from './record-index-write.js';
import type { LocatedKey } from '../../index/tagging.js';
import { runPostCommit } from '../services/post-commit.js';
import { sliceKeyReaderFor, tagWith, type CommittedWrite, type Index, type SliceKeyReader, type TagMap } from './tag.js';

export { ensureCurrent, readRecordIndexManifest };
export { sliceKeyReader, type RecordIndexOptions, type RecordIndexSnapshot } from './record-index-catch-up.js';

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
      const { hash, kernels } = await shardHashing(snapshot.manifest.hash, wanted.length, options);
      const shards = shardsOf(wanted, snapshot.manifest.shardCount, hash, kernels);
      for (let i = 0; i < wanted.length; i++) {
        const s = shards[i] as number;
        let ks = byShard.get(s);
        if (!ks) byShard.set(s, (ks = []));
        ks.push(wanted[i] as string);
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
    rememberSnapshot(state, snapshot);
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
  const cache = (await cachedSnapshot(state)?.catch(() => undefined))?.cache ?? new Map<string, ShardEntries>();
  if (plan.kind === 'current') return { mode: 'current', shardsWritten: 0 };
  if (manifest && manifest.instant !== null && plan.kind === 'replay' && plan.writes.length === 1 && plan.writes[0]?.instant.requestedTime === instant) {
    const changed = new Map<number, ShardEntries>();
    let keyCount = manifest.keyCount;
    let damaged = false;
    try {
      const hashing = await shardHashing(manifest.hash, changes.removed.length + changes.added.length, options);
      for (const [s, c] of changesByShard(changes, manifest.shardCount, hashing)) {
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
      const written = await writeIndex(storage, manifest, { shardCount: manifest.shardCount, hash: manifest.hash, instant: plan.latest, pending: pendingBefore(fresh, plan.latest) }, manifest.shards, changed, keyCount, cache, options);
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

/**
 * What a commit changed for the record index: deletes (and the delete half of partition moves) leave their
 * group, routed inserts enter their bucket's group, and every key of a replaced group leaves it.
 */
export async function recordIndexChanges(commit: CommittedWrite, readKeys: SliceKeyReader): Promise<IndexChanges> {
  const changes: IndexChanges = { removed: [], added: [] };
  for (const [group, byKey] of commit.updates) {
    const s = commit.sliceOf.get(group);
    if (!s) continue;
    for (const r of byKey.values()) if (r.isDelete) changes.removed.push({ key: r.recordKey, location: { partitionPath: s.partitionPath, fileId: s.fileId } });
  }
  for (const [p, ids] of commit.replaced) {
    for (const id of ids) {
      const s = commit.sliceOf.get(fileGroupKey(p, id));
      if (s) for (const key of await readKeys(s)) changes.removed.push({ key, location: { partitionPath: p, fileId: id } });
    }
  }
  for (const [i, b] of commit.buckets.entries()) {
    for (const r of commit.insertsByBucket[i] ?? []) changes.added.push({ key: r.recordKey, location: { partitionPath: b.partitionPath, fileId: b.fileId } });
  }
  return changes;
}

/**
 * The RECORD_INDEX index: keys tagged from the shards they hash to (a delete by key reaches every group the
 * index names for it); after the commit its changes go into the index. A failed update is a warning: the
 * commit stands and the next write's catch-up brings the index up to date.
 */
export const recordLevelIndex: Index = {
  type: 'RECORD_INDEX',
  tag: (input) => {
    const lock = { clock: input.options.clock, heartbeatTimeoutMs: input.options.heartbeatTimeoutMs, kernels: input.options.kernels };
    return tagWith(input, true, {
      locate: (records) => lookup(input.state, records.map((r) => r.recordKey), lock),
      locateEverywhere: async (keys) => {
        const out: LocatedKey[] = [];
        for (const [key, locs] of await lookupLocations(input.state, keys, lock)) for (const l of locs) out.push({ recordKey: key, partitionPath: l.partitionPath, fileId: l.fileId });
        return out;
      },
    });
  },
  update: async (commit) => {
    const { state, options, merge } = commit;
    const readKeys = sliceKeyReaderFor(state, merge.orderingFields, merge.orderingKinds);
    const warning = await runPostCommit('record-index', async () => update(state, commit.instantTime, await recordIndexChanges(commit, readKeys), { clock: options.clock, heartbeatTimeoutMs: options.heartbeatTimeoutMs, kernels: options.kernels }));
    return warning ? [warning] : [];
  },
};
