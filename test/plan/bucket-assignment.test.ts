// The sizing half of step 5 on counts alone: update buckets per group, small files filled smallest first up
// to the max file size, new groups of maxFileSize / recordSize records, partitions in path order.
import { describe, expect, test } from 'vitest';
import { assignBuckets, type FileSizing, type PartitionWorkload, type SmallFileCandidate } from '../../src/plan/bucket-assignment.js';

const SIZING: FileSizing = { smallFileLimit: 500, maxFileSize: 1000, recordSizeEstimate: 100 };
const small = (partitionPath: string, fileId: string, sizeBytes: number): SmallFileCandidate => ({ partitionPath, fileId, baseInstantTime: 't', sizeBytes });
const work = (inserts: number, updates: [string, number][] = []): PartitionWorkload => ({ inserts, updates: new Map(updates) });
function ids(): () => string {
  let n = 0;
  return () => `n${n++}`;
}

describe('assignBuckets', () => {
  test('partitions in path order; updates first, then small files, then new groups', () => {
    const plan = assignBuckets(new Map([['b', work(1)], ['a', work(12, [['u', 2]])]]), new Map([['a', [small('a', 's', 400)]]]), SIZING, ids());
    expect(plan.buckets.map((b) => `${b.partitionPath}:${b.kind}:${b.fileId}:${b.updates}/${b.inserts}`)).toEqual(['a:UPDATE:u:2/0', 'a:UPDATE:s:0/6', 'a:INSERT:n0:0/6', 'b:INSERT:n1:0/1']);
    expect(plan.insertRoutes).toEqual(new Map([['a', [[1, 6], [2, 6]]], ['b', [[3, 1]]]]));
  });

  test('files at or over the small-file limit and full files take nothing; the smallest fills first', () => {
    const files = [small('a', 'at-limit', 500), small('a', 'x', 300), small('a', 'y', 200)];
    const plan = assignBuckets(new Map([['a', work(9)]]), new Map([['a', files]]), SIZING, ids());
    expect(plan.buckets.map((b) => [b.fileId, b.inserts])).toEqual([['y', 8], ['x', 1]]);
  });

  test('a small file that is also updated gets one bucket with both', () => {
    const plan = assignBuckets(new Map([['a', work(3, [['s', 5]])]]), new Map([['a', [small('a', 's', 100)]]]), SIZING, ids());
    expect(plan.buckets).toEqual([{ kind: 'UPDATE', partitionPath: 'a', fileId: 's', inserts: 3, updates: 5 }]);
    expect(plan.insertRoutes.get('a')).toEqual([[0, 3]]);
  });

  test('useSmallFiles = false: every insert goes to new groups; a record larger than a file still gets a file of its own', () => {
    expect(assignBuckets(new Map([['a', work(2)]]), new Map([['a', [small('a', 's', 100)]]]), SIZING, ids(), false).buckets.map((b) => b.kind)).toEqual(['INSERT']);
    const huge = assignBuckets(new Map([['a', work(3)]]), new Map(), { ...SIZING, recordSizeEstimate: 5000 }, ids());
    expect(huge.buckets.map((b) => b.inserts)).toEqual([1, 1, 1]);
  });
});
