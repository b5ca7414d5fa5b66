// Hudi's built-in key generators (simple, complex, non-partitioned, timestamp-based): the record key and the
// partition path of a row, byte-for-byte as Hudi's Avro key generators write them, plus path-safety escaping.
import type { TableConfig } from '../config/table-config.js';
import { invalidArgument, LakeletError, unsupported } from '../errors.js';
import type { AvroRecordSchema, AvroSchema } from '../format/avro/schema.js';
import { loneSurrogateProblem } from '../schema/well-formed.js';
import { hudiValueString, lookupField } from './field-value.js';
import { DEFAULT_PARTITION_PATH, assertSafePartitionPath, encodePartitionValue, escapePathName } from './partition-path.js';
import type { TimestampPartitionFormatter } from './timestamp-key-generator.js';
import { timestampOptionsFromProperties, type TimestampKeyGenOptions } from './timestamp-options.js';

/** The key generator families lakelet writes (Hudi's v8+ `hoodie.table.keygenerator.type` names). */
export type KeyGeneratorKind = 'SIMPLE' | 'COMPLEX' | 'NON_PARTITION' | 'TIMESTAMP';

/** Options of {@link createKeyGenerator}. */
export interface KeyGeneratorOptions {
  type: KeyGeneratorKind;
  /** `hoodie.table.recordkey.fields`; SIMPLE and TIMESTAMP take exactly one. Dotted names reach nested fields. */
  recordKeyFields: readonly string[];
  /** `hoodie.table.partition.fields`; SIMPLE takes at most one, TIMESTAMP exactly one, NON_PARTITION none. */
  partitionFields: readonly string[];
  /** `hoodie.datasource.write.hive_style_partitioning`: `field=value` segments. */
  hiveStylePartitioning: boolean;
  /** `hoodie.datasource.write.partitionpath.urlencode`: Hive `escapePathName` on partition values. */
  urlEncodePartitioning: boolean;
  /** Timestamp key generator settings (required for TIMESTAMP). */
  timestamp?: TimestampKeyGenOptions;
  /**
   * The table schema (without meta fields). When given, fields must exist in it and values are turned into
   * strings by their Avro type (float vs double, decimal, date vs timestamp); without it, integers print as
   * digits, other numbers as Java doubles and Dates as epoch microseconds.
   */
  schema?: AvroRecordSchema;
}

/** Computes Hudi's record key and partition path of a row. Errors are `INVALID_ARGUMENT` naming the field. */
export interface KeyGenerator {
  readonly type: KeyGeneratorKind;
  /** `_hoodie_record_key`: simple → the value; complex → `f1:v1,f2:v2` (`__null__`/`__empty__` for null/empty parts). */
  recordKey(row: Readonly<Record<string, unknown>>): string;
  /** `_hoodie_partition_path`: `""` when non-partitioned, else `/`-joined segments; always safe under the table root. */
  partitionPath(row: Readonly<Record<string, unknown>>): string;
}

/** Placeholder for a null part of a complex key. */
export const NULL_RECORDKEY_PLACEHOLDER = '__null__';
/** Placeholder for an empty-string part of a complex key. */
export const EMPTY_RECORDKEY_PLACEHOLDER = '__empty__';

/** How many distinct safe partition paths a key generator remembers (then it starts over). */
const SAFE_PATHS_KEPT = 4096;

const CLASS_NAMES: Record<KeyGeneratorKind, string> = {
  SIMPLE: 'org.apache.hudi.keygen.SimpleKeyGenerator',
  COMPLEX: 'org.apache.hudi.keygen.ComplexKeyGenerator',
  NON_PARTITION: 'org.apache.hudi.keygen.NonpartitionedKeyGenerator',
  TIMESTAMP: 'org.apache.hudi.keygen.TimestampBasedKeyGenerator',
};

/** The v6 `hoodie.table.keygenerator.class` value of a key generator type. */
export function keyGeneratorClassName(type: KeyGeneratorKind): string {
  return CLASS_NAMES[type];
}

/**
 * The key generator Hudi infers when none is configured (`KeyGenUtils.inferKeyGeneratorType`): NON_PARTITION
 * without partition fields; SIMPLE for exactly one record key field and one partition field; else COMPLEX.
 * Timestamp-based key generators are never inferred.
 */
export function inferKeyGeneratorType(recordKeyFields: readonly string[], partitionFields: readonly string[]): KeyGeneratorKind {
  const keys = recordKeyFields.filter((f) => f.trim() !== '');
  const parts = partitionFields.filter((f) => f.trim() !== '');
  if (parts.length === 0) return 'NON_PARTITION';
  return parts.length === 1 && keys.length <= 1 ? 'SIMPLE' : 'COMPLEX';
}

/**
 * The key generator type of a `hoodie.table.keygenerator.class` (v6, any Spark/Avro variant) or
 * `hoodie.table.keygenerator.type` (v8+) value. Absent → NON_PARTITION without partition fields, else SIMPLE
 * (COMPLEX with several record key or partition fields, as Hudi infers). Custom or unknown generators →
 * `UNSUPPORTED`.
 */
export function parseKeyGeneratorType(value: string | undefined, recordKeyFields: readonly string[] = [], partitionFields: readonly string[] = []): KeyGeneratorKind {
  const v = (value ?? '').trim();
  if (v === '') return inferKeyGeneratorType(recordKeyFields, partitionFields);
  const upper = v.toUpperCase();
  if (upper in CLASS_NAMES) return upper as KeyGeneratorKind;
  const simpleName = (v.split('.').pop() ?? '').replace(/^Common/, '');
  const byClass: Record<string, KeyGeneratorKind> = {
    SimpleKeyGenerator: 'SIMPLE', SimpleAvroKeyGenerator: 'SIMPLE',
    ComplexKeyGenerator: 'COMPLEX', ComplexAvroKeyGenerator: 'COMPLEX',
    NonpartitionedKeyGenerator: 'NON_PARTITION', NonpartitionedAvroKeyGenerator: 'NON_PARTITION', NonPartitionedAvroKeyGenerator: 'NON_PARTITION',
    TimestampBasedKeyGenerator: 'TIMESTAMP', TimestampBasedAvroKeyGenerator: 'TIMESTAMP',
  };
  const kind = v.startsWith('org.apache.hudi.keygen.') ? byClass[simpleName] : undefined;
  if (kind === undefined) throw unsupported(`keygen: key generator ${JSON.stringify(v)} is not supported (lakelet writes SIMPLE, COMPLEX, NON_PARTITION and TIMESTAMP)`, { field: 'hoodie.table.keygenerator.class', value: v });
  return kind;
}

/** Key generator options of an existing table, from its `hoodie.properties` (timestamp settings included). */
export function keyGeneratorOptionsFromConfig(config: TableConfig, schema?: AvroRecordSchema): KeyGeneratorOptions {
  const type = parseKeyGeneratorType(config.keyGenerator, config.recordKeyFields, config.partitionFields);
  const options: KeyGeneratorOptions = {
    type,
    recordKeyFields: [...config.recordKeyFields],
    partitionFields: [...config.partitionFields],
    hiveStylePartitioning: config.hiveStylePartitioning,
    urlEncodePartitioning: config.urlEncodePartitioning,
  };
  if (type === 'TIMESTAMP') {
    const ts = timestampOptionsFromProperties(config.properties);
    if (ts === undefined) throw new LakeletError('INVALID_TABLE', 'keygen: table uses the timestamp key generator but has no hoodie.keygen.timebased.timestamp.type', { field: 'hoodie.keygen.timebased.timestamp.type' });
    options.timestamp = ts;
  }
  if (schema !== undefined) options.schema = schema;
  return options;
}

function checkFieldCount(type: KeyGeneratorKind, what: string, fields: readonly string[], min: number, max: number): void {
  if (fields.length < min || fields.length > max) {
    const want = min === max ? `exactly ${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    throw invalidArgument(`keygen: the ${type} key generator takes ${want} ${what} field(s), got ${fields.length} (${fields.join(',') || 'none'})`, { value: fields });
  }
}

/** Compiles the timestamp key generator's partition formatting (timestamp-key-generator.ts). */
export type TimestampFormatterFactory = (options: TimestampKeyGenOptions) => TimestampPartitionFormatter;

/**
 * {@link createKeyGenerator}, loading the timestamp key generator's date formatting first when the type needs it
 * (a lazy chunk: tables with other key generators never load it).
 */
export async function loadKeyGenerator(options: KeyGeneratorOptions): Promise<KeyGenerator> {
  if (options.type !== 'TIMESTAMP') return createKeyGenerator(options);
  const { createTimestampPartitionFormatter } = await import('./timestamp-key-generator.js');
  return createKeyGenerator(options, createTimestampPartitionFormatter);
}

/**
 * Build a key generator. Validates the field lists for the type (and, given a schema, that every field exists).
 * Record keys follow Hudi exactly; partition values are escaped as Hudi does when `urlEncodePartitioning`, and in
 * every case `/`, `\`, `%`, control characters and a leading `.` (plain style) are percent-encoded so no row can
 * produce a path outside its partition directory (a deliberate deviation: Hudi writes such values raw).
 */
export function createKeyGenerator(options: KeyGeneratorOptions, timestampFormatter?: TimestampFormatterFactory): KeyGenerator {
  const { type, schema } = options;
  const recordKeyFields = options.recordKeyFields.map((f) => f.trim()).filter((f) => f !== '');
  const partitionFields = options.partitionFields.map((f) => f.trim()).filter((f) => f !== '');
  switch (type) {
    case 'SIMPLE': checkFieldCount(type, 'record key', recordKeyFields, 1, 1); checkFieldCount(type, 'partition', partitionFields, 0, 1); break;
    case 'COMPLEX': checkFieldCount(type, 'record key', recordKeyFields, 1, Infinity); break;
    case 'NON_PARTITION': checkFieldCount(type, 'record key', recordKeyFields, 1, Infinity); checkFieldCount(type, 'partition', partitionFields, 0, 0); break;
    case 'TIMESTAMP': checkFieldCount(type, 'record key', recordKeyFields, 1, 1); checkFieldCount(type, 'partition', partitionFields, 1, 1); break;
    default: throw invalidArgument(`keygen: unknown key generator type ${JSON.stringify(type)}`, { value: type });
  }
  for (const field of [...recordKeyFields, ...partitionFields]) {
    if (field.includes('/') || field.includes('\\') || field.startsWith('.') || /[\u0000-\u001f=]/.test(field)) throw invalidArgument(`keygen: field name ${JSON.stringify(field)} cannot be used for keys or partitions`, { field });
    if (schema !== undefined && lookupSchemaField(schema, field) === false) throw invalidArgument(`keygen: field '${field}' is not in the table schema`, { field });
  }
  let formatTimestamp: TimestampPartitionFormatter | undefined;
  if (type === 'TIMESTAMP') {
    const timestamp = requireTimestamp(options.timestamp);
    if (timestampFormatter === undefined) throw invalidArgument('keygen: the TIMESTAMP key generator is built by loadKeyGenerator (its date formatting loads on demand)', { field: 'timestamp' });
    formatTimestamp = timestampFormatter(timestamp);
  }

  const valueString = (row: Readonly<Record<string, unknown>>, field: string): string | null => {
    const { value, type: fieldType } = lookupField(row, field, schema);
    const text = hudiValueString(value, fieldType, field);
    const problem = text === null ? undefined : loneSurrogateProblem(text);
    if (problem !== undefined) throw invalidArgument(`keygen: field '${field}' ${problem}`, { field, value: text });
    return text;
  };

  const simpleKey = (row: Readonly<Record<string, unknown>>): string => {
    const field = recordKeyFields[0] as string;
    const v = valueString(row, field);
    if (v === null || v === '') throw invalidArgument(`keygen: record key field '${field}' is ${v === null ? 'null' : 'empty'}`, { field, value: v });
    return v;
  };

  // `f1:v1,f2:v2` is ambiguous when a value holds `,<key field>:` or is a placeholder: refuse such values.
  const fieldPrefixes = recordKeyFields.length > 1 ? recordKeyFields.map((f) => `,${f}:`) : [];
  const complexKey = (row: Readonly<Record<string, unknown>>): string => {
    let allNullOrEmpty = true;
    const parts = recordKeyFields.map((field) => {
      const v = valueString(row, field);
      if (v === null) return `${field}:${NULL_RECORDKEY_PLACEHOLDER}`;
      if (v === '') return `${field}:${EMPTY_RECORDKEY_PLACEHOLDER}`;
      const clash = fieldPrefixes.find((prefix) => v.includes(prefix));
      if (clash !== undefined) {
        throw invalidArgument(`keygen: record key field '${field}' holds ${JSON.stringify(v)}: its ',' before '${clash.slice(1)}' makes the complex key ambiguous (another row's parts could spell the same key)`, { field, value: v });
      }
      if (fieldPrefixes.length > 0 && (v === NULL_RECORDKEY_PLACEHOLDER || v === EMPTY_RECORDKEY_PLACEHOLDER)) {
        throw invalidArgument(`keygen: record key field '${field}' holds ${JSON.stringify(v)}, the complex key's placeholder for a ${v === NULL_RECORDKEY_PLACEHOLDER ? 'null' : 'empty'} value`, { field, value: v });
      }
      allNullOrEmpty = false;
      return `${field}:${v}`;
    });
    if (allNullOrEmpty) throw invalidArgument(`keygen: record key fields ${recordKeyFields.map((f) => `'${f}'`).join(', ')} are all null or empty`, { field: recordKeyFields.join(','), value: null });
    return parts.join(',');
  };

  const segment = (field: string, value: string): string => {
    const encoded = encodePartitionValue(value, options.urlEncodePartitioning, !options.hiveStylePartitioning);
    return options.hiveStylePartitioning ? `${field}=${encoded}` : encoded;
  };

  const recordKey = type === 'COMPLEX' || (type === 'NON_PARTITION' && recordKeyFields.length > 1) ? complexKey : simpleKey;

  // Paths already found safe: a batch has few distinct partitions, so each is checked once (bounded, as keys are not).
  // The first instance of each is returned for every later row: the records of a partition share one string, so
  // the maps that group them by path later hash it once and compare by identity.
  const safe = new Map<string, string>();
  const checked = (path: string, context: { field?: string; value?: unknown }): string => {
    const known = safe.get(path);
    if (known !== undefined) return known;
    assertSafePartitionPath(path, context);
    if (safe.size >= SAFE_PATHS_KEPT) safe.clear();
    safe.set(path, path);
    return path;
  };
  const partitionPath = (row: Readonly<Record<string, unknown>>): string => {
    if (partitionFields.length === 0) return '';
    if (formatTimestamp !== undefined) {
      const field = partitionFields[0] as string;
      const { value } = lookupField(row, field, schema);
      let formatted: string;
      try {
        formatted = formatTimestamp(value);
      } catch (err) {
        if (err instanceof LakeletError) throw new LakeletError(err.code, `${err.message} (field '${field}')`, { ...err.context, field }, { cause: err });
        throw err;
      }
      const path = options.urlEncodePartitioning ? escapePathName(formatted) : formatted;
      // The output pattern may add levels (`yyyy/MM/dd`); it is configuration, so only the result is checked.
      return checked(options.hiveStylePartitioning ? `${field}=${path}` : path, { field, value });
    }
    const segments = partitionFields.map((field) => {
      const v = valueString(row, field);
      return v === null || v === '' ? (options.hiveStylePartitioning ? `${field}=${DEFAULT_PARTITION_PATH}` : DEFAULT_PARTITION_PATH) : segment(field, v);
    });
    return checked(segments.join('/'), { field: partitionFields.join(',') });
  };

  return { type, recordKey, partitionPath };
}

function requireTimestamp(ts: TimestampKeyGenOptions | undefined): TimestampKeyGenOptions {
  if (ts === undefined) throw invalidArgument('keygen: the TIMESTAMP key generator needs timestamp options (timestamp.type, formats)', { field: 'timestamp' });
  return ts;
}

/** True when the (possibly dotted) field exists in the schema, false when it does not. */
function lookupSchemaField(schema: AvroRecordSchema, field: string): boolean {
  if (schema.fields.some((f) => f.name === field)) return true;
  let current: AvroRecordSchema | undefined = schema;
  for (const part of field.split('.')) {
    if (current === undefined) return false;
    const f: AvroRecordSchema['fields'][number] | undefined = current.fields.find((x) => x.name === part);
    if (f === undefined) return false;
    const t: AvroSchema | undefined = f.type.type === 'union' ? f.type.branches.find((b) => b.type !== 'null') : f.type;
    current = t?.type === 'record' ? t : undefined;
  }
  return true;
}
