// JS twin of asm/sort.ts (and of asm/compare.ts's byte comparison): a stable sort of keys in unsigned byte order
// returning a permutation; the same MSD-over-8-byte-chunks / LSD-radix-per-chunk algorithm, each chunk as two u32.

import { toPackedKeys, type KeysInput } from '../kernels.js';

const INSERTION_MAX = 24;
const DIGITS = 9; // digit 0: length class; digits 1-4: bytes of the chunk's low word; 5-8: its high word

/** Compares a[from..) with b[from..) (keys at byte offsets as, bs of lengths la, lb) as unsigned bytes. */
export function compareKeyBytes(data: Uint8Array, as: number, la: number, bs: number, lb: number, from = 0): number {
  const n = Math.min(la, lb);
  for (let i = from; i < n; i++) {
    const d = (data[as + i] ?? 0) - (data[bs + i] ?? 0);
    if (d !== 0) return d;
  }
  return la - lb;
}

class KeySorter {
  readonly perm: Uint32Array;
  private tmpPerm: Uint32Array;
  private hi: Uint32Array;
  private lo: Uint32Array;
  private tmpHi: Uint32Array;
  private tmpLo: Uint32Array;
  private hist = new Uint32Array(DIGITS * 256);

  constructor(private readonly bytes: Uint8Array, private readonly offsets: Uint32Array) {
    const n = offsets.length - 1;
    this.perm = new Uint32Array(n);
    for (let i = 0; i < n; i++) this.perm[i] = i;
    this.tmpPerm = new Uint32Array(n);
    this.hi = new Uint32Array(n);
    this.lo = new Uint32Array(n);
    this.tmpHi = new Uint32Array(n);
    this.tmpLo = new Uint32Array(n);
  }

  private len(idx: number): number {
    return (this.offsets[idx + 1] ?? 0) - (this.offsets[idx] ?? 0);
  }

  /** 0..8 = key bytes left in the chunk at `depth`; 9 = the key continues past it. */
  private lengthClass(idx: number, depth: number): number {
    return Math.min(this.len(idx) - depth, 9);
  }

  /** Bytes [depth, depth+4) of key `idx` as a big-endian u32, zero-padded past the key's end. */
  private word(idx: number, depth: number): number {
    const start = this.offsets[idx] ?? 0;
    const len = this.len(idx);
    let v = 0;
    for (let i = 0; i < 4; i++) v = (v << 8) | (depth + i < len ? (this.bytes[start + depth + i] ?? 0) : 0);
    return v >>> 0;
  }

  private digit(idx: number, hi: number, lo: number, d: number, depth: number): number {
    if (d === 0) return this.lengthClass(idx, depth);
    return d <= 4 ? (lo >>> ((d - 1) * 8)) & 0xff : (hi >>> ((d - 5) * 8)) & 0xff;
  }

  private insertionSort(lo: number, hi: number, depth: number): void {
    const { perm, bytes, offsets } = this;
    for (let i = lo + 1; i < hi; i++) {
      const x = perm[i] ?? 0;
      let j = i - 1;
      while (j >= lo) {
        const y = perm[j] ?? 0;
        if (compareKeyBytes(bytes, offsets[y] ?? 0, this.len(y), offsets[x] ?? 0, this.len(x), depth) <= 0) break;
        perm[j + 1] = y;
        j--;
      }
      perm[j + 1] = x;
    }
  }

  sortRange(lo: number, hi: number, depth: number): void {
    const n = hi - lo;
    if (n < 2) return;
    if (n <= INSERTION_MAX) {
      this.insertionSort(lo, hi, depth);
      return;
    }
    const hist = this.hist;
    hist.fill(0);
    for (let i = lo; i < hi; i++) {
      const idx = this.perm[i] ?? 0;
      const h = this.word(idx, depth);
      const l = this.word(idx, depth + 4);
      this.hi[i] = h;
      this.lo[i] = l;
      for (let d = 0; d < DIGITS; d++) {
        const at = (d << 8) + this.digit(idx, h, l, d, depth);
        hist[at] = (hist[at] ?? 0) + 1;
      }
    }
    let src = { perm: this.perm, hi: this.hi, lo: this.lo };
    let dst = { perm: this.tmpPerm, hi: this.tmpHi, lo: this.tmpLo };
    const first = this.perm[lo] ?? 0, firstHi = this.hi[lo] ?? 0, firstLo = this.lo[lo] ?? 0;
    for (let d = 0; d < DIGITS; d++) {
      const base = d << 8;
      if (hist[base + this.digit(first, firstHi, firstLo, d, depth)] === n) continue; // one bucket: order kept
      let sum = lo;
      for (let b = 0; b < 256; b++) {
        const c = hist[base + b] ?? 0;
        hist[base + b] = sum;
        sum += c;
      }
      for (let i = lo; i < hi; i++) {
        const idx = src.perm[i] ?? 0, h = src.hi[i] ?? 0, l = src.lo[i] ?? 0;
        const at = base + this.digit(idx, h, l, d, depth);
        const pos = hist[at] ?? 0;
        hist[at] = pos + 1;
        dst.perm[pos] = idx;
        dst.hi[pos] = h;
        dst.lo[pos] = l;
      }
      [src, dst] = [dst, src];
    }
    if (src.perm !== this.perm) {
      this.perm.set(src.perm.subarray(lo, hi), lo);
      this.hi.set(src.hi.subarray(lo, hi), lo);
      this.lo.set(src.lo.subarray(lo, hi), lo);
    }
    // runs of equal chunks: within them keys are grouped by length class; class 9 continues past the chunk
    let i = lo;
    while (i < hi) {
      const h = this.hi[i], l = this.lo[i];
      let j = i + 1;
      while (j < hi && this.hi[j] === h && this.lo[j] === l) j++;
      for (let a = i; j - i > 1 && a < j;) {
        const cls = this.lengthClass(this.perm[a] ?? 0, depth);
        let b = a + 1;
        while (b < j && this.lengthClass(this.perm[b] ?? 0, depth) === cls) b++;
        if (cls === 9 && b - a > 1) this.sortRange(a, b, depth + 8);
        a = b;
      }
      i = j;
    }
  }
}

/** JS twin of `Kernels.sortKeys`: the stable permutation sorting the keys in unsigned byte order. */
export function sortKeys(keys: KeysInput): Uint32Array {
  const { bytes, offsets } = toPackedKeys(keys);
  const sorter = new KeySorter(bytes, offsets);
  sorter.sortRange(0, offsets.length - 1, 0);
  return sorter.perm;
}
