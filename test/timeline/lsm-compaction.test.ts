// The history's maintenance planners: layer compaction (Hudi's LSMTimelineWriter: a layer with batch-size
// files compacts its oldest consecutive files, at least 2, at most the batch, within the byte limit, into one
// file of the next layer named by their overall range) and the clean (newest 3 + compactions manifests kept,
// with the data files they list).
import { describe, expect, test } from 'vitest';
import { applyLsmCompaction, LSM_COMPACTION_BATCH_SIZE, lsmVersionsToKeep, planLsmClean, planLsmCompaction } from '../../src/timeline/lsm-compaction.js';
import { lsmFileName, type LsmManifest } from '../../src/timeline/lsm-files.js';

const t = (n: number) => `2024010100000${String(n).padStart(4, '0')}`;
/** Layer-0 files of 10 instants each: file k covers t(10k+1)..t(10k+10). */
const l0 = (k: number) => lsmFileName(t(10 * k + 1), t(10 * k + 10), 0);
const manifest = (names: string[], len = 100): LsmManifest => ({ files: names.map((fileName) => ({ fileName, fileLen: len })) });

describe('planLsmCompaction', () => {
  test("Hudi's default: nothing below 10 layer-0 files; at 10 they become one layer-1 file", () => {
    expect(LSM_COMPACTION_BATCH_SIZE).toBe(10);
    const nine = [...Array(9).keys()].map(l0);
    expect(planLsmCompaction(manifest(nine), 0)).toBeUndefined();
    const ten = [...Array(10).keys()].map(l0).reverse(); // listed in any order
    expect(planLsmCompaction(manifest(ten), 0)).toEqual({ layer: 0, sources: [...Array(10).keys()].map(l0), target: lsmFileName(t(1), t(100), 1) });
  });

  test('only the oldest batch goes; files of other layers are not counted', () => {
    const names = [...[...Array(12).keys()].map(l0), lsmFileName(t(0), t(0), 1)];
    const plan = planLsmCompaction(manifest(names), 0, { batchSize: 10 });
    expect(plan?.sources).toEqual([...Array(10).keys()].map(l0));
    expect(planLsmCompaction(manifest(names), 1, { batchSize: 2 })).toBeUndefined();
  });

  test('the byte limit: a group stops once past it (with ≥ 2 files); a lone file past it is skipped', () => {
    const names = [...Array(4).keys()].map(l0);
    const sized = (lens: number[]): LsmManifest => ({ files: names.map((fileName, i) => ({ fileName, fileLen: lens[i]! })) });
    expect(planLsmCompaction(sized([60, 60, 60, 60]), 0, { batchSize: 4, maxBytes: 100 })?.sources).toEqual([l0(0), l0(1)]);
    expect(planLsmCompaction(sized([500, 60, 60, 10]), 0, { batchSize: 4, maxBytes: 100 })?.sources).toEqual([l0(1), l0(2)]);
    expect(planLsmCompaction(sized([500, 60, 500, 10]), 0, { batchSize: 4, maxBytes: 100 })?.sources).toEqual([l0(1), l0(2)]);
    expect(planLsmCompaction(sized([500, 500, 500, 500]), 0, { batchSize: 4, maxBytes: 100 })).toBeUndefined();
  });

  test('the compacted manifest: sources out, the target in last with its length', () => {
    const m = manifest([l0(0), l0(1), l0(2)]);
    const plan = planLsmCompaction(m, 0, { batchSize: 2 })!;
    expect(applyLsmCompaction(m, plan, 7)).toEqual({ files: [{ fileName: l0(2), fileLen: 100 }, { fileName: lsmFileName(t(1), t(20), 1), fileLen: 7 }] });
  });
});

describe('the history clean', () => {
  const names = ['manifest_1', 'manifest_2', 'manifest_3', 'manifest_4', 'manifest_5', '_version_', l0(0), l0(1), l0(2), lsmFileName(t(1), t(20), 1)];

  test('keeps the newest 3 + compactions manifest versions; nothing to do with no more than that', () => {
    expect(lsmVersionsToKeep(names, 0)).toEqual([5, 4, 3]);
    expect(lsmVersionsToKeep(names, 1)).toEqual([5, 4, 3, 2]);
    expect(lsmVersionsToKeep(names, 2)).toBeUndefined();
    expect(lsmVersionsToKeep(['manifest_1', 'manifest_2', 'manifest_3'], 0)).toBeUndefined();
  });

  test('deletes the other manifests and every data file no kept manifest lists', () => {
    const kept = new Map([[5, manifest([lsmFileName(t(1), t(20), 1)])], [4, manifest([l0(0), l0(1), l0(2)])], [3, manifest([l0(0), l0(1)])]]);
    expect(planLsmClean(names, kept)).toEqual({ manifests: ['manifest_1', 'manifest_2'], dataFiles: [] });
    const newest = new Map([[5, manifest([lsmFileName(t(1), t(20), 1), l0(2)])], [4, manifest([lsmFileName(t(1), t(20), 1)])], [3, manifest([lsmFileName(t(1), t(20), 1)])]]);
    expect(planLsmClean(names, newest)).toEqual({ manifests: ['manifest_1', 'manifest_2'], dataFiles: [l0(0), l0(1)] });
  });
});
