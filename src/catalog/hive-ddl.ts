// The HiveQL statements of Hudi's HiveSyncTool, one builder per shape, spelled as Hudi's query-based DDL
// executors spell them (HiveSchemaUtil.generateCreateDDL, QueryBasedDDLExecutor, JDBCExecutor): CREATE EXTERNAL
// TABLE, ADD / DROP PARTITION batches, REPLACE COLUMNS, and the table properties a sync sets. Pure: strings in,
// strings out.
import type { HiveColumn } from './hive-types.js';
import { tickSurround } from './hive-types.js';

/** Hudi's input/output formats and serde for parquet base files (HoodieInputFormatUtils). */
export const HIVE_FORMATS = {
  serde: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe',
  inputFormat: 'org.apache.hudi.hadoop.HoodieParquetInputFormat',
  realtimeInputFormat: 'org.apache.hudi.hadoop.realtime.HoodieParquetRealtimeInputFormat',
  outputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
} as const;

/** `hoodie.datasource.hive_sync.batch_num`'s default: partitions per ADD / DROP statement. */
export const PARTITION_BATCH_SIZE = 1000;

/** `hoodie.datasource.hive_sync.schema_string_length_thresh`'s default: characters per schema part. */
export const SCHEMA_PART_LENGTH = 4000;

/** `` `db`.`tbl` ``. */
export function tableId(database: string, table: string): string {
  return `${tickSurround(database)}.${tickSurround(table)}`;
}

/** `'k'='v','k2'='v2'` (HiveSchemaUtil.propertyToString: no escaping, as Hudi). */
function propertyList(properties: readonly (readonly [string, string])[]): string {
  return properties.map(([k, v]) => `'${k}'='${v}'`).join(',');
}

/** What one CREATE statement needs. */
export interface CreateTableSpec {
  database: string;
  table: string;
  /** Every column of the schema (partition columns are left out of the column list here). */
  columns: readonly HiveColumn[];
  /** Partition columns with their types (empty: not partitioned). */
  partitionColumns: readonly HiveColumn[];
  inputFormat: string;
  /** Serde properties (written in this order). */
  serdeProperties: readonly (readonly [string, string])[];
  /** Table properties (written in this order). */
  tableProperties: readonly (readonly [string, string])[];
  /** The table's base path (its LOCATION). */
  location: string;
  /** `hoodie.datasource.hive_sync.create_managed_table` (false: EXTERNAL). */
  managed?: boolean;
}

/** The `` `a` type, `b` type `` column list, partition columns left out (HiveSchemaUtil.generateSchemaString). */
export function columnList(columns: readonly HiveColumn[], partitionFields: readonly string[]): string {
  return columns.filter((c) => !partitionFields.includes(c.name)).map((c) => `${tickSurround(c.name)} ${c.type}`).join(', ');
}

/** CREATE [EXTERNAL] TABLE IF NOT EXISTS, as HiveSchemaUtil.generateCreateDDL spells it. */
export function createTableStatement(spec: CreateTableSpec): string {
  const partitionNames = spec.partitionColumns.map((c) => c.name);
  let sql = `${spec.managed ? 'CREATE TABLE IF NOT EXISTS ' : 'CREATE EXTERNAL TABLE IF NOT EXISTS '}${tableId(spec.database, spec.table)}`;
  sql += `( ${columnList(spec.columns, partitionNames)})`;
  if (spec.partitionColumns.length > 0) sql += ` PARTITIONED BY (${spec.partitionColumns.map((c) => `${tickSurround(c.name)} ${c.type}`).join(',')})`;
  sql += ` ROW FORMAT SERDE '${HIVE_FORMATS.serde}'`;
  if (spec.serdeProperties.length > 0) sql += ` WITH SERDEPROPERTIES (${propertyList(spec.serdeProperties)})`;
  sql += ` STORED AS INPUTFORMAT '${spec.inputFormat}'`;
  sql += ` OUTPUTFORMAT '${HIVE_FORMATS.outputFormat}' LOCATION '${spec.location}'`;
  if (spec.tableProperties.length > 0) sql += ` TBLPROPERTIES(${propertyList(spec.tableProperties)})`;
  return sql;
}

/** One partition: its path below the base path and its values, one per partition field. */
export interface HivePartition {
  path: string;
  values: readonly string[];
}

/** `` `p1`='v1',`p2`='v2' `` (QueryBasedDDLExecutor.getPartitionClause). */
export function partitionClause(fields: readonly string[], values: readonly string[]): string {
  return fields.map((f, i) => `\`${f}\`='${values[i] ?? ''}'`).join(',');
}

/** `<basePath>/<partitionPath>` (FSUtils.constructAbsolutePath). */
export function partitionLocation(basePath: string, partitionPath: string): string {
  if (partitionPath === '') return basePath;
  return `${basePath.replace(/\/+$/, '')}/${partitionPath}`;
}

function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** ALTER TABLE … ADD IF NOT EXISTS PARTITION (…) LOCATION '…' …, `batchSize` partitions per statement. */
export function addPartitionsStatements(database: string, table: string, fields: readonly string[], partitions: readonly HivePartition[], basePath: string, batchSize = PARTITION_BATCH_SIZE): string[] {
  return batches(partitions, batchSize).map((batch) => {
    let sql = `ALTER TABLE ${tableId(database, table)} ADD IF NOT EXISTS `;
    for (const p of batch) sql += `  PARTITION (${partitionClause(fields, p.values)}) LOCATION '${partitionLocation(basePath, p.path)}' `;
    return sql;
  });
}

/** ALTER TABLE … DROP IF EXISTS PARTITION (…), PARTITION (…) (JDBCExecutor), `batchSize` per statement. */
export function dropPartitionsStatements(database: string, table: string, fields: readonly string[], partitions: readonly HivePartition[], batchSize = PARTITION_BATCH_SIZE): string[] {
  return batches(partitions, batchSize).map((batch) => `ALTER TABLE ${tableId(database, table)} DROP IF EXISTS ${batch.map((p) => ` PARTITION (${partitionClause(fields, p.values)})`).join(',')}`);
}

/** ALTER TABLE … REPLACE COLUMNS( … ) [cascade] (QueryBasedDDLExecutor.updateTableDefinition). */
export function replaceColumnsStatement(database: string, table: string, columns: readonly HiveColumn[], partitionFields: readonly string[]): string {
  return `ALTER TABLE ${tableId(database, table)} REPLACE COLUMNS(${columnList(columns, partitionFields)} )${partitionFields.length > 0 ? ' cascade' : ''}`;
}

/**
 * ALTER TABLE … SET TBLPROPERTIES (…): the HiveQL form of the metastore update Hudi makes after a sync
 * (`last_commit_time_sync`, and the `spark.sql.sources.schema.*` properties when the schema changed).
 */
export function setTablePropertiesStatement(database: string, table: string, properties: readonly (readonly [string, string])[]): string {
  return `ALTER TABLE ${tableId(database, table)} SET TBLPROPERTIES (${propertyList(properties)})`;
}

/**
 * The Spark data source properties (SparkDataSourceTableUtils.getSparkTableProperties): provider, the schema
 * JSON split every `partLength` characters, the partition columns.
 */
export function sparkTableProperties(schemaJson: string, partitionFields: readonly string[], options: { sparkVersion?: string; partLength?: number } = {}): [string, string][] {
  const partLength = options.partLength ?? SCHEMA_PART_LENGTH;
  const out: [string, string][] = [['spark.sql.sources.provider', 'hudi']];
  if (options.sparkVersion) out.push(['spark.sql.create.version', options.sparkVersion]);
  const parts = Math.ceil(schemaJson.length / partLength);
  out.push(['spark.sql.sources.schema.numParts', String(parts)]);
  for (let i = 0; i < parts; i++) out.push([`spark.sql.sources.schema.part.${i}`, schemaJson.slice(i * partLength, (i + 1) * partLength)]);
  if (partitionFields.length > 0) {
    out.push(['spark.sql.sources.schema.numPartCols', String(partitionFields.length)]);
    partitionFields.forEach((f, i) => out.push([`spark.sql.sources.schema.partCol.${i}`, f]));
  }
  return out;
}
