// Kernels: Hudi murmur test vectors (hudi-format.md §6.2), bloom positions, and differential tests of the JS twin
// against both WASM builds (SIMD and scalar), plus the fallback to JS when WASM cannot load.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeKey, packKeys, type Kernels } from '../../src/kernels/kernels.js';
import { hudiMurmurHash } from '../../src/kernels/js/bloom.js';
import { jsKernels } from '../../src/kernels/js-kernels.js';
import { instantiateKernels, loadKernels, wasmSimdSupported } from '../../src/kernels/wasm-kernels.js';
import { isLakeletError } from '../../src/errors.js';

const generated = fileURLToPath(new URL('../../src/kernels/generated/', import.meta.url));
const M = 2587966;
const K = 30;

function wasmBytes(name: string): Uint8Array {
  const path = `${generated}${name}`;
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build:asm\` first`);
  return readFileSync(path);
}

const VECTORS: [string, number, number][] = [
  ['1', 1228156847, 121740187],
  ['ab', 1525573013, -1464330887],
  ['abc', 1775488903, 1492699528],
  ['abcd', 646393889, -524664927],
  ['id:1,name:Alice', 71696166, -668954923],
  ['TXN-001', -1349093075, 2127899483],
  ['é', -384040333, 1849032984],
];
const POSITIONS: [string, number[]][] = [
  ['1', [1460963, 105785, 1189081, 2066078, 47219, 588992]],
  ['id:1,name:Alice', [1821084, 1259695, 2258328, 240278, 789559, 1865123]],
  ['TXN-001', [762789, 591431, 1893349, 899664, 868522, 500993]],
  ['334e26e9-8355-45cc-97c6-c31daf0df330', [1324704, 2335622, 95309, 2232886, 599387, 255264]],
];

/** Deterministic PRNG (mulberry32) so failures reproduce. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABETS = ['abcdefghijklmnopqrstuvwxyz0123456789-_:,', 'éüßøçñ€中文字🙂Ωж', '\u0000\u007f\u0080\u00ff\u07ff\u0800\uffff'];

function randomKey(next: () => number, length: number): string {
  const alphabet = [...(ALPHABETS[Math.floor(next() * ALPHABETS.length)] ?? 'a')];
  let s = '';
  while (s.length < length) s += alphabet[Math.floor(next() * alphabet.length)] ?? 'x';
  return s;
}

/** Byte keys of every length 0..40 (every tail length), ASCII and high bytes, plus random string keys. */
function randomBatch(seed: number, n: number): Uint8Array[] {
  const next = rng(seed);
  const keys: Uint8Array[] = [];
  for (let len = 0; len <= 40; len++) {
    for (const high of [false, true]) {
      const key = new Uint8Array(len);
      for (let i = 0; i < len; i++) key[i] = high ? Math.floor(next() * 256) : 32 + Math.floor(next() * 95);
      keys.push(key);
    }
  }
  while (keys.length < n) keys.push(encodeKey(randomKey(next, Math.floor(next() * 41))));
  return keys;
}

const impls: Record<string, () => Kernels> = {};
beforeAll(async () => {
  impls.js = () => jsKernels;
  const simd = await instantiateKernels(wasmBytes('kernels.wasm'), 'simd');
  const scalar = await instantiateKernels(wasmBytes('kernels-scalar.wasm'), 'scalar');
  impls.simd = () => simd;
  impls.scalar = () => scalar;
});

describe.each(['js', 'simd', 'scalar'])('%s kernels', (name) => {
  const kernels = (): Kernels => {
    const make = impls[name];
    if (make === undefined) throw new Error(`no ${name} kernels`);
    return make();
  };

  it('reports what it runs on', () => {
    expect(kernels().kind).toBe(name === 'js' ? 'js' : 'wasm');
    expect(kernels().variant).toBe(name);
  });

  it('reproduces the murmur test vectors with seed 0 and chained seeds', () => {
    const keys = VECTORS.map(([key]) => key);
    const first = kernels().hudiMurmur(keys, 0);
    expect([...first]).toEqual(VECTORS.map(([, h0]) => h0));
    for (const [key, h0, h1] of VECTORS) {
      expect(kernels().hudiMurmur([key], h0)[0]).toBe(h1);
    }
  });

  it('reproduces the bloom position vectors (m=2587966, k=30)', () => {
    const positions = kernels().bloomPositions(POSITIONS.map(([key]) => key), M, K);
    POSITIONS.forEach(([, expected], i) => {
      expect([...positions.subarray(i * K, i * K + expected.length)]).toEqual(expected);
    });
    for (const p of positions) expect(p >= 0 && p < M).toBe(true);
  });

  it('sets the footer example bits of keys 2,3,1,4 (120 bits, lowest 46780, 47219, 90083, 105785, 122782)', () => {
    const bits = new Uint8Array(Math.floor((M + 7) / 8));
    kernels().bloomAdd(bits, M, K, ['2', '3', '1', '4']);
    const set: number[] = [];
    for (let i = 0; i < M; i++) if ((bits[i >> 3] ?? 0) & (1 << (i & 7))) set.push(i);
    expect(set.length).toBe(120);
    expect(set.slice(0, 5)).toEqual([46780, 47219, 90083, 105785, 122782]);
    expect([...kernels().bloomProbe(bits, M, K, ['1', '2', '3', '4', '5', 'x'])]).toEqual([1, 1, 1, 1, 0, 0]);
  });

  it('handles an empty batch and empty keys', () => {
    expect(kernels().hudiMurmur([], 0).length).toBe(0);
    expect(kernels().bloomProbe(new Uint8Array(2), 16, 3, []).length).toBe(0);
    expect(kernels().hudiMurmur([''], 7)[0]).toBe(hudiMurmurHash(new Uint8Array(0), 0, 0, 7));
  });

  it('rejects bad arguments with INVALID_ARGUMENT', () => {
    const bad = [
      () => kernels().bloomProbe(new Uint8Array(1), 100, 3, ['a']),
      () => kernels().bloomAdd(new Uint8Array(2), 0, 3, ['a']),
      () => kernels().bloomProbe(new Uint8Array(13), 100, 3, ['a'], 0),
      () => kernels().hudiMurmur({ bytes: new Uint8Array(2), offsets: new Uint32Array([0, 3]) }),
      () => kernels().hudiMurmur({ bytes: new Uint8Array(4), offsets: new Uint32Array([0, 3, 2]) }),
    ];
    for (const f of bad) {
      let caught: unknown;
      try { f(); } catch (err) { caught = err; }
      expect(isLakeletError(caught, 'INVALID_ARGUMENT')).toBe(true);
    }
  });
});

describe('differential: JS twin vs WASM builds', () => {
  const keys = randomBatch(42, 10_000);
  const packed = packKeys(keys);

  it('murmur agrees on 10k random keys (every length 0..40, ASCII and non-ASCII), several seeds', () => {
    for (const seed of [0, 1, -1, 0x7fffffff, -0x80000000, 123456789]) {
      const expected = jsKernels.hudiMurmur(packed, seed);
      for (const name of ['simd', 'scalar']) expect(impls[name]?.().hudiMurmur(packed, seed)).toEqual(expected);
    }
  });

  it('bloom positions, add and probe agree (1 and 3 rows, odd m)', () => {
    for (const [m, k] of [[M, K], [1001, 7], [8, 3], [1, 1]] as const) {
      const expectedPos = jsKernels.bloomPositions(packed, m, k);
      const rowBytes = Math.floor((m + 7) / 8);
      const inserted = { bytes: packed.bytes, offsets: packed.offsets.subarray(0, 2001) };
      const jsBits = jsKernels.bloomAdd(new Uint8Array(rowBytes), m, k, inserted);
      const threeRows = new Uint8Array(3 * rowBytes);
      threeRows.set(jsBits, rowBytes); // the keys live in the middle row only
      const expectedProbe = jsKernels.bloomProbe(jsBits, m, k, packed);
      const expectedProbe3 = jsKernels.bloomProbe(threeRows, m, k, packed, 3);
      expect(expectedProbe3).toEqual(expectedProbe);
      expect([...expectedProbe.subarray(0, 2000)].every((v) => v === 1)).toBe(true);
      for (const name of ['simd', 'scalar']) {
        const w = impls[name]?.();
        if (w === undefined) throw new Error(name);
        expect(w.bloomPositions(packed, m, k)).toEqual(expectedPos);
        expect(w.bloomAdd(new Uint8Array(rowBytes), m, k, inserted)).toEqual(jsBits);
        expect(w.bloomProbe(jsBits, m, k, packed)).toEqual(expectedProbe);
        expect(w.bloomProbe(threeRows, m, k, packed, 3)).toEqual(expectedProbe3);
      }
    }
  });

  it('bloom add agrees on keys too long to premix (over 1 KiB) next to short ones, odd and even counts', () => {
    const long = (i: number) => `${'k'.repeat(1024 + (i % 7))}-${i}`; // 256+ block words: hashed directly
    const mixes: string[][] = [
      [long(1)], ['a', long(2)], [long(3), 'b'], [long(4), long(5), 'c'], ['d', 'e', long(6)],
      Array.from({ length: 301 }, (_, i) => (i % 5 === 0 ? long(i) : `key-${i}-${'é'.repeat(i % 9)}`)),
    ];
    for (const batch of mixes) {
      for (const [m, k] of [[M, K], [1001, 7]] as const) {
        const rowBytes = Math.floor((m + 7) / 8);
        const expected = jsKernels.bloomAdd(new Uint8Array(rowBytes), m, k, batch);
        for (const name of ['simd', 'scalar']) expect(impls[name]?.().bloomAdd(new Uint8Array(rowBytes), m, k, batch), `${name} ${batch.length}`).toEqual(expected);
      }
    }
  });

  it('grows wasm memory for a large batch and keeps working afterwards', async () => {
    const w = await instantiateKernels(wasmBytes('kernels.wasm'));
    const big = packKeys(Array.from({ length: 200_000 }, (_, i) => `key-${i}-${'x'.repeat(i % 50)}`));
    expect(w.hudiMurmur(big, 5)).toEqual(jsKernels.hudiMurmur(big, 5));
    expect(w.hudiMurmur(['1'], 0)[0]).toBe(1228156847);
  });
});

describe('loadKernels', () => {
  it('loads WASM from bytes', async () => {
    const k = await loadKernels(wasmBytes('kernels-scalar.wasm'), { variant: 'scalar' });
    expect(k.kind).toBe('wasm');
    expect(k.variant).toBe('scalar');
    expect(k.fallbackReason).toBeUndefined();
    expect(wasmSimdSupported()).toBe(true);
  });

  it('falls back to the JS twin on bad bytes, with identical results', async () => {
    const k = await loadKernels(new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]));
    expect(k.kind).toBe('js');
    expect(typeof k.fallbackReason).toBe('string');
    const packed = packKeys(randomBatch(7, 2000));
    expect(k.hudiMurmur(packed, 0)).toEqual(impls.simd?.().hudiMurmur(packed, 0));
  });

  it('falls back when a valid module lacks the kernel exports', async () => {
    const empty = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
    const k = await loadKernels(empty);
    expect(k.kind).toBe('js');
    expect(k.fallbackReason).toMatch(/memory|export/);
  });

  it('falls back when the default URL cannot be fetched (Node has no file: fetch)', async () => {
    const k = await loadKernels();
    expect(k.kind).toBe('js');
  });
});

describe('key encoding', () => {
  it('matches Java String.getBytes(UTF_8): lone surrogates become "?"', () => {
    expect([...encodeKey('é')]).toEqual([0xc3, 0xa9]);
    expect([...encodeKey('a\uD800b')]).toEqual([0x61, 0x3f, 0x62]);
    expect([...encodeKey('\uDC00')]).toEqual([0x3f]);
    expect([...encodeKey('🙂')]).toEqual([0xf0, 0x9f, 0x99, 0x82]);
    const packed = packKeys(['a\uD800b', '中文', '', new Uint8Array([1, 2])]);
    expect([...packed.offsets]).toEqual([0, 3, 9, 9, 11]);
  });

  it('packs ASCII, non-ASCII and byte keys alike: each key its encodeKey bytes, back to back', () => {
    const concat = (parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
    for (const keys of [['id-1', '', 'uuid-0f3a', '\x7f\x00'], ['id-1', 'é', 'x'], ['ok', '\uD800'], ['ascii', new Uint8Array([200, 1])], [] as string[]]) {
      const packed = packKeys(keys);
      const parts = keys.map((k) => (typeof k === 'string' ? encodeKey(k) : k));
      expect([...packed.bytes.subarray(0, packed.offsets[keys.length])]).toEqual([...concat(parts)]);
      let at = 0;
      expect([...packed.offsets]).toEqual([0, ...parts.map((p) => (at += p.length))]);
    }
  });
});
