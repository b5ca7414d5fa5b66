// Hudi's record-key bloom filter (footer key `org.apache.hudi.bloomfilter`): SIMPLE and DYNAMIC_V0 building and
// Base64 serialization, byte-for-byte what Hudi writes (hudi-format.md §6.2; parsing: bloom-filter-parse.ts).
// Hashes with the JS kernel twin; batch adds go to the thread's WASM kernels when loaded; batch probes can hand
// `bits` to `Kernels.bloomProbe`.

import { LakeletError } from '../errors.js';
import { encodeKey, bloomRowBytes } from '../kernels/kernels.js';
import { bloomRowHasAll, bloomRowSet, hudiBloomPositions } from '../kernels/js/bloom.js';
import { activeThreadKernels, type ThreadKernels } from '../kernels/thread-kernels.js';
import { encodeBase64 } from './base64.js';

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
  /**
   * Adds keys in order: the same filter as {@link add} of each key, hashed by one WASM call per filter row when
   * the thread's kernels are loaded (kernels/thread-kernels.ts), else key by key in JS.
   */
  addAll(keys: readonly (string | Uint8Array)[]): void;
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

/** The serialized filter's version (Hadoop's versioned layout). */
export const BLOOM_FILTER_VERSION = -1;
/** Hash type codes of a serialized filter: Hudi writes MURMUR_HASH. */
export const MURMUR_HASH = 1;
export const JENKINS_HASH = 0;
/** Bytes of a serialized filter's header: version, k, hash type, m. */
export const BLOOM_FILTER_HEADER_BYTES = 13;
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

  addAll(keys: readonly (string | Uint8Array)[]): void {
    const kernels = activeThreadKernels();
    let i = 0;
    // Without kernels (or once their memory cannot grow) every key goes through add(): each key is read once.
    let batched = kernels !== undefined;
    while (i < keys.length) {
      if (!batched) {
        this.add(keys[i] as string | Uint8Array);
        i++;
        continue;
      }
      // the keys that go to the current row without a new row or round-robin (all of them for SIMPLE)
      let run = keys.length - i;
      if (this.type === 'DYNAMIC_V0') run = this.reachedMax || this.lastRowCount >= this.rowCapacity ? 0 : Math.min(run, this.rowCapacity - this.lastRowCount);
      for (let j = 0; j < run; j++) if (keys[i + j]?.length === 0) run = j; // add() throws for it, after the keys before it
      if (run >= 2) {
        if (this.addToLastRow(kernels as ThreadKernels, keys.slice(i, i + run))) {
          i += run;
          continue;
        }
        batched = false;
      }
      this.add(keys[i] as string | Uint8Array);
      i++;
    }
  }

  /** Sets the keys' bits in the last row with one WASM call; false (nothing changed) when WASM memory cannot grow. */
  private addToLastRow(kernels: ThreadKernels, keys: readonly (string | Uint8Array)[]): boolean {
    const start = (this.numRows - 1) * this.rowBytes;
    try {
      kernels.bloomAdd(this.bits.subarray(start, start + this.rowBytes), this.numBits, this.numHashes, keys);
    } catch {
      return false;
    }
    if (this.type === 'DYNAMIC_V0') this.lastRowCount = (this.lastRowCount + keys.length) | 0;
    return true;
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
    const size = dynamic ? BLOOM_FILTER_HEADER_BYTES + 12 + this.numRows * (BLOOM_FILTER_HEADER_BYTES + this.rowBytes) : BLOOM_FILTER_HEADER_BYTES + this.rowBytes;
    const out = new Uint8Array(size);
    const view = new DataView(out.buffer);
    const header = (at: number): number => {
      view.setInt32(at, BLOOM_FILTER_VERSION);
      view.setInt32(at + 4, this.numHashes);
      view.setInt8(at + 8, MURMUR_HASH);
      view.setInt32(at + 9, this.numBits);
      return at + BLOOM_FILTER_HEADER_BYTES;
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

/**
 * A filter over parsed state (bloom-filter-parse.ts): `rows` bit arrays back-to-back in `bits`, DYNAMIC_V0's keys
 * per row `rowCapacity` (0 for SIMPLE), its bound `maxEntries` and the last row's key count.
 */
export function bloomFilterOf(type: BloomFilterTypeCode, numBits: number, numHashes: number, rowCapacity: number, maxEntries: number, rows: number, lastRowCount: number, bits: Uint8Array): HudiBloomFilter {
  return new Filter(type, numBits, numHashes, rowCapacity, maxEntries, rows, lastRowCount, bits);
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
