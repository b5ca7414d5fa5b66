// Thrift compact protocol, write side: the encoding of parquet's page headers and footer (field headers with id
// deltas, zigzag varints, lists), written field by field in id order into a ByteSink.
import type { ByteSink } from './byte-sink.js';

/** Compact-protocol type id of i32 (list elements). */
export const T_I32 = 5;
/** Compact-protocol type id of i64 (list elements). */
export const T_I64 = 6;
/** Compact-protocol type id of binary / string (list elements). */
export const T_BINARY = 8;
/** Compact-protocol type id of struct (list elements). */
export const T_STRUCT = 12;
const T_TRUE = 1;
const T_FALSE = 2;
const T_LIST = 9;

const utf8 = new TextEncoder();

/** Writes one thrift struct (and the structs nested in it) in compact protocol. */
export class CompactWriter {
  private readonly sink: ByteSink;
  private last: number[] = [0];

  constructor(sink: ByteSink) {
    this.sink = sink;
  }

  /** An i32 field. */
  i32(id: number, v: number | undefined): void {
    if (v === undefined) return;
    this.header(id, T_I32);
    this.sink.varint(((v << 1) ^ (v >> 31)) >>> 0);
  }

  /** An i64 field. */
  i64(id: number, v: bigint | number | undefined): void {
    if (v === undefined) return;
    this.header(id, T_I64);
    this.zigzag64(BigInt(v));
  }

  /** A bool field. */
  bool(id: number, v: boolean | undefined): void {
    if (v === undefined) return;
    this.header(id, v ? T_TRUE : T_FALSE);
  }

  /** A binary field. */
  binary(id: number, v: Uint8Array | undefined): void {
    if (v === undefined) return;
    this.header(id, T_BINARY);
    this.sink.varint(v.length);
    this.sink.bytes(v);
  }

  /** A string field (UTF-8 binary). */
  string(id: number, v: string | undefined): void {
    if (v !== undefined) this.binary(id, utf8.encode(v));
  }

  /** Start a struct field; close it with {@link CompactWriter.end}. */
  struct(id: number): void {
    this.header(id, T_STRUCT);
    this.last.push(0);
  }

  /** Start a list field of `n` elements of type `elem`. */
  list(id: number, elem: number, n: number): void {
    this.header(id, T_LIST);
    if (n < 15) this.sink.u8((n << 4) | elem);
    else {
      this.sink.u8(0xf0 | elem);
      this.sink.varint(n);
    }
  }

  /** A list element: i32. */
  elemI32(v: number): void {
    this.sink.varint(((v << 1) ^ (v >> 31)) >>> 0);
  }

  /** A list element: string. */
  elemString(v: string): void {
    const b = utf8.encode(v);
    this.sink.varint(b.length);
    this.sink.bytes(b);
  }

  /** A list element: start a struct; close it with {@link CompactWriter.end}. */
  elemStruct(): void {
    this.last.push(0);
  }

  /** End the innermost open struct (or the top-level one). */
  end(): void {
    this.sink.u8(0);
    this.last.pop();
  }

  private header(id: number, type: number): void {
    const top = this.last.length - 1;
    const delta = id - (this.last[top] as number);
    if (delta > 0 && delta <= 15) this.sink.u8((delta << 4) | type);
    else {
      this.sink.u8(type);
      this.sink.varint(((id << 1) ^ (id >> 31)) >>> 0);
    }
    this.last[top] = id;
  }

  private zigzag64(v: bigint): void {
    this.sink.varbig(v >= 0n ? v << 1n : (-v << 1n) - 1n);
  }
}
