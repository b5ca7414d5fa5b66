// A write's records (DESIGN.md §3 steps 2–3): user input (rows, async rows or an Arrow Table) validated against
// the write schema and keyed by the key generator, delete records from rows or keys, and the dedupe of step 3
// (merge/dedupe.ts, on the calling thread's kernels for large batches).
import { LakeletError } from '../../errors.js';
import type { ArrowTable } from '../../arrow/arrow.js';
import type { AvroRecordSchema } from '../../format/avro/schema.js';
import { compileRowValidator } from '../../schema/validate.js';
import type { KeyGenerator } from '../../keygen/key-generator.js';
import type { HoodieRecord } from '../../merge/hoodie-record.js';
import type { TableConfig } from '../../config/table-config.js';
import { isGlobalIndex } from '../../index/index-type.js';
import { DEDUPE_KERNEL_MIN_RECORDS, dedupeRecordsInTurns } from '../../merge/dedupe.js';
import { orderingSpec } from '../../merge/ordering.js';
import type { OrderingKind } from '../../schema/compare.js';
import { mainThreadKernels } from '../kernels.js';
import type { TableState } from '../table-state.js';
import { yielder, yieldToEventLoop } from '../yield.js';
import { packKeysInChunks } from '../pack-keys.js';
import type { WriteOperation } from './operation.js';
import type { ResolvedWriteOptions } from './write-options.js';
import { prepareSchema } from './write-schema.js';

/** What writes accept: plain objects (sync or async iterable) or an Arrow Table. */
export type WriteInput = Iterable<object> | AsyncIterable<object> | ArrowTable;

/**
 * True for an Apache Arrow Table, duck-typed (`schema.fields`, `numRows`, `getChild`) so that checking plain
 * rows never loads Arrow: only an actual Arrow Table loads arrow/arrow.ts to convert it.
 */
export function isArrowTable(input: unknown): input is ArrowTable {
  if (typeof input !== 'object' || input === null) return false;
  const t = input as { schema?: { fields?: unknown }; numRows?: unknown; getChild?: unknown };
  return Array.isArray(t.schema?.fields) && typeof t.numRows === 'number' && typeof t.getChild === 'function';
}

/** Collect the input rows (Arrow values converted to lakelet's value model). */
export async function collectRows(input: WriteInput): Promise<Record<string, unknown>[]> {
  if (isArrowTable(input)) {
    const { arrowToRows } = await import('../../arrow/arrow.js');
    return [...arrowToRows(input)];
  }
  if (input === null || typeof input !== 'object' || !(Symbol.iterator in input || Symbol.asyncIterator in input)) {
    throw new LakeletError('INVALID_ARGUMENT', 'write: rows must be an iterable or async iterable of objects, or an Arrow Table', { value: typeof input });
  }
  const out: Record<string, unknown>[] = [];
  let i = 0;
  for await (const row of input as AsyncIterable<unknown>) {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      throw new LakeletError('INVALID_ARGUMENT', `write: row ${i} is not an object`, { row: i, value: row });
    }
    out.push(row as Record<string, unknown>);
    i++;
  }
  return out;
}

/** How records are built. */
export interface RecordBuildContext {
  schema: AvroRecordSchema;
  keyGenerator: KeyGenerator;
  orderingFields: readonly string[];
}

/**
 * Validate, coerce and key each row; errors name the row index and field (`INVALID_ARGUMENT`). Yields to
 * the event loop between chunks, so validating a large batch never blocks the page for long.
 */
export async function buildRecords(rows: readonly Record<string, unknown>[], ctx: RecordBuildContext, isDelete = false): Promise<HoodieRecord[]> {
  const validate = compileRowValidator(ctx.schema);
  const out: HoodieRecord[] = [];
  const pause = yielder(1000);
  for (const [index, raw] of rows.entries()) {
    await pause();
    const data = validate(raw, index);
    let recordKey: string;
    let partitionPath: string;
    try {
      recordKey = ctx.keyGenerator.recordKey(data);
      partitionPath = ctx.keyGenerator.partitionPath(data);
    } catch (err) {
      if (err instanceof LakeletError) {
        throw new LakeletError(err.code, `row ${index}: ${err.message}`, { ...err.context, row: index }, { cause: err });
      }
      throw err;
    }
    for (const f of ctx.orderingFields) {
      if (!isDelete && (data[f] === null || data[f] === undefined)) {
        throw new LakeletError('INVALID_ARGUMENT', `row ${index}: ordering field '${f}' is missing`, { row: index, field: f });
      }
    }
    // Deletes through delete() apply by arrival order (Hudi's "natural" ordering value 0).
    const ordering = isDelete ? [] : ctx.orderingFields.map((f) => data[f]);
    out.push({ recordKey, partitionPath, data, ordering, isDelete: isDelete || data._hoodie_is_deleted === true, index });
  }
  return out;
}

/** The schema a write's records follow, and what merging them needs. */
export interface WriteMerge {
  /** Data fields only. */
  schema: AvroRecordSchema;
  /** The table's ordering fields the schema holds, and how each compares. */
  orderingFields: string[];
  orderingKinds: OrderingKind[];
  /** The index looks keys up across partitions. */
  global: boolean;
}

/** Step 2's outcome. */
export interface PreparedRecords {
  records: HoodieRecord[];
  merge: WriteMerge;
  /** Gives hoodie.properties the create schema; call once the write has committed. */
  schemaChanged: (() => Promise<void>) | undefined;
}

/** What step 2 reads of the write request. */
export interface RecordsRequest {
  operation: WriteOperation;
  /** DELETE: record keys instead of rows. */
  keys?: readonly string[];
  /** Overwrites: the partitions to replace (checked against the table's partitioning). */
  partitions?: readonly string[];
}

/**
 * Step 2: the write schema (current, given or inferred), then every row validated and keyed — or, for
 * deletes, a delete record per row or key. Everything is checked before anything is written, so bad input
 * leaves the table untouched (`INVALID_ARGUMENT` naming the row and field).
 */
export async function prepareRecords(state: TableState, request: RecordsRequest, rows: readonly Record<string, unknown>[], options: ResolvedWriteOptions): Promise<PreparedRecords> {
  const isDelete = request.operation === 'DELETE';
  const { schema, keyGenerator, schemaChanged } = await prepareSchema(state, isDelete ? [] : rows, options);
  const { orderingFields, orderingKinds } = orderingSpec(state.config.orderingFields, schema);
  let records: HoodieRecord[];
  if (isDelete && request.keys) records = request.keys.map((k, index) => deleteByKey(k, index));
  else if (isDelete) records = rows.map((raw, index) => deleteByRow(raw, index, keyGenerator));
  else records = await buildRecords(rows, { schema, keyGenerator, orderingFields });
  for (const p of request.partitions ?? []) checkPartitionPath(state.config, p);
  return { records, merge: { schema, orderingFields, orderingKinds, global: isGlobalIndex(options.index) }, schemaChanged };
}

/** Step 3: one record per key (per key alone under a global index), the greatest ordering value kept. */
export async function dedupeWriteRecords(records: HoodieRecord[], merge: WriteMerge, options: Pick<ResolvedWriteOptions, 'kernels'>): Promise<HoodieRecord[]> {
  // Kernels are loaded only for a batch large enough to use them.
  const kernels = records.length >= DEDUPE_KERNEL_MIN_RECORDS ? await mainThreadKernels(options.kernels) : undefined;
  // In turns: a large batch's keys are packed in chunks, with event-loop turns between the kernel path's stages.
  return dedupeRecordsInTurns(records, merge.global, merge.orderingKinds, kernels, packKeysInChunks, yieldToEventLoop);
}

function deleteByKey(key: string, index: number): HoodieRecord {
  if (typeof key !== 'string' || key === '') throw new LakeletError('INVALID_ARGUMENT', `delete: key ${index} is empty or not a string`, { row: index, value: key });
  return { recordKey: key, partitionPath: '', data: {}, ordering: [], isDelete: true, index };
}

function deleteByRow(raw: Record<string, unknown>, index: number, keyGenerator: KeyGenerator): HoodieRecord {
  try {
    return { recordKey: keyGenerator.recordKey(raw), partitionPath: keyGenerator.partitionPath(raw), data: {}, ordering: [], isDelete: true, index };
  } catch (err) {
    if (err instanceof LakeletError) throw new LakeletError(err.code, `row ${index}: ${err.message}`, { ...err.context, row: index }, { cause: err });
    throw err;
  }
}

/** A partition path given by the caller must fit the table's partitioning (`INVALID_ARGUMENT` otherwise). */
function checkPartitionPath(config: TableConfig, path: string): void {
  const fields = config.partitionFields;
  const segments = path === '' ? [] : path.split('/');
  const ok = segments.length === fields.length && segments.every((seg, i) => seg !== '' && seg !== '.' && seg !== '..' && (!config.hiveStylePartitioning || seg.startsWith(`${fields[i]}=`)));
  if (!ok) {
    const shape = fields.length === 0 ? "'' (the table is not partitioned)" : fields.map((f) => (config.hiveStylePartitioning ? `${f}=<value>` : `<${f}>`)).join('/');
    throw new LakeletError('INVALID_ARGUMENT', `write: partition path ${JSON.stringify(path)} does not fit the table's partitioning ${shape}`, { value: path });
  }
}
