// Raw snappy compression (parquet's SNAPPY codec), the same algorithm as src/format/compress/snappy-js.ts so
// both emit identical bytes: 64 KiB blocks, a hash table of 4-byte sequences, lookups that skip ahead faster the
// longer no match is found, matches extended 8 bytes at a time. Scalar in both builds.

// ---------------------------------------------------------------------------------------------------------
// snappyCompress(inPtr, len, outPtr, tablePtr): JS reserves `len` input bytes, snappyMaxLength(len) output
// bytes and 2^14 u16 table entries (32 KiB) in the arena; returns the compressed length.

const BLOCK_SIZE: i32 = 1 << 16;
const MAX_TABLE_BITS: i32 = 14;
const INPUT_MARGIN: i32 = 15;
const HASH_MUL: u32 = 0x1e35a7bd;

/** Upper bound of the compressed size of `n` input bytes. */
export function snappyMaxLength(n: i32): i32 {
  return 32 + n + n / 6;
}

// @ts-ignore: decorator
@inline
function hashAt(p: usize, shift: u32): usize {
  return <usize>((load<u32>(p) * HASH_MUL) >> shift);
}

/** Compresses `len` bytes at `inPtr` into `outPtr`; `tablePtr` holds 2^14 u16 scratch entries. Returns the length. */
export function snappyCompress(inPtr: usize, len: i32, outPtr: usize, tablePtr: usize): i32 {
  let op = outPtr;
  let v = <u32>len;
  while (v >= 0x80) {
    store<u8>(op++, (v & 0x7f) | 0x80);
    v >>= 7;
  }
  store<u8>(op++, v);
  for (let start = 0; start < len; start += BLOCK_SIZE) {
    const end = min(start + BLOCK_SIZE, len);
    op = compressBlock(inPtr + <usize>start, end - start, op, tablePtr);
  }
  return <i32>(op - outPtr);
}

function compressBlock(base: usize, length: i32, op: usize, table: usize): usize {
  const end = base + <usize>length;
  if (length < INPUT_MARGIN) return emitLiteral(base, length, op);
  let bits = 8;
  while (bits < MAX_TABLE_BITS && (1 << bits) < length) bits++;
  const shift = <u32>(32 - bits);
  memory.fill(table, 0, <usize>(2 << bits));
  const ipLimit = end - <usize>INPUT_MARGIN;
  let nextEmit = base;
  let ip = base + 1;
  let nextHash = hashAt(ip, shift);
  while (true) {
    let skip: u32 = 32;
    let nextIp = ip;
    let candidate: usize = 0;
    do {
      ip = nextIp;
      const hash = nextHash;
      nextIp = ip + <usize>(skip >> 5);
      skip++;
      if (nextIp > ipLimit) return emitLiteral(nextEmit, <i32>(end - nextEmit), op);
      nextHash = hashAt(nextIp, shift);
      candidate = base + <usize>load<u16>(table + (hash << 1));
      store<u16>(table + (hash << 1), <u16>(ip - base));
    } while (load<u32>(ip) != load<u32>(candidate));
    op = emitLiteral(nextEmit, <i32>(ip - nextEmit), op);
    while (true) {
      const from = ip;
      const matched = matchLength(candidate + 4, ip + 4, end) + 4;
      ip += <usize>matched;
      op = emitCopy(<i32>(from - candidate), matched, op);
      nextEmit = ip;
      if (ip >= ipLimit) return emitLiteral(nextEmit, <i32>(end - nextEmit), op);
      store<u16>(table + (hashAt(ip - 1, shift) << 1), <u16>(ip - 1 - base));
      const cur = hashAt(ip, shift) << 1;
      candidate = base + <usize>load<u16>(table + cur);
      store<u16>(table + cur, <u16>(ip - base));
      if (load<u32>(ip) != load<u32>(candidate)) break;
    }
    ip++;
    nextHash = hashAt(ip, shift);
  }
  return op;
}

/** Number of equal bytes at `a` and `b` (a < b), not reading at or past `end` on the `b` side. */
// @ts-ignore: decorator
@inline
function matchLength(a: usize, b: usize, end: usize): i32 {
  const start = b;
  while (b + 8 <= end) {
    const x = load<u64>(a) ^ load<u64>(b);
    if (x != 0) return <i32>(b - start) + <i32>(ctz<u64>(x) >> 3);
    a += 8;
    b += 8;
  }
  while (b < end && load<u8>(a) == load<u8>(b)) {
    a++;
    b++;
  }
  return <i32>(b - start);
}

function emitLiteral(from: usize, len: i32, op: usize): usize {
  if (len == 0) return op;
  const n = <u32>(len - 1);
  if (n < 60) {
    store<u8>(op++, n << 2);
  } else if (n < 0x100) {
    store<u8>(op++, 60 << 2);
    store<u8>(op++, n);
  } else if (n < 0x10000) {
    store<u8>(op++, 61 << 2);
    store<u16>(op, <u16>n);
    op += 2;
  } else if (n < 0x1000000) {
    store<u8>(op++, 62 << 2);
    store<u16>(op, <u16>n);
    store<u8>(op + 2, n >> 16);
    op += 3;
  } else {
    store<u8>(op++, 63 << 2);
    store<u32>(op, n);
    op += 4;
  }
  memory.copy(op, from, <usize>len);
  return op + <usize>len;
}

function emitCopy(offset: i32, len: i32, op: usize): usize {
  while (len >= 68) {
    op = emitCopy2(offset, 64, op);
    len -= 64;
  }
  if (len > 64) {
    op = emitCopy2(offset, 60, op);
    len -= 60;
  }
  if (len < 12 && offset < 2048) {
    store<u8>(op, 1 | ((len - 4) << 2) | ((offset >> 8) << 5));
    store<u8>(op + 1, offset & 0xff);
    return op + 2;
  }
  return emitCopy2(offset, len, op);
}

// @ts-ignore: decorator
@inline
function emitCopy2(offset: i32, len: i32, op: usize): usize {
  store<u8>(op, 2 | ((len - 1) << 2));
  store<u16>(op + 1, <u16>offset);
  return op + 3;
}
