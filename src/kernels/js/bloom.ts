// JS twin of asm/bloom.ts: Hudi's MurmurHash, bloom positions, probes and adds, bit for bit (format/bloom-filter.ts
// uses the row helpers directly).

import { LakeletError } from '../../errors.js';
import {
  bloomRowBytes, checkBloomArgs, keyCount, toPackedKeys,
  type BloomProbe, type KeysInput,
} from '../kernels.js';

const M = 0x5bd1e995;

/**
 * Hudi's MurmurHash of `data[start..end)` (hudi-common `MurmurHash.hash`, ported from Hadoop): MurmurHash2
 * 32-bit where the 1-3 tail bytes are sign-extended and read from the end of the key. Returns a signed int32.
 */
export function hudiMurmurHash(data: Uint8Array, start: number, end: number, seed: number): number {
  const len = end - start;
  let h = (seed ^ len) | 0;
  const blocksEnd = start + (len & ~3);
  for (let i = start; i < blocksEnd; i += 4) {
    let k = (data[i] ?? 0) | ((data[i + 1] ?? 0) << 8) | ((data[i + 2] ?? 0) << 16) | ((data[i + 3] ?? 0) << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const tail = len & 3;
  if (tail !== 0) {
    // `<< 24 >> 24` sign-extends a byte, as Java's (int) of a signed byte does
    if (tail >= 3) h ^= (((data[end - 3] ?? 0) << 24) >> 24) << 16;
    if (tail >= 2) h ^= (((data[end - 2] ?? 0) << 24) >> 24) << 8;
    h ^= ((data[end - 1] ?? 0) << 24) >> 24;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/**
 * Writes the k bloom positions of `data[start..end)` to `out[at..at+k)`: h = 0; repeat k times:
 * h = murmur(key, h); pos = |h % m| (Java int remainder, truncating toward zero).
 */
export function hudiBloomPositions(data: Uint8Array, start: number, end: number, m: number, k: number, out: Int32Array, at = 0): void {
  let h = 0;
  for (let j = 0; j < k; j++) {
    h = hudiMurmurHash(data, start, end, h);
    out[at + j] = Math.abs(h % m);
  }
}

/** True when all `k` positions `positions[at..at+k)` are set in the row starting at byte `rowStart` of `bits`. */
export function bloomRowHasAll(bits: Uint8Array, rowStart: number, positions: Int32Array, at: number, k: number): boolean {
  for (let j = 0; j < k; j++) {
    const pos = positions[at + j] ?? 0;
    if (((bits[rowStart + (pos >>> 3)] ?? 0) & (1 << (pos & 7))) === 0) return false;
  }
  return true;
}

/** Sets the `k` positions `positions[at..at+k)` in the row starting at byte `rowStart` of `bits`. */
export function bloomRowSet(bits: Uint8Array, rowStart: number, positions: Int32Array, at: number, k: number): void {
  for (let j = 0; j < k; j++) {
    const pos = positions[at + j] ?? 0;
    const byte = rowStart + (pos >>> 3);
    bits[byte] = (bits[byte] ?? 0) | (1 << (pos & 7));
  }
}

/** JS twin of `Kernels.hudiMurmur`: Hudi's MurmurHash of every key with `seed`. */
export function hudiMurmur(keys: KeysInput, seed = 0): Int32Array {
  const { bytes, offsets } = toPackedKeys(keys);
  const n = offsets.length - 1;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = hudiMurmurHash(bytes, offsets[i] ?? 0, offsets[i + 1] ?? 0, seed | 0);
  return out;
}

/** JS twin of `Kernels.bloomPositions`: the `k` bloom positions of every key, key after key. */
export function bloomPositions(keys: KeysInput, m: number, k: number): Int32Array {
  checkBloomArgs(new Uint8Array(bloomRowBytes(m)), m, k, 1);
  const { bytes, offsets } = toPackedKeys(keys);
  const n = offsets.length - 1;
  const out = new Int32Array(n * k);
  for (let i = 0; i < n; i++) hudiBloomPositions(bytes, offsets[i] ?? 0, offsets[i + 1] ?? 0, m, k, out, i * k);
  return out;
}

/** JS twin of `Kernels.bloomProbe`: 1 for every key that may be in one of the filter's `rows`, else 0. */
export function bloomProbe(filterBits: Uint8Array, m: number, k: number, keys: KeysInput, rows = 1): Uint8Array {
  checkBloomArgs(filterBits, m, k, rows);
  const packed = toPackedKeys(keys);
  const { bytes, offsets } = packed;
  const n = keyCount(packed);
  const rowBytes = bloomRowBytes(m);
  const positions = new Int32Array(k);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    hudiBloomPositions(bytes, offsets[i] ?? 0, offsets[i + 1] ?? 0, m, k, positions);
    for (let r = 0; r < rows; r++) {
      if (bloomRowHasAll(filterBits, r * rowBytes, positions, 0, k)) {
        out[i] = 1;
        break;
      }
    }
  }
  return out;
}

/** JS twin of `Kernels.bloomAdd`: sets every key's positions in `filterBits` and returns it. */
export function bloomAdd(filterBits: Uint8Array, m: number, k: number, keys: KeysInput): Uint8Array {
  checkBloomArgs(filterBits, m, k, 1);
  const packed = toPackedKeys(keys);
  const { bytes, offsets } = packed;
  const n = keyCount(packed);
  const positions = new Int32Array(k);
  for (let i = 0; i < n; i++) {
    hudiBloomPositions(bytes, offsets[i] ?? 0, offsets[i + 1] ?? 0, m, k, positions);
    bloomRowSet(filterBits, 0, positions, 0, k);
  }
  return filterBits;
}

/** JS twin of `Kernels.createBloomProbe`: a probe over a copy of the filter, as the WASM binding keeps one. */
export function createBloomProbe(filterBits: Uint8Array, m: number, k: number, rows = 1): BloomProbe {
  checkBloomArgs(filterBits, m, k, rows);
  let bits: Uint8Array | undefined = filterBits.slice(0, rows * bloomRowBytes(m)); // a copy, as WASM makes
  return {
    m, k, rows,
    probe(keys: KeysInput): Uint8Array {
      if (bits === undefined) throw new LakeletError('INVALID_ARGUMENT', 'kernels: bloom probe used after dispose()');
      return bloomProbe(bits, m, k, keys, rows);
    },
    dispose(): void {
      bits = undefined;
    },
  };
}
