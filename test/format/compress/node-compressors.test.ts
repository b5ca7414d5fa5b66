// What `lakelet/node` and the Node worker entry register: node:zlib GZIP in the default page compressors and
// the snappy WASM kernel loaded from the packaged .wasm bytes (same output as JS).
import { describe, expect, test } from 'vitest';
import { defaultPageCompressors, gzipFflate } from '../../../src/format/compress/default-compressors.js';
import { snappyCompress, snappyCompressJs } from '../../../src/format/compress/snappy.js';
import { activeThreadKernels } from '../../../src/kernels/thread-kernels.js';
import { loadThreadKernels } from '../../../src/kernels/thread-kernels-load.js';
import { gzipNodeZlib, useNodeCompressors } from '../../../src/node/compressors-node.js';
import { compressInputs } from './inputs.js';

describe('useNodeCompressors', () => {
  test('GZIP becomes node:zlib level 1 and snappy switches to the WASM kernel with the same bytes', async () => {
    expect(defaultPageCompressors().GZIP).toBe(gzipFflate);
    expect(activeThreadKernels()).toBeUndefined();
    useNodeCompressors();
    useNodeCompressors(); // idempotent
    expect(defaultPageCompressors().GZIP).toBe(gzipNodeZlib);
    const inputs = compressInputs();
    const first = inputs[7]![1];
    expect(Buffer.from(snappyCompress(first)).equals(Buffer.from(snappyCompressJs(first)))).toBe(true); // JS, load started
    expect(await loadThreadKernels()).toBe(true);
    expect(activeThreadKernels()).toBeDefined();
    for (const [name, input] of inputs) {
      expect(Buffer.from(snappyCompress(input)).equals(Buffer.from(snappyCompressJs(input))), name).toBe(true);
    }
  });

  test('node:zlib GZIP output is a gzip member with a zero mtime, the same for the same input', () => {
    const input = compressInputs()[7]![1];
    const a = gzipNodeZlib(input);
    expect([...a.subarray(0, 8)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]);
    expect(Buffer.from(gzipNodeZlib(input)).equals(Buffer.from(a))).toBe(true);
  });
});
