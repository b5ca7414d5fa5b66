// The files partition: the records one instant writes, Hudi's merge of file maps (newer wins, tombstones delete,
// sizes take the max), and merged records → listing, including the non-partitioned "." key.
import { describe, expect, it } from 'vitest';
import { ALL_PARTITIONS_KEY, filesPartitionRecords, mergeFileInfos, metadataListing } from '../../src/metadata/files-partition.js';
import { MetadataRecordMerger } from '../../src/metadata/metadata-merge.js';

describe('files partition', () => {
  it('writes __all_partitions__ and one file list per touched partition', () => {
    const records = filesPartitionRecords([
      { partitionPath: 'city=a', added: { 'f1-0_0-1-1_001.parquet': 100, '.f2-0_001.log.1_0-1-1': 50 } },
      { partitionPath: '', deleted: ['old-0_0-1-1_000.parquet'] },
    ], ['city=gone']);
    expect(records.map((r) => [r.key, r.type])).toEqual([[ALL_PARTITIONS_KEY, 1], ['city=a', 2], ['.', 2]]);
    expect(records[0]?.filesystemMetadata).toEqual({ 'city=a': { size: 0, isDeleted: false }, '.': { size: 0, isDeleted: false }, 'city=gone': { size: 0, isDeleted: true } });
    expect(records[1]?.filesystemMetadata).toEqual({ 'f1-0_0-1-1_001.parquet': { size: 100, isDeleted: false }, '.f2-0_001.log.1_0-1-1': { size: 50, isDeleted: false } });
    expect(records[2]?.filesystemMetadata).toEqual({ 'old-0_0-1-1_000.parquet': { size: 0, isDeleted: true } });
  });

  it('merges newer over older: max size, tombstone deletes a listed file, unlisted tombstone kept', () => {
    const merged = mergeFileInfos(
      { a: { size: 10, isDeleted: false }, b: { size: 5, isDeleted: false }, c: { size: 1, isDeleted: false } },
      { a: { size: 7, isDeleted: false }, b: { size: 0, isDeleted: true }, d: { size: 0, isDeleted: true }, e: { size: 3, isDeleted: false } },
    );
    expect(merged).toEqual({ a: { size: 10, isDeleted: false }, c: { size: 1, isDeleted: false }, d: { size: 0, isDeleted: true }, e: { size: 3, isDeleted: false } });
    // The kept tombstone deletes the file when the merged logs meet an older base that lists it.
    expect(mergeFileInfos({ d: { size: 9, isDeleted: false } }, merged).d).toBeUndefined();
  });

  it('lists the live files of the live partitions after merging a slice', () => {
    const m = new MetadataRecordMerger();
    m.upsert(filesPartitionRecords([{ partitionPath: 'p1', added: { x: 1, y: 2 } }, { partitionPath: '', added: { z: 3 } }]));
    m.upsert(filesPartitionRecords([{ partitionPath: 'p1', added: { x: 4 }, deleted: ['y'] }, { partitionPath: 'p2', added: { w: 5 } }]));
    m.upsert(filesPartitionRecords([], ['p2']));
    const listing = metadataListing(m.result());
    expect([...listing.keys()].sort()).toEqual(['', 'p1']);
    expect(Object.fromEntries(listing.get('p1') ?? [])).toEqual({ x: 4 });
    expect(Object.fromEntries(listing.get('') ?? [])).toEqual({ z: 3 });
  });

  it('refuses records of other types in the files partition', () => {
    const m = new MetadataRecordMerger();
    m.upsert([{ key: 'k', type: 5, filesystemMetadata: null, bloomFilterMetadata: null, columnStatsMetadata: null, recordIndexMetadata: null, secondaryIndexMetadata: null }]);
    expect(() => metadataListing(m.result(), 'files/x.hfile')).toThrow(expect.objectContaining({ code: 'CORRUPT_FILE' }));
  });
});
