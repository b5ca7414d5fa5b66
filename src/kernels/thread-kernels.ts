// The WASM kernels loaded on this thread, for the synchronous hot loops of the base-file writer and reader (SNAPPY
// pages both ways, the bloom filter's batch add): the first loaded instance installs itself; callers read it per call
// and use the JS code while none is loaded (same bytes either way). How a thread loads them: thread-kernels-load.ts.
import type { Kernels } from './kernels.js';

/** The kernels synchronous callers use. */
export type ThreadKernels = Pick<Kernels, 'snappyCompress' | 'snappyUncompress' | 'bloomAdd'>;

let active: ThreadKernels | undefined;

/** The loaded WASM kernels, or `undefined` while none is loaded (callers then use JS). */
export function activeThreadKernels(): ThreadKernels | undefined {
  return active;
}

/** Makes `kernels` the thread's kernels (`undefined`: back to JS). The first loaded instance stays. */
export function installThreadKernels(kernels: ThreadKernels | undefined, replace = false): void {
  if (active === undefined || replace || kernels === undefined) active = kernels;
}
