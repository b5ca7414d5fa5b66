// The `column_stats` and `partition_stats` partitions' records (hudi-v9-write.md §4.3, §4.4): which columns Hudi
// indexes by default (HoodieTableMetadataUtil.getColumnsToIndex: the three always-indexed meta columns in
// sorted order, then the first 32 top-level data fields of a supported type), one file's statistics from its
// parquet footer (ParquetUtils.readColumnStatsFromMetadata: per row group min/max/null count, value count and
// sizes, folded over row groups), the value wrapping by column type, and partition stats over files' stats.
import { unsupported } from '../errors.js';
import type { AvroField, AvroRecordSchema, AvroSchema } from '../format/avro/schema.js';
import type { ParquetFooter } from '../format/parquet/read.js';
import { epochMicros } from '../schema/timestamp-micros.js';
import { VALUE_TYPE, type ColumnStatsMetadata, type ScalarWrappedValue, type ValueTypeInfo } from './column-stats-codec.js';
import { columnStatsKey, partitionStatsKey } from './keys.js';
import { compareWrappedValues, mergeColumnStats } from './metadata-merge.js';
import { emptyMetadataRecord, METADATA_RECORD_TYPE, type HoodieMetadataRecord } from './metadata-record.js';
import type { MetadataSchemaVersion } from './metadata-schema.js';

/** Java's META_COLS_TO_ALWAYS_INDEX in its TreeMap (sorted) order. */
export const ALWAYS_INDEXED_META_COLUMNS = ['_hoodie_commit_time', '_hoodie_partition_path', '_hoodie_record_key'] as const;
/** `hoodie.metadata.index.column.stats.max.columns.to.index` default. */
export const DEFAULT_MAX_COLUMNS_TO_INDEX = 32;
const HOODIE_META_COLUMNS = new Set(['_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name', '_hoodie_operation']);
const DECIMAL_MAX_PRECISION = 30;
const DECIMAL_MAX_SCALE = 15;

const nonNull = (t: AvroSchema): AvroSchema | undefined => {
  if (t.type !== 'union') return t;
  const rest = t.branches.filter((b) => b.type !== 'null');
  return rest.length === 1 ? rest[0] : undefined;
};

/** Java's isColumnTypeSupported: no records, arrays, maps, enums or multi-type unions; decimals within (30, 15). */
function isSupportedColumn(field: AvroField): boolean {
  const t = nonNull(field.type);
  if (t === undefined || t.type === 'record' || t.type === 'array' || t.type === 'map' || t.type === 'enum') return false;
  const l = 'logicalType' in t ? t.logicalType : undefined;
  if (l?.name === 'decimal' && (l.precision + (DECIMAL_MAX_SCALE - l.scale) > DECIMAL_MAX_PRECISION || l.scale > DECIMAL_MAX_SCALE)) return false;
  return true;
}

/** The columns Hudi indexes by default for a table schema (data fields; meta fields in it are skipped). */
export function columnsToIndex(schema: AvroRecordSchema, options: { populateMetaFields?: boolean; maxColumns?: number } = {}): string[] {
  const data = schema.fields.filter((f) => !HOODIE_META_COLUMNS.has(f.name) && isSupportedColumn(f)).slice(0, options.maxColumns ?? DEFAULT_MAX_COLUMNS_TO_INDEX).map((f) => f.name);
  return options.populateMetaFields === false ? data : [...ALWAYS_INDEXED_META_COLUMNS, ...data];
}

type Kind = { wrapper: ScalarWrappedValue['wrapper']; valueType: ValueTypeInfo | null; decimalScale?: number };

/**
 * How a column's values are wrapped: v9 (Hudi 1.1) strings, longs, timestamp-micros, dates, booleans and decimals
 * (raw unscaled bytes + DECIMAL "p,s") as the fixtures hold them, plus ints, floats and doubles (their primitive
 * wrapper, ValueType INT/FLOAT/DOUBLE); v8 (Hudi 1.0) strings,
 * longs, ints, doubles and booleans. Other types → `UNSUPPORTED` naming the column (no guessed encodings).
 */
export function columnStatsKind(column: string, type: AvroSchema, version: MetadataSchemaVersion): Kind {
  const t = nonNull(type);
  const l = t && 'logicalType' in t ? t.logicalType : undefined;
  const v9 = (ordinal: number, info: string | null = null): ValueTypeInfo | null => (version === 9 ? { typeOrdinal: ordinal, additionalInfo: info } : null);
  if (t?.type === 'string' && l === undefined) return { wrapper: 'StringWrapper', valueType: v9(VALUE_TYPE.STRING) };
  if (t?.type === 'boolean') return { wrapper: 'BooleanWrapper', valueType: v9(VALUE_TYPE.BOOLEAN) };
  if (t?.type === 'long' && l === undefined) return { wrapper: 'LongWrapper', valueType: v9(VALUE_TYPE.LONG) };
  if (version === 9 && t?.type === 'long' && l?.name === 'timestamp-micros') return { wrapper: 'LongWrapper', valueType: v9(VALUE_TYPE.TIMESTAMP_MICROS) };
  if (version === 9 && t?.type === 'int' && l?.name === 'date') return { wrapper: 'IntWrapper', valueType: v9(VALUE_TYPE.DATE) };
  if (version === 9 && t?.type === 'int' && l === undefined) return { wrapper: 'IntWrapper', valueType: v9(VALUE_TYPE.INT) };
  if (version === 9 && t?.type === 'float') return { wrapper: 'FloatWrapper', valueType: v9(VALUE_TYPE.FLOAT) };
  if (version === 9 && t?.type === 'double') return { wrapper: 'DoubleWrapper', valueType: v9(VALUE_TYPE.DOUBLE) };
  if (version === 9 && l?.name === 'decimal') return { wrapper: 'BytesWrapper', valueType: v9(VALUE_TYPE.DECIMAL, `${l.precision},${l.scale}`), decimalScale: l.scale };
  if (version === 8 && t?.type === 'int' && l === undefined) return { wrapper: 'IntWrapper', valueType: null };
  if (version === 8 && t?.type === 'double') return { wrapper: 'DoubleWrapper', valueType: null };
  throw unsupported(`metadata: column stats of ${JSON.stringify(column)} (${JSON.stringify(t ?? type)}) in metadata schema v${version} are not verified against Hudi; lakelet does not write them`, { field: column });
}

/** Java's BigInteger.toByteArray: minimal big-endian two's complement. */
function unscaledBytes(unscaled: bigint): Uint8Array {
  let len = 1;
  while (unscaled >= 1n << BigInt(8 * len - 1) || unscaled < -(1n << BigInt(8 * len - 1))) len++;
  const out = new Uint8Array(len);
  let x = BigInt.asUintN(len * 8, unscaled);
  for (let i = len - 1; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

/** Wrap one statistic (in lakelet's parquet value model) as the column's kind; undefined when absent. */
export function wrapStatValue(kind: Kind, v: unknown, column: string): ScalarWrappedValue | null {
  if (v === undefined || v === null) return null;
  const bad = () => unsupported(`metadata: a statistic of ${JSON.stringify(column)} has an unexpected value for ${kind.wrapper}`, { field: column, value: String(v) });
  switch (kind.wrapper) {
    case 'StringWrapper': if (typeof v !== 'string') throw bad(); return { wrapper: kind.wrapper, value: v };
    case 'BooleanWrapper': if (typeof v !== 'boolean') throw bad(); return { wrapper: kind.wrapper, value: v };
    case 'IntWrapper':
      if (v instanceof Date) return { wrapper: kind.wrapper, value: Math.floor(v.getTime() / 86_400_000) };
      if (typeof v !== 'number' || !Number.isInteger(v)) throw bad();
      return { wrapper: kind.wrapper, value: v };
    case 'LongWrapper':
      if (v instanceof Date) return { wrapper: kind.wrapper, value: epochMicros(v) };
      if (typeof v === 'bigint') return { wrapper: kind.wrapper, value: v };
      if (typeof v === 'number' && Number.isSafeInteger(v)) return { wrapper: kind.wrapper, value: BigInt(v) };
      throw bad();
    case 'FloatWrapper': case 'DoubleWrapper': if (typeof v !== 'number') throw bad(); return { wrapper: kind.wrapper, value: v };
    case 'BytesWrapper': {
      const scale = kind.decimalScale ?? 0;
      let unscaled: bigint;
      const text = typeof v === 'string' ? /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(v.trim()) : null;
      if (text && (text[3] ?? '').length <= scale) unscaled = BigInt(`${text[1] === '-' ? '-' : ''}${text[2]}${(text[3] ?? '').padEnd(scale, '0')}`);
      else if (typeof v === 'bigint') unscaled = v;
      else if (typeof v === 'number' && Number.isFinite(v) && Math.abs(v * 10 ** scale) < 2 ** 53) unscaled = BigInt(Math.round(v * 10 ** scale));
      else throw bad();
      return { wrapper: kind.wrapper, value: unscaledBytes(unscaled) };
    }
    default: throw bad();
  }
}

/**
 * Parquet's rule for float/double statistics (parquet-mr writes it, Java reads it back as stored): a zero
 * minimum is -0.0 and a zero maximum +0.0, whatever sign the statistic was read with.
 */
function signedZero(v: ScalarWrappedValue | null, zero: 0 | -0): ScalarWrappedValue | null {
  return v !== null && (v.wrapper === 'DoubleWrapper' || v.wrapper === 'FloatWrapper') && v.value === 0 ? { wrapper: v.wrapper, value: zero } : v;
}

/** What {@link columnStatsFromParquetFooter} needs besides the footer. */
export interface FileColumnStatsInput {
  /** The data file's name (no partition). */
  fileName: string;
  /** The columns to index ({@link columnsToIndex}). */
  columns: readonly string[];
  /** The table schema with meta fields (their types decide the wrapping). */
  schema: AvroRecordSchema;
  version: MetadataSchemaVersion;
}

/**
 * One file's column stats from its parquet footer: per indexed top-level column present in the file, min of the
 * row groups' mins, max of their maxes, summed value counts, null counts and compressed / uncompressed sizes
 * (a row group without min/max leaves the range as the others give it).
 */
export function columnStatsFromParquetFooter(footer: ParquetFooter, input: FileColumnStatsInput): ColumnStatsMetadata[] {
  const out: ColumnStatsMetadata[] = [];
  for (const column of input.columns) {
    const field = input.schema.fields.find((f) => f.name === column);
    if (!field) continue;
    let acc: ColumnStatsMetadata | undefined;
    for (const group of footer.metadata.row_groups) {
      const md = group.columns.find((c) => c.meta_data?.path_in_schema.length === 1 && c.meta_data.path_in_schema[0] === column)?.meta_data;
      if (!md) continue;
      const kind = columnStatsKind(column, field.type, input.version);
      const s = md.statistics;
      const stats: ColumnStatsMetadata = {
        fileName: input.fileName, columnName: column,
        minValue: signedZero(wrapStatValue(kind, s?.min_value ?? s?.min, column), -0), maxValue: signedZero(wrapStatValue(kind, s?.max_value ?? s?.max, column), 0),
        valueCount: Number(md.num_values), nullCount: s?.null_count === undefined ? 0 : Number(s.null_count),
        totalSize: Number(md.total_compressed_size), totalUncompressedSize: Number(md.total_uncompressed_size),
        isDeleted: false, isTightBound: false, valueType: kind.valueType,
      };
      acc = acc === undefined ? stats : mergeColumnStats(acc, stats);
    }
    if (acc) out.push(acc);
  }
  return out;
}

/**
 * A log file's column stats from its records' values of one column (Hudi reads log records unmerged): the range
 * of the non-null values as they are (no parquet signed-zero rule), the record count as value count, the nulls, and
 * sizes 0 (a log has no column chunks).
 */
export function columnStatsFromValues(fileName: string, column: string, type: AvroSchema, values: readonly unknown[], version: MetadataSchemaVersion): ColumnStatsMetadata {
  const kind = columnStatsKind(column, type, version);
  let min: ScalarWrappedValue | null = null;
  let max: ScalarWrappedValue | null = null;
  let nulls = 0;
  for (const v of values) {
    const w = wrapStatValue(kind, v, column);
    if (w === null) {
      nulls++;
      continue;
    }
    if (min === null || (compareWrappedValues(w, min, kind.valueType) ?? 0) < 0) min = w;
    if (max === null || (compareWrappedValues(w, max, kind.valueType) ?? 0) > 0) max = w;
  }
  return {
    fileName, columnName: column, minValue: min, maxValue: max, valueCount: values.length, nullCount: nulls,
    totalSize: 0, totalUncompressedSize: 0, isDeleted: false, isTightBound: false, valueType: kind.valueType,
  };
}

/** The `column_stats` records of files' stats in `partitionPath`. */
export function columnStatsRecords(partitionPath: string, stats: readonly ColumnStatsMetadata[]): HoodieMetadataRecord[] {
  return stats.map((s) => {
    const r = emptyMetadataRecord(columnStatsKey(s.columnName ?? '', partitionPath, s.fileName ?? ''), METADATA_RECORD_TYPE.COLUMN_STATS);
    r.columnStatsMetadata = s;
    return r;
  });
}

/**
 * The `partition_stats` records of a partition: per column, the stats of every file of the partition's latest
 * slices folded (widest range, summed counts and sizes), as a tight bound named after the partition. Hudi has no
 * partition stats for non-partitioned tables: `""` → `UNSUPPORTED`.
 */
export function partitionStatsRecords(partitionPath: string, fileStats: readonly ColumnStatsMetadata[]): HoodieMetadataRecord[] {
  if (partitionPath === '') throw unsupported('metadata: partition stats do not exist for a non-partitioned table', { field: 'partitionPath', value: partitionPath });
  const byColumn = new Map<string, ColumnStatsMetadata>();
  for (const s of fileStats) {
    if (s.isDeleted || s.columnName === null) continue;
    const old = byColumn.get(s.columnName);
    byColumn.set(s.columnName, old === undefined ? s : mergeColumnStats(old, s));
  }
  return [...byColumn].map(([column, s]) => {
    const r = emptyMetadataRecord(partitionStatsKey(column, partitionPath), METADATA_RECORD_TYPE.PARTITION_STATS);
    r.columnStatsMetadata = { ...s, fileName: partitionPath, isTightBound: true };
    return r;
  });
}
