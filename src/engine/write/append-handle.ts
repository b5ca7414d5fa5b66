// The merge-on-read append handle: writes one file group's updates of a deltacommit as a new log file
// version of its slice — an AVRO_DATA block of full records and a DELETE block (hudi-format.md §7),
// headers INSTANT_TIME and SCHEMA — and rollback COMMAND blocks for rolled-back deltacommits.
import { logFileName } from '../../file-group/file-names.js';
import { partitionFilePath } from '../../layout.js';
import type { LogFile } from '../../file-group/file-slice.js';
import { avroSchemaJson, type AvroRecordSchema } from '../../format/avro/schema.js';
import { encodeAvroDataBlockColumns } from '../../format/log/data-block-columns.js';
import type { ColumnBatch } from '../../format/parquet/column-batch.js';
import { encodeLogBlock } from '../../format/log/block.js';
import type { Storage } from '../../storage/storage.js';
import type { HoodieRecord } from '../../merge/hoodie-record.js';
import { writeStat, type BucketResult } from './write-stat.js';

/** The next log version for a (fileId, base instant): one above every version present (any write token). */
export function nextLogVersion(logs: readonly Pick<LogFile, 'fileId' | 'instantTime' | 'version'>[], fileId: string, baseInstantTime: string): number {
  let max = 0;
  for (const l of logs) if (l.fileId === fileId && l.instantTime === baseInstantTime && l.version > max) max = l.version;
  return max + 1;
}

/** Everything one log append needs. */
export interface LogAppendInput {
  storage: Storage;
  instantTime: string;
  taskId: number;
  partitionPath: string;
  fileId: string;
  /**
   * The instant in the log's name, also its stat's `prevCommit`: the slice's base instant (v6), or the writing
   * deltacommit itself (v8/v9).
   */
  baseInstantTime: string;
  /** The slice's base file name ('' for a log-only slice). */
  baseFileName: string;
  /** Log version to write. */
  version: number;
  /** Names of the slice's log files before this one. */
  previousLogFiles: readonly string[];
  /** Upserts (full data) and deletes of keys living in this group. */
  records: readonly HoodieRecord[];
  /** Table schema with meta fields. */
  schema: AvroRecordSchema;
  beforeWrite: (path: string) => Promise<void>;
}

/** Write the group's changes as a new log file. */
export async function appendLog(input: LogAppendInput): Promise<BucketResult> {
  // v6 log names carry the slice's base instant, not the writer's: the write token (task-stage-attempt)
  // takes the writer's instant as its stage, so concurrent writers never pick the same file name. (v8/v9 names
  // carry the writer's instant: unique by themselves.)
  const name = logFileName(input.fileId, input.baseInstantTime, input.version, `${input.taskId}-${Number(input.instantTime.slice(-9))}-0`);
  const path = partitionFilePath(input.partitionPath, name);
  const schemaJson = avroSchemaJson(input.schema);
  const upserts: HoodieRecord[] = [];
  const deletes: { recordKey: string; partitionPath: string; orderingVal: unknown }[] = [];
  for (const r of input.records) {
    if (r.isDelete) deletes.push({ recordKey: r.recordKey, partitionPath: input.partitionPath, orderingVal: r.ordering.length > 0 ? r.ordering[0] : 0 });
    else upserts.push(r);
  }
  const blocks: Uint8Array[] = [];
  if (upserts.length > 0) {
    const { batch, constants } = logRecordColumns(input, upserts);
    blocks.push(encodeLogBlock('AVRO_DATA', { INSTANT_TIME: input.instantTime, SCHEMA: schemaJson }, encodeAvroDataBlockColumns(input.schema, batch, constants)));
  }
  if (deletes.length > 0) {
    const { encodeDeleteBlockContent } = await import('../../format/log/delete-block.js'); // only writes with deletes load it
    blocks.push(encodeLogBlock('DELETE', { INSTANT_TIME: input.instantTime, SCHEMA: schemaJson }, encodeDeleteBlockContent(deletes)));
  }
  const bytes = concat(blocks);
  await input.beforeWrite(path);
  await input.storage.write(path, bytes);
  const stat = writeStat(
    { fileId: input.fileId, path, partitionPath: input.partitionPath, prevCommit: input.baseInstantTime, bytes: bytes.length },
    { numWrites: upserts.length + deletes.length, numDeletes: deletes.length, numUpdateWrites: upserts.length, numInserts: 0 },
    {
      totalLogRecords: upserts.length + deletes.length,
      totalLogBlocks: blocks.length,
      logVersion: input.version,
      logOffset: 0,
      baseFile: input.baseFileName,
      logFiles: [...input.previousLogFiles, name],
    },
  );
  return { stat, inserted: 0, updated: upserts.length, deleted: deletes.length, keys: [] };
}

const META = ['_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name'] as const;
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/**
 * The data block's records as columns: the meta fields generated as columns (commit time, partition path and
 * file id one value for the block, seqnos numbered in record order, the keys), then each data field's vector.
 * A record's data field of a meta name overrides the generated value, as it did when rows were spread objects.
 */
function logRecordColumns(input: LogAppendInput, upserts: readonly HoodieRecord[]): { batch: ColumnBatch; constants: Record<string, unknown> } {
  const n = upserts.length;
  const columns: Record<string, unknown[]> = {};
  const constants: Record<string, unknown> = {};
  const generated: Record<(typeof META)[number], (i: number) => unknown> = {
    _hoodie_commit_time: () => input.instantTime,
    _hoodie_commit_seqno: (i) => `${input.instantTime}_${input.taskId}_${i}`,
    _hoodie_record_key: (i) => (upserts[i] as HoodieRecord).recordKey,
    _hoodie_partition_path: () => input.partitionPath,
    _hoodie_file_name: () => input.fileId,
  };
  const isMeta = (name: string): name is (typeof META)[number] => (META as readonly string[]).includes(name);
  for (const { name } of input.schema.fields) {
    const vector: unknown[] = new Array(n);
    if (isMeta(name)) {
      const make = generated[name];
      if (!upserts.some((r) => hasOwn(r.data, name))) {
        if (name === '_hoodie_commit_seqno' || name === '_hoodie_record_key') for (let i = 0; i < n; i++) vector[i] = make(i);
        else constants[name] = make(0);
      } else for (let i = 0; i < n; i++) {
        const data = (upserts[i] as HoodieRecord).data;
        vector[i] = hasOwn(data, name) ? data[name] : make(i);
      }
    } else {
      // A name of Object.prototype's (e.g. "constructor") counts only as an own property, as in a spread object.
      const inherited = name in Object.prototype;
      for (let i = 0; i < n; i++) {
        const data = (upserts[i] as HoodieRecord).data;
        vector[i] = inherited && !hasOwn(data, name) ? undefined : data[name];
      }
    }
    if (!hasOwn(constants, name)) columns[name] = vector;
  }
  return { batch: { length: n, columns }, constants };
}

/** A rollback command block (type 0, COMMAND_BLOCK_TYPE "0") targeting `targetInstant`. */
export function rollbackCommandBlock(rollbackInstant: string, targetInstant: string): Uint8Array {
  return encodeLogBlock('COMMAND', { INSTANT_TIME: rollbackInstant, COMMAND_BLOCK_TYPE: '0', TARGET_INSTANT_TIME: targetInstant });
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
