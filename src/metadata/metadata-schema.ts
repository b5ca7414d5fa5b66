// The metadata table's record schema, `HoodieMetadataRecord` (apache/hudi hudi-common/src/main/avro/
// HoodieMetadata.avsc: Hudi 1.0 for table version 8, 1.1 for version 9, which adds the column-stats `valueType`
// and the `ArrayWrapper` branch of min/max), as Java's `Schema.toString()` renders the generated class: strings
// tagged `avro.java.string`, keys in Avro's order. Written in two copies: with the five nullable `_hoodie_*` meta
// fields (HFile `schema` file info, log block SCHEMA headers) and without them (the MDT deltacommit's
// `extraMetadata.schema`). hudi-v9-write.md §4.3.
import { unsupported } from '../errors.js';
import { avroSchemaToJson, parseAvroSchema, type AvroRecordSchema } from '../format/avro/schema.js';

type Json = Record<string, unknown>;

const JAVA_STRING = { type: 'string', 'avro.java.string': 'String' };

/** A field in the key order Java writes: name, type, doc, default (doc and default only when given). */
function field(name: string, type: unknown, doc?: string, ...defaultValue: [unknown?]): Json {
  const f: Json = { name, type };
  if (doc !== undefined) f.doc = doc;
  if (defaultValue.length > 0) f.default = defaultValue[0];
  return f;
}

function record(name: string, doc: string | undefined, fields: Json[]): Json {
  return doc === undefined ? { type: 'record', name, fields } : { type: 'record', name, doc, fields };
}

/** The column-stats value wrappers in union order (the branch index is the position + 1, after null). */
export const WRAPPER_NAMES = [
  'BooleanWrapper', 'IntWrapper', 'LongWrapper', 'FloatWrapper', 'DoubleWrapper', 'BytesWrapper', 'StringWrapper',
  'DateWrapper', 'DecimalWrapper', 'TimeMicrosWrapper', 'TimestampMicrosWrapper', 'LocalDateWrapper',
] as const;

/** One wrapper's name. */
export type WrapperName = (typeof WRAPPER_NAMES)[number];

const wrapperType: Record<WrapperName, [unknown, string]> = {
  BooleanWrapper: ['boolean', 'boolean type'],
  IntWrapper: ['int', 'int type'],
  LongWrapper: ['long', 'long type'],
  FloatWrapper: ['float', 'float type'],
  DoubleWrapper: ['double', 'double type'],
  BytesWrapper: ['bytes', 'bytes type'],
  StringWrapper: [JAVA_STRING, 'string type'],
  DateWrapper: ['int', 'Date logical type'],
  DecimalWrapper: [{ type: 'bytes', logicalType: 'decimal', precision: 30, scale: 15 }, 'Decimal logical type'],
  TimeMicrosWrapper: [{ type: 'long', logicalType: 'time-micros' }, 'Time-micros logical type'],
  TimestampMicrosWrapper: ['long', 'Timestamp-micros logical type'],
  LocalDateWrapper: ['int', 'Local Date type'],
};

const nullable = (t: unknown): unknown[] => ['null', t];
const RLI_DOC = 'A UUID based fileId is stored as 3 pieces in RLI (fileIdHighBits, fileIdLowBits and fileIndex). \nFileID format is {UUID}-{fileIndex}.';

function columnStatsRecord(tableVersion: 8 | 9): Json {
  const wrappers = WRAPPER_NAMES.map((n) => record(n, `A record wrapping ${wrapperType[n][1]} to be able to be used it w/in Avro's Union`, [field('value', wrapperType[n][0])]));
  const minBranches: unknown[] = ['null', ...wrappers];
  const maxBranches: unknown[] = ['null', ...WRAPPER_NAMES];
  if (tableVersion === 9) {
    minBranches.push(record('ArrayWrapper', 'A record containing a list of wrapped values.', [
      field('wrappedValues', nullable({ type: 'array', items: ['null', ...WRAPPER_NAMES] }), 'An array where each element is one of the supported wrapper types.', null),
    ]));
    maxBranches.push('ArrayWrapper');
  }
  const fields = [
    field('fileName', nullable(JAVA_STRING), 'File name for which this column statistics applies', null),
    field('columnName', nullable(JAVA_STRING), 'Column name for which this column statistics applies', null),
    field('minValue', minBranches, 'Minimum value in the range. Based on user data table schema, we can convert this to appropriate type', null),
    field('maxValue', maxBranches, 'Maximum value in the range. Based on user data table schema, we can convert it to appropriate type', null),
    field('valueCount', nullable('long'), 'Total count of values', null),
    field('nullCount', nullable('long'), 'Total count of null values', null),
    field('totalSize', nullable('long'), 'Total storage size on disk', null),
    field('totalUncompressedSize', nullable('long'), 'Total uncompressed storage size on disk', null),
    field('isDeleted', 'boolean', 'Column range entry valid/deleted flag'),
    field('isTightBound', 'boolean', 'Whether the min/max range of a column is tight bound or not', false),
  ];
  if (tableVersion === 9) {
    fields.push(field('valueType', nullable(record('HoodieValueTypeInfo', undefined, [
      field('typeOrdinal', 'int', 'Enum type ordinal representing the value type'),
      field('additionalInfo', nullable(JAVA_STRING), 'Optional additional information about the value type', null),
    ])), 'Value type information containing enum ordinal and optional additional information', null));
  }
  return record('HoodieMetadataColumnStats', 'Data file column statistics', fields);
}

function metadataRecordJson(tableVersion: 8 | 9, withMetaFields: boolean): Json {
  const meta = ['_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name']
    .map((n) => field(n, nullable('string'), '', null));
  const fields = [
    ...(withMetaFields ? meta : []),
    field('key', JAVA_STRING),
    field('type', 'int', 'Type of the metadata record'),
    field('filesystemMetadata', nullable({
      type: 'map',
      values: record('HoodieMetadataFileInfo', undefined, [field('size', 'long', 'Size of the file'), field('isDeleted', 'boolean', 'True if this file has been deleted')]),
      'avro.java.string': 'String',
    }), 'Contains information about partitions and files within the dataset'),
    field('BloomFilterMetadata', nullable(record('HoodieMetadataBloomFilter', 'Data file bloom filter details', [
      field('type', JAVA_STRING, 'Bloom filter type code'),
      field('timestamp', JAVA_STRING, 'Instant timestamp when this metadata was created/updated'),
      field('bloomFilter', 'bytes', 'Bloom filter binary byte array'),
      field('isDeleted', 'boolean', 'Bloom filter entry valid/deleted flag'),
    ])), 'Metadata Index of bloom filters for all data files in the user table', null),
    field('ColumnStatsMetadata', nullable(columnStatsRecord(tableVersion)), 'Metadata Index of column statistics for all data files in the user table', null),
    field('recordIndexMetadata', nullable(record('HoodieRecordIndexInfo', undefined, [
      field('partitionName', nullable(JAVA_STRING), 'Refers to the partition name the record belongs to', null),
      field('fileIdHighBits', nullable('long'), `Refers to high 64 bits if the fileId is based on UUID format. \n${RLI_DOC}`, null),
      field('fileIdLowBits', nullable('long'), `Refers to low 64 bits if the fileId is based on UUID format. \n${RLI_DOC}`, null),
      field('fileIndex', nullable('int'), `Index representing file index which is used to re-construct UUID based fileID. Applicable when the fileId is based on UUID format. \n${RLI_DOC}`, null),
      field('fileId', nullable(JAVA_STRING), 'Represents fileId of the location where record belongs to. When the encoding is 1, fileID is stored in raw string format.', null),
      field('instantTime', nullable('long'), 'Epoch time in millisecond representing the commit time at which record was added', null),
      field('fileIdEncoding', 'int', 'Represents fileId encoding. Possible values are 0 and 1. O represents UUID based fileID, and 1 represents raw string format of the fileId. \nWhen the encoding is 0, reader can deduce fileID from fileIdLowBits, fileIdHighBits and fileIndex.', 0),
      field('position', nullable('long'), 'Represents position of record within a file group for easier access. It will be used for index lookup.', null),
    ])), 'Metadata Index that contains information about record keys and their location in the dataset', null),
    field('SecondaryIndexMetadata', nullable(record('HoodieSecondaryIndexInfo', undefined, [field('isDeleted', 'boolean', 'True if this entry has been deleted')])),
      'Metadata Index that contains information about secondary keys and the corresponding record keys in the dataset', null),
  ];
  return { type: 'record', name: 'HoodieMetadataRecord', namespace: 'org.apache.hudi.avro.model', doc: 'A record saved within the Metadata Table', fields };
}

/** The metadata table's format generation: 8 (Hudi 1.0) or 9 (Hudi 1.1). */
export type MetadataSchemaVersion = 8 | 9;

/** The metadata record schema generation of a data table version (8 or 9); other versions → `UNSUPPORTED`. */
export function metadataSchemaVersion(tableVersion: number): MetadataSchemaVersion {
  if (tableVersion === 8 || tableVersion === 9) return tableVersion;
  throw unsupported(`metadata: no metadata record schema for table version ${tableVersion} (lakelet knows 8 and 9)`, { field: 'hoodie.table.version', value: tableVersion });
}

const texts = new Map<string, string>();
const parsed = new Map<string, AvroRecordSchema>();

/**
 * The `HoodieMetadataRecord` schema JSON exactly as Hudi writes it for the table version: with the meta fields
 * (HFile file info, log block headers; the default) or without (the MDT deltacommit's `extraMetadata.schema`).
 */
export function metadataRecordSchemaText(tableVersion: number, options: { metaFields?: boolean } = {}): string {
  const version = metadataSchemaVersion(tableVersion);
  const id = `${version}:${options.metaFields !== false}`;
  let text = texts.get(id);
  if (text === undefined) {
    text = JSON.stringify(metadataRecordJson(version, options.metaFields !== false));
    texts.set(id, text);
  }
  return text;
}

/** The parsed `HoodieMetadataRecord` schema (cached), as {@link metadataRecordSchemaText}. */
export function metadataRecordSchema(tableVersion: number, options: { metaFields?: boolean } = {}): AvroRecordSchema {
  const text = metadataRecordSchemaText(tableVersion, options);
  let schema = parsed.get(text);
  if (schema === undefined) {
    schema = parseAvroSchema(text) as AvroRecordSchema;
    parsed.set(text, schema);
  }
  return schema;
}

/** Which metadata record schema a writer schema text is: the generation and whether it has the meta fields. */
export interface MetadataSchemaKind {
  version: MetadataSchemaVersion;
  metaFields: boolean;
}

/**
 * Recognise the writer schema of an MDT HFile or log block (its `schema` file info or SCHEMA header): one of the
 * four schemas above, as exact text or, parsed, the same schema. Anything else → `UNSUPPORTED` naming `path`
 * (a newer Hudi's record layout lakelet cannot decode).
 */
export function recogniseMetadataSchema(text: string, path?: string): MetadataSchemaKind {
  const kinds: MetadataSchemaKind[] = [{ version: 9, metaFields: true }, { version: 9, metaFields: false }, { version: 8, metaFields: true }, { version: 8, metaFields: false }];
  for (const k of kinds) if (metadataRecordSchemaText(k.version, k) === text) return k;
  let normal: string | undefined;
  try {
    normal = JSON.stringify(avroSchemaToJson(parseAvroSchema(text)));
  } catch {
    normal = undefined;
  }
  for (const k of kinds) if (normal !== undefined && JSON.stringify(avroSchemaToJson(metadataRecordSchema(k.version, k))) === normal) return k;
  throw unsupported(`metadata: ${path ?? 'a metadata file'} is written with a record schema lakelet does not know (not Hudi 1.0's or 1.1's HoodieMetadataRecord)`, { ...(path === undefined ? {} : { path }), field: 'schema', value: text.length > 80 ? `${text.slice(0, 80)}…` : text });
}
