// Keys of the metadata table's records and where they live (hudi-v9-write.md §4.1, §4.3): the MDT file group of
// a key (Java's String.hashCode, as HoodieTableMetadataUtil.mapRecordKeyToFileGroupIndex), and the column-stats
// and partition-stats keys (base64 of XXH64 hashes of the column and partition, base64 of the MD5 of the file).
import { encodeBase64 } from '../format/base64.js';
import { invalidArgument } from '../errors.js';
import { xxHash64 } from '../kernels/js/xxhash.js';
import { md5 } from './md5.js';

/** Seed of the column and partition hashes (Hudi's XXHash64 seed, the int 0xDABADABA sign-extended to a long). */
export const METADATA_KEY_HASH_SEED = 0xffffffffdabadaban;

/** Hudi's identifier of the non-partitioned partition in metadata keys (`""` is stored as `.`). */
export const NON_PARTITIONED_NAME = '.';

/** Java's `String.hashCode()`: the 32-bit `31 * h + c` over UTF-16 code units. */
export function javaStringHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * The MDT file group (0-based) a key belongs to among `fileGroupCount` groups: `abs(abs(hashCode) % n)`, as Java
 * computes it (`Math.abs(Integer.MIN_VALUE)` stays negative, hence the second abs).
 */
export function metadataFileGroupIndex(key: string, fileGroupCount: number): number {
  if (!Number.isInteger(fileGroupCount) || fileGroupCount < 1) throw invalidArgument(`metadata: file group count must be a positive integer, got ${fileGroupCount}`, { field: 'fileGroupCount', value: fileGroupCount });
  const h = javaStringHashCode(key);
  const abs = h === -2147483648 ? h : Math.abs(h); // Java's Math.abs(Integer.MIN_VALUE) overflows to itself
  return Math.abs(abs % fileGroupCount);
}

/** The partition's identifier in metadata keys and records: the path, or `.` when non-partitioned. */
export function partitionIdentifier(partitionPath: string): string {
  return partitionPath === '' ? NON_PARTITIONED_NAME : partitionPath;
}

/** Base64 of the big-endian XXH64 (seed {@link METADATA_KEY_HASH_SEED}) of `text`'s UTF-8: Hudi's ColumnIndexID / PartitionIndexID. */
export function hashIdBase64(text: string): string {
  const h = xxHash64(new TextEncoder().encode(text), METADATA_KEY_HASH_SEED);
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, h, false);
  return encodeBase64(out);
}

/** Base64 of the MD5 of a file name: Hudi's FileIndexID. */
export function fileIdBase64(fileName: string): string {
  return encodeBase64(md5(fileName));
}

/** The `column_stats` key of one column of one data file: column id + partition id + file id. */
export function columnStatsKey(columnName: string, partitionPath: string, fileName: string): string {
  return hashIdBase64(columnName) + hashIdBase64(partitionIdentifier(partitionPath)) + fileIdBase64(fileName);
}

/** The `partition_stats` key of one column of one partition: column id + partition id. */
export function partitionStatsKey(columnName: string, partitionPath: string): string {
  return hashIdBase64(columnName) + hashIdBase64(partitionIdentifier(partitionPath));
}
