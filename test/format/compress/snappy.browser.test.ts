// In Chromium: the first snappyCompress call starts the kernel load (the .wasm fetched next to wasm-kernels.js),
// pages before it finishes go through JS, and afterwards the WASM kernel gives the same bytes; hyparquet reads them.
import { snappyUncompress } from 'hyparquet';
import { describe, expect, test } from 'vitest';
import { defaultPageCompressors, gzipFflate } from '../../../src/format/compress/default-compressors.js';
import { snappyCompress, snappyCompressJs } from '../../../src/format/compress/snappy.js';
import { activeThreadKernels } from '../../../src/kernels/thread-kernels.js';
import { loadThreadKernels } from '../../../src/kernels/thread-kernels-load.js';
import { compressInputs } from './inputs.js';

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

describe('snappy in the browser', () => {
  test('loads the WASM kernel on first use; same bytes as JS; hyparquet decompresses them', async () => {
    expect(activeThreadKernels()).toBeUndefined();
    const inputs = compressInputs();
    expect(same(snappyCompress(inputs[7]![1]), snappyCompressJs(inputs[7]![1]))).toBe(true);
    expect(await loadThreadKernels()).toBe(true);
    for (const [name, input] of inputs) {
      const packed = snappyCompress(input);
      expect(same(packed, snappyCompressJs(input)), name).toBe(true);
      const out = new Uint8Array(input.length);
      snappyUncompress(packed, out);
      expect(same(out, input), name).toBe(true);
    }
  });

  test('GZIP stays fflate (CompressionStream is asynchronous) and ZSTD needs a compressor', () => {
    const defaults = defaultPageCompressors();
    expect(defaults.GZIP).toBe(gzipFflate);
    expect(defaults.ZSTD).toBeUndefined();
  });
});
