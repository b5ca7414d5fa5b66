// The archival planner on timelines built from file names: option defaults and validation, the counted
// actions, the stops (pending writes and table services, savepoints), and which timeline files go with an
// archived instant (a compaction's files with its commit). More cases: test/engine/archival.test.ts.
import { describe, expect, test } from 'vitest';
import { thrown } from '../helpers/expect-error.js';
import { planArchival, resolveArchivalOptions } from '../../src/plan/archival-plan.js';
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
