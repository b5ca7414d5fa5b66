// Schema history: each distinct table schema with the instant it first appeared, read from the completed
// commits' metadata `schema` field (extraMetadata.schema) in timeline order. Active timeline only.
import type { AvroRecordSchema } from '../format/avro/schema.js';
import { avroSchemaToJson } from '../format/avro/schema.js';
import type { TableState } from '../engine/table-state.js';
import { parseRecordSchema } from '../schema/table-schema.js';

/** One entry of the schema history: the schema and the completed instant (requested time) that introduced it. */
export interface SchemaHistoryEntry {
  instant: string;
  schema: AvroRecordSchema;
}

/**
 * Each distinct schema recorded in the completed writes' commit metadata of the active timeline, oldest first,
 * with the instant it first appeared. Commits without a `schema` field are skipped; a schema equal to the
 * previous entry's is not repeated (a return to an older schema is a new entry).
 */
export async function schemaHistory(state: TableState): Promise<SchemaHistoryEntry[]> {
  const out: SchemaHistoryEntry[] = [];
  let last: string | undefined;
  let lastText: string | undefined;
  for (const instant of state.timeline.completedWrites()) {
    const md = await state.commitMetadata(instant);
    const text = md.extraMetadata.schema;
    if (!text || text === lastText) continue; // most commits repeat the schema text: no parse
    lastText = text;
    const schema = parseRecordSchema(text, state.instantPath(instant));
    const key = JSON.stringify(avroSchemaToJson(schema));
    if (key === last) continue;
    last = key;
    out.push({ instant: instant.requestedTime, schema });
  }
  return out;
}
