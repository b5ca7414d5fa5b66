// The table's configuration as read from `.hoodie/hoodie.properties`: a typed, validated view of the
// keys a reader and writer need (hudi-format.md §2; versions 3–5 and 7 in docs/hudi-format-v3-v5.md), plus
// the raw properties for everything else.
import { LakeletError } from '../errors.js';
import { archiveDir, PROPERTIES_PATH, timelineDir } from '../layout.js';
import { tableChecksum } from './checksum.js';
import { parseProperties } from './properties.js';

/** Hudi's two table types. */
export type TableType = 'COPY_ON_WRITE' | 'MERGE_ON_READ';
/** How two versions of a record are merged. */
export type RecordMergeMode = 'EVENT_TIME_ORDERING' | 'COMMIT_TIME_ORDERING' | 'CUSTOM';
/** Key generator families, in Hudi's v8+ enum names. */
export type KeyGeneratorType = 'SIMPLE' | 'COMPLEX' | 'NON_PARTITION' | 'TIMESTAMP' | 'CUSTOM' | 'OTHER';

/**
 * Table versions lakelet reads: 3, 4, 5 (Hudi 0.10, 0.11, 0.12/0.13) and 7 (0.16) with timeline layout 1, read
 * as Hudi 0.14 reads them (docs/hudi-format-v3-v5.md); 6 (0.14/0.15); 8 and 9 (1.0, 1.1) with layout 2.
 */
export const SUPPORTED_TABLE_VERSIONS = [3, 4, 5, 6, 7, 8, 9] as const;

/** The partition path Hudi writes for a null or empty partition value since 0.12 (table version 5). */
export const HIVE_DEFAULT_PARTITION_PATH = '__HIVE_DEFAULT_PARTITION__';
/** The partition path Hudi 0.10/0.11 (table versions 3 and 4) wrote for a null or empty partition value. */
export const DEPRECATED_DEFAULT_PARTITION_PATH = 'default';

/**
 * The default partition path of a table version: `default` before version 5, `__HIVE_DEFAULT_PARTITION__` from
 * it on (Hudi 0.12 changed `PartitionPathEncodeUtils.DEFAULT_PARTITION_PATH`; `FourToFiveUpgradeHandler` refuses
 * to upgrade a table that still has a `default` partition).
 */
export function defaultPartitionPathOf(version: number): string {
  return version < 5 ? DEPRECATED_DEFAULT_PARTITION_PATH : HIVE_DEFAULT_PARTITION_PATH;
}

/** The validated configuration of a Hudi table. */
export interface TableConfig {
  /** `hoodie.table.name`. */
  name: string;
  /** `hoodie.database.name`, when set. */
  databaseName: string | undefined;
  tableType: TableType;
  /** `hoodie.table.version`: one of {@link SUPPORTED_TABLE_VERSIONS}. */
  version: number;
  /**
   * `hoodie.timeline.layout.version` as read: 1 (v3–v7) or 2 (v8+). A v3–v5 table's layout 0 (a timeline
   * begun before Hudi 0.5.1, one file per instant state) reads as layout 1; `timelineLayoutVersionAsWritten`
   * keeps the text.
   */
  timelineLayoutVersion: 1 | 2;
  /** The `hoodie.timeline.layout.version` text as written (undefined when absent). */
  timelineLayoutVersionAsWritten: string | undefined;
  /**
   * The partition path Hudi wrote for a null or empty partition value in this table version: `default` (v3, v4)
   * or `__HIVE_DEFAULT_PARTITION__` (v5+); see {@link defaultPartitionPathOf}.
   */
  defaultPartitionPath: string;
  /** Folder of the active timeline relative to the table root (`.hoodie` or `.hoodie/timeline`). */
  timelinePath: string;
  /** Folder of the archived timeline relative to the table root. */
  archivePath: string;
  recordKeyFields: string[];
  /** Ordering (precombine) fields; empty when the table has none. */
  orderingFields: string[];
  /** Partition fields; empty for a non-partitioned table. */
  partitionFields: string[];
  keyGeneratorType: KeyGeneratorType;
  /** The key generator as written (a Java class name for v6, an enum name for v8+). */
  keyGenerator: string | undefined;
  hiveStylePartitioning: boolean;
  urlEncodePartitioning: boolean;
  /** False for tables written without the `_hoodie_*` meta columns. */
  populateMetaFields: boolean;
  /** Always `PARQUET` for tables lakelet opens. */
  baseFileFormat: 'PARQUET';
  recordMergeMode: RecordMergeMode;
  /** `hoodie.table.create.schema` (Avro JSON), when present. */
  createSchema: string | undefined;
  /** `hoodie.table.checksum`, when present. */
  checksum: number | undefined;
  /** Every property as read. */
  properties: ReadonlyMap<string, string>;
}

const list = (v: string | undefined): string[] => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const bool = (v: string | undefined, fallback: boolean): boolean => (v === undefined || v === '' ? fallback : v.toLowerCase() === 'true');

function keyGeneratorTypeOf(value: string | undefined, partitionFields: string[]): KeyGeneratorType {
  const v = (value ?? '').toUpperCase();
  if (v === '') return partitionFields.length === 0 ? 'NON_PARTITION' : 'SIMPLE';
  if (v.includes('NONPARTITIONED') || v === 'NON_PARTITION') return 'NON_PARTITION';
  if (v.includes('TIMESTAMPBASED') || v === 'TIMESTAMP' || v.endsWith('.TIMESTAMP')) return 'TIMESTAMP';
  if (v.includes('COMPLEX') || v === 'COMPLEX') return 'COMPLEX';
  if (v.includes('CUSTOM') || v === 'CUSTOM') return 'CUSTOM';
  if (v.includes('SIMPLE') || v === 'SIMPLE') return 'SIMPLE';
  return 'OTHER';
}

/**
 * Parse and validate `hoodie.properties`. Unknown table versions (below 3, above 9), a layout that does not fit
 * the version (1 for v3–v7, layout 0 accepted for v3–v5; 2 for v8+),
 * base formats other than parquet and `drop.partition.columns=true` → `UNSUPPORTED`; missing required keys
 * → `INVALID_TABLE`; a checksum that does not match the name → `CORRUPT_FILE`. `path` is used in messages.
 */
export function parseTableConfig(text: string, path = PROPERTIES_PATH): TableConfig {
  const props = parseProperties(text);
  const get = (k: string) => props.get(k);
  const require = (k: string): string => {
    const v = get(k);
    if (v === undefined || v === '') throw new LakeletError('INVALID_TABLE', `config: ${path} has no ${k}`, { path, field: k });
    return v;
  };
  const name = require('hoodie.table.name');
  const typeText = require('hoodie.table.type').toUpperCase();
  if (typeText !== 'COPY_ON_WRITE' && typeText !== 'MERGE_ON_READ') {
    throw new LakeletError('INVALID_TABLE', `config: unknown hoodie.table.type ${JSON.stringify(typeText)} in ${path}`, { path, field: 'hoodie.table.type', value: typeText });
  }
  const versionText = get('hoodie.table.version') ?? '';
  const version = Number(versionText);
  if (!(SUPPORTED_TABLE_VERSIONS as readonly number[]).includes(version)) {
    throw new LakeletError('UNSUPPORTED', `config: table version ${JSON.stringify(versionText)} is not supported (lakelet reads versions ${SUPPORTED_TABLE_VERSIONS.join(', ')}) in ${path}`, { path, field: 'hoodie.table.version', value: versionText });
  }
  const expectedLayout = version >= 8 ? 2 : 1;
  const layoutText = get('hoodie.timeline.layout.version');
  let layout = layoutText === undefined || layoutText === '' ? expectedLayout : Number(layoutText);
  // Layout 0 (before Hudi 0.5.1) renamed instant files, so one file per instant: layout 1's reading of it is the same.
  if (layout === 0 && version < 6) layout = 1;
  if (layout !== expectedLayout) {
    throw new LakeletError('UNSUPPORTED', `config: timeline layout ${JSON.stringify(layoutText)} does not fit table version ${version} (expected ${expectedLayout}) in ${path}`, { path, field: 'hoodie.timeline.layout.version', value: layoutText });
  }
  const format = (get('hoodie.table.base.file.format') || 'PARQUET').toUpperCase();
  if (format !== 'PARQUET') {
    throw new LakeletError('UNSUPPORTED', `config: base file format ${format} is not supported (only PARQUET) in ${path}`, { path, field: 'hoodie.table.base.file.format', value: format });
  }
  if (bool(get('hoodie.datasource.write.drop.partition.columns'), false)) {
    throw new LakeletError('UNSUPPORTED', `config: hoodie.datasource.write.drop.partition.columns=true is not supported in ${path}`, { path, field: 'hoodie.datasource.write.drop.partition.columns', value: 'true' });
  }
  const databaseName = get('hoodie.database.name') || undefined;
  const checksumText = get('hoodie.table.checksum');
  const checksum = checksumText === undefined || checksumText === '' ? undefined : Number(checksumText);
  if (checksum !== undefined && checksum !== tableChecksum(databaseName, name)) {
    throw new LakeletError('CORRUPT_FILE', `config: hoodie.table.checksum ${checksumText} does not match table ${JSON.stringify(name)} in ${path}`, { path, field: 'hoodie.table.checksum', value: checksumText });
  }
  const partitionFields = list(get('hoodie.table.partition.fields'));
  const orderingFields = list(get('hoodie.table.ordering.fields') ?? get('hoodie.table.precombine.field'));
  const keyGenerator = get('hoodie.table.keygenerator.type') ?? get('hoodie.table.keygenerator.class');
  const modeText = (get('hoodie.record.merge.mode') ?? '').toUpperCase();
  const recordMergeMode: RecordMergeMode =
    modeText === 'EVENT_TIME_ORDERING' || modeText === 'COMMIT_TIME_ORDERING' || modeText === 'CUSTOM'
      ? modeText
      : orderingFields.length > 0 ? 'EVENT_TIME_ORDERING' : 'COMMIT_TIME_ORDERING';
  return {
    name,
    databaseName,
    tableType: typeText,
    version,
    timelineLayoutVersion: layout as 1 | 2,
    timelineLayoutVersionAsWritten: layoutText,
    defaultPartitionPath: defaultPartitionPathOf(version),
    timelinePath: timelineDir(layout, get('hoodie.timeline.path')),
    archivePath: archiveDir(layout, { archiveFolder: get('hoodie.archivelog.folder'), timelineFolder: get('hoodie.timeline.path'), historyFolder: get('hoodie.timeline.history.path') }),
    recordKeyFields: list(get('hoodie.table.recordkey.fields')),
    orderingFields,
    partitionFields,
    keyGeneratorType: keyGeneratorTypeOf(keyGenerator, partitionFields),
    keyGenerator,
    hiveStylePartitioning: bool(get('hoodie.datasource.write.hive_style_partitioning'), false),
    urlEncodePartitioning: bool(get('hoodie.datasource.write.partitionpath.urlencode'), false),
    populateMetaFields: bool(get('hoodie.populate.meta.fields'), true),
    baseFileFormat: 'PARQUET',
    recordMergeMode,
    createSchema: get('hoodie.table.create.schema') || undefined,
    checksum,
    properties: props,
  };
}
