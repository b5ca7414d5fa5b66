// Schema history: each distinct table schema with the instant it first appeared, read from the completed
// commits' metadata `schema` field (extraMetadata.schema) in timeline order, shaped as table.avroSchema()
// shapes it (TableState.tableSchema: meta fields per populateMetaFields). Active timeline only.
import type { AvroRecordSchema } from '../format/avro/schema.js';
import { avroSchemaToJson } from '../format/avro/schema.js';
import type { TableState } from '../engine/table-state.js';
import { diffSchemas, type SchemaChange } from '../schema/schema-diff.js';
import { parseRecordSchema } from '../schema/table-schema.js';

/**
 * One entry of the schema history: the schema (meta fields first when the table has them, as
 * `table.avroSchema()` returns it) and the completed instant (requested time) that introduced it.
 */
export interface SchemaHistoryEntry {
  instant: string;
  schema: AvroRecordSchema;
  /** What changed from the previous entry's schema (added/removed fields, type changes); empty for the first. */
  changes: SchemaChange[];
}

/**
 * Each distinct schema recorded in the completed writes' commit metadata of the active timeline, oldest first,
 * with the instant it first appeared. Commits without a `schema` field are skipped; a schema equal to the
 * previous entry's is not repeated (a return to an older schema is a new entry).
 */
export async function schemaHistory(state: TableState): Promise<SchemaHistoryEntry[]> {
  const out: SchemaHistoryEntry[] = [];
  let last: string | undefined;
  let previous: AvroRecordSchema | undefined;
  let lastText: string | undefined;
  for (const instant of state.timeline.completedWrites()) {
    const md = await state.commitMetadata(instant);
    const text = md.extraMetadata.schema;
    if (!text || text === lastText) continue; // most commits repeat the schema text: no parse
    lastText = text;
    const schema = state.tableSchema(parseRecordSchema(text, state.instantPath(instant)));
    const key = JSON.stringify(avroSchemaToJson(schema));
    if (key === last) continue;
    last = key;
    out.push({ instant: instant.requestedTime, schema, changes: previous === undefined ? [] : diffSchemas(previous, schema) });
    previous = schema;
  }
  return out;
}
