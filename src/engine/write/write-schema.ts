// The schema side of a write: the table schema (from the timeline, the write's options, or inferred from
// the first rows), its evolution check, the key generator for it, hoodie.properties gaining the create
// schema of a table created without one (after its first commit), and `.hoodie_partition_metadata`.
import { LakeletError } from '../../errors.js';
import { formatProperties, parseProperties } from '../../config/properties.js';
import { partitionMetadataText } from '../../config/table-properties.js';
import { avroSchemaJson, type AvroRecordSchema } from '../../format/avro/schema.js';
import { checkSchemaEvolution } from '../../schema/evolution.js';
import { inferAvroSchema } from '../../schema/infer.js';
import { normalizeUserSchema } from '../../schema/user-schema.js';
import { withoutMetaFields } from '../../schema/table-schema.js';
import { keyGeneratorOptionsFromConfig, loadKeyGenerator, type KeyGenerator } from '../../keygen/key-generator.js';
import type { Storage } from '../../storage/storage.js';
import { partitionMetadataPath, PROPERTIES_PATH } from '../../layout.js';
import type { TableState } from '../table-state.js';

/** The schema a write uses. */
export interface WriteSchema {
  /** Data fields only. */
  schema: AvroRecordSchema;
  keyGenerator: KeyGenerator;
  /**
   * Set when hoodie.properties must gain the create schema: call it once the write's completed instant exists,
   * so a write that fails leaves hoodie.properties as it was. It never throws: the commit already records the
   * schema (`extraMetadata.schema`, which readers prefer), and a failed update is redone by the next write.
   */
  schemaChanged: (() => Promise<void>) | undefined;
}

/** Resolve the write schema: current, replaced by `options.schema` (checked), or inferred from `rows`. */
export async function prepareSchema(state: TableState, rows: readonly Record<string, unknown>[], options: { schema: unknown }): Promise<WriteSchema> {
  const { config } = state;
  const current = withoutMetaFields(await state.schemaAsOf(undefined));
  const name = `${config.name.replace(/[^A-Za-z0-9_]/g, '_')}_record`;
  let schema = current;
  if (options.schema !== undefined && options.schema !== null) {
    const next = await normalizeUserSchema(options.schema as object, name);
    if (current.fields.length > 0) checkSchemaEvolution(current, next);
    schema = next;
  } else if (current.fields.length === 0 && rows.length > 0) {
    schema = inferAvroSchema(rows, { name, namespace: `hoodie.${config.name.replace(/[^A-Za-z0-9_]/g, '_')}` });
  }
  for (const f of [...config.recordKeyFields, ...config.partitionFields, ...config.orderingFields]) {
    const top = f.split('.')[0] as string;
    if (schema.fields.length > 0 && !schema.fields.some((x) => x.name === top)) {
      throw new LakeletError('INVALID_ARGUMENT', `write: the schema has no field ${JSON.stringify(f)} that the table is keyed, partitioned or ordered by`, { field: f });
    }
  }
  const keyGenerator = await loadKeyGenerator(keyGeneratorOptionsFromConfig(config, schema.fields.length > 0 ? schema : undefined));
  const schemaChanged = config.createSchema === undefined && schema.fields.length > 0
    ? () => addCreateSchema(state.storage, schema).catch(() => undefined)
    : undefined;
  return { schema, keyGenerator, schemaChanged };
}

/** Add `hoodie.table.create.schema` to the properties of a table created without a schema. */
async function addCreateSchema(storage: Storage, schema: AvroRecordSchema): Promise<void> {
  const props = parseProperties(new TextDecoder().decode(await storage.read(PROPERTIES_PATH)));
  if (props.has('hoodie.table.create.schema')) return;
  props.set('hoodie.table.create.schema', avroSchemaJson(schema));
  const now = new Date();
  await storage.write(PROPERTIES_PATH, new TextEncoder().encode(formatProperties(props, [`Updated at ${now.toISOString()}`, now.toUTCString()])));
}

/** Write `.hoodie_partition_metadata` into a partition that does not have one yet. */
export async function ensurePartitionMetadata(storage: Storage, knownPartitions: readonly string[], partitionPath: string, instantTime: string): Promise<void> {
  if (knownPartitions.includes(partitionPath)) return;
  const path = partitionMetadataPath(partitionPath);
  const depth = partitionPath === '' ? 0 : partitionPath.split('/').length;
  await storage.writeIfAbsent(path, new TextEncoder().encode(partitionMetadataText(instantTime, depth)));
}
