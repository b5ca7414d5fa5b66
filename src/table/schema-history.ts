// Schema history: each distinct table schema with the instant it first appeared, read from the completed
// commits' metadata `schema` field (extraMetadata.schema) in timeline order, shaped as table.avroSchema()
// shapes it (TableState.tableSchema: meta fields per populateMetaFields). Archived writes first (their commit
// metadata from the archived timeline), then the active timeline's.
import type { AvroRecordSchema } from '../format/avro/schema.js';
import { avroSchemaToJson } from '../format/avro/schema.js';
import type { TableState } from '../engine/table-state.js';
import { compareInstantTimes } from '../timeline/instant.js';
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
 * Each distinct schema recorded in the completed writes' commit metadata, archived and active, oldest first, with
 * the instant it first appeared. Commits without a `schema` field are skipped; a schema equal to the previous
 * entry's is not repeated (a return to an older schema is a new entry). An instant on both timelines (archived,
 * then a crash before the active copy was trimmed) counts once, from the active timeline.
 */
export async function schemaHistory(state: TableState): Promise<SchemaHistoryEntry[]> {
  const active = state.timeline.completedWrites();
  const onActive = new Set(active.map((i) => i.requestedTime));
  const archived = await state.archivedTimeline();
  const recorded: { time: string; text: () => Promise<string | undefined>; path: string }[] = [];
  for (const i of archived.completedWrites()) {
    if (onActive.has(i.requestedTime)) continue;
    recorded.push({ time: i.requestedTime, text: async () => archived.commitMetadata(i.requestedTime)?.extraMetadata.schema, path: `archived instant ${i.requestedTime}` });
  }
  for (const i of active) recorded.push({ time: i.requestedTime, text: async () => (await state.commitMetadata(i)).extraMetadata.schema, path: state.instantPath(i) });
  recorded.sort((a, b) => compareInstantTimes(a.time, b.time));
  const out: SchemaHistoryEntry[] = [];
  let last: string | undefined;
  let previous: AvroRecordSchema | undefined;
  let lastText: string | undefined;
  for (const r of recorded) {
    const text = await r.text();
    if (!text || text === lastText) continue; // most commits repeat the schema text: no parse
    lastText = text;
    const schema = state.tableSchema(parseRecordSchema(text, r.path));
    const key = JSON.stringify(avroSchemaToJson(schema));
    if (key === last) continue;
    last = key;
    out.push({ instant: r.time, schema, changes: previous === undefined ? [] : diffSchemas(previous, schema) });
    previous = schema;
  }
  return out;
}
