// Merging the versions of one metadata record key, as HoodieMetadataPayload does (preCombine /
// combineAndGetUpdateValue): `files` maps combine (files-partition.ts), column and partition stats combine into
// the wider range and summed counts unless either side is a tombstone (or the newer is a tight bound), every other
// type takes the newer record; a DELETE-block key removes the record. Applied oldest to newest over a file slice:
// the base HFile's records, then each log block's.
import { VALUE_TYPE, type ColumnStatsMetadata, type ScalarWrappedValue, type ValueTypeInfo, type WrappedValue } from './column-stats-codec.js';
import { mergeFileInfos } from './files-partition.js';
import { METADATA_RECORD_TYPE, type HoodieMetadataRecord } from './metadata-record.js';

/** A big-endian two's-complement integer (a v9 decimal's unscaled bytes). */
function signedBigInt(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return bytes.length > 0 && ((bytes[0] as number) & 0x80) !== 0 ? v - (1n << BigInt(8 * bytes.length)) : v;
}

/** Schema v9's DECIMAL value type: BytesWrapper values are unscaled integers, compared numerically. */

/**
 * Order two scalar wrapped values of the same wrapper (Java's natural order of the unwrapped values; with the v9
 * DECIMAL value type, bytes as unscaled integers); undefined when incomparable.
 */
export function compareWrappedValues(a: ScalarWrappedValue, b: ScalarWrappedValue, valueType?: ValueTypeInfo | null): number | undefined {
  if (a.wrapper !== b.wrapper) return undefined;
  const x = a.value, y = b.value;
  if (valueType?.typeOrdinal === VALUE_TYPE.DECIMAL && x instanceof Uint8Array && y instanceof Uint8Array) {
    const d = signedBigInt(x) - signedBigInt(y);
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  }
  if (a.wrapper === 'DecimalWrapper') {
    const big = (s: string) => BigInt(s.replace('.', ''));
    const d = big(x as string) - big(y as string);
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  }
  if (x instanceof Uint8Array && y instanceof Uint8Array) {
    // Java's ByteBuffer.compareTo: signed bytes, then length.
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const d = ((x[i] as number) << 24 >> 24) - ((y[i] as number) << 24 >> 24);
      if (d !== 0) return d;
    }
    return x.length - y.length;
  }
  return x < y ? -1 : x > y ? 1 : 0;
}

function pick(a: WrappedValue | null, b: WrappedValue | null, sign: 1 | -1, valueType: ValueTypeInfo | null): WrappedValue | null {
  if (a === null) return b;
  if (b === null) return a;
  if (a.wrapper === 'ArrayWrapper' || b.wrapper === 'ArrayWrapper') return b;
  const c = compareWrappedValues(a, b, valueType);
  if (c === undefined) return b;
  return c * sign <= 0 ? a : b;
}

const sum = (a: number | null, b: number | null): number | null => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));

/**
 * Combine two stats of one (column, file) or (column, partition): a tombstone on either side, or a newer tight
 * bound, gives the newer; otherwise min of mins, max of maxes, counts and sizes summed.
 */
export function mergeColumnStats(older: ColumnStatsMetadata, newer: ColumnStatsMetadata): ColumnStatsMetadata {
  if (older.isDeleted || newer.isDeleted || newer.isTightBound) return newer;
  return {
    ...newer,
    minValue: pick(older.minValue, newer.minValue, 1, newer.valueType),
    maxValue: pick(older.maxValue, newer.maxValue, -1, newer.valueType),
    valueCount: sum(older.valueCount, newer.valueCount),
    nullCount: sum(older.nullCount, newer.nullCount),
    totalSize: sum(older.totalSize, newer.totalSize),
    totalUncompressedSize: sum(older.totalUncompressedSize, newer.totalUncompressedSize),
  };
}

/** The record a newer version of the same key leaves (see the file header). */
export function mergeMetadataRecords(older: HoodieMetadataRecord, newer: HoodieMetadataRecord): HoodieMetadataRecord {
  if (older.type !== newer.type) return newer;
  if ((newer.type === METADATA_RECORD_TYPE.ALL_PARTITIONS || newer.type === METADATA_RECORD_TYPE.FILE_LIST) && older.filesystemMetadata && newer.filesystemMetadata) {
    return { ...newer, filesystemMetadata: mergeFileInfos(older.filesystemMetadata, newer.filesystemMetadata) };
  }
  if ((newer.type === METADATA_RECORD_TYPE.COLUMN_STATS || newer.type === METADATA_RECORD_TYPE.PARTITION_STATS) && older.columnStatsMetadata && newer.columnStatsMetadata) {
    return { ...newer, columnStatsMetadata: mergeColumnStats(older.columnStatsMetadata, newer.columnStatsMetadata) };
  }
  return newer;
}

/** Folds a file slice's record versions, oldest first, into the latest record per key. */
export class MetadataRecordMerger {
  private readonly records = new Map<string, HoodieMetadataRecord>();

  /** Apply a batch of upserts (a base file's records or one data block's). */
  upsert(records: Iterable<HoodieMetadataRecord>): void {
    for (const r of records) {
      const old = this.records.get(r.key);
      this.records.set(r.key, old === undefined ? r : mergeMetadataRecords(old, r));
    }
  }

  /** Apply a DELETE block's keys. */
  delete(keys: Iterable<string>): void {
    for (const k of keys) this.records.delete(k);
  }

  /** The merged record of `key`, if any. */
  get(key: string): HoodieMetadataRecord | undefined {
    return this.records.get(key);
  }

  /** Every merged record, sorted by key (UTF-16 order, as the HFile keys' byte order for ASCII keys). */
  result(): HoodieMetadataRecord[] {
    return [...this.records.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
}
