// Reading values a file wrote under an older table schema as the table's current types: Hudi's schema-on-write
// promotions (int → long/float/double/string, long → float/double/string, float → double/string, double → string,
// bytes ↔ string, decimal widening; int/long → decimal from schema-on-read writers) and the defaults (else null)
// of fields the file lacks, at any depth. One promoter per (table schema, file schema), for rows and column vectors.
import { parseAvroSchema, type AvroRecordSchema, type AvroSchema } from '../format/avro/schema.js';
import type { ColumnBatch } from '../format/parquet/column-batch.js';
import { defaultValue } from './defaults.js';
import { isPlainObject } from './row-errors.js';
import { formatDecimal } from './values.js';
import { javaDoubleText, javaFloatText } from './java-number-text.js';

/** Turns a value of any older type Hudi promotes to one type into that type's value. */
type ValuePromoter = (value: unknown) => unknown;

/** Promotes the rows or column vectors of one file to the table schema. */
export interface SchemaPromoter {
  /** Promote a row's top-level fields in place (fields the row leaves out stay out, but gain a non-null default); returns it. */
  row(row: Record<string, unknown>): Record<string, unknown>;
  /** The batch with its promoted columns replaced (and missing columns with a non-null default filled). */
  batch(batch: ColumnBatch): ColumnBatch;
}

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();

/** `"12.5"` with `scale` 3 → `"12.500"`: a decimal string of a smaller scale, exactly. */
function rescaleDecimal(text: string, scale: number): string {
  const dot = text.indexOf('.');
  const fraction = dot < 0 ? 0 : text.length - dot - 1;
  if (fraction >= scale) return text;
  return (dot < 0 ? `${text}.` : text) + '0'.repeat(scale - fraction);
}

/** The default of a field the older value lacks: its Avro default, else null (fresh for object defaults). */
function missingValue(field: AvroRecordSchema['fields'][number], path: string): () => unknown {
  if (!field.hasDefault || field.default === null) return () => null;
  const value = defaultValue(field.type, field.default, path);
  return typeof value === 'object' && value !== null ? () => defaultValue(field.type, field.default, path) : () => value;
}

/** The single non-null branch of a nullable union (or the type itself); undefined for other unions and unknown. */
function nonNull(type: AvroSchema | undefined): AvroSchema | undefined {
  if (type?.type !== 'union') return type;
  const branches = type.branches.filter((b) => b.type !== 'null');
  return branches.length === 1 ? branches[0] : undefined;
}

/** Numbers as text: as Java's String.valueOf gives them for the old type (`old` unknown: by the value). */
function numberText(old: AvroSchema | undefined): ValuePromoter {
  const kind = old?.type;
  return (v) => {
    if (typeof v === 'bigint') return String(v);
    if (typeof v !== 'number') return v instanceof Uint8Array ? utf8Decoder.decode(v) : v;
    if (kind === 'float') return javaFloatText(v);
    if (kind === 'double' || (kind === undefined && !Number.isInteger(v))) return javaDoubleText(v);
    return String(v);
  };
}

/**
 * The promoter of values into `type` from `old` (the file's type at that place; undefined when unknown: by the
 * values); undefined when no older type Hudi accepts reads differently.
 */
function valuePromoter(type: AvroSchema, old: AvroSchema | undefined, path: string, seen: Set<AvroSchema>): ValuePromoter | undefined {
  const was = nonNull(old);
  if ('logicalType' in type && type.logicalType?.name === 'decimal') {
    const { scale } = type.logicalType;
    const factor = 10n ** BigInt(scale);
    return (v) => {
      if (typeof v === 'string') return rescaleDecimal(v, scale);
      if (typeof v === 'number' && Number.isInteger(v)) return formatDecimal(BigInt(v) * factor, scale);
      if (typeof v === 'bigint') return formatDecimal(v * factor, scale);
      return v;
    };
  }
  if ('logicalType' in type && type.logicalType !== undefined) return undefined;
  switch (type.type) {
    case 'long': return (v) => (typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v);
    case 'float': return (v) => (typeof v === 'bigint' ? Math.fround(Number(v)) : v);
    case 'double': return (v) => (typeof v === 'bigint' ? Number(v) : v);
    case 'string': return numberText(was);
    case 'bytes': return (v) => (typeof v === 'string' ? utf8Encoder.encode(v) : v);
    case 'union': {
      const inner = nonNull(type) === undefined ? undefined : valuePromoter(nonNull(type) as AvroSchema, was, path, seen);
      return inner && ((v) => (v === null || v === undefined ? null : inner(v)));
    }
    case 'array': {
      const items = valuePromoter(type.items, was?.type === 'array' ? was.items : undefined, `${path}[]`, seen);
      return items && ((v) => (Array.isArray(v) ? v.map(items) : v));
    }
    case 'map': {
      const values = valuePromoter(type.values, was?.type === 'map' ? was.values : undefined, `${path}{}`, seen);
      return values && ((v) => (isPlainObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, values(x)])) : v));
    }
    case 'record': {
      if (seen.has(type)) return undefined; // a recursive record: its inner levels are left as read
      seen.add(type);
      const oldFields = was?.type === 'record' ? was.fields : undefined;
      const fields = type.fields.map((f) => {
        const at = `${path}.${f.name}`;
        return { name: f.name, promote: valuePromoter(f.type, oldFields?.find((o) => o.name === f.name)?.type, at, seen), missing: missingValue(f, at) };
      });
      seen.delete(type);
      return (v) => {
        if (!isPlainObject(v)) return v;
        const out: Record<string, unknown> = {};
        for (const f of fields) out[f.name] = f.name in v ? (f.promote ? f.promote(v[f.name]) : v[f.name]) : f.missing();
        return out;
      };
    }
    default: return undefined;
  }
}

/** A key equal for two types exactly when their values read the same (names, docs and defaults aside). */
function shapeKey(type: AvroSchema, seen: Set<string> = new Set()): string {
  switch (type.type) {
    case 'record': {
      if (seen.has(type.fullName)) return type.fullName;
      seen.add(type.fullName);
      return `{${type.fields.map((f) => `${f.name}:${shapeKey(f.type, seen)}`).join(',')}}`;
    }
    case 'enum': return `enum(${type.symbols.join(',')})`;
    case 'fixed': return `fixed${type.size}${type.logicalType?.name === 'decimal' ? `(${type.logicalType.precision},${type.logicalType.scale})` : ''}`;
    case 'array': return `[${shapeKey(type.items, seen)}]`;
    case 'map': return `map<${shapeKey(type.values, seen)}>`;
    case 'union': return type.branches.map((b) => shapeKey(b, seen)).join('|');
    default: {
      const l = type.logicalType;
      return l === undefined ? type.type : l.name === 'decimal' ? `${type.type}(${l.precision},${l.scale})` : `${type.type}:${l.name}`;
    }
  }
}

/**
 * The promoter of a file written under `fileSchema` (its footer's or log block's writer schema; undefined when
 * unknown: every field is promoted) to `tableSchema`; undefined when the file's fields read as the table's already.
 * `fillDefaults: false` leaves top-level fields the file lacks out (a partial-update block's absent columns).
 */
export function schemaPromoter(tableSchema: AvroRecordSchema, fileSchema: AvroSchema | undefined, fillDefaults = true): SchemaPromoter | undefined {
  const fileFields = fileSchema?.type === 'record' ? new Map(fileSchema.fields.map((f) => [f.name, f.type])) : undefined;
  const promoted: { name: string; promote: ValuePromoter }[] = [];
  const filled: { name: string; value: () => unknown }[] = [];
  for (const f of tableSchema.fields) {
    const old = fileFields?.get(f.name);
    if (fileFields && old === undefined) {
      if (fillDefaults && f.hasDefault && f.default !== null) filled.push({ name: f.name, value: missingValue(f, f.name) });
      continue;
    }
    if (old !== undefined && shapeKey(old) === shapeKey(f.type)) continue;
    const promote = valuePromoter(f.type, old, f.name, new Set());
    if (promote) promoted.push({ name: f.name, promote });
  }
  if (promoted.length === 0 && filled.length === 0) return undefined;
  return {
    row(row) {
      for (const { name, promote } of promoted) if (name in row) row[name] = promote(row[name]);
      for (const { name, value } of filled) if (!(name in row)) row[name] = value();
      return row;
    },
    batch(batch) {
      const columns: Record<string, ArrayLike<unknown>> = { ...batch.columns };
      for (const { name, promote } of promoted) {
        const vector = columns[name];
        if (vector !== undefined) columns[name] = Array.from(vector, promote);
      }
      for (const { name, value } of filled) if (columns[name] === undefined) columns[name] = Array.from({ length: batch.length }, value);
      return { length: batch.length, columns };
    },
  };
}

const parsedFooterSchemas = new Map<string, AvroSchema | undefined>();

/**
 * The writer schema a parquet file's footer records (`parquet.avro.schema`), parsed once per distinct text;
 * undefined when absent or unreadable (the file's values are then promoted field by field).
 */
export function footerSchema(keyValues: Readonly<Record<string, string>>): AvroSchema | undefined {
  const text = keyValues['parquet.avro.schema'];
  if (text === undefined) return undefined;
  if (!parsedFooterSchemas.has(text)) {
    let parsed: AvroSchema | undefined;
    try {
      parsed = parseAvroSchema(text);
    } catch {
      parsed = undefined;
    }
    if (parsedFooterSchemas.size >= 64) parsedFooterSchemas.clear();
    parsedFooterSchemas.set(text, parsed);
  }
  return parsedFooterSchemas.get(text);
}
