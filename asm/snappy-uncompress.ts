// Raw snappy decompression (parquet's SNAPPY codec, the format of Google's snappy description): a varint length,
// then literal and copy elements. Every read and write is bounds-checked; corrupt input gives a negative code
// and never touches memory outside the two buffers. Scalar in both builds.

// ---------------------------------------------------------------------------------------------------------
// snappyUncompress(inPtr, inLen, outPtr, outLen): JS reserves the input and exactly `outLen` output bytes (the
// page's uncompressed size) in the arena; returns 0 when the output is filled exactly.

/** Input ends inside the length header or an element. */
const TRUNCATED: i32 = -1;
/** A copy's offset is 0 or reaches before the start of the output. */
const BAD_OFFSET: i32 = -2;
/** The elements produce more than `outLen` bytes. */
const OVERFLOW: i32 = -3;
/** The elements produce fewer than `outLen` bytes. */
const SHORT: i32 = -4;

/**
 * Decompresses the raw snappy stream at `inPtr` (`inLen` bytes) into `outLen` bytes at `outPtr`. Returns 0, or
 * -1 (truncated), -2 (bad copy offset), -3 (output overflow), -4 (output shorter than `outLen`).
 */
export function snappyUncompress(inPtr: usize, inLen: i32, outPtr: usize, outLen: i32): i32 {
  const end = inPtr + <usize>inLen;
  const outEnd = outPtr + <usize>outLen;
  let ip = inPtr;
  // the uncompressed length (varint); the page header's size is what counts, as in hyparquet
  for (let i = 0; ; i++) {
    if (ip >= end || i == 5) return TRUNCATED;
    if (load<u8>(ip++) < 0x80) break;
  }
  let op = outPtr;
  while (ip < end) {
    const tag = <u32>load<u8>(ip++);
    let len: usize;
    if ((tag & 3) == 0) {
      len = <usize>(tag >> 2) + 1;
      if (len > 60) {
        const bytes = len - 60; // 1-4 little-endian length bytes
        if (bytes > end - ip) return TRUNCATED;
        let n: u64 = 0;
        for (let i: usize = 0; i < bytes; i++) n |= <u64>load<u8>(ip + i) << (<u64>i << 3);
        ip += bytes;
        len = <usize>min<u64>(n + 1, <u64>0xffffffff);
      }
      if (len > end - ip) return TRUNCATED;
      if (len > outEnd - op) return OVERFLOW;
      if (len <= 16 && end - ip >= 16 && outEnd - op >= 16) {
        // short literal (most are): two 8-byte moves; the bytes past len are overwritten by what follows
        store<u64>(op, load<u64>(ip));
        store<u64>(op, load<u64>(ip, 8), 8);
      } else {
        memory.copy(op, ip, len);
      }
      ip += len;
      op += len;
      continue;
    }
    let offset: usize;
    if ((tag & 3) == 1) {
      if (ip >= end) return TRUNCATED;
      len = <usize>((tag >> 2) & 7) + 4;
      offset = (<usize>(tag >> 5) << 8) | <usize>load<u8>(ip);
      ip += 1;
    } else if ((tag & 3) == 2) {
      if (end - ip < 2) return TRUNCATED;
      len = <usize>(tag >> 2) + 1;
      offset = <usize>load<u16>(ip);
      ip += 2;
    } else {
      if (end - ip < 4) return TRUNCATED;
      len = <usize>(tag >> 2) + 1;
      offset = <usize>load<u32>(ip);
      ip += 4;
    }
    if (offset == 0 || offset > op - outPtr) return BAD_OFFSET;
    if (len > outEnd - op) return OVERFLOW;
    const src = op - offset;
    if (offset >= 8 && len <= 16 && outEnd - op >= 16) {
      // short copy (most are), forward in 8-byte steps: with offset >= 8 the second step reads only bytes already final
      store<u64>(op, load<u64>(src));
      store<u64>(op, load<u64>(src, 8), 8);
    } else if (offset >= len) {
      memory.copy(op, src, len);
    } else if (outEnd - op >= len + 16) {
      // overlapping (a repeating pattern): 8-byte moves from the fixed source, each doubling the distance until it
      // is 8, then plain 8-byte steps; the moves may run up to 15 bytes past len, into bytes written later
      let from = src;
      let to = op;
      let left = <isize>len;
      while (left > 0 && to - from < 8) {
        store<u64>(to, load<u64>(from));
        left -= <isize>(to - from);
        to += to - from;
      }
      while (left > 0) {
        store<u64>(to, load<u64>(from));
        from += 8;
        to += 8;
        left -= 8;
      }
    } else {
      for (let i: usize = 0; i < len; i++) store<u8>(op + i, load<u8>(src + i)); // near the end: byte by byte
    }
    op += len;
  }
  return op == outEnd ? 0 : SHORT;
}
