// Event-time ordering (Hudi's precombine / ordering fields): which configured ordering fields the schema
// holds and how each compares, and the one rule deciding whether a newer version of a record wins.
import type { RecordMergeMode } from '../config/table-config.js';
import type { AvroRecordSchema } from '../format/avro/schema.js';
import { comparableKind, compareValues, type OrderingKind } from '../schema/compare.js';
import { fieldType } from '../schema/table-schema.js';

/**
 * The ordering fields of a table that its schema holds, with the comparable kind of each (same index). The
 * field names match the merge settings they are spread into (`RecordMergerOptions`, the COW merge spec).
 */
export interface OrderingSpec {
  orderingFields: readonly string[];
  orderingKinds: readonly OrderingKind[];
}

const STRING: OrderingKind = { kind: 'string', scale: 0 };

/** The ordering spec of `configFields` (hoodie.table.ordering.fields) against a record schema. */
export function orderingSpec(configFields: readonly string[], schema: AvroRecordSchema): { orderingFields: string[]; orderingKinds: OrderingKind[] } {
  const orderingFields = configFields.filter((f) => schema.fields.some((x) => x.name === f));
  return { orderingFields, orderingKinds: orderingFields.map((f) => comparableKind(fieldType(schema, f) ?? { type: 'string' })) };
}

/** Does the record merge mode compare ordering values at all? (event-time ordering with at least one field) */
export function usesEventTime(mode: RecordMergeMode, spec: Pick<OrderingSpec, 'orderingFields'>): boolean {
  return mode === 'EVENT_TIME_ORDERING' && spec.orderingFields.length > 0;
}

/**
 * Compare the ordering values of an incoming record with those of the current one, field by field (the
 * incoming record's values decide how many; a field without a kind compares as text): the first non-zero
 * result, 0 when every field ties, undefined when a value is missing (null/undefined) on either side.
 */
export function compareOrdering(kinds: readonly OrderingKind[], incoming: readonly unknown[], current: readonly unknown[]): number | undefined {
  for (let i = 0; i < incoming.length; i++) {
    const k = kinds[i] ?? STRING;
    const c = compareValues(k.kind, k.scale, incoming[i], current[i]);
    if (c === undefined) return undefined;
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * Does the incoming version replace the current one? Yes unless its ordering value is strictly smaller: ties go
 * to the later record (Hudi's DefaultHoodieRecordPayload and combineBeforeUpsert), and so does an incomparable pair.
 */
export function newerWins(kinds: readonly OrderingKind[], incoming: readonly unknown[], current: readonly unknown[]): boolean {
  const c = compareOrdering(kinds, incoming, current);
  return c === undefined || c >= 0;
}
