// The snappy compressor of the WASM kernels loaded on this thread, for the synchronous page compressor
// (src/format/compress/snappy.ts): set by the WASM binding when a module instance is ready, read per page.

/** A synchronous raw-snappy compressor. */
export type SnappyKernel = (input: Uint8Array) => Uint8Array;

let active: SnappyKernel | undefined;

/** The loaded WASM snappy compressor, or `undefined` while none is loaded (callers then use the JS one). */
export function activeSnappyKernel(): SnappyKernel | undefined {
  return active;
}

/** Makes `kernel` the thread's snappy compressor (`undefined`: back to JS). The first loaded instance stays. */
export function installSnappyKernel(kernel: SnappyKernel | undefined, replace = false): void {
  if (active === undefined || replace || kernel === undefined) active = kernel;
}
