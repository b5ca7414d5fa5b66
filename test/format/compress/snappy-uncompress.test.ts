// The WASM snappy decompressor (asm/snappy-uncompress.ts, both builds) against hyparquet's JS decoder, its twin:
// the same bytes for every stream the compressor emits and for hand-made elements it never emits (3- and 4-byte
// literal lengths, 4-byte copy offsets, overlapping copies of every short distance, near the output's end and far
// from it); corrupt streams (every truncation, byte flips) rejected with CORRUPT_FILE wherever hyparquet rejects them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { snappyUncompress } from 'hyparquet';
import { beforeAll, describe, expect, test } from 'vitest';
import { snappyCompressJs } from '../../../src/format/compress/snappy-js.js';
import type { Kernels } from '../../../src/kernels/kernels.js';
import { jsKernels } from '../../../src/kernels/js-kernels.js';
import { instantiateKernels } from '../../../src/kernels/wasm-kernels.js';
import { isLakeletError } from '../../../src/errors.js';
import { compressInputs, randomBytes } from './inputs.js';

const generated = fileURLToPath(new URL('../../../src/kernels/generated/', import.meta.url));
let builds: Record<'scalar' | 'simd', Kernels> | undefined;
beforeAll(async () => {
  builds = {
    scalar: await instantiateKernels(readFileSync(`${generated}kernels-scalar.wasm`), 'scalar'),
    simd: await instantiateKernels(readFileSync(`${generated}kernels.wasm`), 'simd'),
  };
});
const all = (): [string, Kernels][] => {
  if (builds === undefined) throw new Error('kernels not loaded');
  return [['scalar', builds.scalar], ['simd', builds.simd], ['js', jsKernels]];
};

/** hyparquet's decoder: the output, or the Error it throws. */
function reference(stream: Uint8Array, length: number): Uint8Array | Error {
  const out = new Uint8Array(length);
  try {
    snappyUncompress(stream, out);
    return out;
  } catch (err) {
    return err as Error;
  }
}

function agree(stream: Uint8Array, length: number, label: string): void {
  const want = reference(stream, length);
  for (const [name, k] of all()) {
    if (want instanceof Error) {
      let error: unknown;
      try {
        k.snappyUncompress(stream, length);
      } catch (err) {
        error = err;
      }
      expect(error, `${label}: ${name} rejects what hyparquet rejects (${want.message})`).toBeDefined();
      if (name !== 'js') expect(isLakeletError(error) && error.code, label).toBe('CORRUPT_FILE');
    } else {
      expect(Buffer.from(k.snappyUncompress(stream, length)).equals(Buffer.from(want)), `${label}: ${name}`).toBe(true);
    }
  }
}

const varint = (n: number): number[] => {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
};
const le = (n: number, bytes: number): number[] => Array.from({ length: bytes }, (_, i) => (n >>> (8 * i)) & 0xff);
/** A literal element of `data` with its length in `lenBytes` extra bytes (0: in the tag, for up to 60 bytes). */
const literal = (data: Uint8Array, lenBytes: number): number[] => (lenBytes === 0 ? [(data.length - 1) << 2] : [(59 + lenBytes) << 2, ...le(data.length - 1, lenBytes)]).concat([...data]);
/** A copy element: 1-, 2- or 4-byte offset form. */
const copy = (offset: number, len: number, form: 1 | 2 | 4): number[] =>
  form === 1 ? [((offset >> 8) << 5) | ((len - 4) << 2) | 1, offset & 0xff] : [((len - 1) << 2) | (form === 2 ? 2 : 3), ...le(offset, form)];

describe('snappy decompression kernel', () => {
  test('every stream of the compressor tests, and 60 structured random ones, decode as hyparquet decodes them', () => {
    for (const [name, input] of compressInputs()) agree(snappyCompressJs(input), input.length, name);
    for (let seed = 1; seed <= 60; seed++) {
      const noise = randomBytes(2048, seed);
      const n = [0, 5, 64, 1000, 65_536, 70_001][seed % 6] as number;
      const input = Uint8Array.from({ length: n }, (_, i) => (noise[(i * (seed % 3 === 0 ? 1 : 7)) % (seed * 13)] ?? 0) & (seed % 2 ? 0x3 : 0xff));
      agree(snappyCompressJs(input), n, `seed ${seed}`);
    }
  });

  test('elements the compressor never emits: long literal lengths, 4-byte offsets, every short overlap', () => {
    const data = randomBytes(70_000, 9);
    for (const lenBytes of [1, 2, 3, 4]) {
      const n = lenBytes === 1 ? 200 : 70_000;
      agree(Uint8Array.from([...varint(n), ...literal(data.subarray(0, n), lenBytes)]), n, `literal, ${lenBytes} length bytes`);
    }
    const head = data.subarray(0, 40);
    for (const form of [1, 2, 4] as const) {
      for (let offset = 1; offset <= 40; offset++) {
        for (const len of form === 1 ? [4, 7, 11] : [1, 5, 8, 9, 16, 17, 33, 64]) {
          for (const tail of [0, 3, 40]) { // bytes after the copy: 0 and 3 leave no room for 8-byte moves past it
            const stream = [...literal(head, 0), ...copy(offset, len, form), ...(tail ? literal(data.subarray(100, 100 + tail), 0) : [])];
            const n = head.length + len + tail;
            agree(Uint8Array.from([...varint(n), ...stream]), n, `copy form ${form}, offset ${offset}, len ${len}, tail ${tail}`);
          }
        }
      }
    }
  });

  test('corrupt streams: every truncation, byte flips, a copy before the start, the wrong output length', () => {
    const input = new TextEncoder().encode('abcabcabcabc-hudi-lakelet-'.repeat(40) + String(Math.PI).repeat(9));
    const stream = snappyCompressJs(input);
    for (let cut = 0; cut < stream.length; cut++) agree(stream.subarray(0, cut), input.length, `cut at ${cut}`);
    const noise = randomBytes(400, 3);
    for (let i = 0; i < 400; i++) {
      const flipped = stream.slice();
      const at = ((noise[i] ?? 0) * 7 + i * 13) % flipped.length;
      flipped[at] = (flipped[at] ?? 0) ^ (1 << (i % 8));
      agree(flipped, input.length, `flip ${i} at ${at}`);
    }
    agree(Uint8Array.from([...varint(10), ...copy(1, 4, 1), ...literal(randomBytes(6, 1), 0)]), 10, 'copy before any output');
    agree(Uint8Array.from([...varint(10), ...literal(randomBytes(4, 1), 0), ...copy(0, 6, 2)]), 10, 'offset 0');
    agree(stream, input.length - 1, 'output length one short');
    agree(stream, input.length + 1, 'output length one long');
  });
});
