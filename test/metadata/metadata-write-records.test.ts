// metadataWriteRecords on hand-made inputs: files records from write stats (max size for a file named twice,
// "." for non-partitioned), record-index upserts hashed to their group and deletes in DELETE records (a key
// deleted and placed again stays an upsert), sorted keys, and refusals for partitions lakelet does not maintain
// or inputs that are missing.
import { describe, expect, it } from 'vitest';
import { metadataFileGroupIndex } from '../../src/metadata/keys.js';
import { filesChanges, metadataWriteRecords } from '../../src/metadata/metadata-write-records.js';
import type { WriteStat } from '../../src/timeline/commit-metadata.js';

const stat = (partitionPath: string, path: string, fileSizeInBytes: number): WriteStat => ({
  fileId: 'f', path, partitionPath, prevCommit: undefined, numWrites: 1, numDeletes: 0, numUpdateWrites: 0, numInserts: 1, totalWriteBytes: fileSizeInBytes,
  fileSizeInBytes, logFiles: [], baseFile: undefined, raw: {},
});

describe('metadataWriteRecords', () => {
  it('builds the files records of the write stats', () => {
    expect(filesChanges([stat('p', 'p/a.parquet', 5), stat('p', 'p/a.parquet', 9), stat('', 'b.parquet', 3)], [{ partitionPath: 'p', fileNames: ['old.parquet'] }])).toEqual([
      { partitionPath: 'p', added: { 'a.parquet': 9 }, deleted: ['old.parquet'] },
      { partitionPath: '', added: { 'b.parquet': 3 }, deleted: [] },
    ]);
    const [w] = metadataWriteRecords({ partitions: ['files'], fileGroupCounts: {}, writeStats: [stat('', 'b.parquet', 3)] });
    expect(w?.fileId).toBe('files-0000-0');
    expect(w?.upserts.map((r) => r.key)).toEqual(['.', '__all_partitions__']);
    expect(w?.upserts[0]?.filesystemMetadata).toEqual({ 'b.parquet': { size: 3, isDeleted: false } });
    const [dropped] = metadataWriteRecords({ partitions: ['files'], fileGroupCounts: { files: 1 }, deletedPartitions: ['city=x'] });
    expect(dropped?.upserts.map((r) => [r.key, r.filesystemMetadata])).toEqual([['__all_partitions__', { 'city=x': { size: 0, isDeleted: true } }]]);
  });

  it('routes record-index upserts and deletes to their hashed file groups', () => {
    const writes = metadataWriteRecords({
      partitions: ['record_index'], fileGroupCounts: { record_index: 10 }, instantMillis: 7,
      recordIndex: { upserts: [{ key: 'TXN-001', partitionPath: 'p', fileId: '5aa8d873-d341-4a43-aef0-51c33fec06f1-0' }, { key: 'TXN-009', partitionPath: 'p', fileId: '5aa8d873-d341-4a43-aef0-51c33fec06f1-0' }], deletes: ['TXN-002', 'TXN-009'] },
    });
    // TXN-001 → group 8, TXN-002 → 7, TXN-009 → 0 (the fixture's placement).
    expect(writes.map((w) => [w.fileId, w.upserts.map((r) => r.key), w.deletes.map((d) => d.recordKey)])).toEqual([
      ['record-index-0000-0', ['TXN-009'], []],
      ['record-index-0007-0', [], ['TXN-002']],
      ['record-index-0008-0', ['TXN-001'], []],
    ]);
    expect(metadataFileGroupIndex('TXN-002', 10)).toBe(7);
    expect(writes[2]?.upserts[0]?.recordIndexMetadata?.instantTime).toBe(7);
  });

  it('refuses partitions it does not maintain and listed partitions without input', () => {
    expect(() => metadataWriteRecords({ partitions: ['secondary_index_rider_idx'], fileGroupCounts: {} })).toThrow(expect.objectContaining({ code: 'UNSUPPORTED' }));
    expect(() => metadataWriteRecords({ partitions: ['bloom_filters'], fileGroupCounts: {} })).toThrow(expect.objectContaining({ code: 'UNSUPPORTED' }));
    expect(() => metadataWriteRecords({ partitions: ['record_index'], fileGroupCounts: { record_index: 10 } })).toThrow(/gave no recordIndex/);
    expect(() => metadataWriteRecords({ partitions: ['column_stats'], fileGroupCounts: { column_stats: 2 } })).toThrow(/gave no columnStats/);
    expect(() => metadataWriteRecords({ partitions: ['record_index'], fileGroupCounts: {}, recordIndex: { upserts: [], deletes: ['k'] } })).toThrow(/no file-group count/);
  });
});
