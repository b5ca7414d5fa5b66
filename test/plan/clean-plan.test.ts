// The pure clean planner on hand-built views: earliest commit to retain per policy (and its cap at the
// oldest pending write), which slices go, and what protects them (latest slices, savepoints, pending
// compactions), replaced groups and emptied partitions.
import { describe, expect, test } from 'vitest';
import { isLakeletError } from '../../src/errors.js';
import { FileSystemView, type ReplaceRecord } from '../../src/file-group/file-system-view.js';
import { earliestCommitToRetain, planClean, type CleanPlanOptions } from '../../src/plan/clean-plan.js';
import type { FileInfo } from '../../src/storage/storage.js';
import { Timeline } from '../../src/timeline/timeline.js';

const t = (n: number): string => `202401010000000${String(n).padStart(2, '0')}`;
const base = (p: string, id: string, n: number): FileInfo => ({ path: `${p}/${id}-0_0-0-0_${t(n)}.parquet`, kind: 'file', size: 100 } as FileInfo);
const now = new Date(Date.UTC(2024, 0, 1));

function table(commits: number[], files: FileInfo[], extra: string[] = []) {
  const names = [...commits.map((n) => `${t(n)}.commit`), ...extra];
  const timeline = Timeline.fromFileNames(names);
  const view = new FileSystemView({ files, timeline, timelineLayoutVersion: 1, replaced: [] });
  return { timeline, view };
}

const commits = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const opts = (o: Partial<CleanPlanOptions>): CleanPlanOptions => ({ policy: 'KEEP_LATEST_COMMITS', now, ...o });

describe('earliest commit to retain', () => {
  test('KEEP_LATEST_COMMITS: the N-th latest commit, once there are more than N', () => {
    expect(earliestCommitToRetain(table(commits(5), []).timeline, opts({ retainCommits: 5 }))).toBeUndefined();
    expect(earliestCommitToRetain(table(commits(6), []).timeline, opts({ retainCommits: 5 }))?.timestamp).toBe(t(2));
  });

  test('never later than the last completed commit before the oldest pending write or compaction', () => {
    const { timeline } = table([1, 2, 3, 5, 6, 7], [], [`${t(4)}.compaction.requested`]);
    expect(earliestCommitToRetain(timeline, opts({ retainCommits: 2 }))?.timestamp).toBe(t(3));
    const { timeline: t2 } = table([2, 3, 5, 6], [], [`${t(1)}.commit.requested`, `${t(1)}.inflight`]);
    expect(earliestCommitToRetain(t2, opts({ retainCommits: 1 }))).toBeUndefined();
  });

  test('KEEP_LATEST_BY_HOURS: the first commit at or after now − hours', () => {
    const { timeline } = table(commits(9), []);
    // t(5) = 2024-01-01 00:00:00.005; now − 1 h = that instant.
    const clock = new Date(Date.UTC(2024, 0, 1, 1, 0, 0, 5));
    expect(earliestCommitToRetain(timeline, { policy: 'KEEP_LATEST_BY_HOURS', retainHours: 1, now: clock })?.timestamp).toBe(t(5));
    expect(earliestCommitToRetain(timeline, { policy: 'KEEP_LATEST_BY_HOURS', retainHours: 1, now: new Date(Date.UTC(2024, 0, 2)) })).toBeUndefined();
  });
});

describe('planClean', () => {
  const files = [base('p', 'a', 1), base('p', 'a', 3), base('p', 'a', 5), base('p', 'a', 7), base('p', 'b', 2), base('p', 'b', 6)];

  test('KEEP_LATEST_COMMITS keeps slices ≥ the earliest commit to retain, the latest before it and the latest', () => {
    const { timeline, view } = table(commits(7), files);
    const plan = planClean(view, timeline, opts({ retainCommits: 2 }));
    expect(plan.earliestInstantToRetain?.timestamp).toBe(t(6));
    // a: 7 (latest), 5 (latest before 6) stay; 1, 3 go. b: 6 stays, 2 (latest before 6) stays.
    expect(plan.filesToDelete).toEqual({ p: [files[0]!.path, files[1]!.path] });
    expect(plan.fileCount).toBe(2);
    expect(plan.partitionsToDelete).toEqual([]);
    expect(plan.lastCompletedCommitTimestamp).toBe(t(7));
  });

  test('savepointed files (by name or path) and slices of pending compactions stay', () => {
    const { timeline, view } = table(commits(7), files);
    const saved = planClean(view, timeline, opts({ retainCommits: 2 }), new Set([files[0]!.path.slice(2)]));
    expect(saved.filesToDelete).toEqual({ p: [files[1]!.path] });
    const compacting = planClean(view, timeline, opts({ retainCommits: 2 }), new Set(), [], [{ partitionPath: 'p', fileId: 'a-0', baseInstantTime: t(3) }]);
    expect(compacting.filesToDelete).toEqual({ p: [files[0]!.path] });
  });

  test('nothing to delete → an empty plan', () => {
    const { timeline, view } = table(commits(7), [base('p', 'a', 7)]);
    const plan = planClean(view, timeline, opts({ retainCommits: 2 }));
    expect(plan.fileCount).toBe(0);
    expect(plan.filesToDelete).toEqual({});
  });

  test('KEEP_LATEST_FILE_VERSIONS keeps N slices per group (one less with a pending compaction)', () => {
    const { timeline, view } = table(commits(7), files);
    const plan = planClean(view, timeline, { policy: 'KEEP_LATEST_FILE_VERSIONS', retainFileVersions: 2, now });
    expect(plan.filesToDelete).toEqual({ p: [files[0]!.path, files[1]!.path] });
    // Deleting a@3 breaks snapshots before a@5: intact from 5 on.
    expect(plan.earliestInstantToRetain?.timestamp).toBe(t(5));
    const one = planClean(view, timeline, { policy: 'KEEP_LATEST_FILE_VERSIONS', retainFileVersions: 1, now });
    expect(one.filesToDelete.p).toEqual([files[0]!.path, files[1]!.path, files[2]!.path, files[4]!.path].sort());
    expect(one.earliestInstantToRetain?.timestamp).toBe(t(7));
    const compacting = planClean(view, timeline, { policy: 'KEEP_LATEST_FILE_VERSIONS', retainFileVersions: 2, now }, new Set(), [], [{ partitionPath: 'p', fileId: 'a-0', baseInstantTime: t(7) }]);
    // a@7 is protected by the compaction and counts as one of the 2 versions: only a@5 stays besides it.
    expect(compacting.filesToDelete.p).toEqual([files[0]!.path, files[1]!.path]);
  });

  test('replaced groups: deleted entirely after the retention window, and their partition when nothing is left', () => {
    const groupFiles = [base('p', 'a', 1), base('p', 'a', 2), base('q', 'c', 1), base('q', 'd', 4)];
    const timeline = Timeline.fromFileNames([`${t(1)}.commit`, `${t(2)}.commit`, `${t(3)}.replacecommit`, `${t(4)}.commit`, `${t(5)}.commit`, `${t(6)}.commit`]);
    const replaced: ReplaceRecord[] = [{ instantTime: t(3), partitionToReplaceFileIds: { p: ['a-0'] } }];
    const view = new FileSystemView({ files: groupFiles, timeline, timelineLayoutVersion: 1, replaced });
    // ECTR = 3: the group is not replaced before it, so only its old slice goes (a@2 serves as-of-2 queries).
    const early = planClean(view, timeline, opts({ retainCommits: 4 }), new Set(), replaced);
    expect(early.filesToDelete).toEqual({ p: [groupFiles[0]!.path] });
    expect(early.partitionsToDelete).toEqual([]);
    const late = planClean(view, timeline, opts({ retainCommits: 2 }), new Set(), replaced); // ECTR = 5
    expect(late.filesToDelete).toEqual({ p: [groupFiles[0]!.path, groupFiles[1]!.path] });
    expect(late.partitionsToDelete).toEqual(['p']);
  });

  test('bad options are INVALID_ARGUMENT', () => {
    const { timeline, view } = table(commits(3), files);
    const code = (f: () => unknown) => {
      try {
        f();
        return 'ok';
      } catch (err) {
        return isLakeletError(err) ? err.code : 'other';
      }
    };
    expect(code(() => planClean(view, timeline, opts({ retainCommits: 0 })))).toBe('INVALID_ARGUMENT');
    expect(code(() => planClean(view, timeline, { policy: 'KEEP_LATEST_FILE_VERSIONS', retainFileVersions: 1.5, now }))).toBe('INVALID_ARGUMENT');
    expect(code(() => planClean(view, timeline, { policy: 'NOPE' as 'KEEP_LATEST_COMMITS', now }))).toBe('INVALID_ARGUMENT');
  });
});
