// What a data clean appends to the MDT: files tombstones (partitions marked deleted) and one deleted column-stats
// record per deleted file and indexed column, placed by key hash; nothing for record_index or partition_stats;
// an unmaintained partition is refused.
import { describe, expect, test } from 'vitest';
import { cleanMetadataRecords, deletedColumnStats } from '../../src/metadata/metadata-clean-records.js';
import { columnStatsKey, metadataFileGroupIndex } from '../../src/metadata/keys.js';

const counts = { files: 1, column_stats: 2, record_index: 10, partition_stats: 1 };

describe('cleanMetadataRecords', () => {
  test('files tombstones and column-stats tombstones only', () => {
    const writes = cleanMetadataRecords({
      partitions: ['column_stats', 'files', 'partition_stats', 'record_index'], fileGroupCounts: counts,
      deletedFiles: [{ partitionPath: 'p=1', fileNames: ['a.parquet', '.g_1.log.1_0-0-0'] }], deletedPartitions: ['p=2'], columns: ['id', 'v'],
    });
    expect([...new Set(writes.map((w) => w.partition))].sort()).toEqual(['column_stats', 'files']);
    const files = writes.filter((w) => w.partition === 'files').flatMap((w) => w.upserts);
    expect(files.map((r) => r.key).sort()).toEqual(['__all_partitions__', 'p=1']);
    expect(files.find((r) => r.key === 'p=1')?.filesystemMetadata).toEqual({ 'a.parquet': { size: 0, isDeleted: true }, '.g_1.log.1_0-0-0': { size: 0, isDeleted: true } });
    expect(files.find((r) => r.key === '__all_partitions__')?.filesystemMetadata).toEqual({ 'p=1': { size: 0, isDeleted: false }, 'p=2': { size: 0, isDeleted: true } });
    const stats = writes.filter((w) => w.partition === 'column_stats');
    expect(stats.flatMap((w) => w.upserts)).toHaveLength(4);
    for (const w of stats) {
      for (const r of w.upserts) {
        expect(metadataFileGroupIndex(r.key, 2)).toBe(w.fileGroup);
        expect(r.columnStatsMetadata).toEqual(deletedColumnStats(r.columnStatsMetadata!.fileName!, r.columnStatsMetadata!.columnName!));
        expect(r.key).toBe(columnStatsKey(r.columnStatsMetadata!.columnName!, 'p=1', r.columnStatsMetadata!.fileName!));
      }
    }
    expect(deletedColumnStats('a.parquet', 'id')).toMatchObject({ isDeleted: true, minValue: null, maxValue: null });
  });
  test('an unmaintained partition → UNSUPPORTED naming it; column_stats without columns → INVALID_ARGUMENT', () => {
    expect(() => cleanMetadataRecords({ partitions: ['files', 'secondary_index_x'], fileGroupCounts: counts, deletedFiles: [] })).toThrow(expect.objectContaining({ code: 'UNSUPPORTED', context: expect.objectContaining({ value: 'secondary_index_x' }) }));
    expect(() => cleanMetadataRecords({ partitions: ['column_stats'], fileGroupCounts: counts, deletedFiles: [{ partitionPath: '', fileNames: ['a.parquet'] }] })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
