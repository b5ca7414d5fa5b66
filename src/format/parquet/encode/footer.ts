// The file footer: offset indexes of multi-page chunks, then FileMetaData (schema, row groups, column chunk
// metadata with statistics, key/value metadata, created_by, type-defined column orders) in thrift compact form.
import type { KeyValue, SchemaElement } from 'hyparquet';
import type { ByteSink } from './byte-sink.js';
import type { EncodedChunk } from './column-chunk.js';
import type { EncodedStatistics } from './statistics.js';
import { CompactWriter, T_BINARY, T_I32, T_STRUCT } from './thrift-compact-writer.js';

/** A written row group. */
export interface EncodedRowGroup {
  columns: EncodedChunk[];
  numRows: number;
  fileOffset: number;
  totalByteSize: number;
  totalCompressedSize: number;
}

/** What goes in the footer besides the row groups. */
export interface FooterContent {
  schema: readonly SchemaElement[];
  numRows: number;
  keyValues: readonly KeyValue[];
  createdBy: string;
}

const TYPES = ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'];
const REPETITIONS = ['REQUIRED', 'OPTIONAL', 'REPEATED'];
const CONVERTED = ['UTF8', 'MAP', 'MAP_KEY_VALUE', 'LIST', 'ENUM', 'DECIMAL', 'DATE', 'TIME_MILLIS', 'TIME_MICROS', 'TIMESTAMP_MILLIS',
  'TIMESTAMP_MICROS', 'UINT_8', 'UINT_16', 'UINT_32', 'UINT_64', 'INT_8', 'INT_16', 'INT_32', 'INT_64', 'JSON', 'BSON', 'INTERVAL'];
const CODECS = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'];
const LOGICAL_EMPTY: Record<string, number> = { STRING: 1, MAP: 2, LIST: 3, ENUM: 4, DATE: 6, NULL: 11, JSON: 12, BSON: 13, UUID: 14 };
const UNITS: Record<string, number> = { MILLIS: 1, MICROS: 2, NANOS: 3 };

const index = (list: readonly string[], v: string | undefined): number | undefined => (v === undefined ? undefined : list.indexOf(v));

/** Codec id of parquet.thrift. */
export function codecId(codec: string): number {
  return CODECS.indexOf(codec);
}

/** Write the offset index of every chunk with more than one page; records where each went. */
export function writeOffsetIndexes(out: ByteSink, rowGroups: readonly EncodedRowGroup[]): void {
  for (const g of rowGroups) {
    for (const c of g.columns) {
      if (c.pages === undefined) continue;
      const start = out.pos;
      const w = new CompactWriter(out);
      w.list(1, T_STRUCT, c.pages.length);
      for (const p of c.pages) {
        w.elemStruct();
        w.i64(1, p.offset);
        w.i32(2, p.size);
        w.i64(3, p.firstRow);
        w.end();
      }
      w.end();
      c.offsetIndexOffset = start;
      c.offsetIndexLength = out.pos - start;
    }
  }
}

/** Write FileMetaData and its 4-byte length (not the trailing magic). */
export function writeFileMetaData(out: ByteSink, content: FooterContent, rowGroups: readonly EncodedRowGroup[], codec: number): void {
  const start = out.pos;
  const w = new CompactWriter(out);
  w.i32(1, 1);
  w.list(2, T_STRUCT, content.schema.length);
  for (const el of content.schema) schemaElement(w, el);
  w.i64(3, content.numRows);
  w.list(4, T_STRUCT, rowGroups.length);
  for (const g of rowGroups) {
    w.elemStruct();
    w.list(1, T_STRUCT, g.columns.length);
    for (const c of g.columns) columnChunk(w, c, codec);
    w.i64(2, g.totalByteSize);
    w.i64(3, g.numRows);
    w.i64(5, g.fileOffset);
    w.i64(6, g.totalCompressedSize);
    w.end();
  }
  w.list(5, T_STRUCT, content.keyValues.length);
  for (const kv of content.keyValues) {
    w.elemStruct();
    w.string(1, kv.key);
    w.string(2, kv.value);
    w.end();
  }
  w.string(6, content.createdBy);
  const leaves = content.schema.filter((e) => e.type !== undefined).length;
  w.list(7, T_STRUCT, leaves);
  for (let i = 0; i < leaves; i++) {
    w.elemStruct();
    w.struct(1); // TYPE_ORDER
    w.end();
    w.end();
  }
  w.end();
  out.u32(out.pos - start);
}

function schemaElement(w: CompactWriter, el: SchemaElement): void {
  w.elemStruct();
  w.i32(1, index(TYPES, el.type));
  w.i32(2, el.type_length);
  w.i32(3, index(REPETITIONS, el.repetition_type));
  w.string(4, el.name);
  w.i32(5, el.num_children);
  w.i32(6, index(CONVERTED, el.converted_type));
  w.i32(7, el.scale);
  w.i32(8, el.precision);
  w.i32(9, el.field_id);
  const lt = el.logical_type;
  if (lt !== undefined) {
    w.struct(10);
    const empty = LOGICAL_EMPTY[lt.type];
    if (empty !== undefined) {
      w.struct(empty);
      w.end();
    } else if (lt.type === 'DECIMAL') {
      w.struct(5);
      w.i32(1, lt.scale);
      w.i32(2, lt.precision);
      w.end();
    } else if (lt.type === 'TIME' || lt.type === 'TIMESTAMP') {
      w.struct(lt.type === 'TIME' ? 7 : 8);
      w.bool(1, lt.isAdjustedToUTC);
      w.struct(2);
      w.struct(UNITS[lt.unit] as number);
      w.end();
      w.end();
      w.end();
    } else {
      throw new Error(`parquet footer: logical type ${lt.type} is not written by lakelet`);
    }
    w.end();
  }
  w.end();
}

function columnChunk(w: CompactWriter, c: EncodedChunk, codec: number): void {
  w.elemStruct();
  w.i64(2, c.fileOffset);
  w.struct(3);
  w.i32(1, TYPES.indexOf(c.type));
  w.list(2, T_I32, c.encodings.length);
  for (const e of c.encodings) w.elemI32(e);
  w.list(3, T_BINARY, c.path.length);
  for (const p of c.path) w.elemString(p);
  w.i32(4, codec);
  w.i64(5, c.numValues);
  w.i64(6, c.totalUncompressed);
  w.i64(7, c.totalCompressed);
  w.i64(9, c.dataPageOffset);
  w.i64(11, c.dictionaryPageOffset);
  statistics(w, c.statistics);
  w.list(13, T_STRUCT, c.encodingStats.length);
  for (const [pageType, encoding, count] of c.encodingStats) {
    w.elemStruct();
    w.i32(1, pageType);
    w.i32(2, encoding);
    w.i32(3, count);
    w.end();
  }
  w.end();
  w.i64(4, c.offsetIndexOffset);
  w.i32(5, c.offsetIndexLength);
  w.end();
}

function statistics(w: CompactWriter, s: EncodedStatistics): void {
  w.struct(12);
  w.i64(3, s.nullCount);
  w.binary(5, s.max);
  w.binary(6, s.min);
  w.bool(7, s.isMaxExact);
  w.bool(8, s.isMinExact);
  w.i64(9, s.nanCount);
  w.end();
}
