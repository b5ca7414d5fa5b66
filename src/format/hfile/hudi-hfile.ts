// The two HFiles Hudi 1.1 writes for the metadata table: a base file (file info `schema`,
// `bloomFilterTypeCode`, `minRecordKey`, `maxRecordKey`, and the `bloomFilter` meta block) and the HFile
// inside an HFILE_DATA log block (file info `schema` only). Keys and values are the caller's: record keys and
// the Avro binary of each HoodieMetadataRecord (with `key` written as the empty string).

import { writeHFile, type HFileWriteEntry, type HFileWriteOptions } from './writer.js';
import { BLOOM_FILTER_META_BLOCK } from './reader.js';

/** File-info name of the Avro schema (the writer's schema JSON). */
export const HFILE_SCHEMA_KEY = 'schema';
/** File-info name of the bloom filter type (`DYNAMIC_V0`). */
export const HFILE_BLOOM_FILTER_TYPE_CODE_KEY = 'bloomFilterTypeCode';
/** File-info name of the smallest record key. */
export const HFILE_MIN_RECORD_KEY = 'minRecordKey';
/** File-info name of the largest record key. */
export const HFILE_MAX_RECORD_KEY = 'maxRecordKey';

const encoder = new TextEncoder();

/** Input of {@link writeHudiBaseHFile}. */
export interface HudiBaseHFileInput {
  /** Entries sorted by key bytes, keys unique. */
  entries: readonly HFileWriteEntry[];
  /** The writer schema JSON. */
  schema: string;
  /** The serialized bloom filter (Base64 text, as `format/bloom-filter.ts` writes it). */
  bloomFilter: string;
  /** Bloom filter type code (default `DYNAMIC_V0`). */
  bloomFilterTypeCode?: string;
  /** `hfile.CREATE_TIME_TS` in epoch milliseconds (default 0; see {@link HFileWriteOptions.createTime}). */
  createTime?: number;
}

/** Write a metadata-table base HFile as Hudi 1.1 does (min/max record keys omitted when there are no entries). */
export function writeHudiBaseHFile(input: HudiBaseHFileInput): Uint8Array {
  const fileInfo: [string, Uint8Array][] = [[HFILE_SCHEMA_KEY, encoder.encode(input.schema)]];
  const first = input.entries[0];
  const last = input.entries[input.entries.length - 1];
  if (first !== undefined && last !== undefined) {
    const bytes = (k: string | Uint8Array): Uint8Array => (typeof k === 'string' ? encoder.encode(k) : k);
    fileInfo.push([HFILE_MIN_RECORD_KEY, bytes(first.key)], [HFILE_MAX_RECORD_KEY, bytes(last.key)]);
  }
  fileInfo.push([HFILE_BLOOM_FILTER_TYPE_CODE_KEY, encoder.encode(input.bloomFilterTypeCode ?? 'DYNAMIC_V0')]);
  return writeHFile(input.entries, {
    fileInfo,
    metaBlocks: [[BLOOM_FILTER_META_BLOCK, encoder.encode(input.bloomFilter)]],
    ...(input.createTime === undefined ? {} : { createTime: input.createTime }),
  });
}

/** Input of {@link writeHudiLogBlockHFile}. */
export interface HudiLogBlockHFileInput {
  /** Entries sorted by key bytes, keys unique. */
  entries: readonly HFileWriteEntry[];
  /** The writer schema JSON. */
  schema: string;
  /** `hfile.CREATE_TIME_TS` in epoch milliseconds (default 0; see {@link HFileWriteOptions.createTime}). */
  createTime?: number;
}

/** Write the HFile of an HFILE_DATA log block as Hudi 1.1 does (no bloom filter, no min/max keys). */
export function writeHudiLogBlockHFile(input: HudiLogBlockHFileInput): Uint8Array {
  return writeHFile(input.entries, {
    fileInfo: [[HFILE_SCHEMA_KEY, encoder.encode(input.schema)]],
    ...(input.createTime === undefined ? {} : { createTime: input.createTime }),
  });
}
