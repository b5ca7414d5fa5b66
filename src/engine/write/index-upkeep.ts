// Index upkeep after a commit: what the commit changed for the record index (keys leaving and entering file
// groups), and keeping the IN_MEMORY index's key map in step with the write.
import { fileGroupKey, type FileSlice } from '../../file-group/file-slice.js';
import type { IndexChanges } from '../../index/record-index-format.js';
import type { Bucket } from '../../plan/bucket-assignment.js';
import type { BucketResult } from './bucket-writer.js';
import type { HoodieRecord } from '../../merge/hoodie-record.js';
import type { SliceKeyReader, TagMap } from './tag.js';

/**
 * What a commit changed for the record index: deletes (and the delete half of partition moves) leave their
 * group, routed inserts enter their bucket's group, and every key of a replaced group leaves it.
 */
export async function recordIndexChanges(
  updates: ReadonlyMap<string, ReadonlyMap<string, HoodieRecord>>,
  sliceOf: ReadonlyMap<string, FileSlice>,
  buckets: readonly Bucket[],
  routedInserts: readonly (readonly HoodieRecord[])[],
  replaced: ReadonlyMap<string, readonly string[]>,
  readKeys: SliceKeyReader,
): Promise<IndexChanges> {
  const changes: IndexChanges = { removed: [], added: [] };
  for (const [group, byKey] of updates) {
    const s = sliceOf.get(group);
    if (!s) continue;
    for (const r of byKey.values()) if (r.isDelete) changes.removed.push({ key: r.recordKey, location: { partitionPath: s.partitionPath, fileId: s.fileId } });
  }
  for (const [p, ids] of replaced) {
    for (const id of ids) {
      const s = sliceOf.get(fileGroupKey(p, id));
      if (s) for (const key of await readKeys(s)) changes.removed.push({ key, location: { partitionPath: p, fileId: id } });
    }
  }
  for (const [i, b] of buckets.entries()) {
    for (const r of routedInserts[i] ?? []) changes.added.push({ key: r.recordKey, location: { partitionPath: b.partitionPath, fileId: b.fileId } });
  }
  return changes;
}

/** Keep the in-memory index's key map in step with a write, or drop it to be rebuilt (`invalidate`). */
export function updateKeyMap(keyMap: { instant: string | undefined; map: TagMap }, invalidate: boolean, results: readonly BucketResult[], instantTime: string): void {
  if (keyMap.instant === undefined || invalidate) {
    keyMap.instant = undefined;
    keyMap.map.clear();
    return;
  }
  const rewritten = new Set(results.map((r) => fileGroupKey(r.stat.partitionPath, r.stat.fileId)));
  for (const [k, loc] of keyMap.map) if (rewritten.has(fileGroupKey(loc.partitionPath, loc.fileId))) keyMap.map.delete(k);
  for (const r of results) for (const k of r.keys) keyMap.map.set(k, { partitionPath: r.stat.partitionPath, fileId: r.stat.fileId, baseInstantTime: instantTime });
  keyMap.instant = instantTime;
}
