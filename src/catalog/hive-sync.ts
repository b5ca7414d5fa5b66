// Hive sync as Hudi's HiveSyncTool does it, as statements: the table(s) a table type syncs to (COW: one;
// MOR: `<name>_ro` read-optimized and `<name>_rt` realtime), CREATE EXTERNAL TABLE on a first sync, then on
// later ones REPLACE COLUMNS when the schema changed, ADD for new partitions, DROP for dropped ones, and the
// `last_commit_time_sync` property. `hiveSyncStatements` is the public entry; `planHiveSync` the pure part.
import { LakeletError } from '../errors.js';
import { TableState } from '../engine/table-state.js';
import type { Storage } from '../storage/storage.js';
import type { Table } from '../table/table.js';
import { normalizeInstant } from '../engine/read/query-instant.js';
import {
  addPartitionsStatements, createTableStatement, dropPartitionsStatements, HIVE_FORMATS, PARTITION_BATCH_SIZE,
  replaceColumnsStatement, setTablePropertiesStatement, sparkTableProperties, SCHEMA_PART_LENGTH,
} from './hive-ddl.js';
import { hiveColumns, sparkSchemaJson, type HiveColumn } from './hive-types.js';
import { hivePartitions, partitionFieldNames } from './partition-values.js';
import { syncSnapshot, type SyncSnapshot } from './sync-snapshot.js';
import type { AvroRecordSchema } from '../format/avro/schema.js';
import { isMetaField } from '../schema/table-schema.js';

/** Options of {@link hiveSyncStatements} (Hudi's `hoodie.datasource.hive_sync.*` names in parentheses). */
export interface HiveSyncOptions {
  /** The Hive database (`database`, default `default`). */
  database?: string;
  /** The table's absolute base path as engines see it, e.g. `s3a://bucket/tables/trips` (`META_SYNC_BASE_PATH`). */
  basePath: string;
  /**
   * The previous sync's `last_commit_time_sync` (an instant time or Date): only what changed after it is
   * synced. Absent: a first sync (CREATE and every partition).
   */
  since?: string | Date;
  /**
   * The previous sync's `last_commit_completion_time_sync` (timeline layout 2): writes requested before `since`
   * but completed after this also count as new, as Hudi 1.x counts them.
   */
  sinceCompletion?: string;
  /** The Hive table name (`table`, default `hoodie.table.name`); MOR tables get `_ro` / `_rt` after it. */
  tableName?: string;
  /** Map timestamps to `TIMESTAMP` instead of `bigint` (`support_timestamp`, default false). */
  supportTimestamp?: boolean;
  /** Partitions per ADD / DROP statement (`batch_num`, default 1000). */
  batchSize?: number;
  /** Characters per `spark.sql.sources.schema.part.N` (`schema_string_length_thresh`, default 4000). */
  schemaPartLength?: number;
  /** Extra table properties (`table_properties`). */
  tableProperties?: Record<string, string>;
  /** `spark.sql.create.version` (left out when absent). */
  sparkVersion?: string;
  /** Leave the `_hoodie_*` meta columns out (`omit_metadata_fields`, default false). */
  omitMetadataFields?: boolean;
  /** `CREATE TABLE` instead of `CREATE EXTERNAL TABLE` (`create_managed_table`, default false). */
  createManagedTable?: boolean;
  /** MOR: name the read-optimized table `<name>` instead of `<name>_ro` (`skip_ro_suffix`, default false). */
  skipRoSuffix?: boolean;
}

/** One Hive table a Hudi table syncs to. */
export interface HiveTarget {
  name: string;
  inputFormat: string;
  /** `hoodie.query.as.ro.table`. */
  readOptimized: boolean;
}

/** The Hive tables of a table type (strategy ALL): COW one, MOR `_ro` then `_rt`. */
export function hiveTargets(tableType: string, name: string, skipRoSuffix = false): HiveTarget[] {
  if (tableType !== 'MERGE_ON_READ') return [{ name, inputFormat: HIVE_FORMATS.inputFormat, readOptimized: false }];
  return [
    { name: skipRoSuffix ? name : `${name}_ro`, inputFormat: HIVE_FORMATS.inputFormat, readOptimized: true },
    { name: `${name}_rt`, inputFormat: HIVE_FORMATS.realtimeInputFormat, readOptimized: false },
  ];
}

const sameColumns = (a: readonly HiveColumn[], b: readonly HiveColumn[]) =>
  a.length === b.length && a.every((c, i) => c.name.toLowerCase() === b[i]?.name.toLowerCase() && c.type.toLowerCase() === b[i]?.type.toLowerCase());

/** The statements of one sync of `snapshot` (pure). Nothing when the table has no completed write or nothing changed. */
export function planHiveSync(snapshot: SyncSnapshot, options: HiveSyncOptions & { since?: string }): string[] {
  const { config, latest } = snapshot;
  if (!latest) return [];
  if (!snapshot.changed) return [];
  const database = options.database ?? 'default';
  const basePath = options.basePath.replace(/\/+$/, '');
  const batchSize = options.batchSize ?? PARTITION_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new LakeletError('INVALID_ARGUMENT', `hive sync: batchSize must be a positive integer, got ${String(batchSize)}`, { field: 'batchSize', value: batchSize });
  const fields = partitionFieldNames(config.partitionFields);
  const typeOptions = { supportTimestamp: options.supportTimestamp ?? false };
  const withoutMeta = (schema: AvroRecordSchema): AvroRecordSchema => (options.omitMetadataFields ? { ...schema, fields: schema.fields.filter((f) => !isMetaField(f.name)) } : schema);
  const schema = withoutMeta(snapshot.schema);
  const columns = hiveColumns(schema, typeOptions);
  const typeOf = (f: string) => columns.find((c) => c.name === f)?.type ?? 'string';
  const partitionColumns = fields.map((f) => ({ name: f, type: typeOf(f) }));
  const sparkProps = sparkTableProperties(sparkSchemaJson(schema, fields), fields, { sparkVersion: options.sparkVersion, partLength: options.schemaPartLength ?? SCHEMA_PART_LENGTH });
  const layout = { fields, hiveStyle: config.hiveStylePartitioning, urlEncoded: config.urlEncodePartitioning };
  const added = fields.length === 0 ? [] : hivePartitions(snapshot.added, layout);
  const dropped = fields.length === 0 ? [] : hivePartitions(snapshot.dropped, layout);
  const first = options.since === undefined;
  const schemaChanged = !first && snapshot.schemaAtSince !== undefined && !sameColumns(hiveColumns(withoutMeta(snapshot.schemaAtSince), typeOptions), columns);
  const syncProps: [string, string][] = [['last_commit_time_sync', latest.requestedTime]];
  if (latest.completionTime) syncProps.push(['last_commit_completion_time_sync', latest.completionTime]);
  const out: string[] = [];
  for (const target of hiveTargets(config.tableType, options.tableName ?? config.name, options.skipRoSuffix)) {
    if (first) {
      out.push(createTableStatement({
        database, table: target.name, columns, partitionColumns, inputFormat: target.inputFormat, location: basePath, managed: options.createManagedTable ?? false,
        serdeProperties: [['hoodie.query.as.ro.table', String(target.readOptimized)], ['path', basePath]],
        tableProperties: [...sparkProps, ...Object.entries(options.tableProperties ?? {})],
      }));
    } else if (schemaChanged) {
      out.push(replaceColumnsStatement(database, target.name, columns, fields));
      out.push(setTablePropertiesStatement(database, target.name, sparkProps));
    }
    out.push(...addPartitionsStatements(database, target.name, fields, added, basePath, batchSize));
    out.push(...dropPartitionsStatements(database, target.name, fields, dropped, batchSize));
    out.push(setTablePropertiesStatement(database, target.name, syncProps));
  }
  return out;
}

/** The statements for a table's state (engine side: post-commit sync and the public function share it). */
export async function hiveSyncStatementsOf(state: TableState, options: HiveSyncOptions): Promise<string[]> {
  if (typeof options?.basePath !== 'string' || options.basePath === '') throw new LakeletError('INVALID_ARGUMENT', 'hive sync: basePath (the table\'s absolute path, e.g. s3a://bucket/trips) is required', { field: 'basePath', value: options?.basePath });
  const since = options.since === undefined ? undefined : normalizeInstant(options.since, 'since');
  const sinceCompletion = options.sinceCompletion === undefined ? undefined : normalizeInstant(options.sinceCompletion, 'sinceCompletion');
  const last = since === undefined ? undefined : { instant: since, completionTime: sinceCompletion };
  return planHiveSync(await syncSnapshot(state, last), { ...options, since });
}

/**
 * The HiveQL statements Hudi's HiveSyncTool would issue for the table as it is on storage now: on a first sync
 * (no `since`) `CREATE EXTERNAL TABLE IF NOT EXISTS` (one table for COW, `<name>_ro` and `<name>_rt` for MOR)
 * and `ADD IF NOT EXISTS PARTITION` for every partition; with `since` (the previous sync's
 * `last_commit_time_sync`) `REPLACE COLUMNS … cascade` when the schema changed, ADD for partitions new since
 * then and `DROP IF EXISTS` for partitions deleted since; each sync ends with the `last_commit_time_sync`
 * property. Empty when nothing was committed after `since` (or ever).
 */
export async function hiveSyncStatements(table: Table | Storage, options: HiveSyncOptions): Promise<string[]> {
  const storage = 'config' in table && 'storage' in table && 'timeline' in table ? table.storage : (table as Storage);
  return hiveSyncStatementsOf(await TableState.load(storage), options);
}
