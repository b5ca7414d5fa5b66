// Merging two versions of one record when either may be partial (docs/partial-updates.md): Hudi 1.x's
// `PartialUpdateBufferedRecordMerger` over the Spark mergers' `partialMerge` and `SparkRecordMergingUtils.
// mergePartialRecords`. The winner (by ordering value under event-time ordering, the newer under commit-time
// ordering) keeps every column it carries; a partial winner takes the columns it lacks from the loser. Deletes
// win or lose whole. Also what a partial block needs before lakelet merges it (UNSUPPORTED otherwise).
import { unsupported } from '../errors.js';
import type { RecordMergerOptions } from './record-merger.js';

/** One version of a record while a slice merges: a row (full or partial) or a delete. */
export interface RecordVersion {
  /** The record's values; undefined for a delete. */
  row: Record<string, unknown> | undefined;
  /** A delete's ordering values; undefined = a natural-order delete (it wins by arrival). Unused for rows. */
  deleteOrdering: unknown[] | undefined;
  /** A partial record's columns (its block's partial schema); undefined = a full record. */
  fields?: ReadonlySet<string> | undefined;
}

/**
 * Merge an older and a newer version of one record. `olderWins` is the ordering decision: true when the older
 * version's ordering value is strictly greater (event-time ordering; never under commit-time ordering, and never
 * when either side is a natural-order delete — Hudi's `isCommitTimeOrderingDelete`). The winner is returned
 * as it is when it is full or either side is a delete; a partial winner gets the loser's values for the
 * columns it does not carry (the result is full when the loser is, else partial over both column sets).
 */
export function mergeVersions(older: RecordVersion, newer: RecordVersion, olderWins: boolean): RecordVersion {
  const [loser, winner] = olderWins ? [newer, older] : [older, newer];
  if (winner.row === undefined || loser.row === undefined) return winner;
  return overlay(loser.row, loser.fields, winner.row, winner.fields);
}

/** `over`'s values for its columns on top of `under`'s (all of `over` when it is full). */
function overlay(under: Record<string, unknown>, underFields: ReadonlySet<string> | undefined, over: Record<string, unknown>, overFields: ReadonlySet<string> | undefined): RecordVersion {
  if (overFields === undefined) return { row: over, deleteOrdering: undefined };
  const row: Record<string, unknown> = { ...under };
  for (const f of overFields) if (f in over) row[f] = over[f];
  const fields = underFields === undefined ? undefined : new Set([...underFields, ...overFields]);
  return { row, deleteOrdering: undefined, ...(fields === undefined ? {} : { fields }) };
}

/** `hoodie.table.partial.update.mode` values under which IS_PARTIAL blocks merge as lakelet merges them. */
const KEEP_VALUES_MODES: ReadonlySet<string> = new Set(['', 'NONE', 'KEEP_VALUES']);

/** Where a partial block came from, for errors. */
export interface PartialBlockSource {
  path?: string | undefined;
  offset?: number | undefined;
}

/**
 * Refuse a partial block lakelet cannot merge exactly as Hudi does (`UNSUPPORTED` naming the setting or field):
 * a table merge mode other than event-time or commit-time ordering (custom mergers have their own
 * `partialMerge`), a `hoodie.table.partial.update.mode` other than unset/NONE/KEEP_VALUES (those modes change how
 * the full records before the first partial block merge), a partial schema without the record-key field, or —
 * under event-time ordering — without an ordering field (Hudi's reader would compare its default ordering value
 * `0` against the field's real type and fail).
 */
export function checkPartialMergeable(options: RecordMergerOptions, fields: ReadonlySet<string>, source: PartialBlockSource): void {
  const where = `${source.path === undefined ? '' : ` in ${source.path}`}${source.offset === undefined ? '' : ` at byte ${source.offset}`}`;
  const context = { ...(source.path === undefined ? {} : { path: source.path }), ...(source.offset === undefined ? {} : { offset: source.offset }) };
  if (options.mode !== 'EVENT_TIME_ORDERING' && options.mode !== 'COMMIT_TIME_ORDERING') {
    throw unsupported(`merge: a partial-update log block (IS_PARTIAL)${where} in a table with hoodie.record.merge.mode=${options.mode}: lakelet merges partial records by event time or commit time only`, { ...context, field: 'hoodie.record.merge.mode', value: options.mode });
  }
  const mode = (options.partialUpdateMode ?? '').trim().toUpperCase();
  if (!KEEP_VALUES_MODES.has(mode)) {
    throw unsupported(`merge: a partial-update log block (IS_PARTIAL)${where} in a table with hoodie.table.partial.update.mode=${mode}: lakelet implements only KEEP_VALUES (missing columns keep the older values)`, { ...context, field: 'hoodie.table.partial.update.mode', value: mode });
  }
  const keyField = options.keyField ?? '_hoodie_record_key';
  if (!fields.has(keyField)) {
    throw unsupported(`merge: the partial schema of a log block${where} lacks the record key field ${keyField}`, { ...context, field: keyField });
  }
  if (options.mode === 'EVENT_TIME_ORDERING') {
    const missing = options.orderingFields.find((f) => !fields.has(f));
    if (missing !== undefined) {
      throw unsupported(`merge: the partial schema of a log block${where} lacks the ordering field ${missing}, so under event-time ordering its records cannot be ordered against older versions`, { ...context, field: missing });
    }
  }
}
