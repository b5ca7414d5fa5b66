// Parquet pages as lakelet writes them: DATA_PAGE_V2 (levels uncompressed, then the compressed values; no CRC,
// no page statistics) and the PLAIN dictionary page, each behind its thrift PageHeader.
import type { ByteSink } from './byte-sink.js';
import { CompactWriter } from './thrift-compact-writer.js';

/** Encoding ids of parquet.thrift. */
export const ENCODING = { PLAIN: 0, RLE: 3, RLE_DICTIONARY: 8 } as const;

/** A page compressor (raw → codec-framed bytes); undefined stores the bytes as they are. */
export type Compress = ((input: Uint8Array) => Uint8Array) | undefined;

/** What a data page says about its slots. */
export interface DataPageCounts {
  numValues: number;
  numNulls: number;
  numRows: number;
  encoding: number;
}

/**
 * Write one DATA_PAGE_V2: header, `levels` (repetition then definition levels, `repLength` + `defLength`
 * bytes) and `values` compressed. Returns the uncompressed size (header + levels + raw values).
 */
export function writeDataPageV2(out: ByteSink, counts: DataPageCounts, levels: Uint8Array, repLength: number, defLength: number, values: Uint8Array, compress: Compress): number {
  const body = compress === undefined ? values : compress(values);
  const start = out.pos;
  const w = new CompactWriter(out);
  w.i32(1, 3); // DATA_PAGE_V2
  w.i32(2, levels.length + values.length);
  w.i32(3, levels.length + body.length);
  w.struct(8);
  w.i32(1, counts.numValues);
  w.i32(2, counts.numNulls);
  w.i32(3, counts.numRows);
  w.i32(4, counts.encoding);
  w.i32(5, defLength);
  w.i32(6, repLength);
  w.end();
  w.end();
  const header = out.pos - start;
  out.bytes(levels);
  out.bytes(body);
  return header + levels.length + values.length;
}

/** Write the dictionary page of `size` PLAIN-encoded values. Returns its uncompressed size. */
export function writeDictionaryPage(out: ByteSink, size: number, values: Uint8Array, compress: Compress): number {
  const body = compress === undefined ? values : compress(values);
  const start = out.pos;
  const w = new CompactWriter(out);
  w.i32(1, 2); // DICTIONARY_PAGE
  w.i32(2, values.length);
  w.i32(3, body.length);
  w.struct(7);
  w.i32(1, size);
  w.i32(2, ENCODING.PLAIN);
  w.end();
  w.end();
  const header = out.pos - start;
  out.bytes(body);
  return header + values.length;
}
