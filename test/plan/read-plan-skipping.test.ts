// The read plan's data skipping (plan/read-plan.ts DataSkipping): a slice is dropped when the record index does
// not name its file group, or when its base file and every log it reads are ruled out by column stats (a
// read-optimized read looks at the base only); partitions ruled out by partition stats are not read.
import { describe, expect, it } from 'vitest';
import { sliceMayMatch, type DataSkipping } from '../../src/plan/read-plan.js';
import { fileGroupKey, type FileSlice } from '../../src/file-group/file-slice.js';

const slice = (base: string | undefined, logs: string[]): FileSlice => ({
  partitionPath: 'p=1',
  fileId: 'g1',
  baseInstantTime: '20240101000000000',
  baseFile: base === undefined ? undefined : { path: `p=1/${base}`, name: base, fileId: 'g1', partitionPath: 'p=1', instantTime: '20240101000000000', size: 1 },
  logFiles: logs.map((name) => ({ path: `p=1/${name}`, name }) as unknown as FileSlice['logFiles'][number]),
});

describe('sliceMayMatch', () => {
  it('keeps a slice unless the base and every log are ruled out', () => {
    const s = slice('b.parquet', ['.g1_1.log.1', '.g1_2.log.1']);
    const only = (names: string[]): DataSkipping => ({ excludedFiles: new Set(names) });
    expect(sliceMayMatch(s, only([]), false)).toBe(true);
    expect(sliceMayMatch(s, only(['b.parquet']), false)).toBe(true);
    expect(sliceMayMatch(s, only(['b.parquet', '.g1_1.log.1']), false)).toBe(true);
    expect(sliceMayMatch(s, only(['.g1_1.log.1', '.g1_2.log.1']), false)).toBe(true);
    expect(sliceMayMatch(s, only(['b.parquet', '.g1_1.log.1', '.g1_2.log.1']), false)).toBe(false);
    // Read-optimized: only the base file is read.
    expect(sliceMayMatch(s, only(['b.parquet']), true)).toBe(false);
    expect(sliceMayMatch(s, only(['.g1_1.log.1', '.g1_2.log.1']), true)).toBe(true);
    // A log-only slice: its logs decide.
    expect(sliceMayMatch(slice(undefined, ['.g1_1.log.1']), only(['.g1_1.log.1']), false)).toBe(false);
  });

  it('keeps only the file groups the record index names', () => {
    const s = slice('b.parquet', []);
    expect(sliceMayMatch(s, { fileGroups: new Set([fileGroupKey('p=1', 'g1')]) }, false)).toBe(true);
    expect(sliceMayMatch(s, { fileGroups: new Set([fileGroupKey('p=2', 'g1'), fileGroupKey('p=1', 'g2')]) }, false)).toBe(false);
    expect(sliceMayMatch(s, { fileGroups: new Set() }, false)).toBe(false);
    expect(sliceMayMatch(s, {}, false)).toBe(true);
  });
});
