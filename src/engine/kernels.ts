// Kernels on the calling thread: the write steps that run there (dedupe, the bulk-insert key sort, the record
// index's key hash) use the WASM module above the batch size where it wins, loaded once per process on first
// use (in Node from the bytes the registered worker factory reads), else the JS twin with identical results.
import { LakeletError } from '../errors.js';
import { jsKernels } from '../kernels/js-kernels.js';
import type { Kernels } from '../kernels/kernels.js';
import { registeredWorkerFactory } from '../worker/pool.js';

/** `'auto'`: WASM when it loads, else the JS twin; `'js'`: the JS twin. */
export type KernelsChoice = 'auto' | 'js';

let wasm: Promise<Kernels> | undefined;

/** Validates the `kernels` option (default `'auto'`). */
export function kernelsChoice(value: unknown): KernelsChoice {
  if (value === undefined) return 'auto';
  if (value === 'auto' || value === 'js') return value;
  throw new LakeletError('INVALID_ARGUMENT', `write: kernels must be 'auto' or 'js', got ${JSON.stringify(value)}`, { field: 'kernels', value: String(value) });
}

/** The kernels of the calling thread for `choice`; never rejects (a WASM load failure gives the JS twin). */
export function mainThreadKernels(choice: KernelsChoice = 'auto'): Promise<Kernels> {
  if (choice === 'js') return Promise.resolve(jsKernels);
  wasm ??= (async () => {
    const { loadKernels } = await import('../kernels/wasm-kernels.js');
    const bytes = await registeredWorkerFactory()?.defaultKernels?.().catch(() => undefined);
    return loadKernels(bytes instanceof ArrayBuffer ? bytes : undefined);
  })().catch(() => jsKernels);
  return wasm;
}
