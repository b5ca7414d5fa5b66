// The built-in pre-commit validators: `notNull(columns)` and `expect(predicate)` over the write's new records,
// `unique()` for record keys across the table after the write, and `rowCount({ min, max })` on the new snapshot.
import { invalidArgument } from '../../errors.js';
import { checkFilter, compileFilters, matchRow, parseFilter, type CompiledFilter, type Filter } from '../../expr/filter.js';
import type { AvroRecordSchema } from '../../format/avro/schema.js';
import { comparableKind } from '../../schema/compare.js';
import { fieldType } from '../../schema/table-schema.js';
import { uniquenessKey, type NewRecord, type PreCommitValidatorObject, type ValidationContext } from './validator.js';

/** Where a record is, for messages: `key "k" (partition "p")`. */
function describeRecord(r: NewRecord): string {
  return `record key ${JSON.stringify(r.recordKey)}${r.partitionPath === '' ? '' : ` (partition ${JSON.stringify(r.partitionPath)})`}`;
}

/** The value of a (dotted) column in a record's data; undefined when a struct on the way is null. */
function valueAt(data: Record<string, unknown>, column: string): unknown {
  if (column in data) return data[column];
  let v: unknown = data;
  for (const p of column.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}

function checkColumns(schema: AvroRecordSchema, columns: readonly string[]): string | undefined {
  const unknown = columns.find((c) => !fieldType(schema, c));
  return unknown === undefined ? undefined : `unknown column ${JSON.stringify(unknown)} (columns: ${schema.fields.map((f) => f.name).join(', ')})`;
}

/**
 * Every new record has a non-null value in each of `columns` (dotted names reach into structs). The failure
 * names the column, the first offending record key and how many records offend.
 */
export function notNull(columns: string | readonly string[]): PreCommitValidatorObject {
  const list = typeof columns === 'string' ? [columns] : [...(columns ?? [])];
  if (list.length === 0 || list.some((c) => typeof c !== 'string' || c.trim() === '')) throw invalidArgument(`validators: notNull needs one or more column names, got ${JSON.stringify(columns)}`, { field: 'notNull', value: columns });
  return {
    name: `notNull(${list.join(',')})`,
    validate({ records, schema }: ValidationContext) {
      const unknown = checkColumns(schema, list);
      if (unknown) return unknown;
      for (const column of list) {
        const nulls = records.filter((r) => valueAt(r.data, column) === null || valueAt(r.data, column) === undefined);
        const first = nulls[0];
        if (first) return `column ${JSON.stringify(column)} is null in ${describeRecord(first)}${nulls.length > 1 ? ` and ${nulls.length - 1} more record${nulls.length > 2 ? 's' : ''}` : ''}`;
      }
      return true;
    },
  };
}

/**
 * Record keys stay unique across the table after the write, as the table's index scopes them (per partition,
 * or across partitions with a global index): no key twice in the batch, and for `INSERT` / `BULK_INSERT` (which
 * do not look keys up, so may duplicate) no key the table already holds — found through the write's index,
 * without reading the whole table. Other operations check the batch only (an upsert updates the key it finds;
 * an overwrite replaces the groups it targets).
 */
export function unique(): PreCommitValidatorObject {
  return {
    name: 'unique',
    async validate({ records, globalKeys, batch, existingKeys }: ValidationContext) {
      const seen = new Set<string>();
      for (const r of records) {
        const key = uniquenessKey(globalKeys, r);
        if (seen.has(key)) return `${describeRecord(r)} appears more than once in the batch`;
        seen.add(key);
      }
      if (batch.operation !== 'INSERT' && batch.operation !== 'BULK_INSERT') return true;
      const existing = await existingKeys(records);
      const dupes = records.filter((r) => existing.has(uniquenessKey(globalKeys, r)));
      const first = dupes[0];
      if (first) return `${describeRecord(first)} is already in the table${dupes.length > 1 ? ` (${dupes.length} keys of the batch are)` : ''}`;
      return true;
    },
  };
}

/** Bounds of {@link rowCount} (inclusive; at least one). */
export interface RowCountBounds {
  min?: number;
  max?: number;
}

/**
 * The table holds between `min` and `max` rows (inclusive) once the write commits: counted exactly on the new
 * snapshot, the pending files included (every live record key is read; merge-on-read logs are merged).
 */
export function rowCount(bounds: RowCountBounds): PreCommitValidatorObject {
  const { min, max } = bounds ?? {};
  const bad = (v: unknown) => v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < 0);
  if ((min === undefined && max === undefined) || bad(min) || bad(max) || (min !== undefined && max !== undefined && min > max)) {
    throw invalidArgument(`validators: rowCount needs min and/or max, whole numbers ≥ 0 with min ≤ max, got ${JSON.stringify(bounds)}`, { field: 'rowCount', value: bounds });
  }
  return {
    name: `rowCount(${min ?? ''}..${max ?? ''})`,
    async validate({ snapshot }: ValidationContext) {
      const n = await snapshot.count();
      if (min !== undefined && n < min) return `the table would hold ${n} rows, fewer than the minimum ${min}`;
      if (max !== undefined && n > max) return `the table would hold ${n} rows, more than the maximum ${max}`;
      return true;
    },
  };
}

/** A filter as text, for names and messages. */
function filterText(f: string | Filter): string {
  if (typeof f === 'string') return f.trim();
  const [field, op, value] = f;
  return `${field} ${op} ${Array.isArray(value) ? value.map((v) => JSON.stringify(v)).join(',') : JSON.stringify(value)}`;
}

/**
 * Every new record satisfies `predicate`: filters in the syntax queries use (`"fare >= 0"`, `["city", "IN",
 * ["a", "b"]]`, or a list of them, ANDed). As in queries, a null value satisfies no comparison. The failure
 * names the first failing record key and the predicate.
 */
export function expect(predicate: string | Filter | readonly (string | Filter)[]): PreCommitValidatorObject {
  const list: (string | Filter)[] = isSingleFilter(predicate) ? [predicate] : Array.isArray(predicate) ? [...(predicate as readonly (string | Filter)[])] : [];
  if (list.length === 0) throw invalidArgument('validators: expect needs a predicate', { field: 'expect', value: predicate });
  const parsed = list.map((f) => (typeof f === 'string' ? parseFilter(f) : checkFilter(f)));
  const text = list.map(filterText).join(' AND ');
  return {
    name: `expect(${text})`,
    validate({ records, schema }: ValidationContext) {
      const unknown = checkColumns(schema, parsed.map(([field]) => field));
      if (unknown) return unknown;
      const filters: CompiledFilter[] = compileFilters(parsed, (field) => {
        const t = fieldType(schema, field);
        return t ? comparableKind(t) : undefined;
      });
      const failing = records.filter((r) => !matchRow(r.data, filters));
      const first = failing[0];
      if (first) return `${describeRecord(first)} does not satisfy ${text}${failing.length > 1 ? ` (${failing.length} records do not)` : ''}`;
      return true;
    },
  };
}

const OPS: readonly string[] = ['=', '!=', '<', '<=', '>', '>=', 'IN', 'NOT IN'];

/** One filter (text, or a `[field, op, value]` triple) rather than a list of them? */
function isSingleFilter(p: unknown): p is string | Filter {
  return typeof p === 'string' || (Array.isArray(p) && p.length === 3 && typeof p[0] === 'string' && OPS.includes(String(p[1]).toUpperCase()));
}
