// The bloom index's per-file pruning: key range, then bloom filter; the kernel probe (WASM or JS twin) gives the
// same candidates as the filter's own check, with or without a packed batch, and empty keys throw as in Hudi.
import { expect, test } from 'vitest';
import { createBloomFilter } from '../../src/format/bloom-filter.js';
import { bloomCandidates } from '../../src/index/bloom-index.js';
import { jsKernels } from '../../src/kernels/js-kernels.js';
import { loadKernels } from '../../src/kernels/wasm-kernels.js';
import { packKeys } from '../../src/kernels/kernels.js';
import { generatedKernelBytes } from '../helpers/in-process-workers.js';
import { isLakeletError } from '../../src/errors.js';

const STORED = Array.from({ length: 500 }, (_, i) => `key-${String(i * 2).padStart(5, '0')}`);
const bloom = createBloomFilter({ numEntries: 500, fpp: 0.01, type: 'DYNAMIC_V0' });
for (const k of STORED) bloom.add(k);
const file = { minKey: STORED[0], maxKey: STORED.at(-1), bloom };
// Even numbers are stored; odd ones, and keys outside the range, are not.
const PROBE = [...Array.from({ length: 1200 }, (_, i) => `key-${String(i).padStart(5, '0')}`), 'a', 'zzz', 'ключ'];

test('keys outside [min, max] are pruned without a filter', () => {
  const keys = ['a', 'key-00000', 'key-00500', 'key-00998', 'key-00999', 'zzz'];
  expect(bloomCandidates({ minKey: 'key-00000', maxKey: 'key-00998', bloom: undefined }, keys)).toEqual([1, 2, 3]);
  expect(bloomCandidates({ minKey: undefined, maxKey: undefined, bloom: undefined }, keys)).toEqual([0, 1, 2, 3, 4, 5]);
  expect(bloomCandidates({ minKey: 'key-00500', maxKey: undefined, bloom: undefined }, keys)).toEqual([2, 3, 4, 5]);
});

test('every stored key stays a candidate; most absent keys in range are pruned by the filter', () => {
  const got = bloomCandidates(file, PROBE);
  for (let i = 0; i < 1000; i += 2) expect(got).toContain(i);
  expect(got.every((i) => i < 999)).toBe(true); // nothing above max or below min
  expect(got.length).toBeLessThan(500 + 50); // fpp 1%: a few false positives at most
});

test('the kernel probe gives the filter\'s own answers (JS twin and WASM, packed or not)', async () => {
  const expected = bloomCandidates(file, PROBE);
  const wasm = await loadKernels(generatedKernelBytes());
  for (const kernels of [jsKernels, wasm]) {
    expect(bloomCandidates(file, PROBE, { kernels })).toEqual(expected);
    expect(bloomCandidates(file, PROBE, { kernels, packed: packKeys(PROBE) })).toEqual(expected);
    const inRange = PROBE.slice(0, 999);
    expect(bloomCandidates(file, inRange, { kernels, packed: packKeys(inRange) })).toEqual(bloomCandidates(file, inRange));
  }
});

test('an empty key throws with and without kernels (as Hudi\'s filter does)', () => {
  for (const options of [{}, { kernels: jsKernels }]) {
    let err: unknown;
    try {
      bloomCandidates({ minKey: undefined, maxKey: undefined, bloom }, ['key-00002', ''], options);
    } catch (e) {
      err = e;
    }
    expect(isLakeletError(err, 'INVALID_ARGUMENT')).toBe(true);
  }
});
