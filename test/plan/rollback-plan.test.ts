// The rollback planner on paths alone: targets from markers (pending writes) and write stats (completed
// writes: only base files of the instant, every log file), the per-partition plan and its round trip through
// `<r>.rollback.requested`, and one command block per slice.
import { describe, expect, test } from 'vitest';
import type { CommitMetadata, WriteStat } from '../../src/timeline/commit-metadata.js';
import { parseRollbackPlan, serializeRollbackPlan } from '../../src/timeline/rollback-metadata.js';
import { commandBlockSlices, rollbackPlan, rollbackTargets, targetsOfPlan } from '../../src/plan/rollback-plan.js';

const T = '20240101000000005';
const PREV = '20240101000000001';
const base = (p: string, id: string, instant = T) => `${p === '' ? '' : `${p}/`}${id}_0-1-0_${instant}.parquet`;
const log = (p: string, id: string, v: number, baseInstant = PREV) => `${p === '' ? '' : `${p}/`}.${id}_${baseInstant}.log.${v}_0-1-0`;

function metadata(paths: (string | undefined)[]): Pick<CommitMetadata, 'partitionToWriteStats'> {
  const stat = (path: string | undefined) => ({ path, partitionPath: 'a' }) as WriteStat;
  return { partitionToWriteStats: { a: paths.map(stat) } };
}

describe('rollbackTargets', () => {
  test('a pending write: its marked files, base and log files apart, sorted', () => {
    const t = rollbackTargets({ requestedTime: T, state: 'INFLIGHT' }, [log('b', 'g', 2), base('b', 'f'), base('a', 'f')], undefined);
    expect(t).toEqual({ baseFiles: [base('a', 'f'), base('b', 'f')], logFiles: [log('b', 'g', 2)] });
  });

  test('a pending write ignores metadata (it has none that counts)', () => {
    expect(rollbackTargets({ requestedTime: T, state: 'REQUESTED' }, [], metadata([base('a', 'x')]))).toEqual({ baseFiles: [], logFiles: [] });
  });

  test("a completed write adds its stats' base files of its own instant and every log file, once", () => {
    const md = metadata([base('a', 'f'), base('a', 'old', PREV), log('a', 'g', 3), undefined, base('a', 'f')]);
    const t = rollbackTargets({ requestedTime: T, state: 'COMPLETED' }, [base('a', 'f')], md);
    expect(t).toEqual({ baseFiles: [base('a', 'f')], logFiles: [log('a', 'g', 3)] });
  });
});

describe('rollbackPlan', () => {
  const targets = { baseFiles: [base('', 'r'), base('a', 'f'), base('b', 'f')], logFiles: [log('a', 'g', 2)] };

  test('one request per partition (the table root included), in path order', () => {
    const plan = rollbackPlan({ requestedTime: T, action: 'deltacommit' }, targets);
    expect(plan.instantToRollback).toEqual({ commitTime: T, action: 'deltacommit' });
    expect(plan.rollbackRequests).toEqual([
      { partitionPath: '', filesToBeDeleted: [base('', 'r')], logBlocksToBeDeleted: {} },
      { partitionPath: 'a', filesToBeDeleted: [base('a', 'f')], logBlocksToBeDeleted: { [log('a', 'g', 2)]: 0 } },
      { partitionPath: 'b', filesToBeDeleted: [base('b', 'f')], logBlocksToBeDeleted: {} },
    ]);
  });

  test('targetsOfPlan gives back the targets from the written plan file', () => {
    const bytes = serializeRollbackPlan(rollbackPlan({ requestedTime: T, action: 'commit' }, targets));
    expect(targetsOfPlan(parseRollbackPlan(bytes, 'x.rollback.requested'))).toEqual(targets);
  });
});

describe('commandBlockSlices', () => {
  test('one per (partition, file id, base instant), first seen first; non-log paths ignored', () => {
    const slices = commandBlockSlices([log('a', 'g', 2), log('a', 'g', 3), log('a', 'g', 1, T), log('', 'h', 1), base('a', 'f')]);
    expect(slices).toEqual([
      { partitionPath: 'a', fileId: 'g', baseInstantTime: PREV },
      { partitionPath: 'a', fileId: 'g', baseInstantTime: T },
      { partitionPath: '', fileId: 'h', baseInstantTime: PREV },
    ]);
  });
});
