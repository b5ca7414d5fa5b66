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

/**
 * Browsers (and workers) fetch the kernels next to wasm-kernels.js; a file: module (Node) cannot fetch them, and
 * a bundle without a module URL (workerd gives `import.meta.url` undefined) has nowhere to fetch them from.
 */
const moduleUrl: unknown = import.meta.url;
const fetchKernels: SnappyKernelLoader | undefined = typeof moduleUrl !== 'string' || moduleUrl.startsWith('file:')
  ? undefined
  : () => import('../../kernels/wasm-kernels.js').then(({ loadKernels }) => loadKernels());

let loader: SnappyKernelLoader | undefined = fetchKernels;
let requested: Promise<boolean> | undefined;

/**
 * Sets how this thread loads the WASM kernels for snappy (Node: from the .wasm bytes); `undefined` turns the
 * load off (JS only, unless something else loads kernels). Takes effect if no load was requested yet.
 */
export function setSnappyKernelLoader(next: SnappyKernelLoader | undefined): void {
  loader = next;
}

/**
 * Starts the thread's WASM kernel load for snappy once (later calls return the same promise); resolves `true`
 * when a kernel now compresses, `false` when the load failed or no loader is set (JS stays in place). Writers
 * may call it ahead of their first page; {@link snappyCompress} calls it on first use without waiting.
 */
export function loadSnappyKernel(): Promise<boolean> {
  requested ??= (async () => {
    if (activeSnappyKernel() === undefined && loader !== undefined) await loader().catch(() => undefined);
    return activeSnappyKernel() !== undefined;
  })();
  return requested;
}

/**
 * Compresses `input` to raw snappy (varint uncompressed length, then literal/copy elements; no framing, no
 * checksum), through the WASM kernel when one is loaded, else in JS. The output is the same either way.
 */
export function snappyCompress(input: Uint8Array): Uint8Array {
  const kernel = activeSnappyKernel();
  if (kernel !== undefined) {
    try {
      return kernel(input);
    } catch {
      return snappyCompressJs(input); // wasm memory could not grow for this page: same bytes from JS
    }
  }
  if (requested === undefined) void loadSnappyKernel();
  return snappyCompressJs(input);
}
