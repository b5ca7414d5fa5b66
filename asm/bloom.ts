// Hudi's MurmurHash and bloom filter kernels: batch hashing, positions, probes (filter resident below the
// floor, two keys at a time) and adds.

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

// @ts-ignore: decorator
@inline
function setBit(bits: usize, pos: u32): void {
  const at = bits + <usize>(pos >>> 3);
  store<u8>(at, load<u8>(at) | <u8>(<u32>1 << (pos & 7)));
}

/** Sets the k bits of the key at `p` (`len` bytes) directly, for keys too long to premix. */
// @ts-ignore: decorator
@inline
function addDirect(bitsPtr: usize, m: i32, k: i32, p: usize, len: i32): void {
  let h: i32 = 0;
  for (let j = 0; j < k; j++) {
    h = murmur(p, len, h);
    setBit(bitsPtr, <u32>abs<i32>(h % m));
  }
}

/**
 * Sets the k bits of every key in the single bit array at `bitsPtr` (ceil(m/8) bytes, LSB-first). Keys are
 * premixed (as probes are) and hashed two at a time, so the two chains of k hashes overlap. `scratchPtr` must
 * hold 2 x MAX_PREMIX_WORDS block words (2 KiB).
 */
export function bloomAddBatch(bitsPtr: usize, m: i32, k: i32, keysPtr: usize, offsetsPtr: usize, count: i32, scratchPtr: usize): void {
  const wordsA = scratchPtr, wordsB = scratchPtr + (<usize>MAX_PREMIX_WORDS << 2);
  let i = 0;
  while (i < count) {
    const oa = offsetsPtr + (<usize>i << 2);
    const sa = load<u32>(oa);
    const lenA = <i32>(load<u32>(oa, 4) - sa);
    const pa = keysPtr + <usize>sa;
    const blocksA = lenA >> 2;
    if (blocksA > MAX_PREMIX_WORDS) {
      addDirect(bitsPtr, m, k, pa, lenA);
      i++;
      continue;
    }
    let lenB: i32 = -1, blocksB: i32 = 0;
    let pb: usize = 0;
    if (i + 1 < count) {
      const ob = oa + 4;
      const sb = load<u32>(ob);
      lenB = <i32>(load<u32>(ob, 4) - sb);
      pb = keysPtr + <usize>sb;
      blocksB = lenB >> 2;
      if (blocksB > MAX_PREMIX_WORDS) {
        addDirect(bitsPtr, m, k, pb, lenB);
        lenB = -1; // B is done; A pairs with nothing this round
      }
    }
    premix(pa, blocksA, wordsA);
    const tailA = tailTerm(pa, lenA);
    const hasTailA = (lenA & 3) != 0;
    if (lenB < 0) {
      let h: i32 = 0;
      for (let j = 0; j < k; j++) {
        h = murmurPremixed(wordsA, blocksA, lenA, tailA, hasTailA, h);
        setBit(bitsPtr, <u32>abs<i32>(h % m));
      }
    } else {
      premix(pb, blocksB, wordsB);
      const tailB = tailTerm(pb, lenB);
      const hasTailB = (lenB & 3) != 0;
      let hA: i32 = 0, hB: i32 = 0;
      for (let j = 0; j < k; j++) {
        hA = murmurPremixed(wordsA, blocksA, lenA, tailA, hasTailA, hA);
        hB = murmurPremixed(wordsB, blocksB, lenB, tailB, hasTailB, hB);
        setBit(bitsPtr, <u32>abs<i32>(hA % m));
        setBit(bitsPtr, <u32>abs<i32>(hB % m));
      }
    }
    i += 2;
  }
}
