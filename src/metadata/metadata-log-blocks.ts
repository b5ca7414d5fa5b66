// The bytes of metadata-table log files (hudi-v9-write.md §3, §4.4, §6.2): the log a data instant appends to one
// MDT file group — an HFILE_DATA block (an HFile of the upserts, keyed by record key, values the Avro records)
// then a DELETE block of the removed keys, each with the INSTANT_TIME and SCHEMA headers (Hudi's order varies from
// run to run — a Java HashMap keyed by enum identity hashes — and the fixtures hold both; we write ordinal order)
// — and the 80-byte initialisation log (an empty DELETE block with INSTANT_TIME only) every MDT file group
// starts with; plus MDT base HFiles and the `files` partition's initial records. Pure: the MDT writer stores the bytes.
import { createBloomFilter } from '../format/bloom-filter.js';
import { writeHudiBaseHFile, writeHudiLogBlockHFile } from '../format/hfile/hudi-hfile.js';
import { encodeLogBlock } from '../format/log/block.js';
import { encodeDeleteBlockContent } from '../format/log/delete-block.js';
import { ALL_PARTITIONS_KEY } from './files-partition.js';
import { partitionIdentifier } from './keys.js';
import { emptyMetadataRecord, encodeMetadataRecord, METADATA_RECORD_TYPE, type HoodieMetadataRecord } from './metadata-record.js';
import { metadataRecordSchemaText, type MetadataSchemaVersion } from './metadata-schema.js';
import type { MetadataFileGroupWrite } from './metadata-write-records.js';

/** Options of {@link metadataLogFileBytes}. */
export interface MetadataLogOptions {
  /** The data instant (the MDT deltacommit's time). */
  instantTime: string;
  version: MetadataSchemaVersion;
  /** `hfile.CREATE_TIME_TS` of the block's HFile (epoch millis; Hudi writes the clock, default 0). */
  createTime?: number;
}

/** The HFile entries of records: key → the record's Avro value with meta fields (records sorted by key bytes). */
export function metadataHFileEntries(records: readonly HoodieMetadataRecord[], version: MetadataSchemaVersion): { key: string; value: Uint8Array }[] {
  return records.map((r) => ({ key: r.key, value: encodeMetadataRecord(r, { version }) }));
}

/**
 * One MDT file group's log file for a data instant: an HFILE_DATA block of `write.upserts` (when any), then a
 * DELETE block of `write.deletes` (when any), as Hudi's append handle orders them.
 */
export function metadataLogFileBytes(write: MetadataFileGroupWrite, options: MetadataLogOptions): Uint8Array {
  const schema = metadataRecordSchemaText(options.version);
  const header = { INSTANT_TIME: options.instantTime, SCHEMA: schema };
  const blocks: Uint8Array[] = [];
  if (write.upserts.length > 0) {
    const hfile = writeHudiLogBlockHFile({ entries: metadataHFileEntries(write.upserts, options.version), schema, ...(options.createTime === undefined ? {} : { createTime: options.createTime }) });
    blocks.push(encodeLogBlock('HFILE_DATA', header, hfile));
  }
  if (write.deletes.length > 0) blocks.push(encodeLogBlock('DELETE', header, encodeDeleteBlockContent(write.deletes)));
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** Keys per bloom-filter row in MDT base HFiles Hudi 1.1 writes (Hudi 1.0 wrote 60,000). */
const METADATA_BLOOM_ENTRIES = 10_000;

/**
 * An MDT base HFile of `records` (sorted by key bytes) as Hudi 1.1 writes it: the records with meta fields, the
 * schema, min/max keys and a DYNAMIC_V0 bloom filter of the keys (10,000 per row, fpp 1e-9).
 */
export function metadataBaseFileBytes(records: readonly HoodieMetadataRecord[], version: MetadataSchemaVersion, options: { createTime?: number } = {}): Uint8Array {
  const bloom = createBloomFilter({ numEntries: METADATA_BLOOM_ENTRIES, fpp: 1e-9, type: 'DYNAMIC_V0' });
  for (const r of records) bloom.add(r.key);
  return writeHudiBaseHFile({
    entries: metadataHFileEntries(records, version), schema: metadataRecordSchemaText(version), bloomFilter: bloom.serialize(),
    ...(options.createTime === undefined ? {} : { createTime: options.createTime }),
  });
}

/** The initialisation log of an MDT file group (`.<fileId>_<init instant>.log.1_0-0-0`): an empty DELETE block, INSTANT_TIME only. */
export function metadataInitLogBytes(initInstant: string): Uint8Array {
  return encodeLogBlock('DELETE', { INSTANT_TIME: initInstant }, encodeDeleteBlockContent([]));
}

/**
 * The records of the `files` partition's first base file for a table whose files are `listing` (partition path →
 * file name → size; empty for a new table): `__all_partitions__` naming the partitions, and one file list each.
 */
export function initialFilesRecords(listing: ReadonlyMap<string, ReadonlyMap<string, number>> = new Map()): HoodieMetadataRecord[] {
  const all = emptyMetadataRecord(ALL_PARTITIONS_KEY, METADATA_RECORD_TYPE.ALL_PARTITIONS);
  all.filesystemMetadata = {};
  const out = [all];
  for (const [partition, files] of listing) {
    const key = partitionIdentifier(partition);
    all.filesystemMetadata[key] = { size: 0, isDeleted: false };
    const r = emptyMetadataRecord(key, METADATA_RECORD_TYPE.FILE_LIST);
    r.filesystemMetadata = Object.fromEntries([...files].map(([name, size]) => [name, { size, isDeleted: false }]));
    out.push(r);
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
