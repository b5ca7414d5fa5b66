// JS twin of asm/xxhash.ts: XXH64 of key bytes, with 64-bit arithmetic on pairs of u32 (JS numbers hold
// 53 bits).

import { hashSeed64, toPackedKeys, type KeysInput } from '../kernels.js';

// XXH64 primes, as [high 32 bits, low 32 bits].
const P1H = 0x9e3779b1, P1L = 0x85ebca87;
const P2H = 0xc2b2ae3d, P2L = 0x27d4eb4f;
const P3H = 0x165667b1, P3L = 0x9e3779f9;
const P4H = 0x85ebca77, P4L = 0xc2b2ae63;
const P5H = 0x27d4eb2f, P5L = 0x165667c5;
const TWO32 = 4294967296;

// Result registers of the 64-bit helpers below: R[0] = high u32, R[1] = low u32. A typed array rather than
// two module variables, so that storing a u32 above 2^31 does not allocate a heap number.
const R = new Uint32Array(2);
const hi = (): number => R[0] ?? 0;
const lo = (): number => R[1] ?? 0;

/** (ah:al) * (bh:bl) mod 2^64 into R (high, low). */
function mul(ah: number, al: number, bh: number, bl: number): void {
  const a0 = al & 0xffff, a1 = al >>> 16, b0 = bl & 0xffff, b1 = bl >>> 16;
  const mid = a1 * b0 + a0 * b1; // < 2^33, exact in a double
  const low = a0 * b0 + (mid % 65536) * 65536; // < 2^33
  R[1] = low >>> 0;
  R[0] = (a1 * b1 + Math.floor(mid / 65536) + Math.floor(low / TWO32) + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}

/** (ah:al) + (bh:bl) mod 2^64 into R (high, low). */
function add(ah: number, al: number, bh: number, bl: number): void {
  const low = al + bl;
  R[1] = low >>> 0;
  R[0] = (ah + bh + (low >= TWO32 ? 1 : 0)) >>> 0;
}

/** Rotates (h:l) left by 0 < r < 32 into R (high, low). */
function rotl(h: number, l: number, r: number): void {
  const nh = ((h << r) | (l >>> (32 - r))) >>> 0;
  R[1] = ((l << r) | (h >>> (32 - r))) >>> 0;
  R[0] = nh;
}

/** XXH64 round: rotl(acc + lane * P2, 31) * P1, into R (high, low). */
function round(acch: number, accl: number, laneh: number, lanel: number): void {
  mul(laneh, lanel, P2H, P2L);
  add(acch, accl, hi(), lo());
  rotl(hi(), lo(), 31);
  mul(hi(), lo(), P1H, P1L);
}

/** acc = (acc ^ round(0, v)) * P1 + P4, into R (high, low). */
function mergeRound(acch: number, accl: number, vh: number, vl: number): void {
  round(0, 0, vh, vl);
  mul((acch ^ hi()) >>> 0, (accl ^ lo()) >>> 0, P1H, P1L);
  add(hi(), lo(), P4H, P4L);
}

function u32At(d: Uint8Array, i: number): number {
  return ((d[i] ?? 0) | ((d[i + 1] ?? 0) << 8) | ((d[i + 2] ?? 0) << 16) | ((d[i + 3] ?? 0) << 24)) >>> 0;
}

/**
 * XXH64 of `data[start..end)` with the seed `seedHi:seedLo`; writes the low and high u32 of the hash to
 * `out[at]` and `out[at + 1]` (the little-endian layout of a u64).
 */
export function xxHash64Into(data: Uint8Array, start: number, end: number, seedHi: number, seedLo: number, out: Uint32Array, at: number): void {
  const len = end - start;
  let p = start;
  let h: number, l: number;
  if (len >= 32) {
    add(seedHi, seedLo, P1H, P1L); add(hi(), lo(), P2H, P2L);
    let v1h = hi(), v1l = lo();
    add(seedHi, seedLo, P2H, P2L);
    let v2h = hi(), v2l = lo();
    let v3h = seedHi, v3l = seedLo;
    add(seedHi, seedLo, ~P1H >>> 0, ~P1L >>> 0); add(hi(), lo(), 0, 1); // seed - P1 = seed + ~P1 + 1
    let v4h = hi(), v4l = lo();
    for (; p + 32 <= end; p += 32) {
      round(v1h, v1l, u32At(data, p + 4), u32At(data, p)); v1h = hi(); v1l = lo();
      round(v2h, v2l, u32At(data, p + 12), u32At(data, p + 8)); v2h = hi(); v2l = lo();
      round(v3h, v3l, u32At(data, p + 20), u32At(data, p + 16)); v3h = hi(); v3l = lo();
      round(v4h, v4l, u32At(data, p + 28), u32At(data, p + 24)); v4h = hi(); v4l = lo();
    }
    rotl(v1h, v1l, 1); h = hi(); l = lo();
    rotl(v2h, v2l, 7); add(h, l, hi(), lo()); h = hi(); l = lo();
    rotl(v3h, v3l, 12); add(h, l, hi(), lo()); h = hi(); l = lo();
    rotl(v4h, v4l, 18); add(h, l, hi(), lo()); h = hi(); l = lo();
    mergeRound(h, l, v1h, v1l); mergeRound(hi(), lo(), v2h, v2l);
    mergeRound(hi(), lo(), v3h, v3l); mergeRound(hi(), lo(), v4h, v4l);
    h = hi(); l = lo();
  } else {
    add(seedHi, seedLo, P5H, P5L);
    h = hi(); l = lo();
  }
  add(h, l, 0, len); h = hi(); l = lo();
  for (; p + 8 <= end; p += 8) {
    round(0, 0, u32At(data, p + 4), u32At(data, p));
    rotl((h ^ hi()) >>> 0, (l ^ lo()) >>> 0, 27);
    mul(hi(), lo(), P1H, P1L);
    add(hi(), lo(), P4H, P4L);
    h = hi(); l = lo();
  }
  if (p + 4 <= end) {
    mul(0, u32At(data, p), P1H, P1L);
    rotl((h ^ hi()) >>> 0, (l ^ lo()) >>> 0, 23);
    mul(hi(), lo(), P2H, P2L);
    add(hi(), lo(), P3H, P3L);
    h = hi(); l = lo();
    p += 4;
  }
  for (; p < end; p++) {
    mul(0, data[p] ?? 0, P5H, P5L);
    rotl((h ^ hi()) >>> 0, (l ^ lo()) >>> 0, 11);
    mul(hi(), lo(), P1H, P1L);
    h = hi(); l = lo();
  }
  // avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32
  l = (l ^ (h >>> 1)) >>> 0;
  mul(h, l, P2H, P2L);
  h = hi();
  l = (lo() ^ ((lo() >>> 29) | (hi() << 3))) >>> 0;
  h = (h ^ (h >>> 29)) >>> 0;
  mul(h, l, P3H, P3L);
  out[at] = (lo() ^ hi()) >>> 0;
  out[at + 1] = hi();
}

/** XXH64 of `bytes` (default seed 0) as an unsigned bigint. */
export function xxHash64(bytes: Uint8Array, seed: bigint | number = 0): bigint {
  const s = hashSeed64(seed);
  const out = new Uint32Array(2);
  xxHash64Into(bytes, 0, bytes.length, Number(s >> 32n), Number(s & 0xffffffffn), out, 0);
  return (BigInt(out[1] ?? 0) << 32n) | BigInt(out[0] ?? 0);
}

/** JS twin of `Kernels.hashKeys64`. */
export function hashKeys64(keys: KeysInput, seed: bigint | number = 0): BigUint64Array {
  const { bytes, offsets } = toPackedKeys(keys);
  const s = hashSeed64(seed);
  const hi = Number(s >> 32n), lo = Number(s & 0xffffffffn);
  const n = offsets.length - 1;
  const result = new BigUint64Array(n);
  const words = new Uint32Array(result.buffer); // little-endian: low word first, as in wasm memory
  for (let i = 0; i < n; i++) xxHash64Into(bytes, offsets[i] ?? 0, offsets[i + 1] ?? 0, hi, lo, words, 2 * i);
  return result;
}
