// Hudi's record-key bloom filter (footer key `org.apache.hudi.bloomfilter`): SIMPLE and DYNAMIC_V0 parsing,
// building and Base64 serialization, byte-for-byte what Hudi writes (hudi-format.md §6.2). Pure: hashes with
// the JS kernel twin; batch probes can hand `bits` to `Kernels.bloomProbe`.

import { LakeletError } from '../errors.js';
import { encodeKey, bloomRowBytes } from '../kernels/kernels.js';
import { bloomRowHasAll, bloomRowSet, hudiBloomPositions } from '../kernels/js/bloom.js';
import { decodeBase64, encodeBase64 } from './base64.js';

/** Parquet footer key holding the Base64 bloom filter. */
export const BLOOM_FILTER_FOOTER_KEY = 'org.apache.hudi.bloomfilter';
/** Parquet footer key holding the filter type code (written only for DYNAMIC types). */
export const BLOOM_FILTER_TYPE_FOOTER_KEY = 'hoodie_bloom_filter_type_code';
/** Legacy footer key, read as a fallback only. */
export const LEGACY_BLOOM_FILTER_FOOTER_KEY = 'com.uber.hoodie.bloomfilter';

/** Hudi's bloom filter type codes (`BloomFilterTypeCode`). */
export type BloomFilterTypeCode = 'DYNAMIC_V0' | 'SIMPLE';

/** A Hudi bloom filter over record keys. */
export interface HudiBloomFilter {
  /** SIMPLE (one bit array) or DYNAMIC_V0 (rows of bit arrays, a new row every `rowCapacity` keys). */
  readonly type: BloomFilterTypeCode;
  /** Bits per row (m). */
  readonly numBits: number;
  /** Hash functions (k). */
  readonly numHashes: number;
  /** Number of rows (sub-filters); always 1 for SIMPLE. */
  readonly numRows: number;
  /** DYNAMIC_V0: keys per row before a new row is added (Hudi's `nr` = num_entries). SIMPLE: 0. */
  readonly rowCapacity: number;
  /** DYNAMIC_V0: keys added to the current (last) row (`currentNbRecord`). SIMPLE: 0. */
  readonly lastRowCount: number;
  /**
   * All rows' bit arrays back-to-back, `ceil(numBits/8)` bytes each, LSB-first: fit for
   * `kernels.bloomProbe(bits, numBits, numHashes, keys, numRows)`. A live view; do not modify.
   */
  readonly bits: Uint8Array;
  /** False when `key` is certainly absent; true when it may be present. Empty keys throw, as in Hudi. */
  mightContain(key: string | Uint8Array): boolean;
  /** Adds a record key (UTF-8 encoded as Java does). Empty keys throw `INVALID_ARGUMENT`, as in Hudi. */
  add(key: string | Uint8Array): void;
  /** The serialized filter (Java `DataOutput` layout) as bytes. */
  toBytes(): Uint8Array;
  /** The footer value: {@link toBytes} in standard Base64. */
  serialize(): string;
}

/** Options of {@link createBloomFilter}; defaults are Hudi's. */
export interface CreateBloomFilterOptions {
  /** `hoodie.index.bloom.num_entries` (default 60000): sizing, and DYNAMIC_V0's keys per row. */
  numEntries?: number;
  /** `hoodie.index.bloom.fpp` (default 1e-9). */
  fpp?: number;
  /** `hoodie.bloom.index.filter.dynamic.max.entries` (default 100000): no new rows past this many keys. */
  maxEntries?: number;
  /** `hoodie.bloom.index.filter.type` (default DYNAMIC_V0). */
  type?: BloomFilterTypeCode;
}

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

const VERSION = -1;
const MURMUR_HASH = 1;
const JENKINS_HASH = 0;
const HEADER_BYTES = 13;
const LOG2_SQUARED = Math.log(2) * Math.log(2);

/** Hudi's sizing (`BloomFilterUtils`): bits `m = ceil(n * (-ln p / ln²2))` and hashes `k = ceil(ln 2 * m / n)`. */
export function bloomFilterSize(numEntries: number, fpp: number): { numBits: number; numHashes: number } {
  if (!Number.isInteger(numEntries) || numEntries < 1 || numEntries > 0x7fffffff) {
    throw new LakeletError('INVALID_ARGUMENT', `bloom filter: numEntries ${numEntries} must be a positive 32-bit integer`, { value: numEntries });
  }
  if (!(fpp > 0 && fpp < 1)) {
    throw new LakeletError('INVALID_ARGUMENT', `bloom filter: fpp ${fpp} must be between 0 and 1 (exclusive)`, { value: fpp });
  }
  const numBits = Math.ceil(numEntries * (-Math.log(fpp) / LOG2_SQUARED));
  if (numBits > 0x7fffffff) {
    throw new LakeletError('INVALID_ARGUMENT', `bloom filter: ${numEntries} entries at fpp ${fpp} need ${numBits} bits, over 2^31-1`, { value: numBits });
  }
  const numHashes = Math.ceil((Math.log(2) * numBits) / numEntries);
  return { numBits, numHashes };
}

class Filter implements HudiBloomFilter {
  readonly type: BloomFilterTypeCode;
  readonly numBits: number;
  readonly numHashes: number;
  readonly rowCapacity: number;
  numRows: number;
  lastRowCount: number;
  bits: Uint8Array;
  private readonly rowBytes: number;
  private readonly maxEntries: number;
  private reachedMax = false;
  private nextRoundRobin = 0;
  private readonly positions: Int32Array;

  constructor(type: BloomFilterTypeCode, m: number, k: number, nr: number, maxEntries: number, rows: number, lastRowCount: number, bits?: Uint8Array) {
    this.type = type;
    this.numBits = m;
    this.numHashes = k;
    this.rowCapacity = nr;
    this.maxEntries = maxEntries;
    this.numRows = rows;
    this.lastRowCount = lastRowCount;
    this.rowBytes = bloomRowBytes(m);
    this.bits = bits ?? new Uint8Array(rows * this.rowBytes);
    this.positions = new Int32Array(k);
  }

  private hash(key: string | Uint8Array): void {
    const bytes = typeof key === 'string' ? encodeKey(key) : key;
    if (bytes.length === 0) throw new LakeletError('INVALID_ARGUMENT', 'bloom filter: record key must not be empty', { value: key });
    hudiBloomPositions(bytes, 0, bytes.length, this.numBits, this.numHashes, this.positions);
  }

  mightContain(key: string | Uint8Array): boolean {
    this.hash(key);
    for (let r = 0; r < this.numRows; r++) {
      if (bloomRowHasAll(this.bits, r * this.rowBytes, this.positions, 0, this.numHashes)) return true;
    }
    return false;
  }

  add(key: string | Uint8Array): void {
    this.hash(key);
    const row = this.activeRow(); // may grow `bits`: take the row before reading the buffer
    bloomRowSet(this.bits, row * this.rowBytes, this.positions, 0, this.numHashes);
    if (this.type === 'DYNAMIC_V0') this.lastRowCount = (this.lastRowCount + 1) | 0;
  }

  /** InternalDynamicBloomFilter.getActiveStandardBF + add: which row the next key goes to. */
  private activeRow(): number {
    if (this.type === 'SIMPLE') return 0;
    if (this.reachedMax) return this.nextRoundRobin++ % this.numRows;
    if (this.lastRowCount >= this.rowCapacity) {
      if (Math.imul(this.numRows, this.rowCapacity) < this.maxEntries) {
        const grown = new Uint8Array((this.numRows + 1) * this.rowBytes);
        grown.set(this.bits);
        this.bits = grown;
        this.numRows++;
        this.lastRowCount = 0;
        return this.numRows - 1;
      }
      this.reachedMax = true;
      return 0;
    }
    return this.numRows - 1;
  }

  toBytes(): Uint8Array {
    const dynamic = this.type === 'DYNAMIC_V0';
    const size = dynamic ? HEADER_BYTES + 12 + this.numRows * (HEADER_BYTES + this.rowBytes) : HEADER_BYTES + this.rowBytes;
    const out = new Uint8Array(size);
    const view = new DataView(out.buffer);
    const header = (at: number): number => {
      view.setInt32(at, VERSION);
      view.setInt32(at + 4, this.numHashes);
      view.setInt8(at + 8, MURMUR_HASH);
      view.setInt32(at + 9, this.numBits);
      return at + HEADER_BYTES;
    };
    let at = header(0);
    if (!dynamic) {
      out.set(this.bits.subarray(0, this.rowBytes), at);
      return out;
    }
    view.setInt32(at, this.rowCapacity);
    view.setInt32(at + 4, this.lastRowCount);
    view.setInt32(at + 8, this.numRows);
    at += 12;
    for (let r = 0; r < this.numRows; r++) {
      at = header(at);
      out.set(this.bits.subarray(r * this.rowBytes, (r + 1) * this.rowBytes), at);
      at += this.rowBytes;
    }
    return out;
  }

  serialize(): string {
    return encodeBase64(this.toBytes());
  }
}

/** Creates an empty Hudi bloom filter sized like Hudi's writer (defaults: 60000 keys, fpp 1e-9, DYNAMIC_V0). */
export function createBloomFilter(options: CreateBloomFilterOptions = {}): HudiBloomFilter {
  const { numEntries = 60000, fpp = 1e-9, maxEntries = 100000, type = 'DYNAMIC_V0' } = options;
  if (type !== 'DYNAMIC_V0' && type !== 'SIMPLE') {
    throw new LakeletError('INVALID_ARGUMENT', `bloom filter: unknown type ${String(type)}`, { value: type });
  }
  if (!Number.isInteger(maxEntries)) {
    throw new LakeletError('INVALID_ARGUMENT', `bloom filter: maxEntries ${maxEntries} must be an integer`, { value: maxEntries });
  }
  const { numBits, numHashes } = bloomFilterSize(numEntries, fpp);
  return type === 'SIMPLE'
    ? new Filter('SIMPLE', numBits, numHashes, 0, 0, 1, 0)
    : new Filter('DYNAMIC_V0', numBits, numHashes, numEntries, maxEntries | 0, 1, 0);
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
    need(at, HEADER_BYTES, 'filter header');
    const version = view.getInt32(at);
    if (version > 0) {
      throw new LakeletError('UNSUPPORTED', `bloom filter: pre-versioned Hadoop filter (Jenkins hash) at byte ${at}`, context(at));
    }
    if (version !== VERSION) throw corrupt(`unsupported filter version ${version}`, at);
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
  let at = HEADER_BYTES;
  let filter: Filter;
  if (type === 'SIMPLE') {
    need(at, rowBytes, 'bit array');
    filter = new Filter('SIMPLE', m, k, 0, 0, 1, 0, bytes.slice(at, at + rowBytes));
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
    if ((bytes.length - at) / (HEADER_BYTES + rowBytes) < rows) {
      throw corrupt(`truncated: ${rows} rows of ${HEADER_BYTES + rowBytes} bytes do not fit in ${bytes.length - at} bytes`, at);
    }
    const bits = new Uint8Array(rows * rowBytes);
    for (let r = 0; r < rows; r++) {
      const row = readHeader(at);
      if (row.k !== k || row.m !== m) throw corrupt(`row ${r} has k=${row.k}, m=${row.m}, unlike the filter's k=${k}, m=${m}`, at);
      at += HEADER_BYTES;
      bits.set(bytes.subarray(at, at + rowBytes), r * rowBytes);
      at += rowBytes;
    }
    filter = new Filter('DYNAMIC_V0', m, k, nr, options.maxEntries ?? 0, rows, current, bits);
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
