// Node worker threads for the worker pool: starts `worker-entry-node.js` in a worker_thread, talks to it
// through comlink's Node adapter, and hands workers the WASM kernel bytes (Node's fetch cannot read file: URLs).
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { wasmSimdSupported } from '../kernels/wasm-kernels.js';
import { registerWorkerFactory, type WorkerFactory } from '../worker/pool.js';
import type { WorkerKernels } from '../worker/worker-api.js';

let kernelBytes: Promise<WorkerKernels> | undefined;

/** This module is the built one (dist/): `worker-entry-node.js` exists beside it. */
const RUNS_FROM_BUILD = !import.meta.url.endsWith('.ts');

/** The WASM kernels next to the kernels module (SIMD build when supported), or `'auto'` when unreadable. */
function readKernelBytes(): Promise<WorkerKernels> {
  kernelBytes ??= (async () => {
    const name = wasmSimdSupported() ? 'kernels.wasm' : 'kernels-scalar.wasm';
    try {
      const bytes = await readFile(new URL(`../kernels/generated/${name}`, import.meta.url));
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    } catch {
      return 'auto';
    }
  })();
  return kernelBytes;
}

/**
 * Starts pool workers as Node worker_threads. Idle workers are unref'd, so an open pool does not keep
 * the process alive; busy ones are ref'd until their tasks finish.
 */
export const nodeWorkerFactory: WorkerFactory = {
  create(url) {
    const worker = new Worker(url ?? new URL('./worker-entry-node.js', import.meta.url));
    worker.unref();
    return {
      endpoint: nodeEndpoint(worker as unknown as Parameters<typeof nodeEndpoint>[0]),
      terminate: () => worker.terminate(),
      onFailure(callback) {
        worker.on('error', callback);
        worker.on('exit', (code) => callback(new Error(`worker exited with code ${code}`)));
      },
      setBusy: (busy) => (busy ? worker.ref() : worker.unref()),
    };
  },
  defaultKernels: readKernelBytes,
  // Node's main thread mostly waits on I/O while workers merge, so every core gets a worker (at most 4). Run from
  // lakelet's TypeScript source (vitest, tsx) there is no built worker entry beside this module: no default pool.
  defaultSize: () => (RUNS_FROM_BUILD ? Math.min(availableParallelism(), 4) : 0),
};

/** Makes pools without a factory of their own use Node worker_threads (`lakelet/node` calls this on import). */
export function useNodeWorkers(): void {
  registerWorkerFactory(nodeWorkerFactory);
}
