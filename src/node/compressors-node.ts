// Node's page compressors: GZIP through node:zlib (level 1, as the fflate default), ZSTD through node:zlib's
// zstdCompressSync where this Node has it (Node 22.15+/23.8+; Node 20 has none, so ZSTD still needs
// `compressors.ZSTD`), and the file writer's WASM kernels (snappy, bloom adds) loaded from the .wasm bytes
// (Node's fetch cannot read file: URLs). Called by Node's entries (`lakelet` through the exports map's "node"
// condition, node/main.ts, and `lakelet/node`) and by the Node worker entry, so the calling thread and the
// pool's workers compress alike; the file browsers get (../index.ts) never imports node:zlib.
import * as zlib from 'node:zlib';
import { registerPageCompressors, type PageCompressor } from '../format/compress/default-compressors.js';
import { setThreadKernelsLoader } from '../kernels/thread-kernels-load.js';
import { nodeWorkerFactory } from './worker-pool-node.js';

type ZstdSync = (input: Uint8Array, options?: { params?: Record<number, number> }) => Uint8Array;

/** GZIP through node:zlib at level 1 (zlib's gzip header: zero mtime, so the same input gives the same bytes). */
export const gzipNodeZlib: PageCompressor = (input) => zlib.gzipSync(input, { level: 1 });

/** ZSTD through node:zlib, when this Node has `zstdCompressSync` (default level 3); else `undefined`. */
export const zstdNodeZlib: PageCompressor | undefined = (() => {
  const zstd = (zlib as unknown as { zstdCompressSync?: ZstdSync }).zstdCompressSync;
  return typeof zstd === 'function' ? (input: Uint8Array) => zstd(input) : undefined;
})();

let installed = false;

/**
 * Makes this thread's base files compress with node:zlib (GZIP; ZSTD where available) and load the file
 * writer's WASM kernels from the packaged bytes. Idempotent.
 */
export function useNodeCompressors(): void {
  if (installed) return;
  installed = true;
  registerPageCompressors(zstdNodeZlib === undefined ? { GZIP: gzipNodeZlib } : { GZIP: gzipNodeZlib, ZSTD: zstdNodeZlib });
  setThreadKernelsLoader(async () => {
    const bytes = await nodeWorkerFactory.defaultKernels?.();
    if (!(bytes instanceof ArrayBuffer)) return;
    const { loadKernels } = await import('../kernels/wasm-kernels.js');
    await loadKernels(bytes);
  });
}
