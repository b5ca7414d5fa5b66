// One record of the metadata table (HoodieMetadataRecord, hudi-v9-write.md §4.3): its value model per record
// type and its Avro binary form, with or without the five leading `_hoodie_*` meta fields (HFiles and log
// blocks carry them, always null). Encoded and decoded by hand so that the column-stats union branches survive.
import { corruptFile } from '../errors.js';
import { AvroReader } from '../format/avro/reader.js';
import { AvroWriter } from '../format/avro/writer.js';
import { readColumnStats, readNullBranch, writeColumnStats, writeNullable, type ColumnStatsMetadata } from './column-stats-codec.js';
import type { MetadataSchemaVersion } from './metadata-schema.js';

/** The `type` field's values (HoodieMetadataPayload's record types). */
export const METADATA_RECORD_TYPE = {
  ALL_PARTITIONS: 1,
  FILE_LIST: 2,
  COLUMN_STATS: 3,
  BLOOM_FILTER: 4,
  RECORD_INDEX: 5,
  PARTITION_STATS: 6,
  SECONDARY_INDEX: 7,
} as const;

/** One of {@link METADATA_RECORD_TYPE}'s values. */
export type MetadataRecordType = (typeof METADATA_RECORD_TYPE)[keyof typeof METADATA_RECORD_TYPE];

/** `HoodieMetadataFileInfo`: a file's size, or a tombstone. */
export interface MetadataFileInfo {
  size: number;
  isDeleted: boolean;
}

/** `HoodieMetadataBloomFilter`. */
export interface BloomFilterMetadata {
  type: string;
  timestamp: string;
  bloomFilter: Uint8Array;
  isDeleted: boolean;
}

/** `HoodieRecordIndexInfo`: where a record key lives. */
export interface RecordIndexInfo {
  /** Data partition path (`""` when non-partitioned). */
  partitionName: string | null;
  fileIdHighBits: bigint | null;
  fileIdLowBits: bigint | null;
  fileIndex: number | null;
  /** `""` with encoding 0; the raw file id with encoding 1. */
  fileId: string | null;
  /** Epoch millis of the writing instant. */
  instantTime: number | null;
  /** 0: UUID-based file id in the bits and index; 1: raw `fileId`. */
  fileIdEncoding: number;
  position: number | null;
}

/**
 * A metadata record. `key` is the record's key (the HFile key); the Avro value's own `key` field is written as
 * `""` as Hudi does and decoded as whatever it holds. Exactly one payload field is set for each type.
 */
export interface HoodieMetadataRecord {
  key: string;
  type: MetadataRecordType;
  filesystemMetadata: Record<string, MetadataFileInfo> | null;
  bloomFilterMetadata: BloomFilterMetadata | null;
  columnStatsMetadata: ColumnStatsMetadata | null;
  recordIndexMetadata: RecordIndexInfo | null;
  secondaryIndexMetadata: { isDeleted: boolean } | null;
}

/** Options of {@link encodeMetadataRecord} and {@link decodeMetadataRecord}. */
export interface MetadataRecordCodecOptions {
  /** Schema generation (8 or 9, the data table's version). */
  version: MetadataSchemaVersion;
  /** Whether the five `_hoodie_*` meta fields lead the record (true in HFiles and log blocks; the default). */
  metaFields?: boolean;
}

const META_FIELD_COUNT = 5;

/** Avro binary of a metadata record's value (what an HFile entry or a log block's HFile stores under `record.key`). */
export function encodeMetadataRecord(record: HoodieMetadataRecord, options: MetadataRecordCodecOptions): Uint8Array {
  const w = new AvroWriter(128);
  if (options.metaFields !== false) for (let i = 0; i < META_FIELD_COUNT; i++) w.writeInt(0);
  w.writeString(''); // the key field: Hudi leaves it empty, the HFile key carries the real one
  w.writeInt(record.type);
  writeNullable(w, record.filesystemMetadata, (files) => {
    const names = Object.keys(files);
    if (names.length > 0) {
      w.writeLong(names.length);
      for (const name of names) {
        const info = files[name] as MetadataFileInfo;
        w.writeString(name);
        w.writeLong(info.size);
        w.writeBoolean(info.isDeleted);
      }
    }
    w.writeLong(0);
  });
  writeNullable(w, record.bloomFilterMetadata, (b) => {
    w.writeString(b.type);
    w.writeString(b.timestamp);
    w.writeBytes(b.bloomFilter);
    w.writeBoolean(b.isDeleted);
  });
  writeNullable(w, record.columnStatsMetadata, (s) => writeColumnStats(w, s, options.version));
  writeNullable(w, record.recordIndexMetadata, (ri) => {
    writeNullable(w, ri.partitionName, (v) => w.writeString(v));
    writeNullable(w, ri.fileIdHighBits, (v) => w.writeLong(v));
    writeNullable(w, ri.fileIdLowBits, (v) => w.writeLong(v));
    writeNullable(w, ri.fileIndex, (v) => w.writeInt(v));
    writeNullable(w, ri.fileId, (v) => w.writeString(v));
    writeNullable(w, ri.instantTime, (v) => w.writeLong(v));
    w.writeInt(ri.fileIdEncoding);
    writeNullable(w, ri.position, (v) => w.writeLong(v));
  });
  writeNullable(w, record.secondaryIndexMetadata, (s) => w.writeBoolean(s.isDeleted));
  return w.finish();
}

const KNOWN_TYPES = new Set<number>(Object.values(METADATA_RECORD_TYPE));

/**
 * Decode a metadata record's Avro value stored under `key`. Malformed bytes, an unknown record type or bytes
 * left over → `CORRUPT_FILE` naming `path` (the file and entry it came from).
 */
export function decodeMetadataRecord(key: string, bytes: Uint8Array, options: MetadataRecordCodecOptions & { path?: string }): HoodieMetadataRecord {
  const r = new AvroReader(bytes, options.path);
  if (options.metaFields !== false) for (let i = 0; i < META_FIELD_COUNT; i++) if (!readNullBranch(r)) r.readString();
  r.readString(); // the value's own key field
  const typeAt = r.pos;
  const type = r.readInt();
  if (!KNOWN_TYPES.has(type)) throw r.error(`metadata record ${JSON.stringify(key)}: unknown record type ${type}`, typeAt);
  let filesystemMetadata: Record<string, MetadataFileInfo> | null = null;
  if (!readNullBranch(r)) {
    filesystemMetadata = {};
    for (let count = r.readLongNumber(); count !== 0; count = r.readLongNumber()) {
      if (count < 0) {
        count = -count;
        r.readLength();
      }
      for (let i = 0; i < count; i++) {
        const name = r.readString();
        Object.defineProperty(filesystemMetadata, name, { value: { size: r.readLongNumber(), isDeleted: r.readBoolean() }, enumerable: true, writable: true, configurable: true });
      }
    }
  }
  const bloomFilterMetadata = readNullBranch(r) ? null : { type: r.readString(), timestamp: r.readString(), bloomFilter: r.readBytes(), isDeleted: r.readBoolean() };
  const columnStatsMetadata = readNullBranch(r) ? null : readColumnStats(r, options.version);
  let recordIndexMetadata: RecordIndexInfo | null = null;
  if (!readNullBranch(r)) {
    recordIndexMetadata = {
      partitionName: readNullBranch(r) ? null : r.readString(),
      fileIdHighBits: readNullBranch(r) ? null : r.readLong(),
      fileIdLowBits: readNullBranch(r) ? null : r.readLong(),
      fileIndex: readNullBranch(r) ? null : r.readInt(),
      fileId: readNullBranch(r) ? null : r.readString(),
      instantTime: readNullBranch(r) ? null : r.readLongNumber(),
      fileIdEncoding: r.readInt(),
      position: readNullBranch(r) ? null : r.readLongNumber(),
    };
  }
  const secondaryIndexMetadata = readNullBranch(r) ? null : { isDeleted: r.readBoolean() };
  if (r.pos !== bytes.length) throw corruptFile(`metadata record ${JSON.stringify(key)}: ${bytes.length - r.pos} unexpected bytes after the record`, options.path, r.pos);
  return { key, type: type as MetadataRecordType, filesystemMetadata, bloomFilterMetadata, columnStatsMetadata, recordIndexMetadata, secondaryIndexMetadata };
}

/** A record of `type` under `key` with every payload null; callers set the one payload the type carries. */
export function emptyMetadataRecord(key: string, type: MetadataRecordType): HoodieMetadataRecord {
  return { key, type, filesystemMetadata: null, bloomFilterMetadata: null, columnStatsMetadata: null, recordIndexMetadata: null, secondaryIndexMetadata: null };
}
