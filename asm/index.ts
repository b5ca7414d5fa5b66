// AssemblyScript kernels over raw linear memory: Hudi's Hadoop-style MurmurHash, bloom-filter hash positions,
// probes and adds. JS owns every buffer (bump allocator below); no AS strings or arrays cross the boundary.
// Built twice by scripts/build-asm.mjs (SIMD on / off); the code is scalar in both builds for now.

// ---------------------------------------------------------------------------------------------------------
// Arena: a bump allocator over linear memory above __heap_base. JS calls reset() before each batch, then
// alloc() for every buffer it needs. Memory only grows; JS must re-create its views after alloc().

let top: usize = 0;

/** Forget every allocation; the next alloc() starts again at the heap base. */
export function reset(): void {
  top = (__heap_base + 15) & ~(<usize>15);
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

/**
 * Probes each key against `rows` bit arrays of ceil(m/8) bytes each, stored back-to-back at `bitsPtr`
 * (LSB-first bytes). out[i] = 1 when some row has all k bits of key i set, else 0. `scratchPtr` must hold
 * k i32 (used only when rows > 1).
 */
export function bloomProbeBatch(
  bitsPtr: usize, m: i32, k: i32, rows: i32,
  keysPtr: usize, offsetsPtr: usize, count: i32, outPtr: usize, scratchPtr: usize,
): void {
  const rowBytes = (<usize>m + 7) >>> 3;
  for (let i = 0; i < count; i++) {
    const o = offsetsPtr + (<usize>i << 2);
    const start = load<u32>(o);
    const len = <i32>(load<u32>(o, 4) - start);
    const p = keysPtr + <usize>start;
    let hit: u8 = 0;
    if (rows == 1) {
      // one row: stop at the first clear bit (most probes of absent keys end after one or two hashes)
      let h: i32 = 0;
      hit = 1;
      for (let j = 0; j < k; j++) {
        h = murmur(p, len, h);
        if (!testBit(bitsPtr, <u32>abs<i32>(h % m))) { hit = 0; break; }
      }
    } else if (rows > 1) {
      let h: i32 = 0;
      for (let j = 0; j < k; j++) {
        h = murmur(p, len, h);
        store<i32>(scratchPtr + (<usize>j << 2), abs<i32>(h % m));
      }
      for (let r = 0; r < rows; r++) {
        const row = bitsPtr + <usize>r * rowBytes;
        let all = true;
        for (let j = 0; j < k; j++) {
          if (!testBit(row, load<u32>(scratchPtr + (<usize>j << 2)))) { all = false; break; }
        }
        if (all) { hit = 1; break; }
      }
    }
    store<u8>(outPtr + <usize>i, hit);
  }
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
