// The table schema: Hudi keeps it as an Avro record schema (commit metadata, parquet footer, or
// hoodie.properties). This file adds/strips the five `_hoodie_*` meta fields and describes columns.
import { LakeletError } from '../errors.js';
import { avroSchemaToJson, parseAvroSchema, type AvroField, type AvroRecordSchema, type AvroSchema } from '../format/avro/schema.js';

/** The meta columns Hudi writes first in every record, in order. */
export const META_FIELDS = ['_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name'] as const;
const META_SET: ReadonlySet<string> = new Set(META_FIELDS);

/** True for the name of a `_hoodie_*` meta column. */
export function isMetaField(name: string): boolean {
  return META_SET.has(name);
}

/** Parse an Avro record schema from JSON text; anything but a record → `INVALID_TABLE` naming the source. */
export function parseRecordSchema(json: string | object, source: string): AvroRecordSchema {
  const schema = parseAvroSchema(json, { path: source });
  if (schema.type !== 'record') throw new LakeletError('INVALID_TABLE', `schema: ${source} holds a ${schema.type} schema, expected a record`, { path: source });
  return schema;
}

/** The record schema with the five meta fields first (added when missing, kept when present). */
export function withMetaFields(schema: AvroRecordSchema): AvroRecordSchema {
  const data = schema.fields.filter((f) => !isMetaField(f.name));
  const meta: AvroField[] = META_FIELDS.map((name) => ({
    name,
    type: { type: 'union', branches: [{ type: 'null' }, { type: 'string' }] },
    hasDefault: true,
    default: null,
    doc: '',
  }));
  return reparse({ ...schema, fields: [...meta, ...data] });
}

/** Turn a schema built by hand from parsed parts into a parsed schema (encoders accept only those). */
function reparse(schema: AvroRecordSchema): AvroRecordSchema {
  return parseAvroSchema(avroSchemaToJson(schema) as object) as AvroRecordSchema;
}

/** The record schema without the meta fields. */
export function withoutMetaFields(schema: AvroRecordSchema): AvroRecordSchema {
  return reparse({ ...schema, fields: schema.fields.filter((f) => !isMetaField(f.name)) });
}

/** The non-null type of a field (`["null", T]` → T); unions of several types stay unions. */
export function nonNullType(type: AvroSchema): { type: AvroSchema; nullable: boolean } {
  if (type.type !== 'union') return { type, nullable: type.type === 'null' };
  const rest = type.branches.filter((b) => b.type !== 'null');
  const nullable = rest.length !== type.branches.length;
  if (rest.length === 1) return { type: rest[0] as AvroSchema, nullable };
  return { type: { type: 'union', branches: rest }, nullable };
}

/** Find a (possibly dotted, nested) field's type in a record schema. */
export function fieldType(schema: AvroRecordSchema, dotted: string): AvroSchema | undefined {
  const direct = schema.fields.find((f) => f.name === dotted);
  if (direct) return direct.type;
  let current: AvroSchema = schema;
  for (const part of dotted.split('.')) {
    const t: AvroSchema = nonNullType(current).type;
    if (t.type !== 'record') return undefined;
    const f: AvroField | undefined = t.fields.find((x) => x.name === part);
    if (!f) return undefined;
    current = f.type;
  }
  return current;
}
