// The first steps of a write (DESIGN.md §3 steps 2–3): user input (rows, async rows or an Arrow Table)
// validated against the table schema, keyed by the key generator, and deduplicated by key keeping the
// greatest ordering value.
import { Table as ArrowTable } from 'apache-arrow';
import { LakeletError } from '../../errors.js';
import { arrowToRows } from '../../arrow/arrow.js';
import type { AvroRecordSchema } from '../../format/avro/schema.js';
import { compileRowValidator } from '../../schema/validate.js';
import type { KeyGenerator } from '../../keygen/key-generator.js';
import { compareValues, type ComparableKind } from '../../expr/filter.js';
import type { HoodieRecord } from '../../merge/hoodie-record.js';
import { yielder } from '../yield.js';

/** What writes accept: plain objects (sync or async iterable) or an Arrow Table. */
export type WriteInput = Iterable<object> | AsyncIterable<object> | ArrowTable;

/** Collect the input rows (Arrow values converted to lakelet's value model). */
export async function collectRows(input: WriteInput): Promise<Record<string, unknown>[]> {
  if (input instanceof ArrowTable) return [...arrowToRows(input)];
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

/**
 * Keep one record per key (per partition and key, or per key alone for global indexes): the greatest
 * ordering value wins, a later record wins ties (Hudi's combineBeforeUpsert).
 */
export function dedupeRecords(records: readonly HoodieRecord[], global: boolean, orderingKinds: readonly { kind: ComparableKind; scale: number }[]): HoodieRecord[] {
  const kept = new Map<string, HoodieRecord>();
  for (const r of records) {
    const key = global ? r.recordKey : `${r.partitionPath}\u0000${r.recordKey}`;
    const current = kept.get(key);
    if (!current || laterWins(current, r, orderingKinds)) kept.set(key, r);
  }
  return [...kept.values()];
}

function laterWins(current: HoodieRecord, next: HoodieRecord, kinds: readonly { kind: ComparableKind; scale: number }[]): boolean {
  for (let i = 0; i < kinds.length; i++) {
    const k = kinds[i] as { kind: ComparableKind; scale: number };
    const c = compareValues(k.kind, k.scale, next.ordering[i], current.ordering[i]);
    if (c === undefined) return true;
    if (c !== 0) return c > 0;
  }
  return true;
}
