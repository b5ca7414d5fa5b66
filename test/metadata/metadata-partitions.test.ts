// MDT partition file-group ids and init instants, as the fixtures name them (files-0000-0, col-stats-0001-0,
// record-index-0009-0, secondary-index-rider-idx-0002-0; init instants 00000000000000000, …001).
import { describe, expect, it } from 'vitest';
import { isMetadataInitInstant, metadataFileGroupId, metadataPartitionInitInstant, parseMetadataFileGroupId, parseMetadataPartitions } from '../../src/metadata/metadata-partitions.js';

describe('metadata partitions', () => {
  it('names file groups like the fixtures', () => {
    expect(metadataFileGroupId('files', 0)).toBe('files-0000-0');
    expect(metadataFileGroupId('column_stats', 1)).toBe('col-stats-0001-0');
    expect(metadataFileGroupId('partition_stats', 0)).toBe('partition-stats-0000-0');
    expect(metadataFileGroupId('record_index', 9)).toBe('record-index-0009-0');
    expect(metadataFileGroupId('secondary_index_rider_idx', 2)).toBe('secondary-index-rider-idx-0002-0');
    expect(() => metadataFileGroupId('nope', 0)).toThrow(/not a metadata table partition/);
    expect(() => metadataFileGroupId('files', 10000)).toThrow(/out of range/);
  });

  it('parses file-group ids back to their index', () => {
    expect(parseMetadataFileGroupId('record_index', 'record-index-0007-0')).toBe(7);
    expect(parseMetadataFileGroupId('record_index', 'col-stats-0001-0')).toBeUndefined();
    expect(parseMetadataFileGroupId('files', 'files-x')).toBeUndefined();
  });

  it('numbers partition initialisation instants from 17 zeros', () => {
    expect(metadataPartitionInitInstant(0)).toBe('00000000000000000');
    expect(metadataPartitionInitInstant(3)).toBe('00000000000000003');
    expect(isMetadataInitInstant('00000000000000002')).toBe(true);
    expect(isMetadataInitInstant('20260403183837738')).toBe(false);
    expect(parseMetadataPartitions('column_stats,files, record_index,')).toEqual(['column_stats', 'files', 'record_index']);
    expect(parseMetadataPartitions(undefined)).toEqual([]);
  });
});
