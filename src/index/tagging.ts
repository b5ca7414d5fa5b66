// Routing of tagged records (Hudi's tagLocation outcome, pure): which writes tag at all, updates grouped per
// file group, partition moves under a global index (decided by the stored record's ordering, as Hudi merges
// them), inserts, and deletes by key wherever the key lives.
import { fileGroupKey } from '../file-group/file-slice.js';
import type { HoodieRecord } from '../merge/hoodie-record.js';
import { lookupKey, type RecordLocation, type TagMap } from './index-type.js';

/** Records routed to existing file groups: group key (`fileGroupKey`) → record key → record. */
export type GroupUpdates = Map<string, Map<string, HoodieRecord>>;

/** Tagging's outcome: records for existing file groups, and records for new locations. */
export interface TaggedRecords {
  updates: GroupUpdates;
  inserts: HoodieRecord[];
}

/**
 * What a partition move does: `move` (delete at the old location, insert in the new partition), `stay` (the
 * stored record wins the merge: the incoming one goes to the stored record's group as an update that loses, as
 * Hudi tags the merged record to the old location, so the row is unchanged but the group is touched) or `insert`
 * (the index named a location that no longer holds the key: a plain insert, as Hudi tags it).
 */
export type PartitionMoveDecision = 'move' | 'stay' | 'insert';

/** One candidate move: the incoming record and where the index found its key. */
export interface PartitionMoveCandidate {
  record: HoodieRecord;
  location: RecordLocation;
}

/** A record key found in one file group. */
export interface LocatedKey {
  recordKey: string;
  partitionPath: string;
  fileId: string;
}

/** Does the operation look keys up in the index? (Hudi's `HoodieIndex.requiresTagging`: upserts and deletes.) */
export function requiresTagging(operation: string): boolean {
  return operation === 'UPSERT' || operation === 'DELETE';
}

/** Add `r` to the updates of `group` (a later record of the same key replaces the earlier). */
export function addUpdate(updates: GroupUpdates, group: string, r: HoodieRecord): void {
  let byKey = updates.get(group);
  if (!byKey) updates.set(group, (byKey = new Map()));
  byKey.set(r.recordKey, r);
}

/**
 * Deletes by key alone (no partition given): a delete of each located key in its group, every group holding it
 * (a non-deduplicating insert may have put a key in several).
 */
export function deletesAt(located: Iterable<LocatedKey>): TaggedRecords {
  const updates: GroupUpdates = new Map();
  for (const l of located) addUpdate(updates, fileGroupKey(l.partitionPath, l.fileId), { recordKey: l.recordKey, partitionPath: l.partitionPath, data: {}, ordering: [], isDelete: true, index: 0 });
  return { updates, inserts: [] };
}

/** Records of a global index whose key lives in another partition (deletes never move). */
export function moveCandidates(records: readonly HoodieRecord[], tags: TagMap): PartitionMoveCandidate[] {
  return records.flatMap((r) => {
    const loc = tags.get(lookupKey(true, r.partitionPath, r.recordKey));
    return loc && loc.partitionPath !== r.partitionPath && !r.isDelete ? [{ record: r, location: loc }] : [];
  });
}

/**
 * Route records by their tags: a key found in its own partition (or a delete, wherever found) updates its
 * group; a key found elsewhere follows its move decision (default `move`); an untagged record is an insert,
 * an untagged delete is dropped. `pause` is awaited per record (event-loop turns on big batches).
 */
export async function routeTagged(
  records: readonly HoodieRecord[],
  tags: TagMap,
  global: boolean,
  moves: ReadonlyMap<HoodieRecord, PartitionMoveDecision> = new Map(),
  pause: () => Promise<void> | undefined = () => undefined,
): Promise<TaggedRecords> {
  const updates: GroupUpdates = new Map();
  const inserts: HoodieRecord[] = [];
  for (const r of records) {
    await pause();
    const loc = tags.get(lookupKey(global, r.partitionPath, r.recordKey));
    if (loc && (loc.partitionPath === r.partitionPath || r.isDelete)) {
      // Records are never changed once built: one found in its own partition goes as it is (no copy per update).
      addUpdate(updates, fileGroupKey(loc.partitionPath, loc.fileId), loc.partitionPath === r.partitionPath ? r : { ...r, partitionPath: loc.partitionPath });
    } else if (loc) {
      const decision = moves.get(r) ?? 'move';
      if (decision === 'move') addUpdate(updates, fileGroupKey(loc.partitionPath, loc.fileId), { ...r, partitionPath: loc.partitionPath, isDelete: true, ordering: [] });
      if (decision === 'stay') addUpdate(updates, fileGroupKey(loc.partitionPath, loc.fileId), { ...r, partitionPath: loc.partitionPath });
      else inserts.push(r);
    } else if (!r.isDelete) {
      inserts.push(r);
    }
  }
  return { updates, inserts };
}

/** The outcome of a write that does not tag (inserts, bulk inserts, overwrites): every non-delete is an insert. */
export function untagged(records: readonly HoodieRecord[]): TaggedRecords {
  return { updates: new Map(), inserts: records.filter((r) => !r.isDelete) };
}

/**
 * The live file groups an overwrite replaces, per partition (Hudi's partitionToReplaceFileIds): every group of
 * the table (`table`), or of the named partitions, else of the partitions the records go to. A named partition
 * without groups is listed empty.
 */
export function replacedFileGroups(scope: 'table' | 'partitions', slices: readonly { partitionPath: string; fileId: string }[], records: readonly HoodieRecord[], partitions: readonly string[] | undefined): Map<string, string[]> {
  const targets = scope === 'table' ? undefined : new Set(partitions ?? records.map((r) => r.partitionPath));
  const out = new Map<string, string[]>();
  for (const p of targets ?? []) out.set(p, []);
  for (const s of slices) {
    if (targets && !targets.has(s.partitionPath)) continue;
    out.set(s.partitionPath, [...(out.get(s.partitionPath) ?? []), s.fileId]);
  }
  return out;
}
