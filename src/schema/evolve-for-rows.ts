// The schema a batch of rows needs when they do not fit the table's: the table schema plus nullable columns
// (types inferred from the rows) for the top-level fields it lacks, and numeric promotions (int → long,
// int/long → double) for values the old type cannot hold. Pure; whether Hudi accepts it is checkSchemaEvolution's call.
import { avroSchemaToJson, type AvroRecordSchema, type AvroSchema } from '../format/avro/schema.js';
import { inferAvroSchema, recordSchema } from './infer.js';
import { isMetaField } from './table-schema.js';

/** What {@link evolveSchemaForRows} found. */
export interface RowsSchemaEvolution {
  /** The table's data fields, promoted where needed, then the added columns (each `["null", T]`, default null). */
  schema: AvroRecordSchema;
  /** The added columns, in the order the rows first name them. */
  added: string[];
  /** The promoted columns: old and new primitive type. */
  promoted: { field: string; from: string; to: string }[];
}

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
const RANK: Record<string, number> = { int: 0, long: 1, float: 2, double: 3 };
const BY_RANK = ['int', 'long', 'float', 'double'] as const;

/** The numeric type a value needs at least (rank), or undefined for a value that says nothing (null, text, ...). */
function neededRank(v: unknown): number | undefined {
  if (typeof v === 'bigint') return v >= BigInt(INT_MIN) && v <= BigInt(INT_MAX) ? RANK.int : RANK.long;
  if (typeof v !== 'number') return undefined;
  if (!Number.isInteger(v)) return RANK.double;
  return v >= INT_MIN && v <= INT_MAX ? RANK.int : RANK.long;
}

/** A plain numeric primitive (no logical type) inside `type` (itself or the one non-null branch of a union). */
function numericBase(type: AvroSchema): { name: string; union: boolean } | undefined {
  const branches = type.type === 'union' ? type.branches.filter((b) => b.type !== 'null') : [type];
  if (branches.length !== 1) return undefined;
  const b = branches[0] as AvroSchema;
  if (!(b.type in RANK) || ('logicalType' in b && b.logicalType !== undefined)) return undefined;
  return { name: b.type, union: type.type === 'union' };
}

/**
 * The schema `rows` need on a table whose schema is `table` (meta fields are ignored). A top-level field the table
 * lacks becomes a nullable column typed as {@link inferAvroSchema} types it (different kinds in one column →
 * `INVALID_ARGUMENT` naming it); an int or long column whose values need more (a whole number beyond 32
 * bits → long, a fraction in an int or long column → double) is promoted. Nested records are not extended.
 * Returns the table's data fields unchanged (`added` and `promoted` empty) when the rows fit.
 */
export function evolveSchemaForRows(table: AvroRecordSchema, rows: readonly Readonly<Record<string, unknown>>[]): RowsSchemaEvolution {
  const known = new Map(table.fields.filter((f) => !isMetaField(f.name)).map((f) => [f.name, f]));
  const added: string[] = [];
  const addedSet = new Set<string>();
  const need = new Map<string, number>();
  for (const row of rows) {
    for (const [name, value] of Object.entries(row)) {
      if (isMetaField(name)) continue;
      if (!known.has(name)) {
        if (!addedSet.has(name)) {
          addedSet.add(name);
          added.push(name);
        }
        continue;
      }
      const r = neededRank(value);
      if (r !== undefined && r > (need.get(name) ?? -1)) need.set(name, r);
    }
  }
  const json = avroSchemaToJson({ ...table, fields: [...known.values()] }) as { fields: { name: string; type: unknown }[] };
  const promoted: RowsSchemaEvolution['promoted'] = [];
  for (const f of json.fields) {
    const base = numericBase((known.get(f.name) as { type: AvroSchema }).type);
    const wanted = need.get(f.name);
    // Float and double columns take every number. int/long holding fractions: double (a float would lose whole
    // numbers beyond 2^24); int holding numbers beyond 32 bits: long.
    if (base === undefined || wanted === undefined || base.name === 'float' || wanted <= (RANK[base.name] as number)) continue;
    const to = BY_RANK[wanted] as string;
    promoted.push({ field: f.name, from: base.name, to });
    f.type = Array.isArray(f.type) ? f.type.map((b) => (b === base.name ? to : b)) : to;
  }
  if (added.length > 0) {
    const sample = rows.map((row) => Object.fromEntries(added.filter((n) => n in row).map((n) => [n, row[n]])));
    const inferred = inferAvroSchema(sample, { name: table.name, ...(table.namespace !== '' && { namespace: table.namespace }) });
    const inferredJson = avroSchemaToJson(inferred) as { fields: unknown[] };
    json.fields.push(...(inferredJson.fields as { name: string; type: unknown }[]));
  }
  return { schema: recordSchema(json), added, promoted };
}
