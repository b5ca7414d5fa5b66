// Raw snappy compression for parquet pages (the SNAPPY codec): the AssemblyScript kernel when a WASM kernel
// instance is loaded on this thread, else the JS compressor; both emit the same bytes. Kernels load
// asynchronously and the page compressor is synchronous, so the first call asks for a load (through the loader
// the platform set: Node reads the .wasm bytes; browsers fetch the module next to wasm-kernels.js) and the
// pages compressed before it finishes go through JS.

import { activeSnappyKernel } from '../../kernels/snappy-kernel.js';
import { snappyCompressJs } from './snappy-js.js';

export { snappyCompressJs, snappyMaxCompressedLength } from './snappy-js.js';

/** Starts loading WASM kernels on this thread; a loaded instance installs itself as the snappy kernel. */
export type SnappyKernelLoader = () => Promise<unknown>;

/** Browsers (and workers) fetch the kernels next to wasm-kernels.js; a file: module (Node) cannot fetch them. */
const fetchKernels: SnappyKernelLoader | undefined = import.meta.url.startsWith('file:')
  ? undefined
  : () => import('../../kernels/wasm-kernels.js').then(({ loadKernels }) => loadKernels());

let loader: SnappyKernelLoader | undefined = fetchKernels;
let requested = false;

/**
 * Sets how this thread loads the WASM kernels for snappy (Node: from the .wasm bytes); `undefined` turns the
 * load off (JS only, unless something else loads kernels). Takes effect if no load was requested yet.
 */
export function setSnappyKernelLoader(next: SnappyKernelLoader | undefined): void {
  loader = next;
}

function requestKernel(): void {
  if (requested) return;
  requested = true;
  loader?.().catch(() => undefined); // a failed load leaves JS in place
}

/**
 * Compresses `input` to raw snappy (varint uncompressed length, then literal/copy elements; no framing, no
 * checksum), through the WASM kernel when one is loaded, else in JS. The output is the same either way.
 */
export function snappyCompress(input: Uint8Array): Uint8Array {
  const kernel = activeSnappyKernel();
  if (kernel !== undefined) return kernel(input);
  requestKernel();
  return snappyCompressJs(input);
}
