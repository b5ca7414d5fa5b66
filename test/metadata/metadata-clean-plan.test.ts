// The MDT clean plan on hand-built MDT folders and timelines: KEEP_LATEST_COMMITS deletes the slices before the
// newest base at or before the earliest retained commit; too few commits, a group without such a base, and
// files of instants the timeline does not show completed are kept.
import { describe, expect, test } from 'vitest';
import { planMetadataClean } from '../../src/metadata/metadata-clean-plan.js';
import { Timeline } from '../../src/timeline/timeline.js';

const t = (n: number) => `2025010100000${String(n).padStart(4, '0')}`;
const INIT = '00000000000000000';
const timeline = Timeline.fromFileNames([
  `${INIT}_${t(1)}.deltacommit`, `${t(2)}_${t(3)}.deltacommit`, `${t(4)}_${t(5)}.commit`, `${t(6)}_${t(7)}.deltacommit`,
]);
const f = (name: string) => ({ path: `files/${name}`, size: 10 });
const files = new Map([
  ['files', [f(`.files-0000-0_${INIT}.log.1_0-0-0`), f(`files-0000-0_0-0-0_${INIT}.hfile`), f(`.files-0000-0_${t(2)}.log.1_0-0-0`), f(`files-0000-0_0-0-0_${t(4)}.hfile`), f(`.files-0000-0_${t(6)}.log.1_0-0-0`), f(`.files-0000-0_${t(8)}.log.1_0-0-0`)]],
]);

describe('planMetadataClean', () => {
  test('retaining 2 commits: the slices before the compaction at t4 go, its slice and later logs stay', () => {
    const plan = planMetadataClean(files, timeline, 2);
    expect(plan.earliestInstantToRetain?.requestedTime).toBe(t(4));
    expect(plan.lastCompletedCommit).toBe(t(6));
    expect(plan.filesToDelete).toEqual({ files: [`files/.files-0000-0_${INIT}.log.1_0-0-0`, `files/.files-0000-0_${t(2)}.log.1_0-0-0`, `files/files-0000-0_0-0-0_${INIT}.hfile`].sort() });
    expect(plan.fileCount).toBe(3);
  });
  test('retaining 3 commits the compaction is not yet at or before the earliest retained commit: nothing', () => {
    expect(planMetadataClean(files, timeline, 3)).toMatchObject({ fileCount: 0, filesToDelete: {} });
  });
  test('no more commits than retained: no earliest instant, nothing', () => {
    expect(planMetadataClean(files, timeline, 4)).toMatchObject({ earliestInstantToRetain: undefined, fileCount: 0 });
  });
  test('a group whose only base is pending keeps everything', () => {
    const pending = Timeline.fromFileNames([`${INIT}_${t(1)}.deltacommit`, `${t(2)}_${t(3)}.deltacommit`, `${t(4)}.compaction.requested`, `${t(6)}_${t(7)}.deltacommit`]);
    const only = new Map([['files', [f(`.files-0000-0_${INIT}.log.1_0-0-0`), f(`files-0000-0_0-0-0_${t(4)}.hfile`)]]]);
    expect(planMetadataClean(only, pending, 1).fileCount).toBe(0);
  });
});
