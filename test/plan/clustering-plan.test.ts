// The clustering planner on hand-built slices: which file groups it selects (small base files, not excluded,
// chosen partitions), how it packs them (largest first, byte budget per group, maxGroups per partition and per
// plan, single-group rule), what each group says (output file groups, Hudi's metrics), the strategy params,
// option validation, and that the plan does not depend on the input order.
import { describe, expect, test } from 'vitest';
import { isLakeletError } from '../../src/errors.js';
import { fileGroupKey } from '../../src/file-group/file-slice.js';
import { clusteringGroupMetrics, planClustering, resolveClusteringOptions, type ClusteringOptions, type ClusteringPlan, type ClusteringSliceInput } from '../../src/plan/clustering-plan.js';

const MB = 1024 * 1024;

function slice(partitionPath: string, fileId: string, baseMb: number | undefined, logBytes: number[] = []): ClusteringSliceInput {
  const dir = partitionPath === '' ? '' : `${partitionPath}/`;
  const s: ClusteringSliceInput = { partitionPath, fileId, logFiles: logBytes.map((sizeBytes, i) => ({ path: `${dir}.${fileId}_001.log.${i + 1}_0-1-1`, sizeBytes })) };
  if (baseMb !== undefined) s.baseFile = { path: `${dir}${fileId}_0-1-1_001.parquet`, sizeBytes: Math.round(baseMb * MB) };
  return s;
}

const ids = (plan: ClusteringPlan | undefined): string[][] => (plan?.groups ?? []).map((g) => g.slices.map((s) => s.fileId));
const none = new Set<string>();

describe('selection', () => {
  test('takes base files below the small-file limit only (strictly below, as Hudi)', () => {
    const slices = [slice('p', 'a', 10), slice('p', 'b', 299.99), slice('p', 'c', 300), slice('p', 'd', 500)];
    expect(ids(planClustering(slices, none, {}))).toEqual([['b', 'a']]);
    expect(ids(planClustering(slices, none, { smallFileLimitBytes: 20 * MB }))).toEqual([['a']]);
    expect(ids(planClustering(slices, none, { smallFileLimitBytes: 301 * MB }))).toEqual([['c', 'b', 'a']]);
  });

  test('log-only slices are candidates, counted by their log bytes', () => {
    const plan = planClustering([slice('p', 'a', 1), slice('p', 'b', undefined, [3 * MB])], none, {});
    expect(ids(plan)).toEqual([['b', 'a']]);
  });

  test('skips file groups under pending compaction or clustering', () => {
    const slices = [slice('p', 'a', 1), slice('p', 'b', 2), slice('q', 'c', 1)];
    const plan = planClustering(slices, new Set([fileGroupKey('p', 'b'), fileGroupKey('q', 'c')]), {});
    expect(ids(plan)).toEqual([['a']]);
    // The same fileId in another partition is another file group.
    expect(ids(planClustering(slices, new Set([fileGroupKey('q', 'b')]), {}))).toEqual([['b', 'a'], ['c']]);
  });

  test('restricts to the chosen partitions', () => {
    const slices = [slice('x=1', 'a', 1), slice('x=2', 'b', 1), slice('x=2', 'c', 2), slice('x=3', 'd', 1)];
    expect(ids(planClustering(slices, none, { partitions: ['x=2'] }))).toEqual([['c', 'b']]);
    expect(ids(planClustering(slices, none, { partitions: ['x=3', 'x=1'] }))).toEqual([['a'], ['d']]);
    expect(planClustering(slices, none, { partitions: ['x=9'] })).toBeUndefined();
    expect(planClustering(slices, none, { partitions: [] })).toBeUndefined();
  });

  test('undefined when nothing qualifies', () => {
    expect(planClustering([], none, {})).toBeUndefined();
    expect(planClustering([slice('p', 'a', 400)], none, {})).toBeUndefined();
  });
});

describe('packing', () => {
  test('groups never exceed the byte budget (a single larger slice makes its own group); largest first', () => {
    const slices = [1, 2, 3, 4, 5, 6].map((mb) => slice('p', `f${mb}`, mb));
    const plan = planClustering(slices, none, { maxBytesPerGroup: 7 * MB })!;
    expect(ids(plan)).toEqual([['f6'], ['f5'], ['f4', 'f3'], ['f2', 'f1']]);
    for (const g of plan.groups) expect(g.slices.reduce((n, s) => n + s.baseFile!.sizeBytes, 0)).toBeLessThanOrEqual(7 * MB);
    const big = planClustering([slice('p', 'a', 9), slice('p', 'b', 1)], none, { maxBytesPerGroup: 5 * MB })!;
    expect(ids(big)).toEqual([['a'], ['b']]);
  });

  test('groups never span partitions; partitions come in path order', () => {
    const plan = planClustering([slice('b', 'x', 1), slice('a', 'y', 1), slice('b', 'z', 1), slice('a', 'w', 1)], none, {})!;
    expect(plan.groups.map((g) => [...new Set(g.slices.map((s) => s.partitionPath))])).toEqual([['a'], ['b']]);
  });

  test('numOutputFileGroups = ceil(group bytes / target file size)', () => {
    const plan = planClustering([slice('p', 'a', 100), slice('p', 'b', 100), slice('p', 'c', 50)], none, { targetFileSizeBytes: 100 * MB })!;
    expect(plan.groups.map((g) => g.numOutputFileGroups)).toEqual([3]);
    expect(planClustering([slice('p', 'a', 100), slice('p', 'b', 100)], none, { targetFileSizeBytes: 100 * MB })!.groups[0]!.numOutputFileGroups).toBe(2);
    expect(planClustering([slice('p', 'a', 1), slice('p', 'b', 1)], none, {})!.groups[0]!.numOutputFileGroups).toBe(1);
  });

  test('maxGroups caps each partition and the whole plan; the partitions left out are missingSchedulePartitions', () => {
    const slices = ['a', 'b', 'c'].flatMap((p) => [1, 2, 3, 4].map((mb) => slice(p, `${p}${mb}`, mb)));
    const perPartition = planClustering(slices, none, { maxBytesPerGroup: 4 * MB, maxGroups: 2 })!;
    // Per partition: [4], [3] then the cap (2) is reached; the plan keeps the first 2 of all.
    expect(ids(perPartition)).toEqual([['a4'], ['a3']]);
    expect(perPartition.missingSchedulePartitions).toEqual(['a', 'b', 'c']);
    const whole = planClustering(slices, none, { maxGroups: 2 })!;
    expect(ids(whole)).toEqual([['a4', 'a3', 'a2', 'a1'], ['b4', 'b3', 'b2', 'b1']]);
    expect(whole.missingSchedulePartitions).toEqual(['c']);
    expect(planClustering(slices, none, {})!.missingSchedulePartitions).toEqual([]);
  });

  test('a lone file group is rewritten by default (Hudi), not when single-group clustering is off — unless sorting', () => {
    const slices = [slice('p', 'a', 1), slice('q', 'b', 1), slice('q', 'c', 1)];
    expect(ids(planClustering(slices, none, {}))).toEqual([['a'], ['b', 'c']]);
    expect(ids(planClustering(slices, none, { singleGroupClustering: false }))).toEqual([['b', 'c']]);
    expect(ids(planClustering(slices, none, { singleGroupClustering: false, sortColumns: ['k'] }))).toEqual([['a'], ['b', 'c']]);
    expect(planClustering([slice('p', 'a', 1)], none, { singleGroupClustering: false })).toBeUndefined();
    // A lone slice cut off by the byte budget is still its own group (Hudi checks only the last group).
    expect(ids(planClustering([slice('p', 'a', 3), slice('p', 'b', 3)], none, { maxBytesPerGroup: 4 * MB, singleGroupClustering: false }))).toEqual([['a']]);
  });
});

describe('plan contents', () => {
  test('Hudi metrics: whole MiB read/write, log bytes and count, in Spark’s key order', () => {
    const m = clusteringGroupMetrics([slice('p', 'a', 2.5, [MB, 512 * 1024]), slice('p', 'b', undefined, [3 * MB])]);
    expect(Object.keys(m)).toEqual(['TOTAL_LOG_FILES', 'TOTAL_IO_MB', 'TOTAL_IO_READ_MB', 'TOTAL_LOG_FILES_SIZE', 'TOTAL_IO_WRITE_MB']);
    // read = base 2.5 MiB + logs 4.5 MiB = 7 MiB; write = base 2.5 MiB + the log-only slice's 3 MiB → 5 MiB.
    expect(m).toEqual({ TOTAL_LOG_FILES: 3, TOTAL_IO_READ_MB: 7, TOTAL_IO_WRITE_MB: 5, TOTAL_IO_MB: 12, TOTAL_LOG_FILES_SIZE: 4.5 * MB });
    expect(planClustering([slice('p', 'a', 0.1), slice('p', 'b', 0.1)], none, {})!.groups[0]!.metrics).toEqual({ TOTAL_LOG_FILES: 0, TOTAL_IO_MB: 0, TOTAL_IO_READ_MB: 0, TOTAL_LOG_FILES_SIZE: 0, TOTAL_IO_WRITE_MB: 0 });
  });

  test('strategy: Spark’s execution strategy; sort columns and a curve layout as params', () => {
    const s = [slice('p', 'a', 1), slice('p', 'b', 1)];
    const plain = planClustering(s, none, {})!;
    expect(plain.strategyClassName).toBe('org.apache.hudi.client.clustering.run.strategy.SparkSortAndSizeExecutionStrategy');
    expect(plain.strategyParams).toEqual({});
    expect(plain.preserveHoodieMetadata).toBe(true);
    expect(planClustering(s, none, { sortColumns: ['a', 'b'] })!.strategyParams).toEqual({ 'hoodie.clustering.plan.strategy.sort.columns': 'a,b' });
    expect(planClustering(s, none, { sortColumns: ['a'], layout: 'hilbert' })!.strategyParams).toEqual({ 'hoodie.clustering.plan.strategy.sort.columns': 'a', 'hoodie.layout.optimize.strategy': 'hilbert' });
  });

  test('the plan is a copy: changing it leaves the input slices alone', () => {
    const input = [slice('p', 'a', 1, [10]), slice('p', 'b', 1)];
    const plan = planClustering(input, none, {})!;
    plan.groups[0]!.slices[0]!.baseFile!.sizeBytes = 0;
    plan.groups[0]!.slices[0]!.logFiles.push({ path: 'x', sizeBytes: 1 });
    expect(input.map((s) => [s.baseFile!.sizeBytes, s.logFiles.length])).toEqual([[MB, 1], [MB, 0]]);
  });

  test('deterministic: the same plan whatever the input order (ties broken by fileId)', () => {
    const slices = ['x=1', 'x=2'].flatMap((p) => [3, 1, 2, 2, 1, 3, 5].map((mb, i) => slice(p, `f${i}`, mb)));
    const options: ClusteringOptions = { maxBytesPerGroup: 5 * MB, maxGroups: 5 };
    const expected = planClustering(slices, none, options);
    let seed = 7;
    for (let round = 0; round < 20; round++) {
      const shuffled = [...slices];
      for (let i = shuffled.length - 1; i > 0; i--) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        const j = seed % (i + 1);
        [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
      }
      expect(planClustering(shuffled, none, options)).toEqual(expected);
    }
    expect(ids(expected)[0]).toEqual(['f6']);
    expect(ids(expected)[1]).toEqual(['f0']);
    expect(ids(expected)[2]).toEqual(['f5', 'f2']);
  });
});

describe('options', () => {
  test('Hudi’s defaults', () => {
    expect(resolveClusteringOptions(undefined)).toEqual({ smallFileLimitBytes: 300 * MB, targetFileSizeBytes: 1024 * MB, maxBytesPerGroup: 2048 * MB, maxGroups: 30, layout: 'linear', singleGroupClustering: true });
    expect(resolveClusteringOptions({ sortColumns: [] }).sortColumns).toBeUndefined();
  });

  const bad: [string, ClusteringOptions, string][] = [
    ['a zero small-file limit', { smallFileLimitBytes: 0 }, 'smallFileLimitBytes'],
    ['a fractional target size', { targetFileSizeBytes: 1.5 }, 'targetFileSizeBytes'],
    ['a negative byte budget', { maxBytesPerGroup: -1 }, 'maxBytesPerGroup'],
    ['NaN groups', { maxGroups: Number.NaN }, 'maxGroups'],
    ['a string count', { maxGroups: '3' as unknown as number }, 'maxGroups'],
    ['an unknown layout', { layout: 'zorder' as 'z-order', sortColumns: ['a'] }, 'layout'],
    ['a curve without sort columns', { layout: 'z-order' }, 'layout'],
    ['a curve over 5 columns', { layout: 'hilbert', sortColumns: ['a', 'b', 'c', 'd', 'e'] }, 'sortColumns'],
    ['a repeated sort column', { sortColumns: ['a', 'a'] }, 'sortColumns'],
    ['an empty sort column', { sortColumns: [''] }, 'sortColumns'],
    ['a sort column with a comma', { sortColumns: ['a,b'] }, 'sortColumns'],
    ['partitions not an array', { partitions: 'x=1' as unknown as string[] }, 'partitions'],
    ['a non-boolean single-group flag', { singleGroupClustering: 'yes' as unknown as boolean }, 'singleGroupClustering'],
  ];
  test.each(bad)('%s is INVALID_ARGUMENT naming the option', (_what, options, field) => {
    let caught: unknown;
    try {
      planClustering([slice('p', 'a', 1)], none, options);
    } catch (err) {
      caught = err;
    }
    expect(isLakeletError(caught, 'INVALID_ARGUMENT')).toBe(true);
    expect((caught as { context: { field?: string } }).context.field).toBe(field);
    expect((caught as Error).message).toContain(field);
  });

  test('linear with up to any number of sort columns is fine', () => {
    expect(resolveClusteringOptions({ sortColumns: ['a', 'b', 'c', 'd', 'e'] }).sortColumns).toHaveLength(5);
  });
});
