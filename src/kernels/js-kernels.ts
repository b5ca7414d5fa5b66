// The readable JS twin of every kernel in asm/index.ts, assembled from kernels/js/ (bloom, xxhash, dedupe, sort,
// one file per asm/ file; snappy compression from format/compress/snappy-js.ts, the page compressor's JS path, and
// decompression hyparquet's): the fallback
// when WASM cannot load and the oracle in differential tests.

import { bloomAdd, bloomPositions, bloomProbe, createBloomProbe, hudiMurmur } from './js/bloom.js';
import { dedupeKeepMax } from './js/dedupe.js';
import { sortKeys } from './js/sort.js';
import { hashKeys64 } from './js/xxhash.js';
import { snappyUncompress as hyparquetSnappyUncompress } from 'hyparquet';
import { snappyCompressJs } from '../format/compress/snappy-js.js';
import type { Kernels } from './kernels.js';

/** Creates the JS implementation of {@link Kernels}; `fallbackReason` records why WASM was not used. */
export function createJsKernels(fallbackReason?: string): Kernels {
  const base = {
    kind: 'js' as const, variant: 'js' as const,
    hudiMurmur, bloomPositions, bloomProbe, bloomAdd, createBloomProbe, hashKeys64, dedupeKeepMax, sortKeys,
    snappyCompress: snappyCompressJs,
    snappyUncompress(input: Uint8Array, outputLength: number): Uint8Array {
      const out = new Uint8Array(outputLength);
      hyparquetSnappyUncompress(input, out);
      return out;
    },
  };
  return fallbackReason === undefined ? base : { ...base, fallbackReason };
}

/** The JS twin of the kernels, ready to use (no loading needed). */
export const jsKernels: Kernels = createJsKernels();
