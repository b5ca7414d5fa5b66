// DELETE log-block content (content version 3): one Avro datum of HoodieDeleteRecordList, decoded and encoded
// by hand because the orderingVal union is a list of single-field wrapper records (see ORDERING_VAL_TYPES).
// Content versions 1 and 2 (Hudi 0.10–0.13, Kryo) are decoded by kryo-delete.ts into the same records.

import { LakeletError } from '../../errors.js';
import { AvroReader } from '../avro/reader.js';
import { AvroWriter } from '../avro/writer.js';
import { decimalToBytes } from '../avro/encoder.js';
import { dateFromDays, dateFromMicros, decimalFromBytes } from '../../schema/values.js';
import { epochMicros } from '../../schema/timestamp-micros.js';
import type { LogBlock } from './block.js';
import { decodeKryoDeleteRecords } from './kryo-delete.js';

/**
 * The orderingVal union branches, by index, of apache/hudi `HoodieDeleteRecordList.avsc`:
 * `[null, BooleanWrapper, IntWrapper, LongWrapper, FloatWrapper, DoubleWrapper, BytesWrapper, StringWrapper,
 * DateWrapper, DecimalWrapper(bytes decimal 30,15), TimeMicrosWrapper, TimestampMicrosWrapper, ArrayWrapper]`.
 * Each wrapper is a record with one field `value`, so its encoding is just the value's. (hudi-format.md §7.2
 * lists a different, wrapper-less order without `boolean`; that is an erratum — Java writes this one, and
 * Spark SQL deletes write branch 2, IntWrapper, with value 0.)
 */
export const ORDERING_VAL_TYPES = [
  'null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string', 'date', 'decimal', 'time-micros', 'timestamp-micros', 'array',
] as const;

/** Name of an orderingVal union branch. */
export type OrderingValType = (typeof ORDERING_VAL_TYPES)[number];

/** One record of a DELETE block. `orderingVal` is in the lakelet value model (`array` → an array of values). */
export interface DeleteRecord {
  recordKey: string | null;
  partitionPath: string | null;
  orderingVal: unknown;
  /** Union branch index the value was written with (see {@link ORDERING_VAL_TYPES}). */
  orderingValBranch: number;
  /** Name of that branch. */
  orderingValType: OrderingValType;
}

/** Input for {@link encodeDeleteBlockContent}; without `orderingValType` the branch is inferred from the value. */
export interface DeleteRecordInput {
  recordKey: string | null;
  partitionPath: string | null;
  orderingVal?: unknown;
  orderingValType?: OrderingValType;
}

const DECIMAL_PRECISION = 30;
const DECIMAL_SCALE = 15;
/** Branch index of LocalDateWrapper inside ArrayWrapper's item union. */
const LOCAL_DATE_ITEM = 12;

/** Decode a DELETE block's records (see {@link decodeDeleteBlockContent}). */
export function decodeDeleteBlock(block: LogBlock, path?: string): DeleteRecord[] {
  if (block.type !== 'DELETE') throw new LakeletError('INVALID_ARGUMENT', `log block: expected a DELETE block, got ${block.type}`, { value: block.type });
  return decodeDeleteBlockContent(block.content, path, block.contentOffset);
}

/**
 * Decode DELETE block content. `contentOffset` (the content's offset in the file) and `path` only decorate
 * errors. Content version 3 is Avro; versions 1 and 2 (Hudi 0.10–0.13) are Kryo (`kryo-delete.ts`) and give the
 * same records, their ordering values typed by the version-3 branch they map to. Other versions →
 * `UNSUPPORTED`; malformed data → `CORRUPT_FILE`.
 */
export function decodeDeleteBlockContent(content: Uint8Array, path?: string, contentOffset = 0): DeleteRecord[] {
  const r = new AvroReader(content, path, 0, content.length, contentOffset);
  const version = r.readInt32BE();
  if (version !== 1 && version !== 2 && version !== 3) {
    throw new LakeletError('UNSUPPORTED', `log block: delete block content version ${version} is not supported (1 and 2, Kryo; 3, Avro)`, { ...(path === undefined ? {} : { path }), offset: contentOffset, value: version });
  }
  const at = r.pos;
  const length = r.readInt32BE();
  if (length < 0 || length > r.remaining) throw r.error(`delete list length ${length} exceeds the block content`, at);
  if (length !== r.remaining) throw r.error(`${r.remaining - length} stray bytes after the delete list`, r.pos + length);
  if (version !== 3) {
    return decodeKryoDeleteRecords(content.subarray(r.pos), version, path, contentOffset + r.pos).map((rec) => ({
      ...rec,
      orderingValBranch: ORDERING_VAL_TYPES.indexOf(rec.orderingValType),
    }));
  }
  const out: DeleteRecord[] = [];
  for (let count = blockCount(r, 3); count !== 0; count = blockCount(r, 3)) {
    for (let i = 0; i < count; i++) {
      const recordKey = nullableString(r);
      const partitionPath = nullableString(r);
      const branchAt = r.pos;
      const branch = r.readInt();
      const type = ORDERING_VAL_TYPES[branch];
      if (type === undefined) throw r.error(`orderingVal union branch ${branch} out of range`, branchAt);
      const orderingVal = type === 'array' ? readArrayWrapper(r) : readOrderingValue(r, type);
      out.push({ recordKey, partitionPath, orderingVal, orderingValBranch: branch, orderingValType: type });
    }
  }
  if (r.pos !== r.end) throw r.error(`${r.end - r.pos} stray bytes after the delete list`);
  return out;
}

function blockCount(r: AvroReader, minItemSize: number): number {
  const at = r.pos;
  let count = r.readLongNumber();
  if (count < 0) {
    count = -count;
    r.readLength();
  }
  if (count * minItemSize > r.remaining) throw r.error(`item count ${count} exceeds the remaining data`, at);
  return count;
}

function nullableString(r: AvroReader): string | null {
  const at = r.pos;
  const i = r.readInt();
  if (i === 0) return null;
  if (i === 1) return r.readString();
  throw r.error(`union branch ${i} out of range for [null, string]`, at);
}

function readOrderingValue(r: AvroReader, type: Exclude<OrderingValType, 'array'>): unknown {
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return r.readBoolean();
    case 'int':
      return r.readInt();
    case 'long':
      return r.readLong();
    case 'float':
      return r.readFloat();
    case 'double':
      return r.readDouble();
    case 'bytes':
      return r.readBytes();
    case 'string':
      return r.readString();
    case 'date':
      return dateFromDays(r.readInt());
    case 'decimal':
      return decimalFromBytes(r.readBytesView(), DECIMAL_SCALE);
    case 'time-micros':
      return r.readLong();
    case 'timestamp-micros':
      return dateFromMicros(r.readLong());
  }
}

/** ArrayWrapper { wrappedValues: [null, array<[null, BooleanWrapper … TimestampMicrosWrapper, LocalDateWrapper]>] }. */
function readArrayWrapper(r: AvroReader): unknown[] | null {
  const at = r.pos;
  const present = r.readInt();
  if (present === 0) return null;
  if (present !== 1) throw r.error(`union branch ${present} out of range for ArrayWrapper.wrappedValues`, at);
  const values: unknown[] = [];
  for (let count = blockCount(r, 1); count !== 0; count = blockCount(r, 1)) {
    for (let i = 0; i < count; i++) {
      const itemAt = r.pos;
      const b = r.readInt();
      const type = ORDERING_VAL_TYPES[b];
      if (b === LOCAL_DATE_ITEM) values.push(dateFromDays(r.readInt()));
      else if (type === undefined || type === 'array') throw r.error(`wrapped value branch ${b} out of range`, itemAt);
      else values.push(readOrderingValue(r, type));
    }
  }
  return values;
}

/** Pick the orderingVal branch for a value: null, boolean, int (int32 numbers), double, long (bigint), string, bytes, timestamp-micros (Date), array. */
export function inferOrderingValType(value: unknown): OrderingValType {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) && value >= -2147483648 && value <= 2147483647 ? 'int' : 'double';
  if (typeof value === 'bigint') return 'long';
  if (typeof value === 'string') return 'string';
  if (value instanceof Uint8Array) return 'bytes';
  if (value instanceof Date) return 'timestamp-micros';
  if (Array.isArray(value)) return 'array';
  throw new LakeletError('INVALID_ARGUMENT', 'log block: orderingVal has no Avro representation', { field: 'orderingVal', value });
}

function bad(type: OrderingValType, value: unknown): LakeletError {
  return new LakeletError('INVALID_ARGUMENT', `log block: orderingVal does not fit branch ${type}`, { field: 'orderingVal', value });
}

function writeOrderingValue(w: AvroWriter, type: OrderingValType, v: unknown): void {
  switch (type) {
    case 'null':
      if (v !== null && v !== undefined) throw bad(type, v);
      return;
    case 'boolean':
      if (typeof v !== 'boolean') throw bad(type, v);
      return w.writeBoolean(v);
    case 'int':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < -2147483648 || v > 2147483647) throw bad(type, v);
      return w.writeInt(v);
    case 'long':
    case 'time-micros':
      if (typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v))) return w.writeLong(v);
      throw bad(type, v);
    case 'float':
    case 'double':
      if (typeof v !== 'number') throw bad(type, v);
      return type === 'float' ? w.writeFloat(v) : w.writeDouble(v);
    case 'bytes':
      if (!(v instanceof Uint8Array)) throw bad(type, v);
      return w.writeBytes(v);
    case 'string':
      if (typeof v !== 'string') throw bad(type, v);
      return w.writeString(v);
    case 'date':
      if (v instanceof Date) return w.writeInt(Math.floor(v.getTime() / 86_400_000));
      if (typeof v === 'number' && Number.isInteger(v)) return w.writeInt(v);
      throw bad(type, v);
    case 'decimal':
      return w.writeBytes(decimalToBytes(v, DECIMAL_PRECISION, DECIMAL_SCALE, undefined));
    case 'timestamp-micros':
      if (v instanceof Date) return w.writeLong(epochMicros(v));
      if (typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v))) return w.writeLong(v);
      throw bad(type, v);
    case 'array': {
      if (v === null) return w.writeInt(0);
      if (!Array.isArray(v)) throw bad(type, v);
      w.writeInt(1);
      if (v.length > 0) {
        w.writeLong(v.length);
        for (const item of v) {
          const t = inferOrderingValType(item);
          if (t === 'array') throw bad(type, v);
          w.writeInt(ORDERING_VAL_TYPES.indexOf(t));
          writeOrderingValue(w, t, item);
        }
      }
      return w.writeByte(0);
    }
  }
}

/** Encode DELETE block content (version 3): int32 3, int32 byte length, HoodieDeleteRecordList datum. */
export function encodeDeleteBlockContent(records: readonly DeleteRecordInput[]): Uint8Array {
  const w = new AvroWriter(64 + records.length * 64);
  w.writeInt32BE(3);
  w.writeInt32BE(0); // patched below
  const start = w.pos;
  if (records.length > 0) {
    w.writeLong(records.length);
    for (const rec of records) {
      for (const s of [rec.recordKey, rec.partitionPath]) {
        if (s === null || s === undefined) w.writeInt(0);
        else if (typeof s === 'string') {
          w.writeInt(1);
          w.writeString(s);
        } else throw new LakeletError('INVALID_ARGUMENT', 'log block: delete record key and partition path must be strings or null', { value: s });
      }
      const type = rec.orderingValType ?? inferOrderingValType(rec.orderingVal);
      const branch = ORDERING_VAL_TYPES.indexOf(type);
      if (branch < 0) throw new LakeletError('INVALID_ARGUMENT', `log block: unknown orderingVal type "${String(type)}"`, { value: type });
      w.writeInt(branch);
      writeOrderingValue(w, type, rec.orderingVal);
    }
  }
  w.writeByte(0);
  w.patchInt32BE(start - 4, w.pos - start);
  return w.finish();
}
