// Building a write's records (DESIGN.md §3 step 2): user input (rows, async rows or an Arrow Table)
// validated against the table schema and keyed by the key generator. Dedupe (step 3) is merge/dedupe.ts.
import { LakeletError } from '../../errors.js';
import type { ArrowTable } from '../../arrow/arrow.js';
import type { AvroRecordSchema } from '../../format/avro/schema.js';
import { compileRowValidator } from '../../schema/validate.js';
import type { KeyGenerator } from '../../keygen/key-generator.js';
import type { HoodieRecord } from '../../merge/hoodie-record.js';
import { yielder } from '../yield.js';

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
