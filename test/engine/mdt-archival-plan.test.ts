// The MDT timeline's archival planner (plan/metadata-archival-plan.ts) on synthetic timelines: the limits (the
// data table's + 1, raised by the MDT cleaner's retention), and each retention rule — the latest MDT compaction,
// the data table's first commit and first pending instant, a pending MDT instant — plus the cleans and rollbacks
// that go with the archived commits and the files of every state.
import { describe, expect, test } from 'vitest';
import { metadataArchivalLimits, planMetadataArchival } from '../../src/plan/metadata-archival-plan.js';
import { Timeline } from '../../src/timeline/timeline.js';

/** Instant time n (17 digits). */
const t = (n: number) => `20260101000000${String(n).padStart(3, '0')}`;
const delta = (n: number) => [`${t(n)}.deltacommit.requested`, `${t(n)}.deltacommit.inflight`, `${t(n)}_${t(n + 1)}.deltacommit`];
const compaction = (n: number) => [`${t(n)}.compaction.requested`, `${t(n)}.compaction.inflight`, `${t(n)}_${t(n + 1)}.commit`];
const clean = (n: number) => [`${t(n)}.clean.requested`, `${t(n)}.clean.inflight`, `${t(n)}_${t(n + 1)}.clean`];
const commit = (n: number) => [`${t(n)}.commit.requested`, `${t(n)}.inflight`, `${t(n)}_${t(n + 1)}.commit`];
const timeline = (...names: string[][]) => Timeline.fromFileNames(names.flat());
const times = (plan: { instants: { requestedTime: string; action: string }[] }) => plan.instants.map((i) => `${i.requestedTime.slice(14)}.${i.action}`);

/** MDT deltacommits at 10, 20, … (n of them), a compaction at `compactAt` (× 10 + 5). */
function mdt(n: number, compactAt: number[], extra: string[][] = []): Timeline {
  const files: string[][] = [];
  for (let k = 1; k <= n; k++) {
    files.push(delta(k * 10));
    if (compactAt.includes(k)) files.push(compaction(k * 10 + 5));
  }
  return timeline(...files, ...extra);
}

describe('metadataArchivalLimits', () => {
  test("the data table's limits + 1; the MDT cleaner's retention raises them once it has an earliest commit to retain", () => {
    expect(metadataArchivalLimits(mdt(5, []), { keepMinCommits: 3, keepMaxCommits: 5 })).toEqual({ keepMinCommits: 4, keepMaxCommits: 6 });
    expect(metadataArchivalLimits(mdt(5, []))).toEqual({ keepMinCommits: 21, keepMaxCommits: 31 });
    // 30 commits, 20 retained: the earliest to retain is the 11th, 19 commits follow it → min 21, max 21 + 2.
    expect(metadataArchivalLimits(mdt(30, []), { keepMinCommits: 3, keepMaxCommits: 5 })).toEqual({ keepMinCommits: 21, keepMaxCommits: 23 });
    expect(metadataArchivalLimits(mdt(30, []), { keepMinCommits: 3, keepMaxCommits: 5, cleanerCommitsRetained: 2 })).toEqual({ keepMinCommits: 4, keepMaxCommits: 6 });
    expect(() => metadataArchivalLimits(mdt(3, []), { keepMinCommits: 5, keepMaxCommits: 5 })).toThrow(/keepMaxCommits/);
    expect(() => planMetadataArchival(mdt(3, []), timeline(), { compactionMaxDeltaCommits: 0 })).toThrow(/compactionMaxDeltaCommits/);
  });
});

describe('planMetadataArchival', () => {
  const keep = { keepMinCommits: 3, keepMaxCommits: 5, cleanerCommitsRetained: 2 } as const;
  const data = timeline(commit(500)); // a data table whose first commit is after every MDT instant here

  test('nothing while the MDT holds no more than max commits', () => {
    expect(planMetadataArchival(mdt(5, [4]), data, keep).instants).toEqual([]); // 6 commits
  });

  test('down to min commits, never the latest MDT compaction or after it', () => {
    // 12 deltacommits + a compaction after the 8th: 13 commits > 6; the oldest go, leaving 4, but only before 85.
    const plan = planMetadataArchival(mdt(12, [8]), data, keep);
    expect(times(plan)).toEqual(['010.deltacommit', '020.deltacommit', '030.deltacommit', '040.deltacommit', '050.deltacommit', '060.deltacommit', '070.deltacommit', '080.deltacommit']);
    expect(plan.files).toHaveLength(24); // requested, inflight and completed of each
    const late = planMetadataArchival(mdt(12, [3]), data, keep);
    expect(times(late).at(-1)).toBe('030.deltacommit');
  });

  test('with no compaction yet, the last max-delta-commits deltacommits stay (CompactionUtils)', () => {
    expect(planMetadataArchival(mdt(9, []), data, keep).instants).toEqual([]);
    expect(times(planMetadataArchival(mdt(14, []), data, keep))).toEqual(['010.deltacommit', '020.deltacommit', '030.deltacommit', '040.deltacommit']);
  });

  test("never the deltacommit of the data table's first commit, or of its first pending instant, or later", () => {
    const dataTimeline = timeline(clean(15), commit(50), commit(70));
    expect(times(planMetadataArchival(mdt(12, [10]), dataTimeline, keep))).toEqual(['010.deltacommit', '020.deltacommit', '030.deltacommit', '040.deltacommit']);
    const pending = timeline([`${t(30)}.clean.requested`], commit(50));
    expect(times(planMetadataArchival(mdt(12, [10]), pending, keep))).toEqual(['010.deltacommit', '020.deltacommit']);
  });

  test('a pending MDT instant keeps the completed commit before it and everything after', () => {
    const pendingCompaction = mdt(12, [10], [[`${t(65)}.compaction.requested`]]);
    expect(times(planMetadataArchival(pendingCompaction, data, keep))).toEqual(['010.deltacommit', '020.deltacommit', '030.deltacommit', '040.deltacommit', '050.deltacommit']);
  });

  test('cleans and rollbacks before the last archived commit go with it, all their files too', () => {
    const withServices = mdt(12, [8], [clean(22), clean(95), [`${t(33)}.rollback.requested`, `${t(33)}.rollback.inflight`, `${t(33)}_${t(34)}.rollback`]]);
    const plan = planMetadataArchival(withServices, data, keep);
    expect(times(plan)).toContain('022.clean');
    expect(times(plan)).toContain('033.rollback');
    expect(times(plan)).not.toContain('095.clean');
    expect(plan.files.filter((f) => f.requestedTime === t(22)).map((f) => f.state)).toEqual(['REQUESTED', 'INFLIGHT', 'COMPLETED']);
    expect(plan.files.filter((f) => f.requestedTime === t(85)).map((f) => f.state)).toEqual([]);
  });
});
