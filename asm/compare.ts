// Unsigned byte comparison of keys (16 bytes a step with SIMD, 8 without).

// ---------------------------------------------------------------------------------------------------------
// Byte comparison of keys: the SIMD build compares 16 bytes per step (i8x16.eq + bitmask finds the first
// differing byte), the scalar build 8 bytes per step (big-endian u64 compare).

/** Compares a[from..la) with b[from..lb) as unsigned bytes, shorter-is-smaller: <0, 0 or >0. */
export function compareFrom(a: usize, la: i32, b: usize, lb: i32, from: i32): i32 {
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
export function bytesEqual(a: usize, b: usize, len: i32): bool {
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

