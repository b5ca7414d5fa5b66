// Stable key sort in unsigned byte order returning a permutation (MSD radix over 8-byte chunks).
import { compareFrom } from './compare';

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

