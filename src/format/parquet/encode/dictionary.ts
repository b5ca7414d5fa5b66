// Dictionary encoding of a chunk, as parquet-mr does where it pays: distinct values in first-seen order plus one
// index per non-null value. Falls back to PLAIN (returns undefined) for booleans, for columns whose values are
// mostly distinct, when the dictionary would not at least halve the value bytes, or when it passes 1 MiB.
import type { ParquetType } from 'hyparquet';
import type { BinaryValue, NumericStore } from '../leaf-column.js';
import { bitWidthOf } from './rle.js';

/** A chunk's dictionary: the distinct values (as a store slice or binaries) and each value's index. */
export interface ChunkDictionary {
  /** Distinct fixed-width values, or undefined for byte arrays. */
  numbers: NumericStore | undefined;
  /** Distinct byte-array values. */
  binaries: BinaryValue[];
  /** Number of distinct values. */
  size: number;
  /** One index per non-null value of the chunk. */
  indexes: Uint32Array;
}

/** Largest dictionary page (PLAIN bytes) before falling back to PLAIN data pages, parquet-mr's default. */
export const MAX_DICTIONARY_BYTES = 1 << 20;
const SAMPLE = 1000;
const SAMPLE_DISTINCT_REJECT = 0.9;

const fixedWidth = (type: ParquetType): number => (type === 'INT32' || type === 'FLOAT' ? 4 : 8);

/**
 * Key of a value for deduplication (-0 kept apart from 0, bytes by content). Byte values read from a dictionary
 * page arrive as the same object for the same entry, so their keys are remembered per object in `memo`.
 */
function keyOf(v: unknown, memo: Map<Uint8Array, string>): unknown {
  if (typeof v === 'number') return v === 0 && 1 / v < 0 ? '-0' : v;
  if (v instanceof Uint8Array) {
    let key = memo.get(v);
    if (key === undefined) {
      key = 'b';
      for (let i = 0; i < v.length; i += 4096) key += String.fromCharCode.apply(null, v.subarray(i, i + 4096) as unknown as number[]);
      memo.set(v, key);
    }
    return key;
  }
  return v;
}

const sizeOf = (v: BinaryValue): number => (typeof v === 'string' ? v.length : v.length) + 4;

/** Build the dictionary of non-null values `[start, end)`, or undefined where PLAIN is the better choice. */
export function buildDictionary(type: ParquetType, numbers: NumericStore | undefined, binaries: readonly BinaryValue[], start: number, end: number): ChunkDictionary | undefined {
  const n = end - start;
  if (type === 'BOOLEAN' || n === 0) return undefined;
  const get = numbers === undefined ? (i: number): unknown => binaries[i] : (i: number): unknown => numbers[i];
  // a spread sample rejects columns that are clearly unique (record keys, ids) before the full pass
  const sampleSize = Math.min(n, SAMPLE);
  const memo = new Map<Uint8Array, string>();
  const seen = new Set<unknown>();
  for (let k = 0; k < sampleSize; k++) seen.add(keyOf(get(start + (sampleSize === 1 ? 0 : Math.floor((k * (n - 1)) / (sampleSize - 1)))), memo));
  if (seen.size / sampleSize > SAMPLE_DISTINCT_REJECT) return undefined;

  const index = new Map<unknown, number>();
  const indexes = new Uint32Array(n);
  const distinct: number[] = [];
  let dictBytes = 0;
  let plainBytes = 0;
  const width = numbers === undefined ? 0 : fixedWidth(type);
  for (let i = start; i < end; i++) {
    const v = get(i);
    const size = width || sizeOf(v as BinaryValue);
    plainBytes += size;
    const key = keyOf(v, memo);
    let at = index.get(key);
    if (at === undefined) {
      at = distinct.length;
      index.set(key, at);
      distinct.push(i);
      dictBytes += size;
      if (dictBytes > MAX_DICTIONARY_BYTES) return undefined;
    }
    indexes[i - start] = at;
  }
  const indexBytes = Math.ceil((n * bitWidthOf(distinct.length - 1)) / 8);
  if (2 * (dictBytes + indexBytes) > plainBytes) return undefined;
  if (numbers !== undefined) {
    const values = new (numbers.constructor as new (n: number) => NumericStore)(distinct.length);
    distinct.forEach((src, j) => { values[j] = numbers[src] as never; });
    return { numbers: values, binaries: [], size: distinct.length, indexes };
  }
  return { numbers: undefined, binaries: distinct.map((src) => binaries[src] as BinaryValue), size: distinct.length, indexes };
}
