// replicate reads Spark-written tables (the hudi-rs fixtures, read-only zips) as sources: the copy in memory
// lists the same timeline, reads the same rows through our reader and validates clean, and a second run is a
// no-op. Covers table versions 6, 8 and 9, metadata tables written by Hudi, and the replaced file groups of an
// insert overwrite, MOR tables with rollbacks.
import { describe, expect, test } from 'vitest';
import { memoryStorage, validateTable } from '../../src/index.js';
import { replicate } from '../../src/replication/replicate.js';
import { fixtureStorage } from '../helpers/fixtures.js';
import { completedFiles, replicatedTree, storeRows, treeDifferences } from './replicate-helpers.js';

const FIXTURES = [
  'sample_table/cow/v6_complexkeygen_hivestyle.zip',
  'sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip',
  'sample_table/cow/v8_nonpartitioned.zip',
  'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip',
  'sample_table/mor/parquet/v6_nonpartitioned_rollback.zip',
  'sample_table/mor/avro/v9_nonpartitioned_rollback.zip',
];

describe.each(FIXTURES)('replicate the fixture %s', (zip) => {
  test('same timeline, rows and files; validates clean; a second run does nothing', async () => {
    const source = await fixtureStorage(zip);
    const target = memoryStorage();
    await replicate(source, target);
    expect(await completedFiles(target)).toEqual(await completedFiles(source));
    expect(await storeRows(target)).toEqual(await storeRows(source));
    expect(treeDifferences(await replicatedTree(source), await replicatedTree(target))).toEqual([]);
    const before = await validateTable(source);
    expect((await validateTable(target)).problems).toEqual(before.problems);
    const again = await replicate(source, target);
    expect([again.published.length, again.filesCopied, again.filesDeleted]).toEqual([0, 0, 0]);
  });
});
