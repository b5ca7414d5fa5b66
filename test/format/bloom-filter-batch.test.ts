// The bloom filter's batch add (addAll): with the thread's WASM kernels installed, without them, and with a kernel
// that fails, the filter is byte for byte the one key-by-key adds build — through DYNAMIC_V0's new rows and its
// round-robin past maxEntries, and up to an empty key, which throws after the keys before it are in.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { createBloomFilter, type CreateBloomFilterOptions, type HudiBloomFilter } from '../../src/format/bloom-filter.js';
import type { Kernels } from '../../src/kernels/kernels.js';
import { installThreadKernels } from '../../src/kernels/thread-kernels.js';
import { instantiateKernels } from '../../src/kernels/wasm-kernels.js';
import { isLakeletError } from '../../src/errors.js';

const generated = fileURLToPath(new URL('../../src/kernels/generated/', import.meta.url));
let wasm: Kernels | undefined;
beforeAll(async () => {
  wasm = await instantiateKernels(readFileSync(`${generated}kernels.wasm`), 'simd'); // installs itself as the thread's
});
const kernels = (): Kernels => {
  if (wasm === undefined) throw new Error('kernels not loaded');
  return wasm;
};

const keys = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `key-${from + i}-${'é'.repeat((from + i) % 5)}`);

function oneByOne(options: CreateBloomFilterOptions, all: readonly string[]): HudiBloomFilter {
  const f = createBloomFilter(options);
  for (const k of all) f.add(k);
  return f;
}

/** addAll over `all` in slices of the given sizes (cycled). */
function batched(options: CreateBloomFilterOptions, all: readonly string[], sizes: readonly number[]): HudiBloomFilter {
  const f = createBloomFilter(options);
  for (let i = 0, s = 0; i < all.length; s++) {
    const n = sizes[s % sizes.length] as number;
    f.addAll(all.slice(i, i + n));
    i += n;
  }
  return f;
}

const same = (a: HudiBloomFilter, b: HudiBloomFilter): void => {
  expect(b.numRows).toBe(a.numRows);
  expect(b.lastRowCount).toBe(a.lastRowCount);
  expect(Buffer.from(b.toBytes()).equals(Buffer.from(a.toBytes()))).toBe(true);
};

describe('addAll', () => {
  const cases: [string, CreateBloomFilterOptions, number][] = [
    ['SIMPLE', { type: 'SIMPLE', numEntries: 1000 }, 3000],
    ['DYNAMIC_V0 growing rows', { numEntries: 100, maxEntries: 1000 }, 950],
    ['DYNAMIC_V0 past maxEntries (round-robin)', { numEntries: 100, maxEntries: 400 }, 1300],
  ];
  for (const [name, options, n] of cases) {
    test(`${name}: WASM batches build the key-by-key filter`, () => {
      let calls = 0;
      installThreadKernels({ ...kernels(), bloomAdd: (...a) => (calls++, kernels().bloomAdd(...a)) }, true);
      const all = keys(n);
      const expected = oneByOne(options, all);
      for (const sizes of [[n], [1], [7, 93, 250], [99, 101]]) same(expected, batched(options, all, sizes));
      expect(calls).toBeGreaterThan(0);
    });
  }

  test('without thread kernels, and with a kernel that throws, JS adds the same bits', () => {
    const options = { numEntries: 100, maxEntries: 500 };
    const all = keys(700);
    const expected = oneByOne(options, all);
    installThreadKernels(undefined);
    same(expected, batched(options, all, [33, 250]));
    installThreadKernels({ ...kernels(), bloomAdd: () => { throw new RangeError('wasm memory cannot grow'); } }, true);
    same(expected, batched(options, all, [33, 250]));
  });

  test('reads each key a bounded number of times, with kernels, without them and with a kernel that throws', () => {
    const n = 5000;
    const counted = (): { list: string[]; reads: () => number } => {
      let reads = 0;
      const base = keys(n);
      const list = new Proxy(base, { get: (t, p, r) => { if (typeof p === 'string' && /^\d+$/.test(p)) reads++; return Reflect.get(t, p, r); } });
      return { list, reads: () => reads };
    };
    for (const install of [() => installThreadKernels(kernels(), true), () => installThreadKernels(undefined),
      () => installThreadKernels({ ...kernels(), bloomAdd: () => { throw new RangeError('wasm memory cannot grow'); } }, true)]) {
      for (const options of [{ type: 'SIMPLE' as const, numEntries: n }, { numEntries: 100, maxEntries: 2000 }]) {
        install();
        const { list, reads } = counted();
        const f = createBloomFilter(options);
        f.addAll(list);
        same(oneByOne(options, keys(n)), f);
        // a key-by-key pass, one scan for empty keys and one copy per batch: never a rescan of the rest per key
        expect(reads()).toBeLessThanOrEqual(4 * n);
      }
    }
  });

  test('an empty key throws INVALID_ARGUMENT after the keys before it are added, as add() does', () => {
    installThreadKernels(kernels(), true);
    const options = { numEntries: 50, maxEntries: 500 };
    const before = keys(120);
    const f = createBloomFilter(options);
    let error: unknown;
    try {
      f.addAll([...before, '', ...keys(10, 500)]);
    } catch (err) {
      error = err;
    }
    expect(isLakeletError(error) && error.code).toBe('INVALID_ARGUMENT');
    same(oneByOne(options, before), f);
  });
});
