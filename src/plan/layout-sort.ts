// Clustering's layout sort (Hudi's `hoodie.layout.optimize.strategy`: linear | z-order | hilbert), pure: the row
// order that sorts rows by up to 4 columns. Z-order interleaves the bits of each column's 8-byte order key
// (layout-keys.ts), as Hudi's ZOrderingUtil does. Hilbert maps each column to the dense rank of its key and
// takes the Hilbert index of the rank vector (Skilling's transform): ranks use the full bit budget for the
// values present, so skewed or clustered data (and strings sharing an 8-byte prefix) still spread over the
// curve, where raw 64-bit keys would leave most rows in one cell. Ties fall back to the linear order, then
// the input position, so the result is deterministic. Nulls sort first. Every order is one radix sort of
// precomputed byte keys (layout-sort-keys.ts), on the `sortKeys` kernel the caller passes.
import { invalidArgument } from '../errors.js';
import { sortKeys as jsSortKeys } from '../kernels/js/sort.js';
import type { PackedKeys } from '../kernels/kernels.js';
import { compareBytes, KEY_BYTES, MAX_LAYOUT_COLUMNS, orderKey } from './layout-keys.js';
import { packLayoutKeys } from './layout-sort-keys.js';

/** Hudi's layout optimisation strategies. */
export type LayoutStrategy = 'linear' | 'z-order' | 'hilbert';

/** Most columns a curve sort takes (Hudi's limit for z-order/hilbert); defined with the keys, so planners need not load the sort. */
export { MAX_LAYOUT_COLUMNS } from './layout-keys.js';

/** Parses a strategy name as Hudi spells it (case-insensitive); anything else is INVALID_ARGUMENT. */
export function parseLayoutStrategy(name: string): LayoutStrategy {
  const s = name.toLowerCase();
  if (s === 'linear' || s === 'z-order' || s === 'hilbert') return s;
  throw invalidArgument(`layout: unknown layout strategy '${name}' (linear, z-order, hilbert)`, { value: name });
}

/** A stable sort of packed byte keys into the permutation that orders them (the `sortKeys` kernel's contract). */
export type KeySorter = (keys: PackedKeys) => Uint32Array;

/**
 * The row order (a permutation of 0..n-1) sorting the rows given as column vectors (one per sort column,
 * all of length n) by `strategy`. Each row's key is computed once (layout-sort-keys.ts) and the keys sorted by
 * `sorter` (default the JS twin of the `sortKeys` kernel; pass the WASM kernel's for speed: same result).
 */
export function layoutOrder(columns: readonly ArrayLike<unknown>[], strategy: string, sorter: KeySorter = jsSortKeys): Int32Array {
  const strat = parseLayoutStrategy(strategy);
  if (columns.length === 0) throw invalidArgument('layout: no sort columns', { value: 0 });
  if (columns.length > MAX_LAYOUT_COLUMNS) {
    throw invalidArgument(`layout: at most ${MAX_LAYOUT_COLUMNS} sort columns, got ${columns.length}`, { value: columns.length });
  }
  const n = columns[0]!.length;
  for (const c of columns) {
    if (c.length !== n) throw invalidArgument('layout: sort columns differ in length', { value: c.length, expected: n });
  }
  const curve = strat === 'linear' ? undefined : strat === 'z-order' ? zOrderKeys(columns, n) : hilbertKeys(columns, n, sorter);
  return Int32Array.from(sorter(packLayoutKeys(columns, n, curve)));
}

/** {@link layoutOrder} over row objects, reading the named sort columns. */
export function layoutOrderOfRows(rows: readonly Record<string, unknown>[], sortColumns: readonly string[], strategy: string, sorter?: KeySorter): Int32Array {
  if (sortColumns.length > MAX_LAYOUT_COLUMNS) {
    throw invalidArgument(`layout: at most ${MAX_LAYOUT_COLUMNS} sort columns, got ${sortColumns.length}`, { value: sortColumns.join(',') });
  }
  return layoutOrder(sortColumns.map((name) => rows.map((r) => r[name])), strategy, sorter);
}

/** Each row's Z-value: bit i of every column's key, column by column, most significant first. */
function zOrderKeys(columns: readonly ArrayLike<unknown>[], n: number): Uint8Array[] {
  const d = columns.length;
  const out: Uint8Array[] = [];
  // A column of whole numbers keys as int64 (sign bit flipped), as Hudi keys int and long columns; as float
  // bits their exponent would come first and the interleave would be lopsided. Decided per column, since
  // mixing the two encodings in one column would break its order.
  const whole = columns.map((c) => {
    for (let r = 0; r < n; r++) {
      const v = c[r];
      if (v !== null && v !== undefined && !(typeof v === 'number' && Number.isSafeInteger(v))) return false;
    }
    return true;
  });
  const key = (c: number, v: unknown): Uint8Array => orderKey(whole[c] && typeof v === 'number' ? BigInt(v) : v);
  for (let r = 0; r < n; r++) {
    const ks = columns.map((c, ci) => key(ci, c[r]));
    const z = new Uint8Array(KEY_BYTES * d);
    let bit = 0;
    for (let i = 0; i < KEY_BYTES * 8; i++) {
      for (let c = 0; c < d; c++, bit++) {
        if ((ks[c]![i >> 3]! >> (7 - (i & 7))) & 1) z[bit >> 3] = z[bit >> 3]! | (0x80 >> (bit & 7));
      }
    }
    out.push(z);
  }
  return out;
}

/** Dense ranks of one column's keys (nulls, key all zeros, rank among the smallest). */
function denseRanks(column: ArrayLike<unknown>, n: number, sorter: KeySorter): { ranks: Uint32Array; distinct: number } {
  const bytes = new Uint8Array(n * KEY_BYTES);
  const offsets = new Uint32Array(n + 1);
  for (let r = 0; r < n; r++) {
    bytes.set(orderKey(column[r]), r * KEY_BYTES);
    offsets[r + 1] = (r + 1) * KEY_BYTES;
  }
  const idx = sorter({ bytes, offsets });
  const ranks = new Uint32Array(n);
  let rank = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && compareBytes(bytes.subarray(idx[i - 1]! * KEY_BYTES, (idx[i - 1]! + 1) * KEY_BYTES), bytes.subarray(idx[i]! * KEY_BYTES, (idx[i]! + 1) * KEY_BYTES)) !== 0) rank++;
    ranks[idx[i]!] = rank;
  }
  return { ranks, distinct: n === 0 ? 0 : rank + 1 };
}

/** Each row's Hilbert index over the columns' dense ranks, as big-endian bytes. */
function hilbertKeys(columns: readonly ArrayLike<unknown>[], n: number, sorter: KeySorter): Uint8Array[] {
  const d = columns.length;
  const ranked = columns.map((c) => denseRanks(c, n, sorter));
  const maxDistinct = Math.max(1, ...ranked.map((r) => r.distinct));
  const bits = Math.max(1, Math.ceil(Math.log2(maxDistinct)));
  const out: Uint8Array[] = [];
  const x = new Uint32Array(d);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < d; c++) x[c] = ranked[c]!.ranks[r]!;
    axesToTranspose(x, bits);
    const h = new Uint8Array(Math.ceil((bits * d) / 8));
    let bit = 0;
    for (let b = bits - 1; b >= 0; b--) {
      for (let c = 0; c < d; c++, bit++) if ((x[c]! >>> b) & 1) h[bit >> 3] = h[bit >> 3]! | (0x80 >> (bit & 7));
    }
    out.push(h);
  }
  return out;
}

/** Skilling's AxestoTranspose (2004): rewrites axis coordinates in place into the transposed Hilbert index. */
function axesToTranspose(x: Uint32Array, bits: number): void {
  const d = x.length;
  const m = (1 << (bits - 1)) >>> 0;
  for (let q = m; q > 1; q >>>= 1) {
    const p = q - 1;
    for (let i = 0; i < d; i++) {
      if (x[i]! & q) x[0] = x[0]! ^ p;
      else {
        const t = (x[0]! ^ x[i]!) & p;
        x[0] = x[0]! ^ t;
        x[i] = x[i]! ^ t;
      }
    }
  }
  for (let i = 1; i < d; i++) x[i] = x[i]! ^ x[i - 1]!;
  let t = 0;
  for (let q = m; q > 1; q >>>= 1) if (x[d - 1]! & q) t ^= q - 1;
  for (let i = 0; i < d; i++) x[i] = x[i]! ^ t;
}
