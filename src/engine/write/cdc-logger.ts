// The CDC logger (Hudi's HoodieCDCLogger as HoodieMergeHandleWithChangeLog drives it): once a merge handle has
// rewritten a file group's base file on a CDC-enabled table, the changes it made — keys gone (`d`), new (`i`),
// rewritten (`u`) — go into one `.cdc` log file beside the new base file: a CDC_DATA block with headers
// INSTANT_TIME and SCHEMA, records in the supplemental logging mode's schema. Loaded only for CDC-enabled tables.
import type { CdcSupplementalLoggingMode } from '../../config/cdc-config.js';
import type { BaseFile } from '../../file-group/file-slice.js';
import { logFileName } from '../../file-group/file-names.js';
import { avroSchemaJson, avroSchemaToJson, parseAvroSchema, type AvroRecordSchema } from '../../format/avro/schema.js';
import { encodeAvroDataBlockContent } from '../../format/log/content.js';
import { encodeLogBlock } from '../../format/log/block.js';
import { bufferFromBytes, type AsyncBuffer } from '../../format/parquet/read.js';
import { markerPath, partitionFilePath } from '../../layout.js';
import { parquetBatches } from '../../merge/slice-merge.js';
import { withoutMetaFields } from '../../schema/table-schema.js';
import { storageBuffer } from '../../storage/async-buffer.js';
import type { Storage } from '../../storage/storage.js';
import { changeImage, type Row } from '../read/cdc/cdc-infer.js';

/** One change a merge made to a file group: the record key, the op and the full rows (meta columns included). */
export interface LoggedChange {
  key: string;
  op: 'i' | 'u' | 'd';
  before: Row | null;
  after: Row | null;
}

const KEY = '_hoodie_record_key';
const SEQNO = '_hoodie_commit_seqno';
const COMMIT_TIME = '_hoodie_commit_time';

/**
 * The changes between a group's base file before and after a merge, by record key in key order: keys only
 * after are inserts, keys only before deletes, keys in both whose row was rewritten (another commit time or
 * seqno: a merge copies untouched rows with theirs) updates. Pure.
 */
export function mergeChanges(before: readonly Row[], after: readonly Row[]): LoggedChange[] {
  const old = new Map<string, Row>();
  for (const r of before) if (typeof r[KEY] === 'string') old.set(r[KEY], r);
  const out: LoggedChange[] = [];
  const seen = new Set<string>();
  for (const a of after) {
    const key = a[KEY];
    if (typeof key !== 'string') continue;
    seen.add(key);
    const b = old.get(key);
    if (!b) out.push({ key, op: 'i', before: null, after: a });
    else if (b[SEQNO] !== a[SEQNO] || b[COMMIT_TIME] !== a[COMMIT_TIME]) out.push({ key, op: 'u', before: b, after: a });
  }
  for (const [key, b] of old) if (!seen.has(key)) out.push({ key, op: 'd', before: b, after: null });
  return out.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
}

/**
 * The Avro schema of a `.cdc` block (HoodieCDCUtils.schemaBySupplementalLoggingMode): OP_KEY_ONLY the fixed
 * record `Record {op, record_key}` (both `["string","null"]`); the others a record `CDC` in the table's namespace
 * with nullable (null first, default null) `op`, then `ts_ms` (the commit time as a string), `before`, `after`
 * (DATA_BEFORE_AFTER) or `record_key`, `before` (DATA_BEFORE); images are the table record without meta fields.
 */
export function cdcLogSchema(mode: CdcSupplementalLoggingMode, tableSchema: AvroRecordSchema): AvroRecordSchema {
  if (mode === 'OP_KEY_ONLY') {
    return parseAvroSchema({ type: 'record', name: 'Record', fields: [{ name: 'op', type: ['string', 'null'] }, { name: 'record_key', type: ['string', 'null'] }] }) as AvroRecordSchema;
  }
  const image = avroSchemaToJson(withoutMetaFields(tableSchema)) as { name?: unknown; namespace?: unknown };
  const namespace = typeof image.namespace === 'string' && image.namespace !== '' ? image.namespace : undefined;
  const fullName = namespace ? `${namespace}.${String(image.name)}` : String(image.name);
  const nullable = (type: unknown, name: string) => ({ name, type: ['null', type], default: null });
  const fields = mode === 'DATA_BEFORE_AFTER'
    ? [nullable('string', 'op'), nullable('string', 'ts_ms'), nullable(image, 'before'), nullable(fullName, 'after')]
    : [nullable('string', 'op'), nullable('string', 'record_key'), nullable(image, 'before')];
  return parseAvroSchema({ type: 'record', name: 'CDC', ...(namespace ? { namespace } : {}), fields }) as AvroRecordSchema;
}

/** A change as a record of the mode's CDC schema. */
function cdcRecord(mode: CdcSupplementalLoggingMode, c: LoggedChange, instantTime: string): Record<string, unknown> {
  if (mode === 'OP_KEY_ONLY') return { op: c.op, record_key: c.key };
  const before = c.before ? changeImage(c.before) : null;
  if (mode === 'DATA_BEFORE') return { op: c.op, record_key: c.key, before };
  return { op: c.op, ts_ms: instantTime, before, after: c.after ? changeImage(c.after) : null };
}

/** Encode a `.cdc` file's bytes: one CDC_DATA block of `changes` (Hudi writes one per flushed batch). */
export function encodeCdcLog(mode: CdcSupplementalLoggingMode, tableSchema: AvroRecordSchema, instantTime: string, changes: readonly LoggedChange[]): Uint8Array {
  const schema = cdcLogSchema(mode, tableSchema);
  const content = encodeAvroDataBlockContent(schema, changes.map((c) => cdcRecord(mode, c, instantTime)));
  return encodeLogBlock('CDC_DATA', { INSTANT_TIME: instantTime, SCHEMA: avroSchemaJson(schema) }, content);
}

/**
 * The `.cdc` file name of a merge handle's write (`HoodieWriteHandle.createLogWriter(instantTime, ".cdc")` over
 * no slice): `.{fileId}_{instantTime}.log.1_{writeToken}.cdc` — the writing instant in both table versions
 * (v6 takes it as the base commit, which is the new base file's), version 1, the base file's write token.
 */
export function cdcLogFileName(fileId: string, instantTime: string, writeToken: string): string {
  return `${logFileName(fileId, instantTime, 1, writeToken)}.cdc`;
}

/** What one merge handle's CDC log needs. */
export interface CdcLogInput {
  storage: Storage;
  mode: CdcSupplementalLoggingMode;
  instantTime: string;
  partitionPath: string;
  fileId: string;
  /** The new base file's write token (the CDC file takes it too). */
  writeToken: string;
  /** Table schema with meta fields: both files' rows are read in it. */
  schema: AvroRecordSchema;
  /** The group's base file before the merge. */
  base: BaseFile;
  /** The new base file: its path and bytes. */
  newPath: string;
  newBytes: Uint8Array;
}

async function allRows(file: AsyncBuffer, path: string, schema: AvroRecordSchema): Promise<Row[]> {
  const out: Row[] = [];
  for await (const batch of parquetBatches(file, path, undefined, schema)) out.push(...batch);
  return out;
}

/**
 * Write the merge's `.cdc` log (marker first, as for every data file), or nothing when the merge changed no
 * record. Returns the write stat's `cdcStats` (table-relative path → bytes), or undefined when nothing was written.
 */
export async function writeCdcLog(input: CdcLogInput): Promise<Record<string, number> | undefined> {
  const { storage, base } = input;
  const before = await allRows(await storageBuffer(storage, base.path, base.size || undefined), base.path, input.schema);
  const after = await allRows(bufferFromBytes(input.newBytes), input.newPath, input.schema);
  const changes = mergeChanges(before, after);
  if (changes.length === 0) return undefined;
  const bytes = encodeCdcLog(input.mode, input.schema, input.instantTime, changes);
  const path = partitionFilePath(input.partitionPath, cdcLogFileName(input.fileId, input.instantTime, input.writeToken));
  await storage.write(markerPath(input.instantTime, path, 'APPEND'), new Uint8Array(0));
  await storage.write(path, bytes);
  return { [path]: bytes.length };
}
