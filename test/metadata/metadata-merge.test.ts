// Merging versions of one metadata key: stats widen and sum unless a tombstone or a newer tight bound replaces
// them; record-index and other types take the newer; deletes remove; results sorted by key.
import { describe, expect, it } from 'vitest';
import type { ColumnStatsMetadata } from '../../src/metadata/column-stats-codec.js';
import { compareWrappedValues, mergeColumnStats, MetadataRecordMerger } from '../../src/metadata/metadata-merge.js';
import { recordIndexRecord } from '../../src/metadata/record-index.js';

const s = (min: number, max: number, extra: Partial<ColumnStatsMetadata> = {}): ColumnStatsMetadata => ({
  fileName: 'f', columnName: 'c', minValue: { wrapper: 'LongWrapper', value: BigInt(min) }, maxValue: { wrapper: 'LongWrapper', value: BigInt(max) },
  valueCount: 3, nullCount: 1, totalSize: 10, totalUncompressedSize: 20, isDeleted: false, isTightBound: false, valueType: null, ...extra,
});

describe('metadata record merge', () => {
  it('widens ranges and sums counts of two live stats', () => {
    const m = mergeColumnStats(s(5, 9), s(1, 7));
    expect(m.minValue).toEqual({ wrapper: 'LongWrapper', value: 1n });
    expect(m.maxValue).toEqual({ wrapper: 'LongWrapper', value: 9n });
    expect([m.valueCount, m.nullCount, m.totalSize, m.totalUncompressedSize]).toEqual([6, 2, 20, 40]);
  });

  it('lets a tombstone or a newer tight bound replace', () => {
    expect(mergeColumnStats(s(5, 9), s(1, 7, { isDeleted: true }))).toEqual(s(1, 7, { isDeleted: true }));
    expect(mergeColumnStats(s(5, 9, { isDeleted: true }), s(6, 7))).toEqual(s(6, 7));
    expect(mergeColumnStats(s(0, 99), s(6, 7, { isTightBound: true }))).toEqual(s(6, 7, { isTightBound: true }));
  });

  it('compares decimals numerically, strings by UTF-16 units, bytes as signed', () => {
    expect(compareWrappedValues({ wrapper: 'DecimalWrapper', value: '-10.500000000000000' }, { wrapper: 'DecimalWrapper', value: '2.000000000000000' })).toBeLessThan(0);
    expect(compareWrappedValues({ wrapper: 'StringWrapper', value: 'B' }, { wrapper: 'StringWrapper', value: 'a' })).toBeLessThan(0);
    expect(compareWrappedValues({ wrapper: 'BytesWrapper', value: new Uint8Array([0x80]) }, { wrapper: 'BytesWrapper', value: new Uint8Array([0x01]) })).toBeLessThan(0);
    expect(compareWrappedValues({ wrapper: 'IntWrapper', value: 1 }, { wrapper: 'DateWrapper', value: 1 })).toBeUndefined();
  });

  it('takes the newer record-index entry, removes deleted keys and sorts by key', () => {
    const m = new MetadataRecordMerger();
    m.upsert([recordIndexRecord('b', 'p', 'g1', 1), recordIndexRecord('a', 'p', 'g1', 1)]);
    m.upsert([recordIndexRecord('b', 'q', 'g2', 2)]);
    m.delete(['a']);
    m.upsert([recordIndexRecord('c', 'p', 'g3', 3)]);
    expect(m.result().map((r) => [r.key, r.recordIndexMetadata?.partitionName])).toEqual([['b', 'q'], ['c', 'p']]);
    expect(m.get('a')).toBeUndefined();
  });
});
