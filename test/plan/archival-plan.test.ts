// The archival planner on timelines built from file names: option defaults and validation, the counted
// actions, the stops (pending writes and table services, savepoints, the metadata table's latest compaction),
// and which timeline files go with an archived instant (a compaction's files with its commit). More cases: test/engine/archival.test.ts.
import { describe, expect, test } from 'vitest';
import { thrown } from '../helpers/expect-error.js';
import { metadataTableArchivalBound, planArchival, resolveArchivalOptions } from '../../src/plan/archival-plan.js';
import { Timeline } from '../../src/timeline/timeline.js';

const t = (n: number): string => `202401010000000${String(n).padStart(2, '0')}`;
const commit = (n: number, action = 'commit') => [`${t(n)}.${action}.requested`, `${t(n)}.${action === 'commit' ? '' : `${action}.`}inflight`, `${t(n)}.${action}`];
const commits = (ns: number[]) => ns.flatMap((n) => commit(n));
const KEEP = { keepMinCommits: 2, keepMaxCommits: 3 };
const archived = (names: string[], keep = KEEP) => planArchival(Timeline.fromFileNames(names), keep).instants.map((i) => `${i.requestedTime.slice(-2)}.${i.action}`);

describe('resolveArchivalOptions', () => {
  test("Hudi's defaults, 20 and 30", () => {
    expect(resolveArchivalOptions()).toEqual({ keepMinCommits: 20, keepMaxCommits: 30 });
    expect(resolveArchivalOptions({ keepMinCommits: 1 })).toEqual({ keepMinCommits: 1, keepMaxCommits: 30 });
  });

  test('whole numbers ≥ 1, and max above min, else INVALID_ARGUMENT naming the field', () => {
    expect(thrown(() => resolveArchivalOptions({ keepMinCommits: 0 })).context.field).toBe('keepMinCommits');
    expect(thrown(() => resolveArchivalOptions({ keepMaxCommits: 2.5 })).context.field).toBe('keepMaxCommits');
    expect(thrown(() => resolveArchivalOptions({ keepMinCommits: 4, keepMaxCommits: 3 })).code).toBe('INVALID_ARGUMENT');
  });
});

describe('planArchival', () => {
  test('nothing until the counted instants exceed keepMaxCommits, then down to keepMinCommits', () => {
    expect(archived(commits([1, 2, 3]))).toEqual([]);
    expect(archived(commits([1, 2, 3, 4, 5]))).toEqual(['01.commit', '02.commit', '03.commit']);
  });

  test('savepoints do not count; a timeline of only cleans to archive archives nothing', () => {
    expect(archived([...commits([1, 2, 3]), `${t(4)}.savepoint`])).toEqual([]);
    expect(archived([`${t(1)}.clean`, `${t(2)}.clean`, ...commits([3, 4]), `${t(5)}.clean`], { keepMinCommits: 3, keepMaxCommits: 4 })).toEqual([]);
  });

  test('a pending compaction stops archival before the last completed write preceding it', () => {
    expect(archived([...commits([1, 2, 3, 5, 6]), `${t(4)}.compaction.requested`])).toEqual(['01.commit', '02.commit']);
  });

  test('nothing at or after the oldest pending instant of any action', () => {
    expect(archived([...commits([1, 3, 4, 5, 6]), `${t(2)}.clean.requested`])).toEqual(['01.commit']);
  });

  test("a compaction's requested and inflight files go with its commit", () => {
    const names = [`${t(1)}.compaction.requested`, `${t(1)}.compaction.inflight`, `${t(1)}.commit`, ...commits([2, 3, 4])];
    const plan = planArchival(Timeline.fromFileNames(names), KEEP);
    expect(plan.instants.map((i) => i.requestedTime)).toEqual([t(1), t(2)]);
    expect(plan.files.map((f) => f.fileName)).toEqual([...names.slice(0, 3), ...commit(2)]);
  });
});

describe('the metadata table bound (no MDT compaction, no archival)', () => {
  // Layout-2 data commits k = 1…6, completing at t(k + 10).
  const data = Timeline.fromFileNames([1, 2, 3, 4, 5, 6].flatMap((k) => [`${t(k)}.commit.requested`, `${t(k)}.inflight`, `${t(k)}_${t(k + 10)}.commit`]));
  const mdt = (names: string[]) => Timeline.fromFileNames(names);

  test('an MDT without a completed commit or replacecommit blocks archival', () => {
    expect(metadataTableArchivalBound(data, mdt([`${t(1)}_${t(2)}.deltacommit`, `${t(3)}.compaction.requested`]))).toEqual({ blocked: true, stop: undefined });
    expect(planArchival(data, KEEP, undefined, mdt([`${t(1)}_${t(2)}.deltacommit`])).instants).toEqual([]);
  });

  test("the first data write completed after the latest MDT compaction's requested time stops archival", () => {
    // An MDT compaction requested at t(13) covers data commits 1–3 (completed at t(11)–t(13)).
    const m = mdt([`${t(13)}.compaction.requested`, `${t(13)}_${t(20)}.commit`]);
    expect(metadataTableArchivalBound(data, m)).toEqual({ blocked: false, stop: t(4) });
    expect(planArchival(data, KEEP, undefined, m).instants.map((i) => i.requestedTime)).toEqual([t(1), t(2), t(3)]);
    // Compacted after every data write completed: no bound; the limits decide (down to 2 of 6).
    const late = mdt([`${t(30)}_${t(31)}.commit`]);
    expect(metadataTableArchivalBound(data, late)).toEqual({ blocked: false, stop: undefined });
    expect(planArchival(data, KEEP, undefined, late).instants).toHaveLength(4);
  });
});
