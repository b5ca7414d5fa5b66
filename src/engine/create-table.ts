// Creating a table: a hoodie.properties of table version 6 (timeline layout 1, the default) or 8/9 (layout 2,
// with a metadata table unless `metadataTable: false`, created first by engine/metadata/metadata-init.ts) with
// key, ordering and partition fields, key generator, merge mode and (when given) the create schema, created
// atomically in an empty store.
import type { RecordMergeMode, TableType } from '../config/table-config.js';
import { CDC_ENABLED_PROPERTY, CDC_LOGGING_MODE_PROPERTY, isKnownCdcLoggingMode, parseCdcLoggingMode, type CdcSupplementalLoggingMode } from '../config/cdc-config.js';
import { createTableProperties, type CreatableTableVersion } from '../config/table-properties.js';
import { LakeletError } from '../errors.js';
import { avroSchemaJson, type AvroRecordSchema } from '../format/avro/schema.js';
import { normalizeUserSchema } from '../schema/user-schema.js';
import { inferKeyGeneratorType, loadKeyGenerator, keyGeneratorClassName, type KeyGeneratorKind, type KeyGeneratorOptions } from '../keygen/key-generator.js';
import { ESCAPED_PARTITION_PATH_PROPERTY } from '../keygen/partition-path.js';
import { timestampOptionsToProperties, type TimestampKeyGenOptions } from '../keygen/timestamp-options.js';
import type { Storage } from '../storage/storage.js';
import { PROPERTIES_PATH } from '../layout.js';
import type { WriteOptions } from './write/write-options.js';
import type { InitializedMetadataTable } from './metadata/metadata-init.js';
import type * as MetadataTableCode from './metadata/lazy.js';
import { withMetaFields } from '../schema/table-schema.js';

/** What defines a new table (everything of `createTable`'s options that is not a write option). */
export interface TableDefinition {
  /** `hoodie.table.name`. */
  name: string;
  /** `hoodie.database.name` (default `default`, as Spark). */
  databaseName?: string;
  type: TableType;
  /** Record key field(s). */
  recordKey: string | readonly string[];
  /** The ordering (precombine) field: between versions of a key, the greatest value wins. */
  orderingField?: string;
  /** Partition fields (default: non-partitioned). */
  partitionBy?: readonly string[];
  /** `field=value` partition folders (default true). */
  hiveStylePartitioning?: boolean;
  /** Escape partition values as Hive does (default false). */
  urlEncodePartitioning?: boolean;
  /**
   * Key generator. Default, as Hudi infers it: NON_PARTITION without partition fields, SIMPLE for one record key
   * field and one partition field, else COMPLEX. A choice that cannot take the given fields (SIMPLE with several
   * key or partition fields, NON_PARTITION with partitions, TIMESTAMP without exactly one of each) is refused
   * with `INVALID_ARGUMENT` before anything is written.
   */
  keyGenerator?: KeyGeneratorKind | ({ type: 'TIMESTAMP' } & TimestampKeyGenOptions);
  /** Table schema: an Arrow schema, or an Avro record schema (object or JSON). Inferred from the first write when absent. */
  schema?: unknown;
  /** Default: event-time ordering with an ordering field, commit-time ordering without. */
  recordMergeMode?: RecordMergeMode;
  /**
   * Hudi table version (default 6: the version every engine reads, Trino and Athena included). 8 (Hudi 1.0) and
   * 9 (Hudi 1.1) use timeline layout 2 (`.hoodie/timeline/`, completion times in the file names, Avro instant
   * files); see `metadataTable`.
   */
  tableVersion?: CreatableTableVersion;
  /**
   * v8/v9: create the table with a metadata table (`files`, `record_index` and — when `schema` is given —
   * `column_stats` and, partitioned, `partition_stats`, as Hudi initialises them), kept in step by every write
   * and table service. Default {@link DEFAULT_METADATA_TABLE} (on, as Hudi 1.x and hudi-rs create v9 tables);
   * `false` creates the table without one. Ignored on version 6 (never an MDT).
   */
  metadataTable?: boolean;
  /**
   * Change data capture: `hoodie.table.cdc.enabled=true` with this supplemental logging mode (default
   * `DATA_BEFORE_AFTER`, as Hudi's). Writers then log Hudi's `.cdc` files where a base file is merged (copy-on-write
   * writes, merge-on-read compaction) and `changes()` reads them. Default: off.
   */
  cdc?: { mode?: CdcSupplementalLoggingMode };
}

/**
 * Whether v8/v9 tables get a metadata table when `metadataTable` is not given: on, as Hudi's default
 * (`hoodie.metadata.enable=true`) — every write and table service (compaction, clean, archival, rollback,
 * savepoint/restore) keeps the MDT in step. Version 6 tables never get one.
 */
export const DEFAULT_METADATA_TABLE = true;

/** Options of `createTable`. Write options given here become the table's defaults for every write. */
export interface CreateTableOptions extends Omit<WriteOptions, 'schema' | 'onProgress'>, TableDefinition {}

/** Every key of {@link TableDefinition}: the compiler fails here when a table option is added without it. */
const TABLE_DEFINITION_KEYS = {
  name: true, databaseName: true, type: true, recordKey: true, orderingField: true, partitionBy: true, hiveStylePartitioning: true,
  urlEncodePartitioning: true, keyGenerator: true, schema: true, recordMergeMode: true, tableVersion: true, metadataTable: true, cdc: true,
} satisfies Record<keyof TableDefinition, true>;

/** The write defaults among `createTable`'s options: everything that does not define the table. */
export function writeDefaultsOf(options: CreateTableOptions): WriteOptions {
  const defaults: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) if (!(key in TABLE_DEFINITION_KEYS)) defaults[key] = value;
  return defaults as WriteOptions;
}

/**
 * Write a new table's hoodie.properties and return its text; `ALREADY_EXISTS` when the store already holds a
 * table. A create whose acknowledgement was lost (it failed, or answered "exists", after taking effect) is
 * recognised by reading the file back: the same bytes are ours.
 */
export async function createTableFiles(storage: Storage, options: CreateTableOptions): Promise<string> {
  if (!options || typeof options.name !== 'string') throw new LakeletError('INVALID_ARGUMENT', 'createTable: options.name is required', { field: 'name' });
  const recordKeyFields = typeof options.recordKey === 'string' ? [options.recordKey] : [...(options.recordKey ?? [])];
  if (recordKeyFields.length === 0) throw new LakeletError('INVALID_ARGUMENT', 'createTable: recordKey is required', { field: 'recordKey' });
  const partitionFields = [...(options.partitionBy ?? [])];
  const kg = options.keyGenerator;
  const kind: KeyGeneratorKind = typeof kg === 'object' && kg !== null ? kg.type : kg ?? inferKeyGeneratorType(recordKeyFields, partitionFields);
  const extra: Record<string, string> = {};
  let timestamp: TimestampKeyGenOptions | undefined;
  if (kind === 'TIMESTAMP') {
    if (typeof kg !== 'object' || kg === null) throw new LakeletError('INVALID_ARGUMENT', 'createTable: the TIMESTAMP key generator needs its options ({ type: "TIMESTAMP", timestampType, … })', { field: 'keyGenerator' });
    const { type: _type, ...ts } = kg;
    timestamp = ts;
    Object.assign(extra, timestampOptionsToProperties(ts));
  }
  if (options.cdc) {
    extra[CDC_ENABLED_PROPERTY] = 'true';
    const mode = options.cdc.mode ?? 'DATA_BEFORE_AFTER';
    if (!isKnownCdcLoggingMode(mode)) throw new LakeletError('INVALID_ARGUMENT', `createTable: cdc.mode ${JSON.stringify(mode)} is not OP_KEY_ONLY, DATA_BEFORE or DATA_BEFORE_AFTER`, { field: 'cdc.mode', value: String(mode) });
    extra[CDC_LOGGING_MODE_PROPERTY] = parseCdcLoggingMode(mode);
  }
  // Readers decode the writer's safety escapes in partition values only in tables that say they hold them.
  if (partitionFields.length > 0 && kind !== 'TIMESTAMP') extra[ESCAPED_PARTITION_PATH_PROPERTY] = 'true';
  const schema = options.schema === undefined || options.schema === null ? undefined : await normalizeUserSchema(options.schema as object, `${options.name.replace(/[^A-Za-z0-9_]/g, '_')}_record`);
  // The key generator must take the fields (and, with a schema, find them) before the table exists.
  const keyGenOptions: KeyGeneratorOptions = {
    type: kind,
    recordKeyFields,
    partitionFields,
    hiveStylePartitioning: options.hiveStylePartitioning ?? true,
    urlEncodePartitioning: options.urlEncodePartitioning ?? false,
    ...(timestamp ? { timestamp } : {}),
    ...(schema ? { schema } : {}),
  };
  try {
    await loadKeyGenerator(keyGenOptions);
  } catch (err) {
    if (!(err instanceof LakeletError)) throw err;
    const fields = `record key ${recordKeyFields.join(',')}, partition fields ${partitionFields.join(',') || 'none'}`;
    throw new LakeletError(err.code, `createTable: key generator ${kind} cannot take ${fields}: ${err.message}`, { ...err.context, field: 'keyGenerator', value: kind }, { cause: err });
  }
  const version = options.tableVersion ?? 6;
  // Checked before the MDT is initialised (a v8/v9 default), so an unknown version writes nothing.
  if (version !== 6 && version !== 8 && version !== 9) {
    throw new LakeletError('INVALID_ARGUMENT', `createTable: table version ${JSON.stringify(version)} cannot be created (6, 8 or 9)`, { field: 'tableVersion', value: version });
  }
  let metadata: InitializedMetadataTable | undefined;
  // The MDT first, complete, then the properties that list it; never over an existing table (the create below
  // then reports it).
  if (version !== 6 && (options.metadataTable ?? DEFAULT_METADATA_TABLE) && !(await exists(storage, PROPERTIES_PATH))) {
    const code = await import('./metadata/lazy.js'); // the MDT code, loaded only for a table created with one
    const statsColumns = schema ? indexableColumns(code, withMetaFields(schema), version) : undefined;
    metadata = await code.initializeMetadataTable(storage, options.name, version, { partitioned: partitionFields.length > 0, ...(statsColumns ? { statsColumns } : {}) }, options.clock);
  }
  const text = createTableProperties({
    ...(metadata ? { metadataPartitions: metadata.partitions, ...(metadata.indexDefsPath ? { indexDefsPath: metadata.indexDefsPath } : {}) } : {}),
    name: options.name,
    databaseName: options.databaseName ?? 'default',
    tableType: options.type,
    recordKeyFields,
    orderingFields: options.orderingField ? [options.orderingField] : [],
    partitionFields,
    keyGeneratorClass: keyGeneratorClassName(kind),
    keyGeneratorType: kind,
    ...(options.tableVersion !== undefined ? { tableVersion: options.tableVersion } : {}),
    hiveStylePartitioning: options.hiveStylePartitioning ?? true,
    urlEncodePartitioning: options.urlEncodePartitioning ?? false,
    populateMetaFields: true,
    createSchema: schema ? avroSchemaJson(schema) : undefined,
    ...(options.recordMergeMode ? { recordMergeMode: options.recordMergeMode } : {}),
    extra,
  });
  const bytes = new TextEncoder().encode(text);
  let created: boolean;
  try {
    created = await storage.writeIfAbsent(PROPERTIES_PATH, bytes);
  } catch (err) {
    if (await holds(storage, bytes)) return text;
    throw err;
  }
  if (!created && !(await holds(storage, bytes))) {
    throw new LakeletError('ALREADY_EXISTS', `createTable: ${storage.label} already holds a table (${PROPERTIES_PATH} exists)`, { path: PROPERTIES_PATH });
  }
  return text;
}

/**
 * The columns column_stats would index, or undefined when lakelet cannot write the stats of one of them (a type
 * whose encoding is not verified for this version): then the table starts without column and partition stats.
 */
function indexableColumns(code: typeof MetadataTableCode, schema: AvroRecordSchema, version: 8 | 9): string[] | undefined {
  const { columnStatsKind, columnsToIndex } = code;
  const columns = columnsToIndex(schema, { populateMetaFields: true });
  try {
    for (const c of columns) columnStatsKind(c, schema.fields.find((f) => f.name === c)?.type ?? { type: 'null' }, version);
  } catch (err) {
    if (err instanceof LakeletError && err.code === 'UNSUPPORTED') return undefined;
    throw err;
  }
  return columns;
}

async function exists(storage: Storage, path: string): Promise<boolean> {
  try {
    await storage.head(path);
    return true;
  } catch {
    return false;
  }
}

/** Does the store's hoodie.properties hold exactly `bytes`? (False when it cannot be read.) */
async function holds(storage: Storage, bytes: Uint8Array): Promise<boolean> {
  try {
    const found = await storage.read(PROPERTIES_PATH);
    return found.length === bytes.length && found.every((b, i) => b === bytes[i]);
  } catch {
    return false;
  }
}
