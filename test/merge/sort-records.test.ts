// merge/sort-records.ts: the bulk-insert sort — partitions in order, keys in JS string order within each, stable —
// identical with the sortKeys kernel (WASM and the JS twin), including keys where UTF-8 byte order and UTF-16
// order differ (astral characters such as emoji against U+E000..U+FFFF).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { mainThreadKernels } from '../../src/engine/kernels.js';
import type { Kernels } from '../../src/kernels/kernels.js';
import { instantiateKernels } from '../../src/kernels/wasm-kernels.js';
import type { HoodieRecord } from '../../src/merge/hoodie-record.js';
import { byteOrderIsStringOrder, sortByPartitionAndKey, SORT_KERNEL_MIN_RECORDS } from '../../src/merge/sort-records.js';
import { Random } from '../helpers/random.js';

const generated = fileURLToPath(new URL('../../src/kernels/generated/', import.meta.url));
let impls: Record<'wasm' | 'twin', Kernels>;
beforeAll(async () => {
  impls = { wasm: await instantiateKernels(readFileSync(`${generated}kernels.wasm`), 'simd'), twin: await mainThreadKernels('js') };
});

const rec = (index: number, recordKey: string, partitionPath = ''): HoodieRecord => ({ recordKey, partitionPath, data: {}, ordering: [], isDelete: false, index });
/** The expected order, computed apart from the code: a stable sort on (partition, key) in string order. */
const expected = (rs: readonly HoodieRecord[]): number[] =>
  [...rs].sort((a, b) => (a.partitionPath < b.partitionPath ? -1 : a.partitionPath > b.partitionPath ? 1 : a.recordKey < b.recordKey ? -1 : a.recordKey > b.recordKey ? 1 : a.index - b.index)).map((r) => r.index);
const sorted = (rs: readonly HoodieRecord[], k?: Kernels, min?: number): number[] => {
  const copy = [...rs];
  sortByPartitionAndKey(copy, k, min);
  return copy.map((r) => r.index);
};

describe('sortByPartitionAndKey', () => {
  it('groups by partition (in order) and sorts keys within each, equal keys in input order', () => {
    const rs = [rec(0, 'b', 'p=2'), rec(1, 'a', 'p=1'), rec(2, 'c', 'p=1'), rec(3, 'a', 'p=2'), rec(4, 'a', 'p=1')];
    expect(sorted(rs)).toEqual([1, 4, 2, 3, 0]);
    for (const k of Object.values(impls)) expect(sorted(rs, k, 0)).toEqual([1, 4, 2, 3, 0]);
  });

  it('UTF-16 order is kept where UTF-8 byte order differs: an emoji sorts before U+FFFF-ish characters', () => {
    // '😀' is U+1F600 (UTF-16 D83D DE00, UTF-8 F0 9F 98 80); '\uFF01' is UTF-8 EF BC 81: bytes put it first, JS after.
    const keys = ['k\uFF01', 'k😀', 'k\uE000', 'k\uFFFF', 'ka', 'k\uD7FF', 'k😀a', 'k'];
    const rs = keys.map((k, i) => rec(i, k));
    expect(byteOrderIsStringOrder(keys)).toBe(false);
    for (const k of Object.values(impls)) expect(sorted(rs, k, 0)).toEqual(expected(rs));
    // The kernel alone would order them by bytes, which is a different order: the guard is what keeps them equal.
    const perm = [...impls.wasm.sortKeys(keys)];
    expect(perm).not.toEqual(expected(rs));
  });

  it('byteOrderIsStringOrder: BMP-only keys, or astral keys with nothing in U+E000..U+FFFF, sort the same; lone surrogates never', () => {
    expect(byteOrderIsStringOrder(['a', 'é', '\uD7FF', '\uE000', '\uFFFF'])).toBe(true);
    expect(byteOrderIsStringOrder(['a', '😀', 'é', '\uD7FF'])).toBe(true);
    expect(byteOrderIsStringOrder(['😀', '\uE000'])).toBe(false);
    expect(byteOrderIsStringOrder(['a\uD800'])).toBe(false);
  });

  it('byteOrderIsStringOrder = its definition (no lone surrogate, and not both a pair and U+E000..U+FFFF) on random key sets', () => {
    const alphabet = ['a', 'é', '\uD7FF', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uE000', '\uFFFF', '😀'];
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const definition = (keys: string[]) =>
      !keys.some((k) => lone.test(k)) && !(keys.some((k) => /[\uD800-\uDFFF]/.test(k)) && keys.some((k) => /[\uE000-\uFFFF]/.test(k)));
    const rnd = new Random(7);
    const seen = new Set<boolean>();
    for (let t = 0; t < 2000; t++) {
      const keys = Array.from({ length: 1 + rnd.int(4) }, () => Array.from({ length: rnd.int(5) }, () => alphabet[rnd.int(alphabet.length)]).join(''));
      expect(byteOrderIsStringOrder(keys), JSON.stringify(keys)).toBe(definition(keys));
      seen.add(definition(keys));
    }
    expect([...seen].sort()).toEqual([false, true]);
  });

  it('kernel path = JS path on random batches of mixed keys', () => {
    const rnd = new Random(42);
    const alphabet = ['a', 'b', 'z', '0', '\u00e9', '\u4e2d', '\uD7FF', '\uE000', '\uFFFF', '\uFF01', '😀', '\u{10FFFF}', '\u0000'];
    for (let round = 0; round < 60; round++) {
      const n = 1 + rnd.int(round < 50 ? 40 : 2000);
      const pick = round % 3 === 0 ? alphabet : round % 3 === 1 ? alphabet.slice(0, 7) : ['a', 'b', '😀', '\u4e2d'];
      const rs = Array.from({ length: n }, (_, i) => rec(i, Array.from({ length: 1 + rnd.int(4) }, () => rnd.pick(pick)).join(''), rnd.pick(['', 'p=1', 'p=2'])));
      const want = expected(rs);
      expect(sorted(rs)).toEqual(want);
      for (const k of Object.values(impls)) expect(sorted(rs, k, 0)).toEqual(want);
    }
  });

  it('uses the kernel from the threshold on, per partition, when the keys allow it', () => {
    let calls = 0;
    const counting: Kernels = { ...impls.wasm, sortKeys: (keys) => { calls++; return impls.wasm.sortKeys(keys); } };
    const big = Array.from({ length: SORT_KERNEL_MIN_RECORDS }, (_, i) => rec(i, `k${(i * 7919) % 1000}`, 'p=1'));
    const small = [rec(SORT_KERNEL_MIN_RECORDS, 'x', 'p=2')];
    expect(sorted([...big, ...small], counting)).toEqual(expected([...big, ...small]));
    expect(calls).toBe(1);
    sorted(big.map((r) => ({ ...r, recordKey: `${r.recordKey}😀\uFFFF` })), counting);
    expect(calls).toBe(1);
  });
});
