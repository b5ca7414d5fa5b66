// Table schemas from what users have: Avro record schemas inferred from sample rows, converted from an Arrow
// schema (the reverse of arrow.ts), or given as Avro JSON; always without the `_hoodie_*` meta fields.
import { Field, Precision, Schema, TimeUnit, Type, type DataType } from 'apache-arrow';
import { LakeletError } from '../errors.js';
import { avroSchemaToJson, isParsedAvroSchema, parseAvroSchema, type AvroRecordSchema } from '../format/avro/schema.js';
import { isMetaField } from './table-schema.js';

/** Names of the record schema to build. */
export interface SchemaNames {
  /** Record name (an Avro name: letters, digits, `_`). */
  name: string;
  /** Record namespace; default none. */
  namespace?: string;
}

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

function invalid(message: string, field?: string, value?: unknown): LakeletError {
  const context: Record<string, unknown> = {};
  if (field !== undefined) context.field = field;
  if (value !== undefined) context.value = value;
  return new LakeletError('INVALID_ARGUMENT', `schema: ${message}`, context);
}

function checkName(name: string, field: string): void {
  if (!NAME_RE.test(name)) throw invalid(`field name ${JSON.stringify(name)} is not a valid Avro name (letters, digits and _, not starting with a digit)`, field, name);
}

/** Parse JSON built here into a proper parsed record (nested named types resolved). */
function toRecord(json: unknown): AvroRecordSchema {
  const parsed = parseAvroSchema(json as object);
  if (parsed.type !== 'record') throw invalid(`expected a record schema, got ${parsed.type}`);
  return parsed;
}

// ---- inference from rows ----

type Kind = 'string' | 'boolean' | 'integer' | 'fraction' | 'bigint' | 'date' | 'bytes' | 'record' | 'array';

interface Slot {
  kind: Kind | undefined;
  nullSeen: boolean;
  fields?: Map<string, Slot>;
  items?: Slot;
}

const newSlot = (): Slot => ({ kind: undefined, nullSeen: false });
const NUMERIC: ReadonlySet<Kind> = new Set(['integer', 'fraction', 'bigint']);

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

function kindOf(value: unknown, path: string): Kind {
  switch (typeof value) {
    case 'string': return 'string';
    case 'boolean': return 'boolean';
    case 'bigint': return 'bigint';
    case 'number':
      if (!Number.isFinite(value)) return 'fraction';
      return Number.isInteger(value) ? 'integer' : 'fraction';
  }
  if (value instanceof Date) return 'date';
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return 'bytes';
  if (Array.isArray(value)) return 'array';
  if (isPlainObject(value)) return 'record';
  throw invalid(`field '${path}' holds a value of unsupported type ${describe(value)}`, path, value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'object';
  return typeof value;
}

const KIND_NAMES: Record<Kind, string> = {
  string: 'string', boolean: 'boolean', integer: 'number', fraction: 'number', bigint: 'bigint', date: 'Date', bytes: 'bytes', record: 'object', array: 'array',
};

function observe(slot: Slot, value: unknown, path: string): void {
  if (value === null || value === undefined) {
    slot.nullSeen = true;
    return;
  }
  const kind = kindOf(value, path);
  if (slot.kind === undefined) slot.kind = kind;
  else if (slot.kind !== kind) {
    if (NUMERIC.has(slot.kind) && NUMERIC.has(kind)) {
      if (kind === 'fraction' || slot.kind === 'fraction') slot.kind = 'fraction';
      else if (kind === 'bigint') slot.kind = 'bigint';
    } else {
      throw invalid(`field '${path}' holds values of different types (${KIND_NAMES[slot.kind]} and ${KIND_NAMES[kind]})`, path, value);
    }
  }
  if (kind === 'record') {
    slot.fields ??= new Map();
    for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
      const childPath = `${path}.${name}`;
      checkName(name, childPath);
      let child = slot.fields.get(name);
      if (child === undefined) {
        child = newSlot();
        slot.fields.set(name, child);
      }
      observe(child, v, childPath);
    }
  } else if (kind === 'array') {
    slot.items ??= newSlot();
    for (const item of value as unknown[]) observe(slot.items, item, `${path}[]`);
  }
}

function slotJson(slot: Slot, name: string, namespace: string): unknown {
  switch (slot.kind) {
    case undefined: case 'string': return 'string';
    case 'boolean': return 'boolean';
    case 'integer': case 'bigint': return 'long';
    case 'fraction': return 'double';
    case 'date': return { type: 'long', logicalType: 'timestamp-micros' };
    case 'bytes': return 'bytes';
    case 'array': {
      const items = slot.items ?? newSlot();
      const itemType = slotJson(items, name, namespace);
      return { type: 'array', items: items.nullSeen ? ['null', itemType] : itemType };
    }
    case 'record': return recordJson(slot.fields ?? new Map(), name, namespace);
  }
}

function recordJson(fields: Map<string, Slot>, name: string, namespace: string): unknown {
  const childNamespace = namespace === '' ? name : `${namespace}.${name}`;
  const out: Record<string, unknown> = { type: 'record', name, fields: [...fields].map(([fieldName, slot]) => ({ name: fieldName, type: ['null', slotJson(slot, fieldName, childNamespace)], default: null })) };
  if (namespace !== '') out.namespace = namespace;
  return out;
}

/**
 * Infer a record schema from sample rows. Per field, in first-seen order: string → string, boolean → boolean,
 * number → long when every sample is an integer else double, bigint → long (double when mixed with fractions),
 * Date → timestamp-micros, Uint8Array/ArrayBuffer → bytes, plain object → nested record (named after the field,
 * namespaced under its parent), array → array of the merged item type (items nullable only if a null item was seen).
 * Every field is `["null", T]` with default null; a field that is only ever null becomes a nullable string.
 * Different kinds in one field, unsupported values or invalid names → `INVALID_ARGUMENT` naming the field.
 */
export function inferAvroSchema(rows: Iterable<Readonly<Record<string, unknown>>>, names: SchemaNames): AvroRecordSchema {
  if (!NAME_RE.test(names.name)) throw invalid(`record name ${JSON.stringify(names.name)} is not a valid Avro name`, undefined, names.name);
  const fields = new Map<string, Slot>();
  let index = 0;
  for (const row of rows) {
    if (!isPlainObject(row)) throw invalid(`row ${index} is not a plain object`, undefined, row);
    for (const [name, value] of Object.entries(row)) {
      if (isMetaField(name)) continue;
      checkName(name, name);
      let slot = fields.get(name);
      if (slot === undefined) {
        slot = newSlot();
        fields.set(name, slot);
      }
      observe(slot, value, name);
    }
    index++;
  }
  if (fields.size === 0) throw invalid('cannot infer a schema: the sample rows have no fields');
  return toRecord(recordJson(fields, names.name, names.namespace ?? ''));
}

// ---- from Arrow ----

/** Bytes of the smallest fixed that holds a decimal of `precision` digits (as Spark/Hudi size them). */
export function decimalFixedSize(precision: number): number {
  let size = 1;
  while (2n ** BigInt(8 * size - 1) < 10n ** BigInt(precision)) size++;
  return size;
}

function arrowTypeJson(type: DataType, path: string, fieldName: string, namespace: string): unknown {
  const t = type as DataType & Record<string, unknown>;
  switch (type.typeId) {
    case Type.Null: return 'string';
    case Type.Bool: return 'boolean';
    case Type.Int: {
      const bits = t.bitWidth as number;
      const signed = t.isSigned as boolean;
      return bits < 32 || (bits === 32 && signed) ? 'int' : 'long';
    }
    case Type.Float: return t.precision === Precision.DOUBLE ? 'double' : 'float';
    case Type.Utf8: case Type.LargeUtf8: case Type.Utf8View: return 'string';
    case Type.Binary: case Type.LargeBinary: case Type.BinaryView: return 'bytes';
    case Type.FixedSizeBinary: return { type: 'fixed', name: 'fixed', namespace: `${namespace}.${fieldName}`, size: t.byteWidth };
    case Type.Decimal: {
      const precision = t.precision as number;
      const scale = t.scale as number;
      return { type: 'fixed', name: 'fixed', namespace: `${namespace}.${fieldName}`, size: decimalFixedSize(precision), logicalType: 'decimal', precision, scale };
    }
    case Type.Date: return { type: 'int', logicalType: 'date' };
    case Type.Time: {
      const unit = t.unit as TimeUnit;
      return unit === TimeUnit.SECOND || unit === TimeUnit.MILLISECOND ? { type: 'int', logicalType: 'time-millis' } : { type: 'long', logicalType: 'time-micros' };
    }
    case Type.Timestamp: {
      const unit = t.unit as TimeUnit;
      const local = t.timezone === null || t.timezone === undefined || t.timezone === '';
      const precision = unit === TimeUnit.SECOND || unit === TimeUnit.MILLISECOND ? 'millis' : 'micros';
      return { type: 'long', logicalType: `${local ? 'local-' : ''}timestamp-${precision}` };
    }
    case Type.List: case Type.LargeList: case Type.FixedSizeList: {
      const child = type.children[0] as Field | undefined;
      if (child === undefined) throw invalid(`list field '${path}' has no item type`, path);
      const items = arrowTypeJson(child.type, `${path}[]`, fieldName, namespace);
      return { type: 'array', items: child.nullable ? ['null', items] : items };
    }
    case Type.Struct: {
      const children = type.children as Field[];
      const out: Record<string, unknown> = { type: 'record', name: fieldName, namespace, fields: children.map((c) => arrowFieldJson(c, `${path}.${c.name}`, `${namespace}.${fieldName}`)) };
      return out;
    }
    case Type.Map: {
      const entries = type.children[0] as Field | undefined;
      const key = entries?.type.children[0] as Field | undefined;
      const value = entries?.type.children[1] as Field | undefined;
      if (key === undefined || value === undefined) throw invalid(`map field '${path}' has no key/value types`, path);
      if (key.type.typeId !== Type.Utf8 && key.type.typeId !== Type.LargeUtf8) throw invalid(`map field '${path}' has non-string keys (Avro maps have string keys)`, path, String(key.type));
      const values = arrowTypeJson(value.type, `${path}{}`, fieldName, namespace);
      return { type: 'map', values: value.nullable ? ['null', values] : values };
    }
    case Type.Dictionary: return arrowTypeJson(t.dictionary as DataType, path, fieldName, namespace);
    default:
      throw invalid(`field '${path}' has Arrow type ${String(type)}, which Hudi tables cannot store`, path, String(type));
  }
}

function arrowFieldJson(field: Field, path: string, namespace: string): unknown {
  checkName(field.name, path);
  const type = arrowTypeJson(field.type, path, field.name, namespace);
  return field.nullable || field.type.typeId === Type.Null ? { name: field.name, type: ['null', type], default: null } : { name: field.name, type };
}

/**
 * The Avro record schema of an Arrow schema (the reverse of `arrowSchema` in arrow.ts): Int8/16/32 and UInt8/16 →
 * int, Int64/UInt32/UInt64 → long, Float16/32 → float, Float64 → double, Utf8 → string, Binary → bytes,
 * FixedSizeBinary → fixed, Decimal → fixed decimal sized like Spark's, Date → date, Time → time-millis/micros,
 * Timestamp with a zone → timestamp-millis/micros (seconds → millis, nanoseconds → micros) and without a zone →
 * local-timestamp-*, List → array, Struct → record, Map (string keys) → map, Dictionary → its value type, Null →
 * nullable string. Nullable Arrow fields become `["null", T]` with default null. Meta fields are dropped.
 */
export function avroSchemaFromArrow(schema: Schema, name: string, namespace = ''): AvroRecordSchema {
  if (!NAME_RE.test(name)) throw invalid(`record name ${JSON.stringify(name)} is not a valid Avro name`, undefined, name);
  const childNamespace = namespace === '' ? name : `${namespace}.${name}`;
  const fields = schema.fields.filter((f) => !isMetaField(f.name)).map((f) => arrowFieldJson(f, f.name, childNamespace));
  const json: Record<string, unknown> = { type: 'record', name, fields };
  if (namespace !== '') json.namespace = namespace;
  return toRecord(json);
}

/**
 * A user-supplied table schema as an Avro record without meta fields: an Arrow `Schema` (converted with
 * {@link avroSchemaFromArrow}, named `name`), an Avro schema object, or Avro JSON text (keeping its own name).
 * `_hoodie_*` fields are stripped. Not a record / invalid → `INVALID_ARGUMENT`.
 */
export function normalizeUserSchema(input: Schema | object | string, name: string): AvroRecordSchema {
  if (input instanceof Schema || (typeof input === 'object' && input !== null && Array.isArray((input as { fields?: unknown }).fields) && ((input as { fields: unknown[] }).fields[0] instanceof Field))) {
    return avroSchemaFromArrow(input as Schema, name);
  }
  const parsed = isParsedAvroSchema(input) ? input : parseAvroSchema(input as string | object);
  if (parsed.type !== 'record') throw invalid(`a table schema must be an Avro record, got ${parsed.type}`, undefined, parsed.type);
  const json = avroSchemaToJson(parsed) as Record<string, unknown>;
  const fields = (json.fields as { name: string }[]).filter((f) => !isMetaField(f.name));
  if (fields.length === 0) throw invalid('the table schema has no data fields');
  return toRecord({ ...json, fields });
}
