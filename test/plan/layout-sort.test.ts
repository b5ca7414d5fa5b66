// Layout sort keys and curves (src/plan/layout-sort.ts, layout-keys.ts): keys preserve order per type, z-order
// and hilbert keep 2-D neighbours together far better than a linear sort, results are deterministic, errors.
import { describe, expect, it } from 'vitest';
import { compareBytes, compareSortValues, orderKey } from '../../src/plan/layout-keys.js';
import { layoutOrder, layoutOrderOfRows } from '../../src/plan/layout-sort.js';
import { Random } from '../helpers/random.js';
import { thrown } from '../helpers/expect-error.js';

const rnd = new Random(19);
const gens: Record<string, () => unknown> = {
  double: () => (rnd.next() - 0.5) * 10 ** rnd.int(12) * (rnd.chance(0.1) ? 1e300 : 1),
  int: () => rnd.int(2 ** 31) - 2 ** 30,
  bigint: () => BigInt(rnd.int(2 ** 31) - 2 ** 30) * BigInt(rnd.int(2 ** 31)) * (rnd.chance(0.5) ? 1n : -1n),
  string: () => Array.from({ length: rnd.int(12) }, () => String.fromCodePoint(rnd.chance(0.8) ? 32 + rnd.int(95) : 160 + rnd.int(5000))).join(''),
  date: () => new Date(rnd.int(2 ** 31) * 1000 - 2 ** 40),
  boolean: () => rnd.chance(0.5),
};

describe('orderKey', () => {
  for (const [type, gen] of Object.entries(gens)) {
    it(`preserves order for ${type}`, () => {
      let strict = 0;
      for (let i = 0; i < 2000; i++) {
        const a = gen();
        const b = gen();
        const c = compareSortValues(a, b);
        const k = compareBytes(orderKey(a), orderKey(b));
        if (c < 0) expect(k, `${String(a)} < ${String(b)}`).toBeLessThanOrEqual(0);
        if (c > 0) expect(k).toBeGreaterThanOrEqual(0);
        if (c === 0) expect(k).toBe(0);
        if (c !== 0 && k !== 0) strict++;
        if (type !== 'string' && c !== 0) expect(Math.sign(k)).toBe(Math.sign(c));
      }
      expect(strict).toBeGreaterThan(type === 'boolean' ? 500 : 1500);
    });
  }
  it('orders negative, zero and positive numbers, infinities and nulls', () => {
    const vals = [null, -Infinity, -1e300, -1, -1e-300, 0, 1e-300, 1, 1e300, Infinity];
    for (let i = 1; i < vals.length; i++) expect(compareBytes(orderKey(vals[i - 1]), orderKey(vals[i]))).toBeLessThan(0);
    expect(compareBytes(orderKey(-(2n ** 63n)), orderKey(2n ** 63n - 1n))).toBeLessThan(0);
    expect(compareBytes(orderKey(-1n), orderKey(0n))).toBeLessThan(0);
  });
  it('truncates strings to 8 bytes', () => {
    expect(compareBytes(orderKey('abcdefgh1'), orderKey('abcdefgh2'))).toBe(0);
    expect(compareBytes(orderKey('abc'), orderKey('abcd'))).toBeLessThan(0);
  });
  it('rejects unsortable values', () => {
    expect(thrown(() => orderKey({})).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => orderKey(2n ** 64n)).code).toBe('INVALID_ARGUMENT');
  });
});

/** Sum over 16 chunks of the sorted output of (max - min) of column `c`. */
function chunkSpread(order: Int32Array, col: number[], chunks = 16): number {
  const size = order.length / chunks;
  let total = 0;
  for (let k = 0; k < chunks; k++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = k * size; i < (k + 1) * size; i++) {
      const v = col[order[i]!]!;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    total += hi - lo;
  }
  return total;
}

describe('layoutOrder', () => {
  // A 64x64 grid in shuffled row order.
  const cells = Array.from({ length: 4096 }, (_, i) => [i % 64, Math.floor(i / 64)] as const);
  const shuffled = [...cells].sort(() => 0).map((c, i, a) => a[(i * 1237) % 4096]!);
  const xs = shuffled.map((c) => c[0]);
  const ys = shuffled.map((c) => c[1]);

  function isPermutation(order: Int32Array, n: number): boolean {
    const seen = new Uint8Array(n);
    for (const i of order) seen[i] = 1;
    return order.length === n && seen.every((s) => s === 1);
  }

  it('linear sorts by the first column then the second', () => {
    const order = layoutOrder([xs, ys], 'linear');
    expect(isPermutation(order, 4096)).toBe(true);
    for (let i = 1; i < 4096; i++) {
      const a = order[i - 1]!;
      const b = order[i]!;
      expect(xs[a]! < xs[b]! || (xs[a] === xs[b] && ys[a]! < ys[b]!)).toBe(true);
    }
  });

  for (const strategy of ['z-order', 'hilbert']) {
    it(`${strategy} keeps both columns local (>= 3x tighter chunks than linear on the second column)`, () => {
      const linear = layoutOrder([xs, ys], 'linear');
      const curve = layoutOrder([xs, ys], strategy);
      expect(isPermutation(curve, 4096)).toBe(true);
      expect(chunkSpread(linear, ys)).toBeGreaterThanOrEqual(3 * chunkSpread(curve, ys));
      // and the first column does not pay more than linear's spread on the second
      expect(chunkSpread(curve, xs)).toBeLessThan(chunkSpread(linear, ys) / 3);
    });

    it(`${strategy} is deterministic and independent of input order for distinct rows`, () => {
      const a = layoutOrder([xs, ys], strategy);
      const b = layoutOrder([xs, ys], strategy);
      expect(Array.from(a)).toEqual(Array.from(b));
      const rev = layoutOrder([[...xs].reverse(), [...ys].reverse()], strategy);
      const cellsA = Array.from(a, (i) => `${xs[i]},${ys[i]}`);
      const cellsR = Array.from(rev, (i) => `${xs[4095 - i]},${ys[4095 - i]}`);
      expect(cellsR).toEqual(cellsA);
    });

    it(`${strategy} sorts nulls first`, () => {
      const col1 = [3, null, 1, 2, null];
      const col2 = ['b', 'a', null, 'c', null];
      const order = layoutOrder([col1, col2], strategy);
      expect(Array.from(order)[0]).toBe(4);
    });
  }

  it('hilbert visits grid neighbours: consecutive cells are adjacent', () => {
    const order = layoutOrder([xs, ys], 'hilbert');
    for (let i = 1; i < 4096; i++) {
      const a = order[i - 1]!;
      const b = order[i]!;
      expect(Math.abs(xs[a]! - xs[b]!) + Math.abs(ys[a]! - ys[b]!)).toBe(1);
    }
  });

  it('reads row objects and accepts Hudi spellings case-insensitively', () => {
    const rows = [{ a: 2, b: 'x' }, { a: 1, b: 'y' }, { a: null, b: 'z' }];
    expect(Array.from(layoutOrderOfRows(rows, ['a'], 'LINEAR'))).toEqual([2, 1, 0]);
    expect(Array.from(layoutOrderOfRows(rows, ['a', 'b'], 'Z-ORDER'))).toHaveLength(3);
  });

  it('rejects more than 4 columns, no columns, unknown strategies and ragged columns', () => {
    const c = [1, 2];
    for (const err of [
      thrown(() => layoutOrder([c, c, c, c, c], 'z-order')),
      thrown(() => layoutOrderOfRows([], ['a', 'b', 'c', 'd', 'e'], 'hilbert')),
      thrown(() => layoutOrder([], 'linear')),
      thrown(() => layoutOrder([c], 'zorder-ish')),
      thrown(() => layoutOrder([c, [1]], 'hilbert')),
    ]) expect(err.code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => layoutOrder([c], 'spiral')).message).toContain('spiral');
  });
});
