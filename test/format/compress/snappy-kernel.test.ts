// The WASM snappy kernel (asm/snappy.ts, both builds) emits exactly the JS compressor's bytes, which hyparquet's
// and hysnappy's decompressors read back; snappyCompress switches to the kernel once an instance is loaded.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { snappyUncompress } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { beforeAll, describe, expect, test } from 'vitest';
import { snappyCompress } from '../../../src/format/compress/snappy.js';
import { snappyCompressJs } from '../../../src/format/compress/snappy-js.js';
import type { Kernels } from '../../../src/kernels/kernels.js';
import { jsKernels } from '../../../src/kernels/js-kernels.js';
import { activeThreadKernels, installThreadKernels } from '../../../src/kernels/thread-kernels.js';
import { instantiateKernels } from '../../../src/kernels/wasm-kernels.js';
import { compressInputs, randomBytes } from './inputs.js';

const generated = fileURLToPath(new URL('../../../src/kernels/generated/', import.meta.url));
let builds: Record<'scalar' | 'simd', Kernels> | undefined;
beforeAll(async () => {
  installThreadKernels(undefined);
  builds = {
    scalar: await instantiateKernels(readFileSync(`${generated}kernels-scalar.wasm`), 'scalar'),
    simd: await instantiateKernels(readFileSync(`${generated}kernels.wasm`), 'simd'),
  };
});
const wasm = (variant: 'scalar' | 'simd'): Kernels => {
  if (builds === undefined) throw new Error('kernels not loaded');
  return builds[variant];
};

/** Structured random inputs: runs of random bytes, repeats from random distances, small alphabets. */
function fuzzInput(seed: number): Uint8Array {
  const noise = randomBytes(4096, seed);
  const n = [0, 1, 3, 15, 16, 17, 100, 4000, 65_535, 65_536, 70_000, 150_000][seed % 12]! + (noise[0]! % 7);
  const out = new Uint8Array(n);
  let j = 0;
  for (let i = 0; i < n;) {
    const kind = noise[j++ % noise.length]! % 3;
    const len = Math.min(n - i, 1 + (noise[j++ % noise.length]! * 3));
    if (kind === 0 || i === 0) {
      for (let k = 0; k < len; k++) out[i + k] = noise[(j + k) % noise.length]! & (seed % 2 === 0 ? 0x0f : 0xff);
    } else {
      const back = 1 + ((noise[j++ % noise.length]! * 257 + noise[j++ % noise.length]!) % i);
      for (let k = 0; k < len; k++) out[i + k] = out[i + k - back]!;
    }
    i += len;
  }
  return out;
}

function roundTrips(packed: Uint8Array, input: Uint8Array): void {
  const out = new Uint8Array(input.length);
  snappyUncompress(packed, out);
  expect(Buffer.from(out).equals(Buffer.from(input))).toBe(true);
  const viaHysnappy = compressors.SNAPPY!(packed, input.length);
  expect(Buffer.from(viaHysnappy).equals(Buffer.from(input))).toBe(true);
}

describe('snappy kernel', () => {
  for (const variant of ['scalar', 'simd'] as const) {
    test(`${variant} build: same bytes as the JS compressor, and both decompress (edge cases)`, () => {
      for (const [name, input] of compressInputs()) {
        const viaWasm = wasm(variant).snappyCompress(input);
        expect(Buffer.from(viaWasm).equals(Buffer.from(snappyCompressJs(input))), name).toBe(true);
        roundTrips(viaWasm, input);
      }
    });

    test(`${variant} build: same bytes as JS on 120 structured random inputs`, () => {
      for (let seed = 1; seed <= 120; seed++) {
        const input = fuzzInput(seed);
        const viaWasm = wasm(variant).snappyCompress(input);
        expect(Buffer.from(viaWasm).equals(Buffer.from(snappyCompressJs(input))), `seed ${seed}`).toBe(true);
        roundTrips(viaWasm, input);
      }
    });
  }

  test('the JS twin of the kernels is the JS compressor', () => {
    const input = fuzzInput(7);
    expect(Buffer.from(jsKernels.snappyCompress(input)).equals(Buffer.from(snappyCompressJs(input)))).toBe(true);
  });

  test('snappyCompress runs on the first loaded WASM instance, on JS when the kernel throws or none is loaded', () => {
    const input = fuzzInput(5);
    expect(activeThreadKernels()).toBe(wasm('scalar'));
    let calls = 0;
    const counting = (b: Uint8Array): Uint8Array => { calls++; return wasm('simd').snappyCompress(b); };
    installThreadKernels({ ...wasm('simd'), snappyCompress: counting }, true);
    expect(Buffer.from(snappyCompress(input)).equals(Buffer.from(snappyCompressJs(input)))).toBe(true);
    expect(calls).toBe(1);
    installThreadKernels({ ...wasm('simd'), snappyCompress: () => { throw new Error('wasm memory cannot grow'); } }, true);
    expect(Buffer.from(snappyCompress(input)).equals(Buffer.from(snappyCompressJs(input)))).toBe(true); // falls back to JS
    installThreadKernels(undefined);
    expect(activeThreadKernels()).toBeUndefined();
    expect(Buffer.from(snappyCompress(input)).equals(Buffer.from(snappyCompressJs(input)))).toBe(true);
    expect(calls).toBe(1);
  });
});
