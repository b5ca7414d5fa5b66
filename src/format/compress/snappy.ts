// Raw snappy compression for parquet pages (the SNAPPY codec): the AssemblyScript kernel when a WASM kernel
// instance is loaded on this thread (kernels load asynchronously; the page compressor is synchronous, so the
// first pages before the load finish go through JS), else the JS compressor. Both emit the same bytes.

import { activeSnappyKernel } from '../../kernels/snappy-kernel.js';
import { snappyCompressJs } from './snappy-js.js';

export { snappyCompressJs, snappyMaxCompressedLength } from './snappy-js.js';

/**
 * Compresses `input` to raw snappy (varint uncompressed length, then literal/copy elements; no framing, no
 * checksum), through the WASM kernel when one is loaded, else in JS. The output is the same either way.
 */
export function snappyCompress(input: Uint8Array): Uint8Array {
  const kernel = activeSnappyKernel();
  return kernel === undefined ? snappyCompressJs(input) : kernel(input);
}
