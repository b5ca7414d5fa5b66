// The `Kernels` contract shared by the WASM binding and its JS twin (Hudi murmur and bloom filter, xxHash64,
// dedupe, key sort, raw snappy compression and decompression), plus the packed-key batch format (UTF-8 bytes back-to-back + u32 offsets) and the
// Java-compatible key encoding both sides hash.

import { LakeletError } from '../errors.js';

/**
 * A batch of keys laid out for the kernels: key `i` is `bytes[offsets[i] .. offsets[i+1])`.
 * `offsets` has `count + 1` entries, never decreasing, the last one `<= bytes.length`.
 */
export interface PackedKeys {
  bytes: Uint8Array;
  offsets: Uint32Array;
}

/** Keys for a kernel call: already packed, or a list of strings (UTF-8 encoded as Java does) / raw byte keys. */
export type KeysInput = PackedKeys | readonly (string | Uint8Array)[];

/**
 * Bloom-filter bits kept ready for many probe calls (in WASM: resident in linear memory, copied in once).
 * Made by {@link Kernels.createBloomProbe}; call `dispose()` when done to release the memory.
 */
export interface BloomProbe {
  /** Bits per row (m). */
  readonly m: number;
  /** Hash functions (k). */
  readonly k: number;
  /** Number of rows (sub-filters) stored back-to-back. */
  readonly rows: number;
  /** Membership of every key: 1 = might contain (some row has all k bits), 0 = certainly absent. */
  probe(keys: KeysInput): Uint8Array;
  /** Releases the filter's memory; further `probe` calls throw `INVALID_ARGUMENT`. Idempotent. */
  dispose(): void;
}

/** Ordering (precombine) values for {@link Kernels.dedupeKeepMax}: one per key. */
export type OrderingValues = Float64Array | BigInt64Array;

/** Which implementation a `Kernels` object runs on. */
export type KernelsKind = 'wasm' | 'js';

/**
 * The hot loops of lakelet. Every implementation returns identical output for identical input.
 * Bloom bit arrays are Hudi's: `ceil(m/8)` bytes per row, bit `i` in byte `i >> 3` under mask `1 << (i & 7)`.
 */
export interface Kernels {
  /** `'wasm'` when the AssemblyScript module is running, `'js'` for the JS twin. */
  readonly kind: KernelsKind;
  /** For WASM: which build was loaded. `'js'` for the twin. */
  readonly variant: 'simd' | 'scalar' | 'js';
  /** Why WASM was not used, when `loadKernels` fell back to the JS twin. */
  readonly fallbackReason?: string;
  /** Hudi's MurmurHash (signed 32-bit) of every key with the same `seed` (default 0). */
  hudiMurmur(keys: KeysInput, seed?: number): Int32Array;
  /** The `k` bloom positions of every key (key-major, `count * k` entries) for a filter of `m` bits. */
  bloomPositions(keys: KeysInput, m: number, k: number): Int32Array;
  /**
   * Membership of every key (1 = might contain, 0 = absent) in a filter of `rows` bit arrays stored
   * back-to-back in `filterBits` (`rows` defaults to 1; a key matches when any row has all its k bits).
   */
  bloomProbe(filterBits: Uint8Array, m: number, k: number, keys: KeysInput, rows?: number): Uint8Array;
  /** Sets the k bits of every key in the single-row bit array `filterBits`, in place; returns `filterBits`. */
  bloomAdd(filterBits: Uint8Array, m: number, k: number, keys: KeysInput): Uint8Array;
  /**
   * Copies a filter of `rows` bit arrays (back-to-back in `filterBits`, `rows` defaults to 1) once and returns
   * a handle that probes batches against it without copying the bits again; later changes to `filterBits`
   * are not seen. Same results as {@link Kernels.bloomProbe}.
   */
  createBloomProbe(filterBits: Uint8Array, m: number, k: number, rows?: number): BloomProbe;
  /**
   * XXH64 (Yann Collet's xxHash64 specification) of every key's bytes with `seed` (default 0, taken modulo
   * 2^64), as unsigned 64-bit values. For partitioning keys across workers and for hash tables; use
   * `Number(h & 0xffffffffn)` for a 32-bit hash.
   */
  hashKeys64(keys: KeysInput, seed?: bigint | number): BigUint64Array;
  /**
   * Deduplicates records by key, keeping per distinct key the record with the greatest ordering value. A later
   * record replaces the kept one unless its value is strictly smaller (IEEE `<`), so ties go to the later record
   * (as Hudi's combine does), and so does any comparison with a NaN. Returns the kept
   * indices in ascending order. `orderingValues` has one entry per key.
   */
  dedupeKeepMax(keys: KeysInput, orderingValues: OrderingValues): Int32Array;
  /**
   * The stable permutation that sorts the keys in unsigned byte order (UTF-8 byte order, a proper prefix
   * first; the order of `Buffer.compare`): `keys[perm[0]] <= keys[perm[1]] <= …`, equal keys in input order.
   */
  sortKeys(keys: KeysInput): Uint32Array;
  /**
   * Raw snappy compression of `input` (parquet's SNAPPY codec: varint length, literal/copy elements, 64 KiB
   * blocks); every implementation emits the same bytes. Returns a fresh array.
   */
  snappyCompress(input: Uint8Array): Uint8Array;
  /**
   * Raw snappy decompression of `input` into exactly `outputLength` bytes (a parquet page's uncompressed size; the
   * stream's own length header is skipped, as hyparquet does). Corrupt input throws. Returns a fresh array.
   */
  snappyUncompress(input: Uint8Array, outputLength: number): Uint8Array;
}

const encoder = new TextEncoder();
const ANY_SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * UTF-8 bytes of `key` exactly as Java's `String.getBytes(UTF_8)` produces them: like `TextEncoder`, except
 * that an unpaired surrogate becomes `?` (0x3F) instead of U+FFFD.
 */
export function encodeKey(key: string): Uint8Array {
  return encoder.encode(javaSafe(key));
}

function javaSafe(key: string): string {
  return ANY_SURROGATE.test(key) ? key.replace(LONE_SURROGATES, '?') : key;
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * ASCII string keys (ids, uuids: the common case) packed with one join and one encode instead of an encodeInto
 * per key (a call into the platform each, ~1-3 µs in a browser); undefined when some key is not ASCII or not a
 * string. An ASCII key's UTF-8 bytes are its code units, so the offsets are the keys' lengths.
 */
function packAsciiKeys(keys: readonly (string | Uint8Array)[]): PackedKeys | undefined {
  for (const key of keys) if (typeof key !== 'string') return undefined;
  const joined = (keys as readonly string[]).join('');
  if (NON_ASCII.test(joined)) return undefined;
  const offsets = new Uint32Array(keys.length + 1);
  let at = 0;
  for (let i = 0; i < keys.length; i++) {
    at += (keys[i] as string).length;
    offsets[i + 1] = at;
  }
  return { bytes: encoder.encode(joined), offsets };
}

/** Packs keys into one byte buffer + offsets (strings are encoded with {@link encodeKey}'s rules). */
export function packKeys(keys: readonly (string | Uint8Array)[]): PackedKeys {
  const ascii = packAsciiKeys(keys);
  if (ascii) return ascii;
  const offsets = new Uint32Array(keys.length + 1);
  let cap = 16;
  for (const key of keys) cap += key.length;
  let bytes: Uint8Array = new Uint8Array(cap);
  let pos = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key === 'string') {
      const text = javaSafe(key);
      for (;;) {
        const { read, written } = encoder.encodeInto(text, bytes.subarray(pos));
        if (read === text.length) {
          pos += written;
          break;
        }
        bytes = grow(bytes, pos + text.length * 3);
      }
    } else if (key instanceof Uint8Array) {
      if (pos + key.length > bytes.length) bytes = grow(bytes, pos + key.length);
      bytes.set(key, pos);
      pos += key.length;
    } else {
      throw new LakeletError('INVALID_ARGUMENT', `kernels: key ${i} is neither a string nor a Uint8Array`, { value: key });
    }
    offsets[i + 1] = pos;
  }
  return { bytes: bytes.subarray(0, pos), offsets };
}

function grow(bytes: Uint8Array, atLeast: number): Uint8Array {
  const next = new Uint8Array(Math.max(atLeast, bytes.length * 2));
  next.set(bytes);
  return next;
}

/** Normalises a {@link KeysInput} to packed form, checking the offsets of an already-packed batch. */
export function toPackedKeys(keys: KeysInput): PackedKeys {
  if (Array.isArray(keys)) return packKeys(keys);
  const packed = keys as PackedKeys;
  const { bytes, offsets } = packed;
  if (!(bytes instanceof Uint8Array) || !(offsets instanceof Uint32Array) || offsets.length < 1) {
    throw new LakeletError('INVALID_ARGUMENT', 'kernels: packed keys need a Uint8Array `bytes` and a non-empty Uint32Array `offsets`');
  }
  let prev = 0;
  for (let i = 0; i < offsets.length; i++) {
    const o = offsets[i] ?? 0;
    if (o < prev || o > bytes.length) {
      throw new LakeletError('INVALID_ARGUMENT', `kernels: packed key offset ${i} = ${o} is out of order or past the ${bytes.length} key bytes`, { offset: i, value: o });
    }
    prev = o;
  }
  return packed;
}

/** Number of keys in a packed batch. */
export function keyCount(keys: PackedKeys): number {
  return keys.offsets.length - 1;
}

/** Bytes in one bloom row of `m` bits (Hadoop's `getNBytes`). */
export function bloomRowBytes(m: number): number {
  return Math.floor((m + 7) / 8);
}

/** Validates bloom-kernel arguments shared by every implementation; throws `INVALID_ARGUMENT`. */
export function checkBloomArgs(filterBits: Uint8Array, m: number, k: number, rows: number): void {
  if (!Number.isInteger(m) || m < 1 || m > 0x7fffffff) {
    throw new LakeletError('INVALID_ARGUMENT', `kernels: bloom bit count m = ${m} must be an integer in 1..2^31-1`, { value: m });
  }
  if (!Number.isInteger(k) || k < 0 || k > 0xffff) {
    throw new LakeletError('INVALID_ARGUMENT', `kernels: bloom hash count k = ${k} must be an integer in 0..65535`, { value: k });
  }
  if (!Number.isInteger(rows) || rows < 1) {
    throw new LakeletError('INVALID_ARGUMENT', `kernels: bloom row count ${rows} must be a positive integer`, { value: rows });
  }
  if (!(filterBits instanceof Uint8Array) || filterBits.length < rows * bloomRowBytes(m)) {
    throw new LakeletError('INVALID_ARGUMENT', `kernels: bloom bit array holds ${filterBits?.length} bytes, needs ${rows * bloomRowBytes(m)} for ${rows} row(s) of ${m} bits`);
  }
}

/** Validates the ordering values of a dedupe call against the key count; throws `INVALID_ARGUMENT`. */
export function checkOrderingValues(values: OrderingValues, count: number): void {
  if (!(values instanceof Float64Array) && !(values instanceof BigInt64Array)) {
    throw new LakeletError('INVALID_ARGUMENT', 'kernels: ordering values must be a Float64Array or a BigInt64Array');
  }
  if (values.length !== count) {
    throw new LakeletError('INVALID_ARGUMENT', `kernels: ${values.length} ordering values for ${count} keys`, { value: values.length });
  }
}

/** The seed of `hashKeys64` as an unsigned 64-bit bigint; throws `INVALID_ARGUMENT` for a non-integer. */
export function hashSeed64(seed: bigint | number): bigint {
  if (typeof seed === 'bigint') return BigInt.asUintN(64, seed);
  if (!Number.isSafeInteger(seed)) {
    throw new LakeletError('INVALID_ARGUMENT', `kernels: hash seed ${seed} must be a safe integer or a bigint`, { value: seed });
  }
  return BigInt.asUintN(64, BigInt(seed));
}
