// Apache Arrow, the only module that imports it (callers load it with a dynamic import, so apps that never
// touch Arrow never bundle it): Avro ↔ Arrow schemas, and rows (lakelet's value model) ↔ Arrow Tables. Top-level
// microsecond timestamp columns go through their raw int64 values both ways, so microseconds survive.
import {
  Binary, Bool, DateDay, Decimal, Field, Float32, Float64, Int32, Int64, List, Map_, Null, Precision, Schema, Struct, Table,
  TimeMicrosecond, TimeMillisecond, TimestampMicrosecond, TimestampMillisecond, TimeUnit, Type, Utf8, Vector,
  vectorFromArray, DataType, makeData, makeVector,
} from 'apache-arrow';
import { epochMicros } from '../schema/timestamp-micros.js';
import { dateFromMicros, formatDecimal } from '../schema/values.js';
import type { AvroRecordSchema, AvroSchema } from '../format/avro/schema.js';
import { isMetaField, nonNullType } from '../schema/table-schema.js';
import { checkFieldName, checkRecordName, recordSchema, schemaError } from '../schema/infer.js';

/** Arrow's Table and Schema, for type-only imports elsewhere (which load this module lazily). */
export type { Schema as ArrowSchema, Table as ArrowTable } from 'apache-arrow';

/** The Arrow type of an Avro type (unions of several non-null types become Utf8 JSON text). */
export function arrowType(type: AvroSchema): DataType {
  const t = nonNullType(type).type;
  const logical = 'logicalType' in t ? t.logicalType : undefined;
  if (logical) {
    switch (logical.name) {
      case 'decimal': return new Decimal(logical.scale, logical.precision, 128);
      case 'date': return new DateDay();
      case 'timestamp-millis': return new TimestampMillisecond('UTC');
      case 'timestamp-micros': return new TimestampMicrosecond('UTC');
      case 'local-timestamp-millis': return new TimestampMillisecond();
      case 'local-timestamp-micros': return new TimestampMicrosecond();
      case 'time-millis': return new TimeMillisecond();
      case 'time-micros': return new TimeMicrosecond();
      case 'uuid': return new Utf8();
    }
  }
  switch (t.type) {
    case 'null': return new Null();
    case 'boolean': return new Bool();
    case 'int': return new Int32();
    case 'long': return new Int64();
    case 'float': return new Float32();
    case 'double': return new Float64();
    case 'string': case 'enum': return new Utf8();
    case 'bytes': case 'fixed': return new Binary();
    case 'record': return new Struct(t.fields.map((f) => arrowField(f.name, f.type)));
    case 'array': return new List(arrowField('item', t.items));
    case 'map': return new Map_(new Field('entries', new Struct([new Field('key', new Utf8(), false), arrowField('value', t.values)]), false) as Field<Struct<any>>);
    default: return new Utf8();
  }
}

function arrowField(name: string, type: AvroSchema): Field {
  return new Field(name, arrowType(type), nonNullType(type).nullable || type.type === 'union');
}

/** The Arrow schema of a record schema (optionally only some columns, in the given order). */
export function arrowSchema(schema: AvroRecordSchema, columns?: readonly string[]): Schema {
  const fields = columns ? columns.map((c) => schema.fields.find((f) => f.name === c)).filter((f) => f !== undefined) : schema.fields;
  return new Schema(fields.map((f) => arrowField(f.name, f.type)));
}

/** Decimal string → the four little-endian 32-bit words of a 128-bit two's-complement unscaled integer. */
function decimalWords(value: string, scale: number): Uint32Array {
  const [intPart = '0', frac = ''] = value.replace(/^-/, '').split('.');
  let unscaled = BigInt(intPart + frac.padEnd(scale, '0').slice(0, scale));
  if (value.startsWith('-')) unscaled = -unscaled;
  const u = BigInt.asUintN(128, unscaled);
  return new Uint32Array([Number(u & 0xffffffffn), Number((u >> 32n) & 0xffffffffn), Number((u >> 64n) & 0xffffffffn), Number((u >> 96n) & 0xffffffffn)]);
}

/** Prepare values for Arrow builders: decimals to words, nested values recursively; others unchanged. */
function prepare(type: DataType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (type instanceof Decimal) return typeof v === 'string' ? decimalWords(v, type.scale) : v;
  if (type instanceof Struct && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const f of type.children) o[f.name] = prepare(f.type, (v as Record<string, unknown>)[f.name]);
    return o;
  }
  if (type instanceof List && Array.isArray(v)) return v.map((x) => prepare(type.valueType, x));
  if (type instanceof Map_ && typeof v === 'object') {
    const valueType = type.valueType;
    return new Map(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, prepare(valueType, x)]));
  }
  if (type instanceof Utf8 && typeof v !== 'string') return typeof v === 'object' ? JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)) : String(v);
  if (type instanceof Int64 && typeof v === 'number') return BigInt(v);
  if (type instanceof Int32 && typeof v === 'bigint') return Number(v);
  return v;
}

/** Build an Arrow Table from rows, with one column per field of `schema` (missing values become null). */
export function rowsToArrow(rows: readonly Record<string, unknown>[], schema: Schema): Table {
  if (schema.fields.length === 0) return new Table(schema);
  const columns: Record<string, Vector> = {};
  for (const f of schema.fields) {
    columns[f.name] = isMicrosTimestamp(f.type) ? microsVector(f.type, rows.map((r) => r[f.name])) : vectorFromArray(rows.map((r) => prepare(f.type, r[f.name])), f.type) as Vector;
  }
  return new Table(columns);
}

function isMicrosTimestamp(type: DataType): type is TimestampMicrosecond {
  return type instanceof TimestampMicrosecond;
}

/** A microsecond timestamp column from Dates (a MicrosDate's exact micros), bigints of micros or epoch-ms numbers. */
function microsVector(type: TimestampMicrosecond, values: readonly unknown[]): Vector {
  const data = new BigInt64Array(values.length);
  const valid = new Uint8Array(Math.ceil(values.length / 8));
  let nulls = 0;
  values.forEach((v, i) => {
    if (v === null || v === undefined) {
      nulls++;
      return;
    }
    data[i] = v instanceof Date ? epochMicros(v) : typeof v === 'bigint' ? v : BigInt(Math.round(Number(v) * 1000));
    valid[i >> 3] = (valid[i >> 3] as number) | (1 << (i & 7));
  });
  return makeVector(makeData({ type, length: values.length, nullCount: nulls, nullBitmap: nulls > 0 ? valid : new Uint8Array(0), data }));
}

/** A converter from an Arrow value of `type` to lakelet's value model. */
function fromArrow(type: DataType): (v: unknown) => unknown {
  if (type instanceof Decimal) {
    const scale = type.scale;
    return (v) => (v === null || v === undefined ? null : formatDecimal(BigInt(String(v)), scale));
  }
  if (DataType.isDate(type) || DataType.isTimestamp(type)) {
    return (v) => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(Number(v)));
  }
  if (type instanceof Struct) {
    const fields = type.children.map((f) => [f.name, fromArrow(f.type)] as const);
    return (v) => {
      if (v === null || v === undefined) return null;
      const src = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [name, conv] of fields) out[name] = conv(src[name]);
      return out;
    };
  }
  if (type instanceof List) {
    const item = fromArrow(type.valueType);
    return (v) => (v === null || v === undefined ? null : Array.from(v as Iterable<unknown>, item));
  }
  if (type instanceof Map_) {
    const value = fromArrow(type.valueType);
    return (v) => {
      if (v === null || v === undefined) return null;
      const out: Record<string, unknown> = {};
      const entries = v instanceof Map ? v.entries() : Object.entries((v as { toJSON(): Record<string, unknown> }).toJSON());
      for (const [k, x] of entries) out[String(k)] = value(x);
      return out;
    };
  }
  return (v) => (v === undefined ? null : v);
}

/** Rows of an Arrow Table as plain objects in lakelet's value model (decimals → strings, dates → Date). */
export function* arrowToRows(table: Table): Generator<Record<string, unknown>> {
  const columns = table.schema.fields.map((f) => {
    const vector = table.getChild(f.name);
    const conv = fromArrow(f.type);
    const get = vector && isMicrosTimestamp(f.type) ? rawMicros(vector) : (i: number) => conv(vector?.get(i));
    return [f.name, get] as const;
  });
  for (let i = 0; i < table.numRows; i++) {
    const row: Record<string, unknown> = {};
    for (const [name, get] of columns) row[name] = get(i);
    yield row;
  }
}

/** Row i of a microsecond timestamp column, from its raw int64 values: a Date keeping the micros, or null. */
function rawMicros(vector: Vector): (i: number) => unknown {
  const chunks: { start: number; end: number; values: BigInt64Array; offset: number }[] = [];
  let start = 0;
  for (const d of vector.data) {
    chunks.push({ start, end: start + d.length, values: d.values as BigInt64Array, offset: d.offset });
    start += d.length;
  }
  let at = 0; // rows are read in order: start looking in the chunk of the previous row
  return (i) => {
    if (!vector.isValid(i)) return null;
    if (!(chunks[at] && i >= (chunks[at] as (typeof chunks)[number]).start && i < (chunks[at] as (typeof chunks)[number]).end)) at = chunks.findIndex((x) => i >= x.start && i < x.end);
    const c = chunks[at];
    const raw = c?.values[c.offset + i - c.start];
    return raw === undefined ? null : dateFromMicros(raw);
  };
}

// ---- Arrow schema → Avro ----

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
      if (child === undefined) throw schemaError(`list field '${path}' has no item type`, path);
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
      if (key === undefined || value === undefined) throw schemaError(`map field '${path}' has no key/value types`, path);
      if (key.type.typeId !== Type.Utf8 && key.type.typeId !== Type.LargeUtf8) throw schemaError(`map field '${path}' has non-string keys (Avro maps have string keys)`, path, String(key.type));
      const values = arrowTypeJson(value.type, `${path}{}`, fieldName, namespace);
      return { type: 'map', values: value.nullable ? ['null', values] : values };
    }
    case Type.Dictionary: return arrowTypeJson(t.dictionary as DataType, path, fieldName, namespace);
    default:
      throw schemaError(`field '${path}' has Arrow type ${String(type)}, which Hudi tables cannot store`, path, String(type));
  }
}

function arrowFieldJson(field: Field, path: string, namespace: string): unknown {
  checkFieldName(field.name, path);
  const type = arrowTypeJson(field.type, path, field.name, namespace);
  return field.nullable || field.type.typeId === Type.Null ? { name: field.name, type: ['null', type], default: null } : { name: field.name, type };
}

/**
 * The Avro record schema of an Arrow schema (the reverse of {@link arrowSchema}): Int8/16/32 and UInt8/16 →
 * int, Int64/UInt32/UInt64 → long, Float16/32 → float, Float64 → double, Utf8 → string, Binary → bytes,
 * FixedSizeBinary → fixed, Decimal → fixed decimal sized like Spark's, Date → date, Time → time-millis/micros,
 * Timestamp with a zone → timestamp-millis/micros (seconds → millis, nanoseconds → micros) and without a zone →
 * local-timestamp-*, List → array, Struct → record, Map (string keys) → map, Dictionary → its value type, Null →
 * nullable string. Nullable Arrow fields become `["null", T]` with default null. Meta fields are dropped.
 */
export function avroSchemaFromArrow(schema: Schema, name: string, namespace = ''): AvroRecordSchema {
  checkRecordName(name);
  const childNamespace = namespace === '' ? name : `${namespace}.${name}`;
  const fields = schema.fields.filter((f) => !isMetaField(f.name)).map((f) => arrowFieldJson(f, f.name, childNamespace));
  const json: Record<string, unknown> = { type: 'record', name, fields };
  if (namespace !== '') json.namespace = namespace;
  return recordSchema(json);
}
