// Parsing Hudi's serialized record-key bloom filter (the Base64 footer value, Java `DataOutput` layout): SIMPLE
// and DYNAMIC_V0 filters with every malformed byte reported (hudi-format.md §6.2).
import { LakeletError } from '../errors.js';
import { bloomRowBytes } from '../kernels/kernels.js';
import { decodeBase64 } from './base64.js';
import {
  BLOOM_FILTER_HEADER_BYTES, BLOOM_FILTER_VERSION, JENKINS_HASH, MURMUR_HASH, bloomFilterOf, type BloomFilterTypeCode, type HudiBloomFilter,
} from './bloom-filter.js';

/** Options of {@link parseBloomFilter}. */
export interface ParseBloomFilterOptions {
  /** File the string came from, for error context. */
  path?: string;
  /**
   * DYNAMIC_V0 bound for keys added after parsing. Hudi does not serialize it, so a deserialized Hudi filter
   * has 0 (once the last row is full, further keys go round-robin into existing rows); that is the default.
   */
  maxEntries?: number;
}

/**
 * Parses a footer bloom-filter string. `typeCode` is the `hoodie_bloom_filter_type_code` footer value; as in
 * Hudi, absent means SIMPLE. Malformed strings throw `CORRUPT_FILE` (with the byte offset); Jenkins-hash or
 * unknown-type filters throw `UNSUPPORTED`.
 */
export function parseBloomFilter(base64: string, typeCode?: BloomFilterTypeCode | string | null, options: ParseBloomFilterOptions = {}): HudiBloomFilter {
  const { path } = options;
  const context = (offset?: number): Record<string, unknown> => ({ ...(path === undefined ? {} : { path }), ...(offset === undefined ? {} : { offset }) });
  const type = typeCode ?? 'SIMPLE';
  if (type !== 'SIMPLE' && type !== 'DYNAMIC_V0') {
    throw new LakeletError('UNSUPPORTED', `bloom filter: unknown type code ${type}`, { ...context(), value: type });
  }
  if (typeof base64 !== 'string') {
    throw new LakeletError('CORRUPT_FILE', 'bloom filter: serialized filter is not a string', context());
  }
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64(base64);
  } catch (err) {
    const offset = err instanceof LakeletError && typeof err.context.offset === 'number' ? err.context.offset : undefined;
    const reason = err instanceof Error ? err.message : String(err);
    throw new LakeletError('CORRUPT_FILE', `bloom filter: not valid Base64 (${reason})`, context(offset), { cause: err });
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const corrupt = (message: string, offset: number): LakeletError =>
    new LakeletError('CORRUPT_FILE', `bloom filter: ${message} at byte ${offset}${path === undefined ? '' : ` in ${path}`}`, context(offset));
  const need = (at: number, n: number, what: string): void => {
    if (at + n > bytes.length) throw corrupt(`truncated ${what} (${bytes.length} bytes in all)`, at);
  };
  const readHeader = (at: number): { k: number; m: number } => {
    need(at, BLOOM_FILTER_HEADER_BYTES, 'filter header');
    const version = view.getInt32(at);
    if (version > 0) {
      throw new LakeletError('UNSUPPORTED', `bloom filter: pre-versioned Hadoop filter (Jenkins hash) at byte ${at}`, context(at));
    }
    if (version !== BLOOM_FILTER_VERSION) throw corrupt(`unsupported filter version ${version}`, at);
    const k = view.getInt32(at + 4);
    const hashType = view.getInt8(at + 8);
    const m = view.getInt32(at + 9);
    if (hashType === JENKINS_HASH) {
      throw new LakeletError('UNSUPPORTED', `bloom filter: Jenkins hash filters are not supported (byte ${at + 8})`, context(at + 8));
    }
    if (hashType !== MURMUR_HASH) throw corrupt(`unknown hash type ${hashType}`, at + 8);
    if (k < 1 || k > 0xffff) throw corrupt(`implausible hash count ${k}`, at + 4);
    if (m < 1) throw corrupt(`non-positive bit count ${m}`, at + 9);
    return { k, m };
  };

  const { k, m } = readHeader(0);
  const rowBytes = bloomRowBytes(m);
  let at = BLOOM_FILTER_HEADER_BYTES;
  let filter: HudiBloomFilter;
  if (type === 'SIMPLE') {
    need(at, rowBytes, 'bit array');
    filter = bloomFilterOf('SIMPLE', m, k, 0, 0, 1, 0, bytes.slice(at, at + rowBytes));
    at += rowBytes;
  } else {
    need(at, 12, 'dynamic filter fields');
    const nr = view.getInt32(at);
    const current = view.getInt32(at + 4);
    const rows = view.getInt32(at + 8);
    if (nr < 1) throw corrupt(`non-positive keys-per-row ${nr}`, at);
    if (current < 0) throw corrupt(`negative key count ${current}`, at + 4);
    if (rows < 1) throw corrupt(`non-positive row count ${rows}`, at + 8);
    at += 12;
    if ((bytes.length - at) / (BLOOM_FILTER_HEADER_BYTES + rowBytes) < rows) {
      throw corrupt(`truncated: ${rows} rows of ${BLOOM_FILTER_HEADER_BYTES + rowBytes} bytes do not fit in ${bytes.length - at} bytes`, at);
    }
    const bits = new Uint8Array(rows * rowBytes);
    for (let r = 0; r < rows; r++) {
      const row = readHeader(at);
      if (row.k !== k || row.m !== m) throw corrupt(`row ${r} has k=${row.k}, m=${row.m}, unlike the filter's k=${k}, m=${m}`, at);
      at += BLOOM_FILTER_HEADER_BYTES;
      bits.set(bytes.subarray(at, at + rowBytes), r * rowBytes);
      at += rowBytes;
    }
    filter = bloomFilterOf('DYNAMIC_V0', m, k, nr, options.maxEntries ?? 0, rows, current, bits);
  }
  if (at !== bytes.length) throw corrupt(`${bytes.length - at} trailing bytes after the filter`, at);
  // Java reads only bits below m: drop stray padding bits so a re-serialization matches Hudi's
  if (m % 8 !== 0) {
    const mask = (1 << (m % 8)) - 1;
    for (let r = 0; r < filter.numRows; r++) {
      const last = (r + 1) * rowBytes - 1;
      filter.bits[last] = (filter.bits[last] ?? 0) & mask;
    }
  }
  return filter;
}
