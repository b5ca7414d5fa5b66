// Raw snappy compression for parquet pages (the SNAPPY codec): the AssemblyScript kernel when WASM kernels are
// loaded on this thread (kernels/thread-kernels.ts), else the JS compressor; both emit the same bytes. The first
// call asks for a load without waiting, so the pages compressed before it finishes go through JS.

import { activeThreadKernels } from '../../kernels/thread-kernels.js';
import { requestThreadKernels } from '../../kernels/thread-kernels-load.js';
import { snappyCompressJs } from './snappy-js.js';

export { snappyCompressJs, snappyMaxCompressedLength } from './snappy-js.js';

/**
 * Compresses `input` to raw snappy (varint uncompressed length, then literal/copy elements; no framing, no
 * checksum), through the WASM kernel when one is loaded, else in JS. The output is the same either way.
 */
export function snappyCompress(input: Uint8Array): Uint8Array {
  const kernels = activeThreadKernels();
  if (kernels !== undefined) {
    try {
      return kernels.snappyCompress(input);
    } catch {
      return snappyCompressJs(input); // wasm memory could not grow for this page: same bytes from JS
    }
  }
  requestThreadKernels();
  return snappyCompressJs(input);
}
