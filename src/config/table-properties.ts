// Creating a table's `.hoodie/hoodie.properties` (and each partition's `.hoodie_partition_metadata`) as Java
// Hudi writes them — table version 6 as 0.14/0.15, 8 as 1.0 and 9 as 1.1 do for a table without a metadata
// table: Java-properties text, comment header, checksum (hudi-format.md §2, §12; hudi-v9-write.md §2).
import { invalidArgument } from '../errors.js';
import { tableChecksum } from './checksum.js';
import { formatProperties } from './properties.js';
import type { RecordMergeMode, TableType } from './table-config.js';

/** Payload class of tables merged by the greatest ordering value (event time). */
export const DEFAULT_PAYLOAD_CLASS = 'org.apache.hudi.common.model.DefaultHoodieRecordPayload';
/** Payload class of tables where the latest write wins (commit time). */
export const OVERWRITE_WITH_LATEST_PAYLOAD_CLASS = 'org.apache.hudi.common.model.OverwriteWithLatestAvroPayload';
/** `hoodie.compaction.record.merger.strategy` of v6 tables (Hudi's default merger strategy id). */
export const DEFAULT_MERGER_STRATEGY = 'eeb8d96f-b1e4-49fd-bbf8-28ac514178e5';
/** `hoodie.record.merge.strategy.id` of v8 tables merged by commit time (Hudi's `COMMIT_TIME_BASED_MERGE_STRATEGY_UUID`). */
export const COMMIT_TIME_MERGE_STRATEGY = 'ce9acb64-bde0-424c-9b91-f6ebba25356d';

/** Table versions lakelet creates: 6 (Hudi 0.14/0.15, timeline layout 1), 8 (Hudi 1.0) and 9 (Hudi 1.1), layout 2. */
export type CreatableTableVersion = 6 | 8 | 9;

/** Options of {@link createTableProperties}. */
export interface CreateTablePropertiesOptions {
  /** `hoodie.table.name`. */
  name: string;
  /** `hoodie.database.name`; omitted when undefined (the checksum then covers `.<name>`). Spark uses `default`. */
  databaseName?: string;
  tableType: TableType;
  /** Record key fields (at least one). */
  recordKeyFields: readonly string[];
  /** The ordering (precombine) field: none or one — v6 and v8 have a single `hoodie.table.precombine.field`. */
  orderingFields: readonly string[];
  /** Partition fields; empty for a non-partitioned table. */
  partitionFields: readonly string[];
  /** `hoodie.table.keygenerator.class` (v6), e.g. `org.apache.hudi.keygen.SimpleKeyGenerator`. */
  keyGeneratorClass: string;
  /**
   * `hoodie.table.keygenerator.type` (v8/v9, which write the enum name instead of the class), e.g. `SIMPLE`,
   * `COMPLEX`, `NON_PARTITION`, `TIMESTAMP`. Required for those versions.
   */
  keyGeneratorType?: string;
  /** Table version (default 6). v8/v9 use timeline layout 2 with the `timeline` and `history` folders. */
  tableVersion?: CreatableTableVersion;
  hiveStylePartitioning: boolean;
  urlEncodePartitioning: boolean;
  /** False → no `_hoodie_*` columns. */
  populateMetaFields: boolean;
  /**
   * The table's Avro record schema without the meta fields (JSON text or object). When absent (a table
   * whose schema comes from its first write) field names are not checked and the key is left out.
   */
  createSchema?: string | object | undefined;
  /** Overrides the payload class chosen from the merge mode. */
  payloadClass?: string;
  /**
   * Default `EVENT_TIME_ORDERING` when there is an ordering field, else `COMMIT_TIME_ORDERING`.
   * `EVENT_TIME_ORDERING` → `DefaultHoodieRecordPayload` (the record with the greatest ordering value wins,
   * also against stored records — lakelet's merge rule; Hudi 1.x upgrades it to event-time ordering);
   * `COMMIT_TIME_ORDERING` → `OverwriteWithLatestAvroPayload` (the latest write wins; upgraded to commit-time
   * ordering). `CUSTOM` needs `payloadClass`. When the mode differs from what a reader derives from the
   * ordering field alone, `hoodie.record.merge.mode` is written as well.
   */
  recordMergeMode?: RecordMergeMode;
  /** `hoodie.table.timeline.timezone`; lakelet generates instant times in UTC only. */
  timelineTimezone?: 'UTC';
  /**
   * v8/v9 with a metadata table: its built partitions (`hoodie.table.metadata.partitions`, written sorted, with
   * an empty `….inflight`). Absent or empty: no metadata table keys.
   */
  metadataPartitions?: readonly string[];
  /** `hoodie.table.index.defs.path` (v9 tables with a metadata table: `.hoodie/.index_defs/index.json`). */
  indexDefsPath?: string;
  /** More properties, written after (or replacing) the generated ones; identity keys cannot be replaced. */
  extra?: Readonly<Record<string, string>>;
  /** Time in the two comment lines (default now). */
  savedAt?: Date;
}

/** Keys `extra` must not override: they define the table's identity and format version. */
const PROTECTED_KEYS = new Set([
  'hoodie.table.name', 'hoodie.database.name', 'hoodie.table.type', 'hoodie.table.version', 'hoodie.timeline.layout.version', 'hoodie.table.initial.version',
  'hoodie.table.checksum', 'hoodie.table.metadata.partitions', 'hoodie.table.metadata.partitions.inflight',
]);

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');

/** Java `Date.toString()` in a UTC JVM: `Thu Apr 18 22:35:50 UTC 2024`. */
function javaDateString(d: Date): string {
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

/** Java `Instant.toString()` at millisecond precision: `2024-04-18T22:35:50.847Z` (`.000` dropped). */
function javaInstantString(d: Date): string {
  return d.toISOString().replace('.000Z', 'Z');
}

function checkFields(fields: readonly string[], field: string, schemaFields: ReadonlySet<string> | undefined): string {
  for (const f of fields) {
    if (f.trim() === '' || f.includes(',') || f !== f.trim()) throw invalidArgument(`table properties: bad field name ${JSON.stringify(f)} in ${field}`, { field, value: f });
    // Nested fields (`a.b`) are checked by their top-level name; custom key generators add `:TYPE`.
    const top = f.split(':')[0]?.split('.')[0] ?? f;
    if (schemaFields && !schemaFields.has(top)) throw invalidArgument(`table properties: ${field} names ${JSON.stringify(f)}, which is not a field of the create schema`, { field, value: f });
  }
  return fields.join(',');
}

/** The create schema as text, checked to be a record without `_hoodie_*` fields; returns its field names. */
function schemaOf(createSchema: string | object): { text: string; fields: Set<string> } {
  const text = typeof createSchema === 'string' ? createSchema : JSON.stringify(createSchema);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw invalidArgument(`table properties: createSchema is not JSON (${(err as Error).message})`, { field: 'createSchema' });
  }
  const rec = parsed as { type?: unknown; fields?: unknown };
  if (parsed === null || typeof parsed !== 'object' || rec.type !== 'record' || !Array.isArray(rec.fields)) {
    throw invalidArgument('table properties: createSchema is not an Avro record schema', { field: 'createSchema' });
  }
  const fields = new Set<string>();
  for (const f of rec.fields as unknown[]) {
    const name = (f as { name?: unknown } | null)?.name;
    if (typeof name !== 'string') throw invalidArgument('table properties: createSchema has a field without a name', { field: 'createSchema' });
    if (name.startsWith('_hoodie_')) throw invalidArgument(`table properties: createSchema must not contain the meta field ${name}`, { field: 'createSchema', value: name });
    fields.add(name);
  }
  return { text, fields };
}

/**
 * The text of a new table's `hoodie.properties` — table version 6 (timeline layout 1, parquet base files,
 * archived timeline in `archived`) by default, or 8/9 (layout 2, see `layout2Properties`) — metadata table off
 * (no `hoodie.table.metadata.partitions`), with Java's two comment lines, `:`/`=` escaped, and
 * `hoodie.table.checksum` = crc32(`<db>.<name>`). It parses back through `parseTableConfig` to the same
 * settings. Bad options → `INVALID_ARGUMENT`.
 */
export function createTableProperties(options: CreateTablePropertiesOptions): string {
  const o = options;
  if (o.name.trim() === '' || o.name !== o.name.trim()) throw invalidArgument(`table properties: bad table name ${JSON.stringify(o.name)}`, { field: 'name', value: o.name });
  if (o.databaseName !== undefined && (o.databaseName.trim() === '' || o.databaseName !== o.databaseName.trim())) {
    throw invalidArgument(`table properties: bad database name ${JSON.stringify(o.databaseName)}`, { field: 'databaseName', value: o.databaseName });
  }
  if (o.tableType !== 'COPY_ON_WRITE' && o.tableType !== 'MERGE_ON_READ') throw invalidArgument(`table properties: unknown table type ${JSON.stringify(o.tableType)}`, { field: 'tableType', value: o.tableType });
  if (o.recordKeyFields.length === 0) throw invalidArgument('table properties: at least one record key field is needed', { field: 'recordKeyFields' });
  const version = o.tableVersion ?? 6;
  if (version !== 6 && version !== 8 && version !== 9) throw invalidArgument(`table properties: table version ${JSON.stringify(version)} cannot be created (6, 8 or 9)`, { field: 'tableVersion', value: version });
  if (o.orderingFields.length > 1 && version !== 9) throw invalidArgument(`table properties: a v${version} table has at most one ordering (precombine) field`, { field: 'orderingFields', value: o.orderingFields });
  if (version !== 6 && (o.keyGeneratorType ?? '').trim() === '') throw invalidArgument(`table properties: a v${version} table needs keyGeneratorType`, { field: 'keyGeneratorType' });
  if (o.keyGeneratorClass.trim() === '') throw invalidArgument('table properties: keyGeneratorClass is empty', { field: 'keyGeneratorClass' });
  const tz = o.timelineTimezone ?? 'UTC';
  if (tz !== 'UTC') throw invalidArgument(`table properties: timeline timezone ${JSON.stringify(tz)} is not supported (UTC only)`, { field: 'timelineTimezone', value: tz });
  const schema = o.createSchema === undefined ? undefined : schemaOf(o.createSchema);
  const recordKeys = checkFields(o.recordKeyFields, 'recordKeyFields', schema?.fields);
  const ordering = checkFields(o.orderingFields, 'orderingFields', schema?.fields);
  const partitions = checkFields(o.partitionFields, 'partitionFields', schema?.fields);

  const derivedMode: RecordMergeMode = ordering === '' ? 'COMMIT_TIME_ORDERING' : 'EVENT_TIME_ORDERING';
  const mode = o.recordMergeMode ?? derivedMode;
  if (mode === 'EVENT_TIME_ORDERING' && ordering === '') throw invalidArgument('table properties: EVENT_TIME_ORDERING needs an ordering field', { field: 'recordMergeMode', value: mode });
  if (mode === 'CUSTOM' && o.payloadClass === undefined) throw invalidArgument('table properties: CUSTOM merge mode needs a payloadClass', { field: 'payloadClass' });
  const payload = o.payloadClass ?? (mode === 'EVENT_TIME_ORDERING' ? DEFAULT_PAYLOAD_CLASS : OVERWRITE_WITH_LATEST_PAYLOAD_CLASS);

  const props = version === 6
    ? v6Properties(o, { ordering, partitions, recordKeys, payload, mode, derivedMode, tz })
    : layout2Properties(o, version, { ordering, partitions, recordKeys, payload, mode, tz });
  if (schema) props.set('hoodie.table.create.schema', schema.text);
  props.set('hoodie.table.checksum', String(tableChecksum(o.databaseName, o.name)));
  if (o.metadataPartitions !== undefined && o.metadataPartitions.length > 0) {
    if (version === 6) throw invalidArgument('table properties: lakelet creates a metadata table only on table versions 8 and 9', { field: 'metadataPartitions', value: o.metadataPartitions });
    props.set('hoodie.table.metadata.partitions', [...o.metadataPartitions].sort().join(','));
    props.set('hoodie.table.metadata.partitions.inflight', '');
    if (o.indexDefsPath !== undefined) props.set('hoodie.table.index.defs.path', o.indexDefsPath);
  }
  for (const [k, v] of Object.entries(o.extra ?? {})) {
    if (PROTECTED_KEYS.has(k)) throw invalidArgument(`table properties: extra cannot set ${k}`, { field: 'extra', value: k });
    props.set(k, v);
  }
  const savedAt = o.savedAt ?? new Date();
  return formatProperties(props, [`Properties saved on ${javaInstantString(savedAt)}`, javaDateString(savedAt)]);
}

/** What the property builders share: the checked field lists and the merge settings. */
interface ResolvedProperties {
  ordering: string;
  partitions: string;
  recordKeys: string;
  payload: string;
  mode: RecordMergeMode;
  tz: string;
}

/** A v6 table's keys, in the order Hudi 0.14 writes them. */
function v6Properties(o: CreateTablePropertiesOptions, r: ResolvedProperties & { derivedMode: RecordMergeMode }): Map<string, string> {
  const { ordering, partitions, recordKeys, payload, mode, derivedMode, tz } = r;
  const props = new Map<string, string>();
  if (ordering !== '') props.set('hoodie.table.precombine.field', ordering);
  props.set('hoodie.datasource.write.drop.partition.columns', 'false');
  if (partitions !== '') props.set('hoodie.table.partition.fields', partitions);
  props.set('hoodie.table.type', o.tableType);
  props.set('hoodie.archivelog.folder', 'archived');
  props.set('hoodie.populate.meta.fields', String(o.populateMetaFields));
  props.set('hoodie.timeline.layout.version', '1');
  props.set('hoodie.table.version', '6');
  props.set('hoodie.table.recordkey.fields', recordKeys);
  if (o.databaseName !== undefined) props.set('hoodie.database.name', o.databaseName);
  props.set('hoodie.datasource.write.partitionpath.urlencode', String(o.urlEncodePartitioning));
  props.set('hoodie.table.name', o.name);
  props.set('hoodie.table.keygenerator.class', o.keyGeneratorClass);
  props.set('hoodie.datasource.write.hive_style_partitioning', String(o.hiveStylePartitioning));
  props.set('hoodie.table.base.file.format', 'PARQUET');
  props.set('hoodie.compaction.payload.class', payload);
  props.set('hoodie.compaction.record.merger.strategy', DEFAULT_MERGER_STRATEGY);
  if (mode !== derivedMode) props.set('hoodie.record.merge.mode', mode);
  props.set('hoodie.table.timeline.timezone', tz);
  return props;
}

/**
 * A v8/v9 table's keys, in the order the Hudi 1.0/1.1 fixtures show them (`v8_nonpartitioned`,
 * `v9_txns_simple_nometa`): no base file format or meta-fields key at their defaults, the key generator as its
 * enum name, the merge mode always. v8 keeps the precombine field, payload class and merge strategy id; v9 has
 * ordering fields, `hoodie.table.format=native`, and neither payload class nor strategy id for the standard
 * modes (the v8→v9 upgrade moves exactly these). Plus lakelet's `hoodie.table.timeline.timezone=UTC`.
 */
function layout2Properties(o: CreateTablePropertiesOptions, version: 8 | 9, r: ResolvedProperties): Map<string, string> {
  const { ordering, partitions, recordKeys, payload, mode, tz } = r;
  const props = new Map<string, string>();
  if (version === 8) props.set('hoodie.compaction.payload.class', payload);
  props.set('hoodie.table.initial.version', String(version));
  props.set('hoodie.table.keygenerator.type', (o.keyGeneratorType ?? '').trim());
  props.set('hoodie.table.type', o.tableType);
  if (version === 8 && ordering !== '') props.set('hoodie.table.precombine.field', ordering);
  if (partitions !== '') props.set('hoodie.table.partition.fields', partitions);
  props.set('hoodie.archivelog.folder', 'archived');
  if (!o.populateMetaFields) props.set('hoodie.populate.meta.fields', 'false');
  props.set('hoodie.timeline.layout.version', '2');
  props.set('hoodie.timeline.history.path', 'history');
  props.set('hoodie.datasource.write.drop.partition.columns', 'false');
  if (version === 8) {
    const strategy = mode === 'COMMIT_TIME_ORDERING' ? COMMIT_TIME_MERGE_STRATEGY : mode === 'EVENT_TIME_ORDERING' ? DEFAULT_MERGER_STRATEGY : undefined;
    if (strategy) props.set('hoodie.record.merge.strategy.id', strategy);
  }
  if (version === 9) props.set('hoodie.table.format', 'native');
  props.set('hoodie.table.name', o.name);
  props.set('hoodie.table.recordkey.fields', recordKeys);
  props.set('hoodie.timeline.path', 'timeline');
  if (version === 9 && ordering !== '') props.set('hoodie.table.ordering.fields', ordering);
  if (version === 9 && mode === 'CUSTOM') props.set('hoodie.compaction.payload.class', payload);
  props.set('hoodie.datasource.write.hive_style_partitioning', String(o.hiveStylePartitioning));
  if (o.databaseName !== undefined) props.set('hoodie.database.name', o.databaseName);
  props.set('hoodie.datasource.write.partitionpath.urlencode', String(o.urlEncodePartitioning));
  props.set('hoodie.record.merge.mode', mode);
  props.set('hoodie.table.version', String(version));
  props.set('hoodie.table.timeline.timezone', tz);
  return props;
}

/**
 * The text of a partition's `.hoodie_partition_metadata`: `#partition metadata`, a Java date comment,
 * `commitTime=<instant of the first write>` and `partitionDepth=<number of path segments>` (0 for the
 * table root of a non-partitioned table).
 */
export function partitionMetadataText(commitTime: string, partitionDepth: number, now: Date = new Date()): string {
  if (!/^\d{14}(\d{3})?$/.test(commitTime)) throw invalidArgument(`table properties: commit time ${JSON.stringify(commitTime)} is not an instant time`, { field: 'commitTime', value: commitTime });
  if (!Number.isSafeInteger(partitionDepth) || partitionDepth < 0) throw invalidArgument(`table properties: bad partition depth ${partitionDepth}`, { field: 'partitionDepth', value: partitionDepth });
  return formatProperties([['commitTime', commitTime], ['partitionDepth', String(partitionDepth)]], ['partition metadata', javaDateString(now)]);
}

/**
 * The `hoodie.properties` of a v8/v9 data table's metadata table (hudi-v9-write.md §4.1): name `<data>_metadata`,
 * a MERGE_ON_READ table of HFiles keyed by `key`, no meta fields, the HOODIE_TABLE_METADATA key generator, CUSTOM
 * merging with the all-zero strategy id and HoodieMetadataPayload, the history folder as archive folder, no
 * database name (checksum crc32(`.<name>_metadata`)).
 */
export function metadataTableProperties(dataTableName: string, version: 8 | 9, savedAt: Date = new Date()): string {
  const name = `${dataTableName}_metadata`;
  const props = new Map<string, string>([
    ['hoodie.compaction.payload.class', 'org.apache.hudi.metadata.HoodieMetadataPayload'],
    ['hoodie.table.initial.version', String(version)],
    ['hoodie.table.keygenerator.type', 'HOODIE_TABLE_METADATA'],
    ['hoodie.table.type', 'MERGE_ON_READ'],
    ['hoodie.archivelog.folder', 'history'],
    ['hoodie.timeline.layout.version', '2'],
    ['hoodie.timeline.history.path', 'history'],
    ['hoodie.table.checksum', String(tableChecksum(undefined, name))],
    ['hoodie.datasource.write.drop.partition.columns', 'false'],
    ['hoodie.record.merge.strategy.id', '00000000-0000-0000-0000-000000000000'],
    ['hoodie.table.recordkey.fields', 'key'],
    ['hoodie.table.name', name],
    ['hoodie.timeline.path', 'timeline'],
    ['hoodie.populate.meta.fields', 'false'],
    ['hoodie.table.base.file.format', 'HFILE'],
    ['hoodie.record.merge.mode', 'CUSTOM'],
    ['hoodie.table.version', String(version)],
  ]);
  return formatProperties(props, [`Properties saved on ${javaInstantString(savedAt)}`, javaDateString(savedAt)]);
}
