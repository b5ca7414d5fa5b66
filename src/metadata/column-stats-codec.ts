// The column-stats part of a HoodieMetadataRecord (HoodieMetadataColumnStats, also used by partition stats):
// its value model — min/max as wrapped values that keep their union branch (IntWrapper vs DateWrapper carry the
// same int) — and its Avro binary encoding for schema versions 8 and 9 (v9 adds ArrayWrapper and valueType).
import type { AvroReader } from '../format/avro/reader.js';
import type { AvroWriter } from '../format/avro/writer.js';
import { decimalToBytes } from '../format/avro/encoder.js';
import { decimalFromBytes } from '../schema/values.js';
import { WRAPPER_NAMES, type MetadataSchemaVersion, type WrapperName } from './metadata-schema.js';

/** A scalar min/max value with the wrapper (union branch) it is stored in. */
export type ScalarWrappedValue =
  | { wrapper: 'BooleanWrapper'; value: boolean }
  | { wrapper: 'IntWrapper' | 'DateWrapper' | 'LocalDateWrapper'; value: number }
  | { wrapper: 'LongWrapper' | 'TimeMicrosWrapper' | 'TimestampMicrosWrapper'; value: bigint }
  | { wrapper: 'FloatWrapper' | 'DoubleWrapper'; value: number }
  | { wrapper: 'BytesWrapper'; value: Uint8Array }
  | { wrapper: 'StringWrapper'; value: string }
  /** Decimal(30, 15) as a decimal string with 15 fraction digits. */
  | { wrapper: 'DecimalWrapper'; value: string };

/** A min/max value: a scalar, or (schema v9) an ArrayWrapper of scalars. */
export type WrappedValue = ScalarWrappedValue | { wrapper: 'ArrayWrapper'; values: (ScalarWrappedValue | null)[] | null };

/**
 * Ordinals of Hudi's `org.apache.hudi.stats.ValueType` enum (V1, NULL, BOOLEAN, INT, LONG, FLOAT, DOUBLE, STRING,
 * BYTES, FIXED, DECIMAL, UUID, DATE, …, TIMESTAMP_MICROS at 16), the `typeOrdinal` a v9 stat carries. The ones the
 * v9 fixtures hold (2, 4, 7, 10, 12, 16) match this order; INT, FLOAT and DOUBLE are taken from the enum itself.
 */
export const VALUE_TYPE = { BOOLEAN: 2, INT: 3, LONG: 4, FLOAT: 5, DOUBLE: 6, STRING: 7, DECIMAL: 10, DATE: 12, TIMESTAMP_MICROS: 16 } as const;

/** `HoodieValueTypeInfo` (schema v9): the value type's enum ordinal and optional detail. */
export interface ValueTypeInfo {
  typeOrdinal: number;
  additionalInfo: string | null;
}

/** `HoodieMetadataColumnStats`: one column's statistics in one file (column_stats) or partition (partition_stats). */
export interface ColumnStatsMetadata {
  fileName: string | null;
  columnName: string | null;
  minValue: WrappedValue | null;
  maxValue: WrappedValue | null;
  valueCount: number | null;
  nullCount: number | null;
  totalSize: number | null;
  totalUncompressedSize: number | null;
  isDeleted: boolean;
  isTightBound: boolean;
  /** Schema v9 only (always null in v8 records). */
  valueType: ValueTypeInfo | null;
}

const DECIMAL_PRECISION = 30;
const DECIMAL_SCALE = 15;

function writeScalar(w: AvroWriter, v: ScalarWrappedValue): void {
  switch (v.wrapper) {
    case 'BooleanWrapper': w.writeBoolean(v.value); break;
    case 'IntWrapper': case 'DateWrapper': case 'LocalDateWrapper': w.writeInt(v.value); break;
    case 'LongWrapper': case 'TimeMicrosWrapper': case 'TimestampMicrosWrapper': w.writeLong(v.value); break;
    case 'FloatWrapper': w.writeFloat(v.value); break;
    case 'DoubleWrapper': w.writeDouble(v.value); break;
    case 'BytesWrapper': w.writeBytes(v.value); break;
    case 'StringWrapper': w.writeString(v.value); break;
    case 'DecimalWrapper': w.writeBytes(decimalToBytes(v.value, DECIMAL_PRECISION, DECIMAL_SCALE, undefined)); break;
  }
}

function readScalar(r: AvroReader, wrapper: WrapperName): ScalarWrappedValue {
  switch (wrapper) {
    case 'BooleanWrapper': return { wrapper, value: r.readBoolean() };
    case 'IntWrapper': case 'DateWrapper': case 'LocalDateWrapper': return { wrapper, value: r.readInt() };
    case 'LongWrapper': case 'TimeMicrosWrapper': case 'TimestampMicrosWrapper': return { wrapper, value: r.readLong() };
    case 'FloatWrapper': return { wrapper, value: r.readFloat() };
    case 'DoubleWrapper': return { wrapper, value: r.readDouble() };
    case 'BytesWrapper': return { wrapper, value: r.readBytes() };
    case 'StringWrapper': return { wrapper, value: r.readString() };
    case 'DecimalWrapper': return { wrapper, value: decimalFromBytes(r.readBytes(), DECIMAL_SCALE) };
  }
}

/** Union index of a scalar wrapper in `[null, wrappers…]`. */
const scalarBranch = (w: WrapperName): number => WRAPPER_NAMES.indexOf(w) + 1;
const ARRAY_BRANCH = WRAPPER_NAMES.length + 1;

function writeWrapped(w: AvroWriter, v: WrappedValue | null, version: MetadataSchemaVersion, field: string): void {
  if (v === null) return w.writeInt(0);
  if (v.wrapper !== 'ArrayWrapper') {
    w.writeInt(scalarBranch(v.wrapper));
    return writeScalar(w, v);
  }
  if (version !== 9) throw new TypeError(`metadata: ${field} is an ArrayWrapper, which metadata schema v8 lacks`);
  w.writeInt(ARRAY_BRANCH);
  if (v.values === null) return w.writeInt(0);
  w.writeInt(1);
  if (v.values.length > 0) {
    w.writeLong(v.values.length);
    for (const x of v.values) {
      if (x === null) w.writeInt(0);
      else {
        w.writeInt(scalarBranch(x.wrapper));
        writeScalar(w, x);
      }
    }
  }
  w.writeLong(0);
}

function readWrapped(r: AvroReader, version: MetadataSchemaVersion): WrappedValue | null {
  const at = r.pos;
  const branch = r.readInt();
  if (branch === 0) return null;
  const name = WRAPPER_NAMES[branch - 1];
  if (name !== undefined) return readScalar(r, name);
  if (version !== 9 || branch !== ARRAY_BRANCH) throw r.error(`column stats value: union branch ${branch} out of range`, at);
  if (readNullBranch(r)) return { wrapper: 'ArrayWrapper', values: null };
  const values: (ScalarWrappedValue | null)[] = [];
  for (let count = r.readLongNumber(); count !== 0; count = r.readLongNumber()) {
    if (count < 0) {
      count = -count;
      r.readLength();
    }
    for (let i = 0; i < count; i++) {
      const b = r.readInt();
      const item = b === 0 ? undefined : WRAPPER_NAMES[b - 1];
      if (b !== 0 && item === undefined) throw r.error(`ArrayWrapper item: union branch ${b} out of range`);
      values.push(item === undefined ? null : readScalar(r, item));
    }
  }
  return { wrapper: 'ArrayWrapper', values };
}

/** Reads a `[null, T]` branch index: true when null. */
export function readNullBranch(r: AvroReader): boolean {
  const at = r.pos;
  const b = r.readInt();
  if (b !== 0 && b !== 1) throw r.error(`union branch ${b} out of range (2 branches)`, at);
  return b === 0;
}

/** Writes `[null, T]`: the branch and, when not null, the value. */
export function writeNullable<T>(w: AvroWriter, v: T | null, write: (v: T) => void): void {
  if (v === null || v === undefined) w.writeInt(0);
  else {
    w.writeInt(1);
    write(v);
  }
}

const readOptLong = (r: AvroReader): number | null => (readNullBranch(r) ? null : r.readLongNumber());
const readOptString = (r: AvroReader): string | null => (readNullBranch(r) ? null : r.readString());

/** Avro binary of a HoodieMetadataColumnStats value (the record itself, not its union branch). */
export function writeColumnStats(w: AvroWriter, s: ColumnStatsMetadata, version: MetadataSchemaVersion): void {
  writeNullable(w, s.fileName, (v) => w.writeString(v));
  writeNullable(w, s.columnName, (v) => w.writeString(v));
  writeWrapped(w, s.minValue, version, 'minValue');
  writeWrapped(w, s.maxValue, version, 'maxValue');
  for (const n of [s.valueCount, s.nullCount, s.totalSize, s.totalUncompressedSize]) writeNullable(w, n, (v) => w.writeLong(v));
  w.writeBoolean(s.isDeleted);
  w.writeBoolean(s.isTightBound);
  if (version === 9) {
    writeNullable(w, s.valueType, (t) => {
      w.writeInt(t.typeOrdinal);
      writeNullable(w, t.additionalInfo, (a) => w.writeString(a));
    });
  }
}

/** Reads a HoodieMetadataColumnStats value written by {@link writeColumnStats}. */
export function readColumnStats(r: AvroReader, version: MetadataSchemaVersion): ColumnStatsMetadata {
  const fileName = readOptString(r);
  const columnName = readOptString(r);
  const minValue = readWrapped(r, version);
  const maxValue = readWrapped(r, version);
  const valueCount = readOptLong(r);
  const nullCount = readOptLong(r);
  const totalSize = readOptLong(r);
  const totalUncompressedSize = readOptLong(r);
  const isDeleted = r.readBoolean();
  const isTightBound = r.readBoolean();
  let valueType: ValueTypeInfo | null = null;
  if (version === 9 && !readNullBranch(r)) valueType = { typeOrdinal: r.readInt(), additionalInfo: readOptString(r) };
  return { fileName, columnName, minValue, maxValue, valueCount, nullCount, totalSize, totalUncompressedSize, isDeleted, isTightBound, valueType };
}
