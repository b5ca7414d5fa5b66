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
import { freshColumn, freshConstant, overridesMeta, type FreshMeta } from '../../merge/fresh-columns.js';
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

/**
 * The data block's records as columns (merge/fresh-columns.ts): seqnos numbered in record order and the keys as
 * vectors, commit time, partition path and file id as one constant for the block unless some record's data
 * overrides them, then each data field's vector.
 */
function logRecordColumns(input: LogAppendInput, upserts: readonly HoodieRecord[]): { batch: ColumnBatch; constants: Record<string, unknown> } {
  const meta: FreshMeta = { instantTime: input.instantTime, taskId: input.taskId, partitionPath: input.partitionPath, fileName: input.fileId };
  const columns: Record<string, unknown[]> = {};
  const constants: Record<string, unknown> = {};
  for (const { name } of input.schema.fields) {
    const constant = freshConstant(name, meta);
    if (constant !== undefined && !overridesMeta(upserts, name)) constants[name] = constant;
    else columns[name] = freshColumn(upserts, 0, upserts.length, name, meta, 0);
  }
  return { batch: { length: upserts.length, columns }, constants };
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
