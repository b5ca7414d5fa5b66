// The `record_index` partition's records (hudi-v9-write.md §4.3): record key → data partition and file group.
// A UUID-based file id `<uuid>-<N>` is stored as the UUID's two signed 64-bit halves plus N (encoding 0, fileId
// ""); other file ids raw (encoding 1). instantTime is the epoch millis of the writing instant read in the table's
// timeline timezone. Deletes are DELETE-block records (partitionPath "record_index", ordering value 0 in the
// IntWrapper branch, as Spark writes them: hudi-v9-write.md's "long 0" reads the branch with the pre-wrapper union).
import { corruptFile, invalidArgument, unsupported } from '../errors.js';
import type { DeleteRecordInput } from '../format/log/delete-block.js';
import { parseInstantTime } from '../timeline/instant-time.js';
import { emptyMetadataRecord, METADATA_RECORD_TYPE, type HoodieMetadataRecord, type RecordIndexInfo } from './metadata-record.js';

/** The MDT partition name (and DELETE-block partition path) of the record index. */
export const RECORD_INDEX_PARTITION = 'record_index';

/** Java's RECORD_INDEX_MISSING_FILEINDEX_FALLBACK: a 36-character file id (a bare UUID) has no `-N` suffix. */
const MISSING_FILE_INDEX = -1;

const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * Epoch millis of an instant time read in the timeline's timezone: `utcOffsetMinutes` is that zone's offset
 * from UTC at the instant (0 for `hoodie.table.timeline.timezone=UTC`, what lakelet writes).
 */
export function instantEpochMillis(instantTime: string, utcOffsetMinutes = 0): number {
  return parseInstantTime(instantTime).getTime() - utcOffsetMinutes * 60_000;
}

/**
 * Epoch millis of an instant time in a table's `hoodie.table.timeline.timezone`: `UTC` reads it as UTC; `LOCAL`
 * (Hudi's default, also when unset) as the local zone of this runtime — what a Java writer in the same zone
 * computes; the zone of the JVM that wrote a foreign table is not recorded anywhere. Other values → `UNSUPPORTED`.
 */
export function instantEpochMillisInZone(instantTime: string, timezone: string | undefined): number {
  const utc = parseInstantTime(instantTime);
  const zone = (timezone ?? 'LOCAL').toUpperCase();
  if (zone === 'UTC') return utc.getTime();
  if (zone !== 'LOCAL') throw unsupported(`metadata: timeline timezone ${JSON.stringify(timezone)} is not UTC or LOCAL`, { field: 'hoodie.table.timeline.timezone', value: timezone });
  const local = new Date(utc.getUTCFullYear(), utc.getUTCMonth(), utc.getUTCDate(), utc.getUTCHours(), utc.getUTCMinutes(), utc.getUTCSeconds(), utc.getUTCMilliseconds());
  local.setFullYear(utc.getUTCFullYear()); // years below 100
  return local.getTime();
}

/** A UUID's most and least significant 64 bits as Java's signed longs. */
function uuidBits(uuid: string): [bigint, bigint] {
  const hex = uuid.replace(/-/g, '');
  return [BigInt.asIntN(64, BigInt(`0x${hex.slice(0, 16)}`)), BigInt.asIntN(64, BigInt(`0x${hex.slice(16)}`))];
}

/** Java's `new UUID(high, low).toString()`. */
function uuidString(high: bigint, low: bigint): string {
  const hex = BigInt.asUintN(64, high).toString(16).padStart(16, '0') + BigInt.asUintN(64, low).toString(16).padStart(16, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The record-index location of a record in file group `fileId` of `partitionPath`, written at `instantMillis`
 * (see {@link instantEpochMillis}): encoding 0 for `<uuid>` and `<uuid>-<N>` file ids, else encoding 1.
 */
export function recordIndexInfo(partitionPath: string, fileId: string, instantMillis: number): RecordIndexInfo {
  const dash = fileId.lastIndexOf('-');
  const bare = fileId.length === 36 && UUID_RE.test(fileId);
  const suffixed = !bare && dash === 36 && UUID_RE.test(fileId.slice(0, 36)) && /^\d{1,9}$/.test(fileId.slice(37));
  if (bare || suffixed) {
    const [high, low] = uuidBits(fileId.slice(0, 36));
    return {
      partitionName: partitionPath, fileIdHighBits: high, fileIdLowBits: low, fileIndex: bare ? MISSING_FILE_INDEX : Number(fileId.slice(37)),
      fileId: '', instantTime: instantMillis, fileIdEncoding: 0, position: null,
    };
  }
  if (fileId === '') throw invalidArgument('metadata: a record-index location needs a file id', { field: 'fileId', value: fileId });
  return { partitionName: partitionPath, fileIdHighBits: -1n, fileIdLowBits: -1n, fileIndex: -1, fileId, instantTime: instantMillis, fileIdEncoding: 1, position: null };
}

/** The file id a record-index entry points to (Java's getLocationFromRecordIndexInfo). Unknown encodings → `CORRUPT_FILE`. */
export function recordIndexFileId(info: RecordIndexInfo, path?: string): string {
  if (info.fileIdEncoding === 1) {
    if (info.fileId === null || info.fileId === '') throw corruptFile('metadata: record-index entry with encoding 1 has no fileId', path);
    return info.fileId;
  }
  if (info.fileIdEncoding !== 0) throw corruptFile(`metadata: record-index fileIdEncoding ${info.fileIdEncoding} is unknown (0 and 1 are)`, path);
  if (info.fileIdHighBits === null || info.fileIdLowBits === null) throw corruptFile('metadata: record-index entry with encoding 0 lacks the file id bits', path);
  const uuid = uuidString(info.fileIdHighBits, info.fileIdLowBits);
  return info.fileIndex === null || info.fileIndex === MISSING_FILE_INDEX ? uuid : `${uuid}-${info.fileIndex}`;
}

/** A record-index upsert: `key` lives in `fileId` of `partitionPath` since the instant at `instantMillis`. */
export function recordIndexRecord(key: string, partitionPath: string, fileId: string, instantMillis: number): HoodieMetadataRecord {
  const record = emptyMetadataRecord(key, METADATA_RECORD_TYPE.RECORD_INDEX);
  record.recordIndexMetadata = recordIndexInfo(partitionPath, fileId, instantMillis);
  return record;
}

/** The DELETE-block record that removes `key` from the record index (ordering value int 0, branch 2, as Spark's). */
export function recordIndexDelete(key: string): DeleteRecordInput {
  return { recordKey: key, partitionPath: RECORD_INDEX_PARTITION, orderingVal: 0, orderingValType: 'int' };
}
