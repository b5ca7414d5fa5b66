// Raw snappy compression in plain JS (the framing parquet's SNAPPY codec uses: a varint of the uncompressed
// length, then literal and copy elements). Written from the snappy format description: the input is cut into
// 64 KiB blocks compressed independently; a hash table of 4-byte sequences finds match candidates, lookups
// skip ahead faster the longer no match is found, and matches are extended byte by byte. The AssemblyScript
// kernel (asm/snappy.ts) runs the same algorithm and produces the same bytes.

/** Snappy compresses blocks of at most this many bytes independently (offsets then fit in 16 bits). */
export const SNAPPY_BLOCK_SIZE = 1 << 16;
/** Largest hash table (entries) the match finder uses. */
const MAX_TABLE_BITS = 14;
/** Blocks shorter than this are emitted as one literal (the match loop reads up to 15 bytes ahead). */
const INPUT_MARGIN = 15;
/** Multiplier of the 4-byte hash. */
const HASH_MUL = 0x1e35a7bd;

/** Upper bound of the compressed size of `n` input bytes (the reference's MaxCompressedLength). */
export function snappyMaxCompressedLength(n: number): number {
  return 32 + n + Math.floor(n / 6);
}

let table = new Uint16Array(1 << MAX_TABLE_BITS);

/**
 * Compresses `input` to raw snappy (no framing format, no checksums), in plain JS.
 * Returns a fresh array (never a view of `input`).
 */
export function snappyCompressJs(input: Uint8Array): Uint8Array {
  const n = input.length;
  const out = new Uint8Array(snappyMaxCompressedLength(n));
  let op = 0;
  // Preamble: the uncompressed length as a little-endian base-128 varint.
  let len = n;
  while (len >= 0x80) {
    out[op++] = (len & 0x7f) | 0x80;
    len = Math.floor(len / 128);
  }
  out[op++] = len;
  for (let start = 0; start < n; start += SNAPPY_BLOCK_SIZE) {
    const end = Math.min(start + SNAPPY_BLOCK_SIZE, n);
    op = compressBlock(input, start, end, out, op);
  }
  // Keep the slack only when it is small; a page is held until its row group is written.
  return out.length - op > (op >>> 3) ? out.slice(0, op) : out.subarray(0, op);
}

function tableBits(blockLength: number): number {
  let bits = 8;
  while (bits < MAX_TABLE_BITS && (1 << bits) < blockLength) bits++;
  return bits;
}

function load32(b: Uint8Array, i: number): number {
  return (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) | 0;
}

/** Compresses `src[start..end)` (at most one block) into `out` at `op`; returns the new output position. */
function compressBlock(src: Uint8Array, start: number, end: number, out: Uint8Array, op: number): number {
  const length = end - start;
  if (length < INPUT_MARGIN) return emitLiteral(src, start, length, out, op);
  const bits = tableBits(length);
  const shift = 32 - bits;
  if (table.length < 1 << bits) table = new Uint16Array(1 << MAX_TABLE_BITS);
  table.fill(0, 0, 1 << bits);
  const ipLimit = end - INPUT_MARGIN;
  let nextEmit = start;
  let ip = start + 1;
  let nextWord = load32(src, ip);
  for (;;) {
    // Find a 4-byte match, looking further apart the longer none is found.
    let skip = 32;
    let nextIp = ip;
    let candidate: number;
    let word: number;
    do {
      ip = nextIp;
      word = nextWord;
      const hash = Math.imul(word, HASH_MUL) >>> shift;
      nextIp = ip + (skip >>> 5);
      skip++;
      if (nextIp > ipLimit) return emitLiteral(src, nextEmit, end - nextEmit, out, op);
      nextWord = load32(src, nextIp);
      candidate = start + table[hash]!;
      table[hash] = ip - start;
    } while (word !== load32(src, candidate));
    op = emitLiteral(src, nextEmit, ip - nextEmit, out, op);
    // Emit copies while the position right after a copy matches again.
    for (;;) {
      const base = ip;
      let matched = 4;
      while (ip + matched < end && src[candidate + matched] === src[ip + matched]) matched++;
      ip += matched;
      op = emitCopy(base - candidate, matched, out, op);
      nextEmit = ip;
      if (ip >= ipLimit) return emitLiteral(src, nextEmit, end - nextEmit, out, op);
      const prevHash = Math.imul(load32(src, ip - 1), HASH_MUL) >>> shift;
      table[prevHash] = ip - 1 - start;
      const curHash = Math.imul(load32(src, ip), HASH_MUL) >>> shift;
      candidate = start + table[curHash]!;
      table[curHash] = ip - start;
      if (load32(src, ip) !== load32(src, candidate)) break;
    }
    ip++;
    nextWord = load32(src, ip);
  }
}

/** Emits a literal of `len` bytes from `src[from..]`; a zero length emits nothing. */
function emitLiteral(src: Uint8Array, from: number, len: number, out: Uint8Array, op: number): number {
  if (len === 0) return op;
  const n = len - 1;
  if (n < 60) {
    out[op++] = n << 2;
  } else if (n < 0x100) {
    out[op++] = 60 << 2;
    out[op++] = n;
  } else if (n < 0x10000) {
    out[op++] = 61 << 2;
    out[op++] = n & 0xff;
    out[op++] = n >>> 8;
  } else if (n < 0x1000000) {
    out[op++] = 62 << 2;
    out[op++] = n & 0xff;
    out[op++] = (n >>> 8) & 0xff;
    out[op++] = n >>> 16;
  } else {
    out[op++] = 63 << 2;
    out[op++] = n & 0xff;
    out[op++] = (n >>> 8) & 0xff;
    out[op++] = (n >>> 16) & 0xff;
    out[op++] = n >>> 24;
  }
  if (len < 16) {
    for (let i = 0; i < len; i++) out[op + i] = src[from + i]!;
  } else {
    out.set(src.subarray(from, from + len), op);
  }
  return op + len;
}

/** Emits a copy of `len` (>= 4) bytes from `offset` (1..65535) back. */
function emitCopy(offset: number, len: number, out: Uint8Array, op: number): number {
  // Long copies go out 64 bytes at a time, keeping the last piece at least 4 bytes long.
  while (len >= 68) {
    op = emitCopy2(offset, 64, out, op);
    len -= 64;
  }
  if (len > 64) {
    op = emitCopy2(offset, 60, out, op);
    len -= 60;
  }
  if (len < 12 && offset < 2048) {
    out[op++] = 1 | ((len - 4) << 2) | ((offset >>> 8) << 5);
    out[op++] = offset & 0xff;
    return op;
  }
  return emitCopy2(offset, len, out, op);
}

/** A copy with a 2-byte offset, `len` in 1..64. */
function emitCopy2(offset: number, len: number, out: Uint8Array, op: number): number {
  out[op++] = 2 | ((len - 1) << 2);
  out[op++] = offset & 0xff;
  out[op++] = offset >>> 8;
  return op;
}
