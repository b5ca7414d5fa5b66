// Table schemas inferred from sample rows (Avro records without the `_hoodie_*` meta fields), and the Avro
// name checks and schema errors shared by every builder of table schemas (user-schema.ts, arrow/arrow.ts).
import { LakeletError } from '../errors.js';
import { parseAvroSchema, type AvroRecordSchema } from '../format/avro/schema.js';
import { isMetaField } from './table-schema.js';

/** Names of the record schema to build. */
export interface SchemaNames {
  /** Record name (an Avro name: letters, digits, `_`). */
  name: string;
  /** Record namespace; default none. */
  namespace?: string;
}

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An `INVALID_ARGUMENT` error about a schema (`field`: the path of the offending field). */
export function schemaError(message: string, field?: string, value?: unknown): LakeletError {
  const context: Record<string, unknown> = {};
  if (field !== undefined) context.field = field;
  if (value !== undefined) context.value = value;
  return new LakeletError('INVALID_ARGUMENT', `schema: ${message}`, context);
}

/** Refuse a field name that is not an Avro name (`field`: its path, for the error). */
export function checkFieldName(name: string, field: string): void {
  if (!NAME_RE.test(name)) throw schemaError(`field name ${JSON.stringify(name)} is not a valid Avro name (letters, digits and _, not starting with a digit)`, field, name);
}

/** Refuse a record name that is not an Avro name. */
export function checkRecordName(name: string): void {
  if (!NAME_RE.test(name)) throw schemaError(`record name ${JSON.stringify(name)} is not a valid Avro name`, undefined, name);
}

/** Parse record JSON built by lakelet into a proper parsed record (nested named types resolved). */
export function recordSchema(json: unknown): AvroRecordSchema {
  const parsed = parseAvroSchema(json as object);
  if (parsed.type !== 'record') throw schemaError(`expected a record schema, got ${parsed.type}`);
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
  throw schemaError(`field '${path}' holds a value of unsupported type ${describe(value)}`, path, value);
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
      throw schemaError(`field '${path}' holds values of different types (${KIND_NAMES[slot.kind]} and ${KIND_NAMES[kind]})`, path, value);
    }
  }
  if (kind === 'record') {
    slot.fields ??= new Map();
    for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
      const childPath = `${path}.${name}`;
      checkFieldName(name, childPath);
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
  checkRecordName(names.name);
  const fields = new Map<string, Slot>();
  let index = 0;
  for (const row of rows) {
    if (!isPlainObject(row)) throw schemaError(`row ${index} is not a plain object`, undefined, row);
    for (const [name, value] of Object.entries(row)) {
      if (isMetaField(name)) continue;
      checkFieldName(name, name);
      let slot = fields.get(name);
      if (slot === undefined) {
        slot = newSlot();
        fields.set(name, slot);
      }
      observe(slot, value, name);
    }
    index++;
  }
  if (fields.size === 0) throw schemaError('cannot infer a schema: the sample rows have no fields');
  return recordSchema(recordJson(fields, names.name, names.namespace ?? ''));
}
