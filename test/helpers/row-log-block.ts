// REFERENCE IMPLEMENTATION for tests: the merge-on-read log bytes as append-handle.ts built them before log
// blocks were encoded from columns (issue 13): one spread row object per upsert, encoded by the row path
// (encodeAvroDataBlockContent). The columnar path must give byte-identical log files; do not "improve" this file.
import { avroSchemaJson, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import { encodeAvroDataBlockContent } from '../../src/format/log/content.js';
import { encodeDeleteBlockContent } from '../../src/format/log/delete-block.js';
import { encodeLogBlock } from '../../src/format/log/block.js';
import type { HoodieRecord } from '../../src/merge/hoodie-record.js';

/** What the old log bytes depended on. */
export interface RowLogInput {
  instantTime: string;
  taskId: number;
  partitionPath: string;
  fileId: string;
  records: readonly HoodieRecord[];
  schema: AvroRecordSchema;
}

/** REFERENCE ONLY: the old row path's upsert rows (meta fields spread under each record's data). */
export function referenceLogRows(input: RowLogInput): Record<string, unknown>[] {
  const upserts: Record<string, unknown>[] = [];
  let seq = 0;
  for (const r of input.records) {
    if (r.isDelete) continue;
    upserts.push({
      _hoodie_commit_time: input.instantTime,
      _hoodie_commit_seqno: `${input.instantTime}_${input.taskId}_${seq++}`,
      _hoodie_record_key: r.recordKey,
      _hoodie_partition_path: input.partitionPath,
      _hoodie_file_name: input.fileId,
      ...r.data,
    });
  }
  return upserts;
}

/** REFERENCE ONLY: the whole log file's bytes as the old row path wrote them. */
export function referenceLogBytes(input: RowLogInput): Uint8Array {
  const schemaJson = avroSchemaJson(input.schema);
  const upserts = referenceLogRows(input);
  const deletes = input.records.filter((r) => r.isDelete).map((r) => ({ recordKey: r.recordKey, partitionPath: input.partitionPath, orderingVal: r.ordering.length > 0 ? r.ordering[0] : 0 }));
  const blocks: Uint8Array[] = [];
  if (upserts.length > 0) blocks.push(encodeLogBlock('AVRO_DATA', { INSTANT_TIME: input.instantTime, SCHEMA: schemaJson }, encodeAvroDataBlockContent(input.schema, upserts)));
  if (deletes.length > 0) blocks.push(encodeLogBlock('DELETE', { INSTANT_TIME: input.instantTime, SCHEMA: schemaJson }, encodeDeleteBlockContent(deletes)));
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}
