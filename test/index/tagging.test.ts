// Routing of tagged records: which operations tag, updates per file group, partition moves by decision (move,
// stay, insert), untagged records and deletes, and deletes by key in every group holding the key.
import { expect, test } from 'vitest';
import { fileGroupKey } from '../../src/file-group/file-slice.js';
import { lookupKey, type TagMap } from '../../src/index/index-type.js';
import { deletesAt, moveCandidates, requiresTagging, routeTagged, untagged, type PartitionMoveDecision, type TaggedRecords } from '../../src/index/tagging.js';
import type { HoodieRecord } from '../../src/merge/hoodie-record.js';

const rec = (recordKey: string, partitionPath: string, isDelete = false, ts = 1): HoodieRecord => ({ recordKey, partitionPath, data: { id: recordKey }, ordering: [ts], isDelete, index: 0 });
const loc = (partitionPath: string, fileId: string) => ({ partitionPath, fileId, baseInstantTime: '20240101000000000' });

/** `group: key(+d for a delete)` lines, and insert keys, for comparing. */
function shape(t: TaggedRecords): { updates: string[]; inserts: string[] } {
  const updates: string[] = [];
  for (const [g, byKey] of t.updates) for (const r of byKey.values()) updates.push(`${g.replace('\u0000', ':')} ${r.partitionPath}/${r.recordKey}${r.isDelete ? ' delete' : ''}`);
  return { updates, inserts: t.inserts.map((r) => `${r.partitionPath}/${r.recordKey}`) };
}

test('only upserts and deletes tag (Hudi requiresTagging)', () => {
  expect(['UPSERT', 'DELETE', 'INSERT', 'BULK_INSERT', 'INSERT_OVERWRITE', 'INSERT_OVERWRITE_TABLE', 'DELETE_PARTITION'].map(requiresTagging))
    .toEqual([true, true, false, false, false, false, false]);
});

test('untagged: every non-delete is an insert', () => {
  expect(shape(untagged([rec('a', 'p1'), rec('b', 'p1', true), rec('c', 'p2')]))).toEqual({ updates: [], inserts: ['p1/a', 'p2/c'] });
});

test('non-global: a key found in its partition updates its group; unknown keys insert; unknown deletes drop', async () => {
  const tags: TagMap = new Map([[lookupKey(false, 'p1', 'a'), loc('p1', 'f1')], [lookupKey(false, 'p1', 'b'), loc('p1', 'f1')], [lookupKey(false, 'p2', 'c'), loc('p2', 'f2')]]);
  const t = await routeTagged([rec('a', 'p1'), rec('b', 'p1', true), rec('c', 'p2'), rec('d', 'p2'), rec('e', 'p1', true), rec('a', 'p2')], tags, false);
  expect(shape(t)).toEqual({ updates: ['p1:f1 p1/a', 'p1:f1 p1/b delete', 'p2:f2 p2/c'], inserts: ['p2/d', 'p2/a'] });
});

test('global: moves by decision — move (delete + insert), stay (a losing update at the old group), insert', async () => {
  const tags: TagMap = new Map([['a', loc('p1', 'f1')], ['b', loc('p1', 'f1')], ['c', loc('p1', 'f1')], ['d', loc('p1', 'f1')], ['x', loc('p1', 'f1')]]);
  const records = [rec('a', 'p2'), rec('b', 'p2'), rec('c', 'p2'), rec('d', 'p1'), rec('x', 'p3', true), rec('n', 'p2')];
  const candidates = moveCandidates(records, tags);
  // d stays in its partition; x is a delete (deletes never move); n is not in the table.
  expect(candidates.map((c) => c.record.recordKey)).toEqual(['a', 'b', 'c']);
  const moves = new Map<HoodieRecord, PartitionMoveDecision>([[records[1] as HoodieRecord, 'stay'], [records[2] as HoodieRecord, 'insert']]);
  const t = await routeTagged(records, tags, true, moves);
  expect(shape(t)).toEqual({
    updates: ['p1:f1 p1/a delete', 'p1:f1 p1/b', 'p1:f1 p1/d', 'p1:f1 p1/x delete'],
    inserts: ['p2/a', 'p2/c', 'p2/n'],
  });
  // The delete half of a move carries no ordering (it must win any merge); the stay keeps the incoming record's.
  const group = t.updates.get(fileGroupKey('p1', 'f1'));
  expect(group?.get('a')?.ordering).toEqual([]);
  expect(group?.get('b')?.ordering).toEqual([1]);
});

test('routing awaits the pause per record', async () => {
  let pauses = 0;
  await routeTagged([rec('a', 'p'), rec('b', 'p'), rec('c', 'p')], new Map(), false, new Map(), () => {
    pauses++;
    return undefined;
  });
  expect(pauses).toBe(3);
});

test('deletes by key: a delete in every group holding the key, in the order found', () => {
  const t = deletesAt([
    { recordKey: 'k1', partitionPath: 'p1', fileId: 'f1' },
    { recordKey: 'k2', partitionPath: 'p2', fileId: 'f2' },
    { recordKey: 'k1', partitionPath: 'p2', fileId: 'f2' },
  ]);
  expect(shape(t)).toEqual({ updates: ['p1:f1 p1/k1 delete', 'p2:f2 p2/k2 delete', 'p2:f2 p2/k1 delete'], inserts: [] });
});
