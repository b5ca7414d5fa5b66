// The compaction scheduler on hand-built slices and timelines: deltacommits since the last compaction, the
// trigger (count or log bytes, or forced), which slices a plan takes (committed logs only, not groups already
// pending) and the operation it writes for each.
import { describe, expect, test } from 'vitest';
import { fileGroupKey, type FileSlice } from '../../src/file-group/file-slice.js';
import { deltaCommitsSinceCompaction, planCompaction, type CompactionTrigger } from '../../src/plan/compaction-schedule.js';
import { Timeline } from '../../src/timeline/timeline.js';

const t = (n: number): string => `202401010000000${String(n).padStart(2, '0')}`;
const delta = (ns: number[]) => ns.map((n) => `${t(n)}.deltacommit`);
const timeline = (names: string[]) => Timeline.fromFileNames(names);

function slice(partitionPath: string, fileId: string, baseSize: number | undefined, logSizes: number[]): FileSlice {
  const b = t(0);
  return {
    partitionPath,
    fileId,
    baseInstantTime: b,
    baseFile: baseSize === undefined ? undefined : { path: `${partitionPath}/${fileId}_0-0-0_${b}.parquet`, name: `${fileId}_0-0-0_${b}.parquet`, fileId, partitionPath, instantTime: b, size: baseSize },
    logFiles: logSizes.map((size, i) => ({ path: `${partitionPath}/.${fileId}_${b}.log.${i + 1}_0-0-0`, name: `.${fileId}_${b}.log.${i + 1}_0-0-0`, fileId, partitionPath, instantTime: b, version: i + 1, writeToken: '0-0-0', size, completionTime: undefined })),
  };
}

const EVERY_2: CompactionTrigger = { deltaCommits: 2, logBytes: undefined };

describe('deltaCommitsSinceCompaction', () => {
  test('counts completed deltacommits after the last completed commit (a compaction on a MOR table)', () => {
    expect(deltaCommitsSinceCompaction(timeline(delta([1, 2, 3])))).toBe(3);
    expect(deltaCommitsSinceCompaction(timeline([...delta([1, 2]), `${t(3)}.commit`, ...delta([4])]))).toBe(1);
    expect(deltaCommitsSinceCompaction(timeline([...delta([1]), `${t(2)}.deltacommit.requested`]))).toBe(1);
  });
});

describe('planCompaction', () => {
  const slices = [slice('a', 'f1', 1000, [10, 20]), slice('a', 'f2', 500, []), slice('b', 'f3', undefined, [5])];

  test('not due below the deltacommit trigger; due at it', () => {
    expect(planCompaction(slices, timeline(delta([1])), new Set(), EVERY_2)).toBeUndefined();
    expect(planCompaction(slices, timeline(delta([1, 2])), new Set(), EVERY_2)?.map((o) => o.fileId)).toEqual(['f1', 'f3']);
  });

  test('the log-bytes trigger, and force', () => {
    expect(planCompaction(slices, timeline(delta([1])), new Set(), { deltaCommits: 9, logBytes: 35 })?.length).toBe(2);
    expect(planCompaction(slices, timeline(delta([1])), new Set(), { deltaCommits: 9, logBytes: 36 })).toBeUndefined();
    expect(planCompaction(slices, timeline([]), new Set(), { deltaCommits: 9, logBytes: undefined }, true)?.length).toBe(2);
  });

  test('groups already in a pending compaction and slices without logs are left out; none left → undefined', () => {
    expect(planCompaction(slices, timeline(delta([1, 2])), new Set([fileGroupKey('a', 'f1')]), EVERY_2)?.map((o) => o.fileId)).toEqual(['f3']);
    expect(planCompaction([slice('a', 'f2', 500, [])], timeline(delta([1, 2])), new Set(), EVERY_2, true)).toBeUndefined();
  });

  test('logs of pending writes are not input: a slice with only those is left out', () => {
    const pendingLog = (slices[2] as FileSlice).logFiles[0]?.path as string;
    const secondLog = (slices[0] as FileSlice).logFiles[1]?.path as string;
    const ops = planCompaction(slices, timeline(delta([1, 2])), new Set(), EVERY_2, false, new Set([pendingLog, secondLog]));
    expect(ops?.map((o) => [o.fileId, o.deltaFilePaths])).toEqual([['f1', ['.f1_20240101000000000.log.1_0-0-0']]]);
  });

  test('each operation names the slice, its files by name, and its metrics', () => {
    const [op, logOnly] = planCompaction(slices, timeline(delta([1, 2])), new Set(), EVERY_2) ?? [];
    expect(op).toEqual({
      baseInstantTime: t(0),
      deltaFilePaths: ['.f1_20240101000000000.log.1_0-0-0', '.f1_20240101000000000.log.2_0-0-0'],
      dataFilePath: 'f1_0-0-0_20240101000000000.parquet',
      fileId: 'f1',
      partitionPath: 'a',
      metrics: { TOTAL_LOG_FILES: 2, TOTAL_LOG_FILES_SIZE: 30, TOTAL_IO_READ_MB: 1 },
    });
    expect(logOnly?.dataFilePath).toBeUndefined();
  });
});
