// The table schema a user gives (createTable's or a write's `schema`): an Arrow schema, an Avro schema object or
// Avro JSON, as an Avro record without the `_hoodie_*` meta fields. Arrow is loaded only for an Arrow schema.
import { avroSchemaToJson, isParsedAvroSchema, parseAvroSchema, type AvroRecordSchema } from '../format/avro/schema.js';
import { recordSchema, schemaError } from './infer.js';
import { isMetaField } from './table-schema.js';

/**
 * True for an Apache Arrow `Schema` (duck-typed, so the check does not load Arrow): a `fields` array whose
 * fields carry an Arrow type id, or an empty one beside Arrow's `metadata` map. Avro schemas never match.
 */
export function isArrowSchema(input: unknown): boolean {
  if (typeof input !== 'object' || input === null) return false;
  const { fields, metadata } = input as { fields?: unknown; metadata?: unknown };
  if (!Array.isArray(fields)) return false;
  if (fields.length === 0) return metadata instanceof Map;
  return fields.every((f: unknown) => typeof (f as { type?: { typeId?: unknown } } | null)?.type?.typeId === 'number');
}

/**
 * A user-supplied table schema as an Avro record without meta fields: an Arrow `Schema` (converted with
 * `avroSchemaFromArrow` of arrow/arrow.ts, named `name`), an Avro schema object, or Avro JSON text (keeping its
 * own name). `_hoodie_*` fields are stripped. Not a record / invalid → `INVALID_ARGUMENT`.
 */
export async function normalizeUserSchema(input: object | string, name: string): Promise<AvroRecordSchema> {
  if (isArrowSchema(input)) {
    const { avroSchemaFromArrow } = await import('../arrow/arrow.js');
    return avroSchemaFromArrow(input as Parameters<typeof avroSchemaFromArrow>[0], name);
  }
  const parsed = isParsedAvroSchema(input) ? input : parseAvroSchema(input);
  if (parsed.type !== 'record') throw schemaError(`a table schema must be an Avro record, got ${parsed.type}`, undefined, parsed.type);
  const json = avroSchemaToJson(parsed) as Record<string, unknown>;
  const fields = (json.fields as { name: string }[]).filter((f) => !isMetaField(f.name));
  if (fields.length === 0) throw schemaError('the table schema has no data fields');
  return recordSchema({ ...json, fields });
}
