// The step-5 planner on hand-built slices: workload counts, small-file candidates (and the merge-on-read
// exclusions: logs, updates, pending compactions), new groups sized to the max file size, insert routing
// in input order, and the inflight profile.
import { describe, expect, test } from 'vitest';
import { thrown } from '../helpers/expect-error.js';
import { fileGroupKey, type FileSlice } from '../../src/file-group/file-slice.js';
import type { FileSizing } from '../../src/plan/bucket-assignment.js';
import { planWorkload, profileWorkload, routeInserts, smallFileCandidates, type WorkloadInput } from '../../src/plan/workload.js';

const T = '20240101000000000';

function slice(partitionPath: string, fileId: string, size: number | undefined, logs = 0): FileSlice {
  return {
    partitionPath,
    fileId,
    baseInstantTime: T,
    baseFile: size === undefined ? undefined : { path: `${partitionPath}/${fileId}_0-0-0_${T}.parquet`, name: `${fileId}_0-0-0_${T}.parquet`, fileId, partitionPath, instantTime: T, size },
    logFiles: Array.from({ length: logs }, (_, i) => ({ path: `${partitionPath}/.${fileId}_${T}.log.${i + 1}_0-0-0`, name: `.${fileId}_${T}.log.${i + 1}_0-0-0`, fileId, partitionPath, instantTime: T, version: i + 1, writeToken: '0-0-0', size: 10, completionTime: undefined })),
  };
}

interface Rec { partitionPath: string; key: string }
const recs = (p: string, n: number, from = 0): Rec[] => Array.from({ length: n }, (_, i) => ({ partitionPath: p, key: `${p}-${from + i}` }));
/** 100 bytes a record: a new file holds 10 records; a 900-byte file takes 1 more. */
const SIZING: FileSizing = { smallFileLimit: 950, maxFileSize: 1000, recordSizeEstimate: 100 };

function ids(): () => string {
  let n = 0;
  return () => `new-${n++}`;
}

function input(o: Partial<WorkloadInput<Rec>>): WorkloadInput<Rec> {
  return { operation: 'UPSERT', tableType: 'COPY_ON_WRITE', slices: [], updates: new Map(), inserts: [], pendingCompactions: new Set(), sizing: SIZING, newFileId: ids(), ...o };
}

const updatesOf = (entries: [string, string, number][]): Map<string, { size: number }> =>
  new Map(entries.map(([p, id, n]) => [fileGroupKey(p, id), { size: n }]));

describe('profileWorkload', () => {
  test('counts updates per group and inserts per partition', () => {
    const w = profileWorkload([slice('a', 'f1', 100), slice('b', 'f2', 100)], updatesOf([['a', 'f1', 3], ['b', 'f2', 1]]), [...recs('a', 2), ...recs('c', 4)]);
    expect([...w.keys()]).toEqual(['a', 'b', 'c']);
    expect(w.get('a')).toEqual({ inserts: 2, updates: new Map([['f1', 3]]) });
    expect(w.get('b')).toEqual({ inserts: 0, updates: new Map([['f2', 1]]) });
    expect(w.get('c')).toEqual({ inserts: 4, updates: new Map() });
  });

  test('an update tagged to a group without a live slice is an ABORTED error, not a crash', () => {
    expect(thrown(() => profileWorkload([], updatesOf([['a', 'gone', 1]]), [])).code).toBe('ABORTED');
  });
});

describe('smallFileCandidates', () => {
  const slices = [slice('a', 'plain', 100), slice('a', 'logs', 100, 1), slice('a', 'updated', 100), slice('a', 'compacting', 100), slice('a', 'logonly', undefined, 1)];
  const updates = new Set([fileGroupKey('a', 'updated')]);
  const pending = new Set([fileGroupKey('a', 'compacting')]);

  test('copy-on-write: every slice with a base file', () => {
    expect(smallFileCandidates(slices, 'COPY_ON_WRITE', updates, pending).get('a')?.map((c) => c.fileId)).toEqual(['plain', 'logs', 'updated', 'compacting']);
  });

  test('merge-on-read: not groups with logs, with updates in this write, or in a pending compaction', () => {
    const c = smallFileCandidates(slices, 'MERGE_ON_READ', updates, pending).get('a');
    expect(c).toEqual([{ partitionPath: 'a', fileId: 'plain', baseInstantTime: T, sizeBytes: 100 }]);
  });
});

describe('routeInserts', () => {
  test('in input order per partition, route by route', () => {
    const inserts = [...recs('a', 3), ...recs('b', 1), ...recs('a', 2, 3)];
    const routes = new Map([['a', [[2, 2], [0, 3]] as [number, number][]], ['b', [[1, 1]] as [number, number][]]]);
    expect(routeInserts(inserts, routes, 3).map((b) => b.map((r) => r.key))).toEqual([['a-2', 'a-3', 'a-4'], ['b-0'], ['a-0', 'a-1']]);
  });

  test('more inserts than the routes hold is ABORTED', () => {
    expect(thrown(() => routeInserts(recs('a', 2), new Map([['a', [[0, 1]] as [number, number][]]]), 1)).code).toBe('ABORTED');
    expect(thrown(() => routeInserts(recs('z', 1), new Map(), 0)).code).toBe('ABORTED');
  });
});

describe('planWorkload', () => {
  test('inserts fill the smallest small file first, then new groups of max-file-size / record-size records', () => {
    const slices = [slice('a', 'big', 990), slice('a', 'mid', 700), slice('a', 'small', 900)];
    const plan = planWorkload(input({ slices, inserts: recs('a', 15) }));
    // 'big' is over the limit; 'mid' takes 3 (700 + 3·100 = 1000), 'small' takes 1, then 10 + 1 in new groups.
    expect(plan.buckets.map((b) => [b.kind, b.fileId, b.inserts])).toEqual([['UPDATE', 'mid', 3], ['UPDATE', 'small', 1], ['INSERT', 'new-0', 10], ['INSERT', 'new-1', 1]]);
    expect(plan.insertsByBucket.map((b) => b.length)).toEqual([3, 1, 10, 1]);
    expect(plan.insertsByBucket.flat().map((r) => r.key)).toEqual(recs('a', 15).map((r) => r.key));
  });

  test('updates keep their group, and an updated group that is small also takes inserts (copy-on-write)', () => {
    const plan = planWorkload(input({ slices: [slice('a', 'f1', 800)], updates: updatesOf([['a', 'f1', 4]]), inserts: recs('a', 3) }));
    expect(plan.buckets).toEqual([{ kind: 'UPDATE', partitionPath: 'a', fileId: 'f1', inserts: 2, updates: 4 }, { kind: 'INSERT', partitionPath: 'a', fileId: 'new-0', inserts: 1, updates: 0 }]);
  });

  test('merge-on-read: an updated group takes no inserts', () => {
    const plan = planWorkload(input({ tableType: 'MERGE_ON_READ', slices: [slice('a', 'f1', 800)], updates: updatesOf([['a', 'f1', 4]]), inserts: recs('a', 3) }));
    expect(plan.buckets.map((b) => [b.kind, b.fileId, b.updates, b.inserts])).toEqual([['UPDATE', 'f1', 4, 0], ['INSERT', 'new-0', 0, 3]]);
  });

  test('merge-on-read: groups with logs or in a pending compaction take no inserts', () => {
    const slices = [slice('a', 'logs', 100, 2), slice('a', 'compacting', 100), slice('a', 'free', 100)];
    const plan = planWorkload(input({ tableType: 'MERGE_ON_READ', slices, pendingCompactions: new Set([fileGroupKey('a', 'compacting')]), inserts: recs('a', 2) }));
    expect(plan.buckets.map((b) => [b.kind, b.fileId, b.inserts])).toEqual([['UPDATE', 'free', 2]]);
  });

  test('only UPSERT and INSERT use small files', () => {
    for (const operation of ['BULK_INSERT', 'INSERT_OVERWRITE', 'DELETE']) {
      const plan = planWorkload(input({ operation, slices: [slice('a', 'f1', 100)], inserts: recs('a', 2) }));
      expect(plan.buckets.map((b) => b.kind)).toEqual(['INSERT']);
    }
    expect(planWorkload(input({ operation: 'INSERT', slices: [slice('a', 'f1', 100)], inserts: recs('a', 2) })).buckets.map((b) => b.kind)).toEqual(['UPDATE']);
  });

  test('the profile lists every partition with its inserts and its buckets, prevCommit for existing groups', () => {
    const plan = planWorkload(input({ operation: 'INSERT', slices: [slice('a', 'f1', 900), slice('b', 'f2', 100)], updates: updatesOf([['b', 'f2', 2]]), inserts: recs('a', 3) }));
    expect(plan.profile.operationType).toBe('INSERT');
    expect(plan.profile.partitions).toEqual(new Map([
      ['b', { numInserts: 0, fileGroups: [{ fileId: 'f2', prevCommit: T, numUpdateWrites: 2, numInserts: 0 }] }],
      ['a', { numInserts: 3, fileGroups: [{ fileId: 'f1', prevCommit: T, numUpdateWrites: 0, numInserts: 1 }, { fileId: 'new-0', prevCommit: undefined, numUpdateWrites: 0, numInserts: 2 }] }],
    ]));
    expect(plan.workload.get('a')?.inserts).toBe(3);
  });
});
