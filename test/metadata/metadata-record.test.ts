// The metadata record codec: every record type round-trips in schema v8 and v9, with and without meta fields;
// the hand-written bytes decode with the generic Avro decoder over metadataRecordSchema (so they follow the
// schema), column-stats wrappers keep their union branch, and malformed input is CORRUPT_FILE.
import { describe, expect, it } from 'vitest';
import { decodeAvroDatum } from '../../src/format/avro/decoder.js';
import type { ColumnStatsMetadata } from '../../src/metadata/column-stats-codec.js';
import { decodeMetadataRecord, emptyMetadataRecord, encodeMetadataRecord, METADATA_RECORD_TYPE, type HoodieMetadataRecord } from '../../src/metadata/metadata-record.js';
import { metadataRecordSchema } from '../../src/metadata/metadata-schema.js';

function stats(overrides: Partial<ColumnStatsMetadata> = {}): ColumnStatsMetadata {
  return {
    fileName: 'f1-0_0-1-2_20240101000000000.parquet', columnName: 'amount',
    minValue: { wrapper: 'DecimalWrapper', value: '-1.250000000000000' }, maxValue: { wrapper: 'DecimalWrapper', value: '99.990000000000000' },
    valueCount: 10, nullCount: 2, totalSize: 345, totalUncompressedSize: 400, isDeleted: false, isTightBound: false, valueType: null, ...overrides,
  };
}

const records = (): HoodieMetadataRecord[] => {
  const all = emptyMetadataRecord('__all_partitions__', METADATA_RECORD_TYPE.ALL_PARTITIONS);
  all.filesystemMetadata = { 'city=a': { size: 0, isDeleted: false }, 'city=b': { size: 0, isDeleted: true } };
  const files = emptyMetadataRecord('city=a', METADATA_RECORD_TYPE.FILE_LIST);
  files.filesystemMetadata = { 'x-0_1-2-3_20240101000000000.parquet': { size: 2 ** 40, isDeleted: false }, '.x-0_20240102000000000.log.1_0-1-1': { size: 0, isDeleted: true } };
  const cs = emptyMetadataRecord('cs-key', METADATA_RECORD_TYPE.COLUMN_STATS);
  cs.columnStatsMetadata = stats();
  const ps = emptyMetadataRecord('ps-key', METADATA_RECORD_TYPE.PARTITION_STATS);
  ps.columnStatsMetadata = stats({ fileName: null, minValue: { wrapper: 'DateWrapper', value: 19000 }, maxValue: { wrapper: 'IntWrapper', value: 19000 }, isTightBound: true });
  const ri = emptyMetadataRecord('TXN-001', METADATA_RECORD_TYPE.RECORD_INDEX);
  ri.recordIndexMetadata = { partitionName: '2024/01/15/10', fileIdHighBits: -5n, fileIdLowBits: 2n ** 62n, fileIndex: 0, fileId: '', instantTime: 1775241517738, fileIdEncoding: 0, position: null };
  const bf = emptyMetadataRecord('bf-key', METADATA_RECORD_TYPE.BLOOM_FILTER);
  bf.bloomFilterMetadata = { type: 'DYNAMIC_V0', timestamp: '20240101000000000', bloomFilter: new Uint8Array([1, 2, 3]), isDeleted: false };
  const si = emptyMetadataRecord('v$TXN-001', METADATA_RECORD_TYPE.SECONDARY_INDEX);
  si.secondaryIndexMetadata = { isDeleted: true };
  return [all, files, cs, ps, ri, bf, si];
};

describe('metadata record codec', () => {
  for (const version of [8, 9] as const) {
    for (const metaFields of [true, false]) {
      it(`round-trips every record type (v${version}, meta fields ${metaFields})`, () => {
        for (const r of records()) {
          const bytes = encodeMetadataRecord(r, { version, metaFields });
          expect(decodeMetadataRecord(r.key, bytes, { version, metaFields })).toEqual(r);
        }
      });
    }
  }

  it('writes what the generic Avro decoder reads with the schema (key field empty, meta fields null)', () => {
    for (const version of [8, 9] as const) {
      const schema = metadataRecordSchema(version);
      const [all, files, , , ri] = records() as HoodieMetadataRecord[];
      const generic = (r: HoodieMetadataRecord) => decodeAvroDatum(schema, encodeMetadataRecord(r, { version })) as Record<string, unknown>;
      const a = generic(all as HoodieMetadataRecord);
      expect(a._hoodie_commit_time).toBeNull();
      expect(a._hoodie_file_name).toBeNull();
      expect(a.key).toBe('');
      expect(a.type).toBe(1);
      expect(a.filesystemMetadata).toEqual({ 'city=a': { size: 0n, isDeleted: false }, 'city=b': { size: 0n, isDeleted: true } });
      expect(generic(files as HoodieMetadataRecord).filesystemMetadata).toEqual({ 'x-0_1-2-3_20240101000000000.parquet': { size: 2n ** 40n, isDeleted: false }, '.x-0_20240102000000000.log.1_0-1-1': { size: 0n, isDeleted: true } });
      expect(generic(ri as HoodieMetadataRecord).recordIndexMetadata).toEqual({ partitionName: '2024/01/15/10', fileIdHighBits: -5n, fileIdLowBits: 2n ** 62n, fileIndex: 0, fileId: '', instantTime: 1775241517738n, fileIdEncoding: 0, position: null });
    }
  });

  it('keeps the wrapper branch of column-stats values (IntWrapper and DateWrapper differ on disk)', () => {
    const schema = metadataRecordSchema(9);
    const cs = emptyMetadataRecord('k', METADATA_RECORD_TYPE.COLUMN_STATS);
    cs.columnStatsMetadata = stats({ minValue: { wrapper: 'IntWrapper', value: 7 }, maxValue: { wrapper: 'DateWrapper', value: 7 }, valueType: { typeOrdinal: 3, additionalInfo: null } });
    const bytes = encodeMetadataRecord(cs, { version: 9 });
    const generic = (decodeAvroDatum(schema, bytes) as { ColumnStatsMetadata: Record<string, unknown> }).ColumnStatsMetadata;
    expect(generic.minValue).toEqual({ value: 7 });
    expect(generic.valueType).toEqual({ typeOrdinal: 3, additionalInfo: null });
    expect(generic.totalUncompressedSize).toBe(400n);
    const back = decodeMetadataRecord('k', bytes, { version: 9 }).columnStatsMetadata;
    expect(back?.minValue).toEqual({ wrapper: 'IntWrapper', value: 7 });
    expect(back?.maxValue).toEqual({ wrapper: 'DateWrapper', value: 7 });
    // Decimal(30,15): the generic decoder reads the same decimal text.
    const dec = emptyMetadataRecord('d', METADATA_RECORD_TYPE.COLUMN_STATS);
    dec.columnStatsMetadata = stats();
    expect((decodeAvroDatum(schema, encodeMetadataRecord(dec, { version: 9 })) as { ColumnStatsMetadata: { minValue: unknown } }).ColumnStatsMetadata.minValue).toEqual({ value: '-1.250000000000000' });
  });

  it('round-trips an ArrayWrapper in v9 and refuses it in v8', () => {
    const cs = emptyMetadataRecord('k', METADATA_RECORD_TYPE.COLUMN_STATS);
    cs.columnStatsMetadata = stats({ minValue: { wrapper: 'ArrayWrapper', values: [{ wrapper: 'StringWrapper', value: 'a' }, null, { wrapper: 'LongWrapper', value: -3n }] }, maxValue: { wrapper: 'ArrayWrapper', values: null } });
    expect(decodeMetadataRecord('k', encodeMetadataRecord(cs, { version: 9 }), { version: 9 })).toEqual(cs);
    expect(() => encodeMetadataRecord(cs, { version: 8 })).toThrow(/ArrayWrapper/);
  });

  it('reports malformed records as CORRUPT_FILE naming the file', () => {
    const bytes = encodeMetadataRecord(records()[4] as HoodieMetadataRecord, { version: 9 });
    const corrupt = expect.objectContaining({ code: 'CORRUPT_FILE' });
    expect(() => decodeMetadataRecord('k', bytes.subarray(0, bytes.length - 3), { version: 9, path: 'f.hfile' })).toThrow(corrupt);
    expect(() => decodeMetadataRecord('k', new Uint8Array([...bytes, 0]), { version: 9, path: 'f.hfile' })).toThrow(/unexpected bytes/);
    const badType = encodeMetadataRecord({ ...(records()[4] as HoodieMetadataRecord), type: 9 as 1 }, { version: 9 });
    expect(() => decodeMetadataRecord('k', badType, { version: 9 })).toThrow(/unknown record type 9/);
  });
});
