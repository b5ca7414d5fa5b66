// Differential and boundary cases for the hashing, dedupe, sort and resident-bloom kernels, shared by the Node
// (kernels-diff.test.ts) and Chromium (kernels.browser.test.ts) suites: JS twin vs WASM scalar vs WASM SIMD.
import { describe, expect, it } from 'vitest';
import { encodeKey, packKeys, type Kernels, type PackedKeys } from '../../src/kernels/kernels.js';
import { jsKernels } from '../../src/kernels/js-kernels.js';
import { loadKernels } from '../../src/kernels/wasm-kernels.js';
import { isLakeletError } from '../../src/errors.js';
import { openTable, tableStorage, zipStorage } from '../../src/index.js';

/** The fixture tables whose `_hoodie_record_key` values are used as test keys. */
export const FIXTURE_ZIPS = [
  'quickstart_trips_table/mor/avro/v6_trips_8i1u.zip', 'quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip',
  'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip', 'sample_table/cow/v6_nonpartitioned.zip',
  'sample_table/cow/v6_complexkeygen_hivestyle.zip', 'sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip',
  'sample_table/cow/v8_nonpartitioned.zip', 'sample_table/mor/parquet/v6_nonpartitioned.zip',
  'sample_table/mor/parquet/v6_nonpartitioned_rollback.zip', 'sample_table/mor/avro/v9_nonpartitioned_rollback.zip',
];

/** Record keys of every fixture table (snapshot rows), read through the public API. */
export async function readFixtureKeys(readZip: (path: string) => Promise<Uint8Array>): Promise<string[]> {
  const keys: string[] = [];
  for (const zip of FIXTURE_ZIPS) {
    const table = await openTable(await tableStorage(zipStorage(await readZip(zip), { label: zip })));
    for await (const row of table.rows()) {
      const key = row['_hoodie_record_key'];
      if (typeof key === 'string') keys.push(key);
    }
  }
  return keys;
}

/** Deterministic PRNG (mulberry32) so failures reproduce. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABETS = ['abcdefghijklmnopqrstuvwxyz0123456789-_:,', 'éüßøçñ€中文字🙂Ωж', '\u0000\u007f\u0080\u00ff\u07ff\u0800\uffff', 'ab'];

/**
 * Keys of every length 0..40 (every tail length; ASCII, high bytes, all-zero), random strings (non-ASCII too),
 * shared long prefixes, and duplicates.
 */
export function randomKeys(seed: number, n: number): Uint8Array[] {
  const next = rng(seed);
  const keys: Uint8Array[] = [];
  for (let len = 0; len <= 40; len++) {
    for (const kind of [0, 1, 2]) {
      const key = new Uint8Array(len);
      for (let i = 0; i < len; i++) key[i] = kind === 0 ? 32 + Math.floor(next() * 95) : kind === 1 ? Math.floor(next() * 256) : 0;
      keys.push(key);
    }
  }
  while (keys.length < n) {
    const r = next();
    if (r < 0.1 && keys.length > 0) keys.push(keys[Math.floor(next() * keys.length)] ?? new Uint8Array(0)); // duplicate
    else if (r < 0.3) keys.push(encodeKey(`2024-04-18T17:35:51.906-partition=${Math.floor(next() * 50)}/${'x'.repeat(Math.floor(next() * 3))}`));
    else {
      const alphabet = [...(ALPHABETS[Math.floor(next() * ALPHABETS.length)] ?? 'a')];
      let s = '';
      const length = Math.floor(next() * 41);
      while (s.length < length) s += alphabet[Math.floor(next() * alphabet.length)] ?? 'x';
      keys.push(encodeKey(s));
    }
  }
  return keys;
}

/** Unsigned byte comparison, shorter first (Buffer.compare's order), written independently of the kernels. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return a.length - b.length;
}

const MASK64 = (1n << 64n) - 1n;
const XP1 = 0x9e3779b185ebca87n, XP2 = 0xc2b2ae3d27d4eb4fn, XP3 = 0x165667b19e3779f9n, XP4 = 0x85ebca77c2b2ae63n, XP5 = 0x27d4eb2f165667c5n;

/** XXH64 written from the specification with BigInt: an oracle independent of both twins. */
export function xxh64Reference(d: Uint8Array, seed = 0n): bigint {
  const rotl = (x: bigint, r: number): bigint => ((x << BigInt(r)) | (x >> BigInt(64 - r))) & MASK64;
  const read = (i: number, n: number): bigint => {
    let v = 0n;
    for (let j = n - 1; j >= 0; j--) v = (v << 8n) | BigInt(d[i + j] ?? 0);
    return v;
  };
  const round = (acc: bigint, lane: bigint): bigint => (rotl((acc + lane * XP2) & MASK64, 31) * XP1) & MASK64;
  const merge = (acc: bigint, v: bigint): bigint => (((acc ^ round(0n, v)) * XP1) + XP4) & MASK64;
  let p = 0;
  let acc: bigint;
  if (d.length >= 32) {
    let v1 = (seed + XP1 + XP2) & MASK64, v2 = (seed + XP2) & MASK64, v3 = seed, v4 = (seed - XP1) & MASK64;
    for (; p + 32 <= d.length; p += 32) {
      v1 = round(v1, read(p, 8)); v2 = round(v2, read(p + 8, 8)); v3 = round(v3, read(p + 16, 8)); v4 = round(v4, read(p + 24, 8));
    }
    acc = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) & MASK64;
    acc = merge(merge(merge(merge(acc, v1), v2), v3), v4);
  } else {
    acc = (seed + XP5) & MASK64;
  }
  acc = (acc + BigInt(d.length)) & MASK64;
  for (; p + 8 <= d.length; p += 8) acc = (rotl(acc ^ round(0n, read(p, 8)), 27) * XP1 + XP4) & MASK64;
  if (p + 4 <= d.length) { acc = (rotl(acc ^ ((read(p, 4) * XP1) & MASK64), 23) * XP2 + XP3) & MASK64; p += 4; }
  for (; p < d.length; p++) acc = (rotl(acc ^ ((BigInt(d[p] ?? 0) * XP5) & MASK64), 11) * XP1) & MASK64;
  acc ^= acc >> 33n; acc = (acc * XP2) & MASK64; acc ^= acc >> 29n; acc = (acc * XP3) & MASK64; acc ^= acc >> 32n;
  return acc;
}

function expectInvalid(f: () => unknown): void {
  let caught: unknown;
  try { f(); } catch (err) { caught = err; }
  expect(isLakeletError(caught, 'INVALID_ARGUMENT')).toBe(true);
}

const M = 2587966;
const K = 30;

/**
 * Registers the cases. `impls()` gives the three implementations (js, scalar, simd) once the suite's
 * beforeAll has loaded them; `fixtureKeys()` the record keys of the fixture tables.
 */
export function kernelCases(impls: () => Record<'js' | 'scalar' | 'simd', Kernels>, fixtureKeys: () => Promise<string[]>): void {
  const all = (): [string, Kernels][] => Object.entries(impls());

  describe('hashKeys64 (XXH64)', () => {
    it('matches the XXH64 specification vectors', () => {
      for (const [, k] of all()) {
        expect([...k.hashKeys64(['', 'a', 'abc'])]).toEqual([0xef46db3751d8e999n, 0xd24ec4f1a98c6e5bn, 0x44bc2cf5ad770999n]);
      }
    });

    it('agrees with a BigInt reference for every length 0..100 and several seeds', () => {
      const next = rng(5);
      const keys = Array.from({ length: 101 }, (_, len) => Uint8Array.from({ length: len }, () => Math.floor(next() * 256)));
      for (const seed of [0n, 1n, 0xffffffffffffffffn, 0x123456789abcdefn]) {
        const expected = keys.map((key) => xxh64Reference(key, seed));
        for (const [, k] of all()) expect([...k.hashKeys64(keys, seed)]).toEqual(expected);
      }
      for (const [, k] of all()) expect(k.hashKeys64(['x'], -1)).toEqual(k.hashKeys64(['x'], 0xffffffffffffffffn));
    });

    it('agrees across implementations on 100k random keys', () => {
      const packed = packKeys(randomKeys(11, 100_000));
      const expected = jsKernels.hashKeys64(packed, 42);
      for (const [, k] of all()) expect(k.hashKeys64(packed, 42)).toEqual(expected);
    });

    it('rejects a non-integer seed', () => {
      for (const [, k] of all()) expectInvalid(() => k.hashKeys64(['a'], 1.5));
    });
  });

  describe('dedupeKeepMax', () => {
    it('keeps the greatest ordering value per key; ties go to the later record', () => {
      const keys = ['a', 'b', 'a', 'c', 'b', 'a'];
      for (const [, k] of all()) {
        expect([...k.dedupeKeepMax(keys, new Float64Array([1, 5, 3, 2, 5, 3]))]).toEqual([3, 4, 5]);
        expect([...k.dedupeKeepMax(keys, new BigInt64Array([9n, -1n, 3n, 2n, -2n, -5n]))]).toEqual([0, 1, 3]);
        expect([...k.dedupeKeepMax(keys, new Float64Array([1, NaN, NaN, 0, 4, 0]))]).toEqual([3, 4, 5]);
        expect([...k.dedupeKeepMax([], new Float64Array(0))]).toEqual([]);
        expect([...k.dedupeKeepMax(['', '', 'é', 'é'], new Float64Array([2, 1, -0, 0]))]).toEqual([0, 3]);
        expectInvalid(() => k.dedupeKeepMax(keys, new Float64Array(5)));
      }
    });

    it('agrees across implementations on 100k keys with many duplicates (f64 and i64 values)', () => {
      const next = rng(3);
      const base = randomKeys(12, 20_000);
      const keys = Array.from({ length: 100_000 }, () => base[Math.floor(next() * base.length)] ?? new Uint8Array(0));
      const packed = packKeys(keys);
      const f64 = Float64Array.from(keys, () => Math.floor(next() * 8));
      const i64 = BigInt64Array.from(keys, () => BigInt(Math.floor(next() * 8)) - 4n);
      const exF = jsKernels.dedupeKeepMax(packed, f64);
      const exI = jsKernels.dedupeKeepMax(packed, i64);
      // independent check of the JS twin: one kept index per distinct key, holding the key's max value
      // (ties to the later record): a plain Map over the keys is the reference.
      for (const [values, kept] of [[f64, exF], [i64, exI]] as const) {
        const best = new Map<string, number>();
        const max = new Map<string, number | bigint>();
        keys.forEach((key, i) => {
          const id = [...key].join(',');
          const v = values[i]!;
          const cur = best.get(id);
          if (cur === undefined || !(v < values[cur]!)) best.set(id, i);
          if (!max.has(id) || v > max.get(id)!) max.set(id, v);
        });
        expect([...kept]).toEqual([...best.values()].sort((a, b) => a - b));
        for (const i of kept) expect(values[i], `kept index ${i}`).toBe(max.get([...keys[i]!].join(',')));
      }
      for (const [, k] of all()) {
        expect(k.dedupeKeepMax(packed, f64)).toEqual(exF);
        expect(k.dedupeKeepMax(packed, i64)).toEqual(exI);
      }
    });
  });

  describe('sortKeys', () => {
    const checkSorted = (keys: Uint8Array[], perm: Uint32Array): void => {
      expect(perm.length).toBe(keys.length);
      const seen = new Uint8Array(keys.length);
      for (const p of perm) seen[p] = 1;
      expect(seen.every((v) => v === 1)).toBe(true);
      for (let i = 1; i < perm.length; i++) {
        const a = perm[i - 1] ?? 0, b = perm[i] ?? 0;
        const c = compareBytes(keys[a] ?? new Uint8Array(0), keys[b] ?? new Uint8Array(0));
        if (c > 0 || (c === 0 && a > b)) throw new Error(`not sorted/stable at ${i}: ${a} before ${b}`);
      }
    };

    it('sorts in unsigned byte order, stable, on small edge cases', () => {
      const cases: (string | Uint8Array)[][] = [
        [], ['a'], ['b', 'a'], ['', 'a', ''], ['ab', 'a', 'abc', 'ab\u0000', 'a\u0000', 'ab'],
        ['é', 'z', 'e', '中', '🙂', '\uffff'], [new Uint8Array([0x80]), new Uint8Array([0x7f]), new Uint8Array([0xff, 0])],
        Array.from({ length: 100 }, (_, i) => `same-long-prefix-${'x'.repeat(i % 20)}${i % 7}`),
        Array.from({ length: 60 }, () => 'identical-key-longer-than-sixteen-bytes'),
      ];
      for (const keys of cases) {
        const bytes = keys.map((k) => (typeof k === 'string' ? encodeKey(k) : k));
        for (const [, k] of all()) checkSorted(bytes, k.sortKeys(keys));
      }
    });

    it('agrees with a byte comparator and across implementations on 100k random keys', () => {
      const keys = randomKeys(13, 100_000);
      const packed = packKeys(keys);
      const expected = jsKernels.sortKeys(packed);
      checkSorted(keys, expected);
      const byComparator = Uint32Array.from(keys.keys()).sort((a, b) => compareBytes(keys[a] ?? new Uint8Array(0), keys[b] ?? new Uint8Array(0)) || a - b);
      expect(expected).toEqual(byComparator);
      for (const [, k] of all()) expect(k.sortKeys(packed)).toEqual(expected);
    });
  });

  describe('createBloomProbe (resident filter)', () => {
    it('gives bloomProbe results for 1 and 3 rows, survives other calls, ignores later changes, and disposes', () => {
      const keys = packKeys(randomKeys(14, 5000));
      const inserted: PackedKeys = { bytes: keys.bytes, offsets: keys.offsets.subarray(0, 1001) };
      const rowBytes = Math.ceil(M / 8);
      const bits = jsKernels.bloomAdd(new Uint8Array(rowBytes), M, K, inserted);
      const threeRows = new Uint8Array(3 * rowBytes);
      threeRows.set(bits, 2 * rowBytes);
      const expected = jsKernels.bloomProbe(bits, M, K, keys);
      expect([...expected.subarray(0, 1000)].every((v) => v === 1)).toBe(true);
      for (const [, k] of all()) {
        const small = k.createBloomProbe(new Uint8Array(2), 16, 3);
        const one = k.createBloomProbe(bits, M, K);
        const three = k.createBloomProbe(threeRows, M, K, 3);
        small.dispose(); // leaves a gap below the others
        const again = k.createBloomProbe(bits, M, K);
        expect(one.probe(keys)).toEqual(expected);
        k.sortKeys(packKeys(randomKeys(15, 50_000))); // large scratch use must not clobber resident bits
        expect(three.probe(keys)).toEqual(expected);
        expect(again.probe(keys)).toEqual(expected);
        expect([one.m, one.k, three.rows]).toEqual([M, K, 3]);
        one.dispose();
        one.dispose();
        expectInvalid(() => one.probe(['a']));
        expect(again.probe(keys)).toEqual(expected);
        three.dispose();
        again.dispose();
        const copy = bits.slice();
        const p = k.createBloomProbe(copy, M, K);
        copy.fill(0);
        expect(p.probe(keys)).toEqual(expected);
        p.dispose();
        expectInvalid(() => k.createBloomProbe(new Uint8Array(1), 100, 3));
      }
    });

    it('agrees with the one-shot probe on keys of every length and long keys', () => {
      const keys = [...randomKeys(16, 3000), new Uint8Array(1500).fill(7), new Uint8Array(1027).fill(200)];
      const bits = jsKernels.bloomAdd(new Uint8Array(126), 1001, 7, keys.filter((_, i) => i % 3 === 0));
      const expected = jsKernels.bloomProbe(bits, 1001, 7, keys);
      for (const [, k] of all()) {
        const p = k.createBloomProbe(bits, 1001, 7);
        expect(p.probe(keys)).toEqual(expected);
        expect(k.bloomProbe(bits, 1001, 7, keys)).toEqual(expected);
        p.dispose();
      }
    });
  });

  describe('fixture record keys', () => {
    it('hash, sort, dedupe and bloom-probe the keys of the fixture tables identically', async () => {
      const keys = await fixtureKeys();
      expect(keys.length).toBeGreaterThan(20);
      const packed = packKeys(keys);
      const bytes = keys.map(encodeKey);
      const order = jsKernels.sortKeys(packed);
      for (let i = 1; i < order.length; i++) {
        expect(compareBytes(bytes[order[i - 1] ?? 0] ?? new Uint8Array(0), bytes[order[i] ?? 0] ?? new Uint8Array(0))).toBeLessThanOrEqual(0);
      }
      const values = Float64Array.from(keys, (_, i) => i % 5);
      const bits = jsKernels.bloomAdd(new Uint8Array(Math.ceil(M / 8)), M, K, keys.slice(0, keys.length >> 1));
      const expected = {
        hash: jsKernels.hashKeys64(packed), sort: order, dedupe: jsKernels.dedupeKeepMax(packed, values),
        probe: jsKernels.bloomProbe(bits, M, K, packed),
      };
      expect(expected.hash[0]).toBe(xxh64Reference(bytes[0] ?? new Uint8Array(0)));
      for (const [, k] of all()) {
        const p = k.createBloomProbe(bits, M, K);
        expect({
          hash: k.hashKeys64(packed), sort: k.sortKeys(packed), dedupe: k.dedupeKeepMax(packed, values), probe: p.probe(packed),
        }).toEqual(expected);
        p.dispose();
      }
    });
  });

  describe('fallback', () => {
    it('gives the JS twin with identical results when WASM cannot load', async () => {
      const k = await loadKernels(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
      expect(k.kind).toBe('js');
      const packed = packKeys(randomKeys(17, 3000));
      const w = impls().simd;
      expect(k.hashKeys64(packed)).toEqual(w.hashKeys64(packed));
      expect(k.sortKeys(packed)).toEqual(w.sortKeys(packed));
      const values = Float64Array.from({ length: 3000 }, (_, i) => i % 3);
      expect(k.dedupeKeepMax(packed, values)).toEqual(w.dedupeKeepMax(packed, values));
      const bits = k.bloomAdd(new Uint8Array(126), 1001, 7, ['a', 'b']);
      expect(k.createBloomProbe(bits, 1001, 7).probe(packed)).toEqual(w.createBloomProbe(bits, 1001, 7).probe(packed));
    });
  });
}
