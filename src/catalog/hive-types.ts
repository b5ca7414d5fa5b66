// Column types for Hive sync: an Avro schema mapped to Hive column types as Hudi's HiveSchemaUtil.convertField
// does (the query-based DDL form, `doFormat`: `DECIMAL(p , s)`, `STRUCT< `a` : int>`, `ARRAY< T>`, `MAP< K, V>`),
// and to the Spark StructType JSON of the `spark.sql.sources.schema.*` properties as AvroToSparkJson does.
import { LakeletError } from '../errors.js';
import type { AvroField, AvroRecordSchema, AvroSchema } from '../format/avro/schema.js';

/** How Avro types map to Hive types. */
export interface HiveTypeOptions {
  /**
   * `hoodie.datasource.hive_sync.support_timestamp` (default false): timestamp-millis/micros (and the local
   * variants) become `TIMESTAMP` instead of `bigint`.
   */
  supportTimestamp?: boolean;
}

/** `name` → `` `name` `` (Hudi's tickSurround: ticks added only where missing). */
export function tickSurround(name: string): string {
  return `${name.startsWith('`') ? '' : '`'}${name}${name.endsWith('`') ? '' : '`'}`;
}

/** The non-null branch of a `[null, T]` union; other schemas unchanged. */
function nonNull(schema: AvroSchema): AvroSchema {
  if (schema.type !== 'union') return schema;
  const branches = schema.branches.filter((b) => b.type !== 'null');
  return branches.length === 1 ? (branches[0] as AvroSchema) : schema;
}

/** Hive's nested column name translation (ColumnNameXLator.translateNestedColumn: `$` → `_dollar_`). */
function nestedName(name: string): string {
  return name.replaceAll('$', '_dollar_');
}

/** The Hive type of one Avro schema (HiveSchemaUtil.convertField with doFormat). */
export function hiveType(schema: AvroSchema, options: HiveTypeOptions = {}, at = 'schema'): string {
  const s = nonNull(schema);
  switch (s.type) {
    case 'int':
      if (s.logicalType?.name === 'date') return 'DATE';
      return 'int'; // time-millis too
    case 'long': {
      const l = s.logicalType?.name;
      if (l === 'timestamp-millis' || l === 'timestamp-micros' || l === 'local-timestamp-millis' || l === 'local-timestamp-micros') return options.supportTimestamp ? 'TIMESTAMP' : 'bigint';
      return 'bigint'; // time-micros too
    }
    case 'float': return 'float';
    case 'double': return 'double';
    case 'boolean': return 'boolean';
    case 'string':
      // HoodieSchema's UUID type (a string with the uuid logical type) maps to binary in HiveSchemaUtil.
      return s.logicalType?.name === 'uuid' ? 'binary' : 'string';
    case 'enum': return 'string';
    case 'bytes':
    case 'fixed':
      if (s.logicalType?.name === 'decimal') return `DECIMAL(${s.logicalType.precision} , ${s.logicalType.scale})`;
      return 'binary';
    case 'array': return `ARRAY< ${hiveType(s.items, options, `${at}[]`)}>`;
    case 'map': return `MAP< string, ${hiveType(s.values, options, `${at}{}`)}>`;
    case 'record': {
      if (s.fields.length === 0) throw new LakeletError('UNSUPPORTED', `hive sync: the empty record ${s.fullName} at ${at} has no Hive type`, { field: at });
      const inner = s.fields.map((f) => `${tickSurround(nestedName(f.name))} : ${hiveType(f.type, options, `${at}.${f.name}`)}`).join(', ');
      // Hudi replaces every '-' in a struct type (names included) by '_'.
      return `STRUCT< ${inner}>`.replaceAll('-', '_');
    }
    case 'null':
    case 'union':
      throw new LakeletError('UNSUPPORTED', `hive sync: the ${s.type === 'null' ? 'null type' : 'union of several non-null types'} at ${at} has no Hive type (Hudi's HiveSchemaUtil refuses it too)`, { field: at });
  }
}

/** One Hive column: name (without ticks) and type. */
export interface HiveColumn {
  name: string;
  type: string;
}

/** The Hive columns of a record schema, in schema order (HiveSchemaUtil.convertSchemaToHiveSchema). */
export function hiveColumns(schema: AvroRecordSchema, options: HiveTypeOptions = {}): HiveColumn[] {
  return schema.fields.map((f) => ({ name: f.name, type: hiveType(f.type, options, f.name) }));
}

/** Does an Avro schema admit null (a null type, or a union with a null branch)? */
function nullable(schema: AvroSchema): boolean {
  return schema.type === 'null' || (schema.type === 'union' && schema.branches.some((b) => b.type === 'null'));
}

/** A Spark DataType as a JSON value (AvroToSparkJson.convertAvroType). */
function sparkType(schema: AvroSchema): unknown {
  switch (schema.type) {
    case 'null': return 'null';
    case 'boolean': return 'boolean';
    case 'int': return schema.logicalType?.name === 'date' ? 'date' : 'integer';
    case 'long': {
      const l = schema.logicalType?.name;
      return l === 'timestamp-millis' || l === 'timestamp-micros' ? 'timestamp' : 'long';
    }
    case 'float': return 'float';
    case 'double': return 'double';
    case 'bytes':
    case 'fixed':
      return schema.logicalType?.name === 'decimal' ? `decimal(${schema.logicalType.precision},${schema.logicalType.scale})` : 'binary';
    case 'string':
    case 'enum':
      return 'string';
    case 'array': return { type: 'array', elementType: sparkType(schema.items), containsNull: nullable(schema.items) };
    case 'map': return { type: 'map', keyType: 'string', valueType: sparkType(schema.values), valueContainsNull: nullable(schema.values) };
    case 'record': return sparkStruct(schema.fields);
    case 'union': {
      // [null, T] is T; any other union is typed as a string, as AvroToSparkJson does.
      if (schema.branches.length === 2 && schema.branches.some((b) => b.type === 'null')) return sparkType(schema.branches.find((b) => b.type !== 'null') as AvroSchema);
      return 'string';
    }
  }
}

function sparkStruct(fields: readonly AvroField[]): unknown {
  return {
    type: 'struct',
    fields: fields.map((f) => ({ name: f.name, type: sparkType(f.type), nullable: nullable(f.type), metadata: f.doc?.trim() ? { comment: f.doc } : {} })),
  };
}

/**
 * The Spark StructType JSON of a table schema, partition columns moved to the end (Spark's data source
 * convention; AvroToSparkJson.convertToSparkSchemaJson with partition names).
 */
export function sparkSchemaJson(schema: AvroRecordSchema, partitionFields: readonly string[]): string {
  const data = schema.fields.filter((f) => !partitionFields.includes(f.name));
  const parts = schema.fields.filter((f) => partitionFields.includes(f.name));
  return JSON.stringify(sparkStruct([...data, ...parts]));
}
