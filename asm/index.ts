// AssemblyScript kernels over raw linear memory: Hudi's MurmurHash and bloom filter, xxHash64, dedupe keeping
// the greatest ordering value, a stable byte-order key sort. JS owns every buffer (arena below); no AS strings or
// arrays cross. Built twice; `if (ASC_FEATURE_SIMD)` picks the SIMD paths (bloom premix, byte compares).

// ---------------------------------------------------------------------------------------------------------
// Arena: a bump allocator over linear memory above a floor. Below the floor JS keeps resident buffers (e.g. a
// bloom filter's bits that many probe calls share); JS manages that region itself and moves the floor with
// setFloor(). JS calls reset() before each batch, then alloc() for every buffer it needs. Memory only grows;
// JS must re-create its views after alloc() or setFloor().

let top: usize = 0;
let floor: usize = 0;

/** First usable byte (16-byte aligned) above the module's static data. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

/** Forget every scratch allocation; the next alloc() starts again at the floor. */
export function reset(): void {
  if (floor == 0) floor = heapBase();
  top = floor;
}

/** Moves the floor (16-byte aligned, >= heapBase()) and resets the arena; returns 0 when memory cannot grow. */
export function setFloor(ptr: usize): i32 {
  const f = max<usize>((ptr + 15) & ~(<usize>15), heapBase());
  const have = <usize>memory.size();
  const need = (f + 0xffff) >>> 16;
  if (need > have) {
    if (memory.grow(<i32>(need - have)) < 0) return 0;
  }
  floor = f;
  top = f;
  return 1;
}

/** Reserves `size` bytes (16-byte aligned), growing memory when needed. Returns 0 when memory cannot grow. */
export function alloc(size: usize): usize {
  if (top == 0) reset();
  const ptr = top;
  const end = (ptr + size + 15) & ~(<usize>15);
  if (end < ptr) return 0; // wrapped around
  const have = <usize>memory.size();
  const need = (end + 0xffff) >>> 16;
  if (need > have) {
    if (memory.grow(<i32>(need - have)) < 0) return 0;
  }
  top = end;
  return ptr;
}

// ---------------------------------------------------------------------------------------------------------
// Hudi's MurmurHash (hudi-common util/hash/MurmurHash.java, ported from Hadoop): MurmurHash2 32-bit whose tail
// bytes are sign-extended and taken from the END of the key (data[len-3], data[len-2], data[len-1]).

const M: i32 = 0x5bd1e995;

// @ts-ignore: decorator
@inline
function murmur(p: usize, len: i32, seed: i32): i32 {
  let h: i32 = seed ^ len;
  const blocks = len >> 2;
  let q = p;
  for (let i = 0; i < blocks; i++) {
    let k = load<i32>(q); // little-endian, unaligned loads are fine in wasm
    k *= M;
    k ^= k >>> 24;
    k *= M;
    h *= M;
    h ^= k;
    q += 4;
  }
  const tail = len & 3;
  if (tail != 0) {
    const end = p + <usize>len;
    if (tail >= 3) h ^= (<i32>load<i8>(end - 3)) << 16;
    if (tail >= 2) h ^= (<i32>load<i8>(end - 2)) << 8;
    h ^= <i32>load<i8>(end - 1);
    h *= M;
  }
  h ^= h >>> 13;
  h *= M;
  h ^= h >>> 15;
  return h;
}

/**
 * Hashes `count` keys stored back-to-back at `keysPtr`; key i spans [offsets[i], offsets[i+1]) relative to
 * `keysPtr` (`offsetsPtr` holds count+1 u32). Writes one i32 per key to `outPtr`.
 */
export function hudiMurmurBatch(keysPtr: usize, offsetsPtr: usize, count: i32, seed: i32, outPtr: usize): void {
  for (let i = 0; i < count; i++) {
    const o = offsetsPtr + (<usize>i << 2);
    const start = load<u32>(o);
    const end = load<u32>(o, 4);
    store<i32>(outPtr + (<usize>i << 2), murmur(keysPtr + <usize>start, <i32>(end - start), seed));
  }
}

/**
 * Writes the k bloom positions of each key to `outPtr` (count*k i32, key-major): h = 0; repeat k times:
 * h = murmur(key, h); pos = abs(h % m) with Java int semantics (remainder truncates toward zero).
 */
export function bloomPositionsBatch(keysPtr: usize, offsetsPtr: usize, count: i32, m: i32, k: i32, outPtr: usize): void {
  let out = outPtr;
  for (let i = 0; i < count; i++) {
    const o = offsetsPtr + (<usize>i << 2);
    const start = load<u32>(o);
    const len = <i32>(load<u32>(o, 4) - start);
    const p = keysPtr + <usize>start;
    let h: i32 = 0;
    for (let j = 0; j < k; j++) {
      h = murmur(p, len, h);
      store<i32>(out, abs<i32>(h % m));
      out += 4;
    }
  }
}

// @ts-ignore: decorator
@inline
function testBit(bits: usize, pos: u32): bool {
  return (<u32>load<u8>(bits + <usize>(pos >>> 3)) & (<u32>1 << (pos & 7))) != 0;
}

// Bloom probes hash each key k times with chained seeds. The block words of MurmurHash2 (k *= M; k ^= k >>> 24;
// k *= M) do not depend on the seed, so they are mixed once per key into scratch (4 at a time with SIMD) and
// each of the k hashes only runs h = h*M ^ word over them.

/** Most block words a key may have to use the premixed path (longer keys hash directly). */
const MAX_PREMIX_WORDS: i32 = 256;

// @ts-ignore: decorator
@inline
function premix(p: usize, blocks: i32, words: usize): void {
  let b = 0;
  if (ASC_FEATURE_SIMD) {
    const mv = i32x4.splat(M);
    for (; b + 4 <= blocks; b += 4) {
      let v = v128.load(p + (<usize>b << 2));
      v = i32x4.mul(v, mv);
      v = v128.xor(v, i32x4.shr_u(v, 24));
      v = i32x4.mul(v, mv);
      v128.store(words + (<usize>b << 2), v);
    }
  }
  for (; b < blocks; b++) {
    let k = load<i32>(p + (<usize>b << 2));
    k *= M;
    k ^= k >>> 24;
    k *= M;
    store<i32>(words + (<usize>b << 2), k);
  }
}

/** Hudi's murmur of a key whose block words are premixed at `words`; `tailX` is the xor term of the tail. */
// @ts-ignore: decorator
@inline
function murmurPremixed(words: usize, blocks: i32, len: i32, tailX: i32, hasTail: bool, seed: i32): i32 {
  let h: i32 = seed ^ len;
  const end = words + (<usize>blocks << 2);
  for (let q = words; q < end; q += 4) {
    h = (h * M) ^ load<i32>(q);
  }
  if (hasTail) {
    h ^= tailX;
    h *= M;
  }
  h ^= h >>> 13;
  h *= M;
  h ^= h >>> 15;
  return h;
}

// @ts-ignore: decorator
@inline
function tailTerm(p: usize, len: i32): i32 {
  const tail = len & 3;
  const end = p + <usize>len;
  let x: i32 = 0;
  if (tail >= 3) x ^= (<i32>load<i8>(end - 3)) << 16;
  if (tail >= 2) x ^= (<i32>load<i8>(end - 2)) << 8;
  if (tail >= 1) x ^= <i32>load<i8>(end - 1);
  return x;
}

// One-row probes, two keys in flight: each key's k chained hashes form one long dependency chain, so two
// slots advance alternately and the CPU overlaps their multiplies. A slot whose key misses (or hits all k
// bits) writes its result and takes the next key. Keys too long to premix are probed on the spot.

/** Takes the next premixable key from `next` on (probing long keys directly); returns its index or -1. */
// @ts-ignore: decorator
@inline
function takeKey(
  next: i32, count: i32, keysPtr: usize, offsetsPtr: usize, words: usize, meta: usize,
  bitsPtr: usize, m: i32, k: i32, outPtr: usize,
): i32 {
  for (let i = next; i < count; i++) {
    const o = offsetsPtr + (<usize>i << 2);
    const start = load<u32>(o);
    const len = <i32>(load<u32>(o, 4) - start);
    const p = keysPtr + <usize>start;
    const blocks = len >> 2;
    if (blocks <= MAX_PREMIX_WORDS) {
      premix(p, blocks, words);
      store<i32>(meta, len);
      store<i32>(meta, blocks, 4);
      store<i32>(meta, tailTerm(p, len), 8);
      return i;
    }
    let h: i32 = 0;
    let hit: u8 = 1;
    for (let j = 0; j < k; j++) {
      h = murmur(p, len, h);
      if (!testBit(bitsPtr, <u32>abs<i32>(h % m))) { hit = 0; break; }
    }
    store<u8>(outPtr + <usize>i, hit);
  }
  return -1;
}

function probeOneRow(bitsPtr: usize, m: i32, k: i32, keysPtr: usize, offsetsPtr: usize, count: i32, outPtr: usize, scratchPtr: usize): void {
  if (k == 0) {
    memory.fill(outPtr, 1, <usize>count);
    return;
  }
  const wordsA = scratchPtr, wordsB = scratchPtr + (<usize>MAX_PREMIX_WORDS << 2);
  const metaA = wordsB + (<usize>MAX_PREMIX_WORDS << 2), metaB = metaA + 16;
  let a = takeKey(0, count, keysPtr, offsetsPtr, wordsA, metaA, bitsPtr, m, k, outPtr);
  let b = a < 0 ? -1 : takeKey(a + 1, count, keysPtr, offsetsPtr, wordsB, metaB, bitsPtr, m, k, outPtr);
  let next = b >= 0 ? b + 1 : count;
  let hA: i32 = 0, jA: i32 = 0, hB: i32 = 0, jB: i32 = 0;
  while (a >= 0 || b >= 0) {
    if (a >= 0) {
      const len = load<i32>(metaA);
      hA = murmurPremixed(wordsA, load<i32>(metaA, 4), len, load<i32>(metaA, 8), (len & 3) != 0, hA);
      jA++;
      const miss = !testBit(bitsPtr, <u32>abs<i32>(hA % m));
      if (miss || jA == k) {
        store<u8>(outPtr + <usize>a, miss ? 0 : 1);
        a = takeKey(next, count, keysPtr, offsetsPtr, wordsA, metaA, bitsPtr, m, k, outPtr);
        if (a >= 0) next = a + 1; else next = count;
        hA = 0; jA = 0;
      }
    }
    if (b >= 0) {
      const len = load<i32>(metaB);
      hB = murmurPremixed(wordsB, load<i32>(metaB, 4), len, load<i32>(metaB, 8), (len & 3) != 0, hB);
      jB++;
      const miss = !testBit(bitsPtr, <u32>abs<i32>(hB % m));
      if (miss || jB == k) {
        store<u8>(outPtr + <usize>b, miss ? 0 : 1);
        b = takeKey(next, count, keysPtr, offsetsPtr, wordsB, metaB, bitsPtr, m, k, outPtr);
        if (b >= 0) next = b + 1; else next = count;
        hB = 0; jB = 0;
      }
    }
  }
}

/**
 * Probes each key against `rows` bit arrays of ceil(m/8) bytes each, stored back-to-back at `bitsPtr`
 * (LSB-first bytes). out[i] = 1 when some row has all k bits of key i set, else 0. `scratchPtr` must hold
 * 4 * (512 + k) + 32 bytes. Returns 0.
 */
export function bloomProbeBatch(
  bitsPtr: usize, m: i32, k: i32, rows: i32,
  keysPtr: usize, offsetsPtr: usize, count: i32, outPtr: usize, scratchPtr: usize,
): i32 {
  if (rows == 1) {
    probeOneRow(bitsPtr, m, k, keysPtr, offsetsPtr, count, outPtr, scratchPtr);
    return 0;
  }
  const rowBytes = (<usize>m + 7) >>> 3;
  const words = scratchPtr;
  const positions = scratchPtr + (<usize>MAX_PREMIX_WORDS << 2);
  for (let i = 0; i < count; i++) {
    const o = offsetsPtr + (<usize>i << 2);
    const start = load<u32>(o);
    const len = <i32>(load<u32>(o, 4) - start);
    const p = keysPtr + <usize>start;
    const blocks = len >> 2;
    const premixed = blocks <= MAX_PREMIX_WORDS;
    const hasTail = (len & 3) != 0;
    let tailX: i32 = 0;
    if (premixed) {
      premix(p, blocks, words);
      tailX = tailTerm(p, len);
    }
    let hit: u8 = 0;
    if (rows == 1) {
      // one row: stop at the first clear bit (most probes of absent keys end after one or two hashes)
      let h: i32 = 0;
      hit = 1;
      for (let j = 0; j < k; j++) {
        h = premixed ? murmurPremixed(words, blocks, len, tailX, hasTail, h) : murmur(p, len, h);
        if (!testBit(bitsPtr, <u32>abs<i32>(h % m))) { hit = 0; break; }
      }
    } else if (rows > 1) {
      let h: i32 = 0;
      for (let j = 0; j < k; j++) {
        h = premixed ? murmurPremixed(words, blocks, len, tailX, hasTail, h) : murmur(p, len, h);
        store<i32>(positions + (<usize>j << 2), abs<i32>(h % m));
      }
      for (let r = 0; r < rows; r++) {
        const row = bitsPtr + <usize>r * rowBytes;
        let all = true;
        for (let j = 0; j < k; j++) {
          if (!testBit(row, load<u32>(positions + (<usize>j << 2)))) { all = false; break; }
        }
        if (all) { hit = 1; break; }
      }
    }
    store<u8>(outPtr + <usize>i, hit);
  }
  return 0;
}

/** Sets the k bits of every key in the single bit array at `bitsPtr` (ceil(m/8) bytes, LSB-first). */
export function bloomAddBatch(bitsPtr: usize, m: i32, k: i32, keysPtr: usize, offsetsPtr: usize, count: i32): void {
  for (let i = 0; i < count; i++) {
    const o = offsetsPtr + (<usize>i << 2);
    const start = load<u32>(o);
    const len = <i32>(load<u32>(o, 4) - start);
    const p = keysPtr + <usize>start;
    let h: i32 = 0;
    for (let j = 0; j < k; j++) {
      h = murmur(p, len, h);
      const pos = <u32>abs<i32>(h % m);
      const at = bitsPtr + <usize>(pos >>> 3);
      store<u8>(at, load<u8>(at) | <u8>(<u32>1 << (pos & 7)));
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// xxHash64 (Yann Collet's XXH64 specification, xxhash_spec.md) of each key's UTF-8 bytes. Scalar in both builds.

const P1: u64 = 0x9E3779B185EBCA87;
const P2: u64 = 0xC2B2AE3D27D4EB4F;
const P3: u64 = 0x165667B19E3779F9;
const P4: u64 = 0x85EBCA77C2B2AE63;
const P5: u64 = 0x27D4EB2F165667C5;

// @ts-ignore: decorator
@inline
function xxRound(acc: u64, lane: u64): u64 {
  return rotl<u64>(acc + lane * P2, 31) * P1;
}

// @ts-ignore: decorator
@inline
function xxMerge(acc: u64, v: u64): u64 {
  return (acc ^ xxRound(0, v)) * P1 + P4;
}

/** XXH64 of `len` bytes at `p` with `seed`. */
function xxh64(p: usize, len: i32, seed: u64): u64 {
  let q = p;
  const end = p + <usize>len;
  let acc: u64;
  if (len >= 32) {
    const limit = end - 32;
    // (an i64x2 version of this loop measured 0.75-0.93x of the scalar one: wasm has no fast 64-bit lane multiply)
    let v1 = seed + P1 + P2;
    let v2 = seed + P2;
    let v3 = seed;
    let v4 = seed - P1;
    do {
      v1 = xxRound(v1, load<u64>(q));
      v2 = xxRound(v2, load<u64>(q, 8));
      v3 = xxRound(v3, load<u64>(q, 16));
      v4 = xxRound(v4, load<u64>(q, 24));
      q += 32;
    } while (q <= limit);
    acc = rotl<u64>(v1, 1) + rotl<u64>(v2, 7) + rotl<u64>(v3, 12) + rotl<u64>(v4, 18);
    acc = xxMerge(acc, v1);
    acc = xxMerge(acc, v2);
    acc = xxMerge(acc, v3);
    acc = xxMerge(acc, v4);
  } else {
    acc = seed + P5;
  }
  acc += <u64>len;
  while (q + 8 <= end) {
    acc ^= xxRound(0, load<u64>(q));
    acc = rotl<u64>(acc, 27) * P1 + P4;
    q += 8;
  }
  if (q + 4 <= end) {
    acc ^= (<u64>load<u32>(q)) * P1;
    acc = rotl<u64>(acc, 23) * P2 + P3;
    q += 4;
  }
  while (q < end) {
    acc ^= (<u64>load<u8>(q)) * P5;
    acc = rotl<u64>(acc, 11) * P1;
    q++;
  }
  acc ^= acc >> 33;
  acc *= P2;
  acc ^= acc >> 29;
  acc *= P3;
  acc ^= acc >> 32;
  return acc;
}

/** Writes XXH64(key i, seed) as a u64 to `outPtr + 8i` for every key of the batch. Returns 0. */
export function xxh64Batch(keysPtr: usize, offsetsPtr: usize, count: i32, seed: u64, outPtr: usize): i32 {
  for (let i = 0; i < count; i++) {
    const o = offsetsPtr + (<usize>i << 2);
    const start = load<u32>(o);
    store<u64>(outPtr + (<usize>i << 3), xxh64(keysPtr + <usize>start, <i32>(load<u32>(o, 4) - start), seed));
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------------------
// Byte comparison of keys: the SIMD build compares 16 bytes per step (i8x16.eq + bitmask finds the first
// differing byte), the scalar build 8 bytes per step (big-endian u64 compare).

/** Compares a[from..la) with b[from..lb) as unsigned bytes, shorter-is-smaller: <0, 0 or >0. */
function compareFrom(a: usize, la: i32, b: usize, lb: i32, from: i32): i32 {
  const n = min<i32>(la, lb);
  let i = from;
  if (ASC_FEATURE_SIMD) {
    for (; i + 16 <= n; i += 16) {
      const x = v128.load(a + <usize>i);
      const y = v128.load(b + <usize>i);
      const ne = ~i8x16.bitmask(i8x16.eq(x, y)) & 0xffff;
      if (ne != 0) {
        const at = <usize>(i + <i32>ctz<u32>(ne));
        return <i32>load<u8>(a + at) - <i32>load<u8>(b + at);
      }
    }
  }
  for (; i + 8 <= n; i += 8) {
    const x = bswap<u64>(load<u64>(a + <usize>i));
    const y = bswap<u64>(load<u64>(b + <usize>i));
    if (x != y) return x < y ? -1 : 1;
  }
  for (; i < n; i++) {
    const d = <i32>load<u8>(a + <usize>i) - <i32>load<u8>(b + <usize>i);
    if (d != 0) return d;
  }
  return la - lb;
}

/** True when the `len` bytes at `a` and `b` are equal. */
function bytesEqual(a: usize, b: usize, len: i32): bool {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 16 <= len; i += 16) {
      if (!i8x16.all_true(i8x16.eq(v128.load(a + <usize>i), v128.load(b + <usize>i)))) return false;
    }
  }
  for (; i + 8 <= len; i += 8) {
    if (load<u64>(a + <usize>i) != load<u64>(b + <usize>i)) return false;
  }
  for (; i < len; i++) {
    if (load<u8>(a + <usize>i) != load<u8>(b + <usize>i)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------------
// Dedupe: one pass over an open-addressing table (linear probing, capacity a power of two >= 2*count) of
// (index + 1) per slot, keyed by the low 32 bits of XXH64. A later record replaces the kept one unless its
// ordering value is smaller (so ties and NaNs go to the later record, as Hudi's combine does).

/**
 * Keeps, per distinct key, the record with the greatest ordering value (`valuesPtr`: count f64 when
 * `valueKind` = 0, count i64 when 1). Writes the kept indices in ascending order to `outPtr` (count i32) and
 * returns how many. Scratch: `tablePtr` (4 * capacity bytes, capacity a power of two >= 2 * count),
 * `hashesPtr` (4 * count bytes), `keptPtr` (count bytes).
 */
export function dedupeKeepMax(
  keysPtr: usize, offsetsPtr: usize, count: i32, valuesPtr: usize, valueKind: i32,
  tablePtr: usize, capacity: i32, hashesPtr: usize, keptPtr: usize, outPtr: usize,
): i32 {
  const mask = <u32>(capacity - 1);
  memory.fill(tablePtr, 0, <usize>capacity << 2);
  for (let i = 0; i < count; i++) {
    const o = offsetsPtr + (<usize>i << 2);
    const start = load<u32>(o);
    const len = <i32>(load<u32>(o, 4) - start);
    const p = keysPtr + <usize>start;
    const h = <u32>xxh64(p, len, 0);
    store<u32>(hashesPtr + (<usize>i << 2), h);
    let slot = h & mask;
    for (;;) {
      const at = tablePtr + (<usize>slot << 2);
      const held = load<u32>(at);
      if (held == 0) {
        store<u32>(at, <u32>i + 1);
        break;
      }
      const j = held - 1;
      if (load<u32>(hashesPtr + (<usize>j << 2)) == h) {
        const oj = offsetsPtr + (<usize>j << 2);
        const sj = load<u32>(oj);
        if (<i32>(load<u32>(oj, 4) - sj) == len && bytesEqual(keysPtr + <usize>sj, p, len)) {
          let smaller: bool;
          if (valueKind == 0) {
            smaller = load<f64>(valuesPtr + (<usize>i << 3)) < load<f64>(valuesPtr + (<usize>j << 3));
          } else {
            smaller = load<i64>(valuesPtr + (<usize>i << 3)) < load<i64>(valuesPtr + (<usize>j << 3));
          }
          if (!smaller) store<u32>(at, <u32>i + 1);
          break;
        }
      }
      slot = (slot + 1) & mask;
    }
  }
  memory.fill(keptPtr, 0, <usize>count);
  for (let s = 0; s < capacity; s++) {
    const held = load<u32>(tablePtr + (<usize>s << 2));
    if (held != 0) store<u8>(keptPtr + <usize>(held - 1), 1);
  }
  let n = 0;
  for (let i = 0; i < count; i++) {
    if (load<u8>(keptPtr + <usize>i) != 0) {
      store<i32>(outPtr + (<usize>n << 2), i);
      n++;
    }
  }
  return n;
}

// ---------------------------------------------------------------------------------------------------------
// Stable sort of keys in unsigned byte order, returning a permutation. MSD over 8-byte chunks: each level
// LSD-radix-sorts its range by (big-endian u64 of bytes [depth, depth+8) zero-padded, length class) with 8-bit
// digits, skipping digits that are equal for the whole range; runs that tie on both and are longer than
// depth+8 recurse with depth+8. Small ranges use insertion sort with compareFrom.

const INSERTION_MAX: i32 = 24;
const DIGITS: i32 = 9;

let sKeys: usize = 0;
let sOffsets: usize = 0;
let sPerm: usize = 0;
let sTmpPerm: usize = 0;
let sPre: usize = 0;
let sTmpPre: usize = 0;
let sHist: usize = 0;

// @ts-ignore: decorator
@inline
function keyStart(idx: u32): u32 {
  return load<u32>(sOffsets + (<usize>idx << 2));
}

// @ts-ignore: decorator
@inline
function keyLen(idx: u32): i32 {
  const o = sOffsets + (<usize>idx << 2);
  return <i32>(load<u32>(o, 4) - load<u32>(o));
}

/** Length class of a key at `depth`: 0..8 = bytes left in this chunk, 9 = continues past it. */
// @ts-ignore: decorator
@inline
function lengthClass(len: i32, depth: i32): u32 {
  return <u32>min<i32>(len - depth, 9);
}

function chunkAt(idx: u32, depth: i32): u64 {
  const p = sKeys + <usize>keyStart(idx);
  const len = keyLen(idx);
  if (len >= depth + 8) return bswap<u64>(load<u64>(p + <usize>depth));
  let v: u64 = 0;
  for (let i = depth; i < len; i++) v |= (<u64>load<u8>(p + <usize>i)) << (<u64>(56 - ((i - depth) << 3)));
  return v;
}

// @ts-ignore: decorator
@inline
function digitOf(pre: u64, idx: u32, d: i32, depth: i32): u32 {
  return d == 0 ? lengthClass(keyLen(idx), depth) : <u32>(pre >> (<u64>((d - 1) << 3))) & 0xff;
}

function insertionSort(lo: i32, hi: i32, depth: i32): void {
  for (let i = lo + 1; i < hi; i++) {
    const x = load<u32>(sPerm + (<usize>i << 2));
    const px = sKeys + <usize>keyStart(x);
    const lx = keyLen(x);
    let j = i - 1;
    while (j >= lo) {
      const y = load<u32>(sPerm + (<usize>j << 2));
      if (compareFrom(sKeys + <usize>keyStart(y), keyLen(y), px, lx, depth) <= 0) break;
      store<u32>(sPerm + (<usize>(j + 1) << 2), y);
      j--;
    }
    store<u32>(sPerm + (<usize>(j + 1) << 2), x);
  }
}

function sortRange(lo: i32, hi: i32, depth: i32): void {
  const n = hi - lo;
  if (n < 2) return;
  if (n <= INSERTION_MAX) {
    insertionSort(lo, hi, depth);
    return;
  }
  memory.fill(sHist, 0, <usize>(DIGITS * 256) << 2);
  for (let i = lo; i < hi; i++) {
    const idx = load<u32>(sPerm + (<usize>i << 2));
    const pre = chunkAt(idx, depth);
    store<u64>(sPre + (<usize>i << 3), pre);
    const h0 = sHist + (<usize>lengthClass(keyLen(idx), depth) << 2);
    store<u32>(h0, load<u32>(h0) + 1);
    for (let d = 1; d < DIGITS; d++) {
      const at = sHist + ((<usize>(d << 8) + <usize>((pre >> (<u64>((d - 1) << 3))) & 0xff)) << 2);
      store<u32>(at, load<u32>(at) + 1);
    }
  }
  let srcPerm = sPerm, srcPre = sPre, dstPerm = sTmpPerm, dstPre = sTmpPre;
  const firstIdx = load<u32>(sPerm + (<usize>lo << 2));
  const firstPre = load<u64>(sPre + (<usize>lo << 3));
  for (let d = 0; d < DIGITS; d++) {
    const hist = sHist + (<usize>(d << 8) << 2);
    if (load<u32>(hist + (<usize>digitOf(firstPre, firstIdx, d, depth) << 2)) == <u32>n) continue; // one bucket
    let sum: u32 = <u32>lo;
    for (let b = 0; b < 256; b++) {
      const c = load<u32>(hist + (<usize>b << 2));
      store<u32>(hist + (<usize>b << 2), sum);
      sum += c;
    }
    for (let i = lo; i < hi; i++) {
      const idx = load<u32>(srcPerm + (<usize>i << 2));
      const pre = load<u64>(srcPre + (<usize>i << 3));
      const at = hist + (<usize>digitOf(pre, idx, d, depth) << 2);
      const pos = load<u32>(at);
      store<u32>(at, pos + 1);
      store<u32>(dstPerm + (<usize>pos << 2), idx);
      store<u64>(dstPre + (<usize>pos << 3), pre);
    }
    const tp = srcPerm; srcPerm = dstPerm; dstPerm = tp;
    const tq = srcPre; srcPre = dstPre; dstPre = tq;
  }
  if (srcPerm != sPerm) {
    memory.copy(sPerm + (<usize>lo << 2), srcPerm + (<usize>lo << 2), <usize>n << 2);
    memory.copy(sPre + (<usize>lo << 3), srcPre + (<usize>lo << 3), <usize>n << 3);
  }
  // runs of equal chunks: within them keys are grouped by length class; class 9 continues past the chunk
  let i = lo;
  while (i < hi) {
    const pre = load<u64>(sPre + (<usize>i << 3));
    let j = i + 1;
    while (j < hi && load<u64>(sPre + (<usize>j << 3)) == pre) j++;
    if (j - i > 1) {
      let a = i;
      while (a < j) {
        const cls = lengthClass(keyLen(load<u32>(sPerm + (<usize>a << 2))), depth);
        let b = a + 1;
        while (b < j && lengthClass(keyLen(load<u32>(sPerm + (<usize>b << 2))), depth) == cls) b++;
        if (cls == 9 && b - a > 1) sortRange(a, b, depth + 8);
        a = b;
      }
    }
    i = j;
  }
}

/**
 * Writes to `permPtr` (count u32) the permutation that sorts the keys in unsigned byte order (a proper prefix
 * first), stable. Scratch: `tmpPermPtr` (4 * count), `prePtr` and `tmpPrePtr` (8 * count each), `histPtr`
 * (9 * 256 * 4 bytes). Returns 0.
 */
export function sortKeys(
  keysPtr: usize, offsetsPtr: usize, count: i32, permPtr: usize,
  tmpPermPtr: usize, prePtr: usize, tmpPrePtr: usize, histPtr: usize,
): i32 {
  sKeys = keysPtr; sOffsets = offsetsPtr; sPerm = permPtr; sTmpPerm = tmpPermPtr;
  sPre = prePtr; sTmpPre = tmpPrePtr; sHist = histPtr;
  for (let i = 0; i < count; i++) store<u32>(permPtr + (<usize>i << 2), <u32>i);
  sortRange(0, count, 0);
  return 0;
}
