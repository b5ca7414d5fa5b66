// The layout sort's precomputed byte keys (plan/layout-sort-keys.ts): sorting them gives exactly the order of the
// column-by-column comparator (compareSortValues, then input position) — on strings sharing prefixes, strings
// holding NUL, nulls, numbers, bigints and booleans, over 1 to 3 columns — with the JS and the WASM kernel alike.
import { describe, expect, test } from 'vitest';
import { compareSortValues } from '../../src/plan/layout-keys.js';
import { layoutOrder } from '../../src/plan/layout-sort.js';
import { loadKernels } from '../../src/kernels/wasm-kernels.js';

/** The reference: a comparator sort, column by column, ties by input position. */
function comparatorOrder(columns: unknown[][]): number[] {
  const n = columns[0]!.length;
  return Array.from({ length: n }, (_, i) => i).sort((a, b) => {
    for (const c of columns) {
      const d = compareSortValues(c[a], c[b]);
      if (d !== 0) return d;
    }
    return a - b;
  });
}

/** Deterministic pseudo-random values (xorshift). */
function values(n: number, seed: number, kind: 'string' | 'number' | 'bigint' | 'boolean'): unknown[] {
  let x = seed;
  const next = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const pieces = ['', 'a', 'ab', 'a\0', 'a\0b', '\0', 'b', 'ä', 'a\u00ff', 'abc'];
  return Array.from({ length: n }, () => {
    if (next() < 0.1) return null;
    if (kind === 'string') return pieces[Math.floor(next() * pieces.length)]! + (next() < 0.3 ? pieces[Math.floor(next() * pieces.length)]! : '');
    if (kind === 'number') return next() < 0.2 ? -0 : Math.round((next() - 0.5) * 20) / 2;
    if (kind === 'bigint') return BigInt(Math.round((next() - 0.5) * 40)) * (next() < 0.1 ? 1n << 40n : 1n);
    return next() < 0.5;
  });
}

describe('layout sort keys', () => {
  const cases: [string, unknown[][]][] = [
    ['strings', [values(500, 7, 'string')]],
    ['numbers, strings', [values(500, 11, 'number'), values(500, 13, 'string')]],
    ['strings, bigints, booleans', [values(500, 17, 'string'), values(500, 19, 'bigint'), values(500, 23, 'boolean')]],
  ];
  for (const [name, columns] of cases) {
    test(`linear order of ${name} is the comparator's (JS and WASM kernels)`, async () => {
      const expected = comparatorOrder(columns);
      expect([...layoutOrder(columns, 'linear')]).toEqual(expected);
      const wasm = await loadKernels();
      expect([...layoutOrder(columns, 'linear', (k) => wasm.sortKeys(k))]).toEqual(expected);
    });
  }

  test('curve orders are the same with either kernel', async () => {
    const wasm = await loadKernels();
    const columns = [values(400, 29, 'number'), values(400, 31, 'bigint')];
    for (const strategy of ['z-order', 'hilbert']) {
      expect([...layoutOrder(columns, strategy, (k) => wasm.sortKeys(k))]).toEqual([...layoutOrder(columns, strategy)]);
    }
  });
});
