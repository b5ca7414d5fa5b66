// The main `lakelet` entry as Node resolves it (the exports map's "node" condition): the same public values as
// the browser entry, with this thread's worker pools on worker_threads and base files compressed by node:zlib
// and the snappy WASM kernel, as `lakelet/node` sets them up. Browsers and edge runtimes get ../index.js.
import { useNodeCompressors } from './compressors-node.js';
import { useNodeWorkers } from './worker-pool-node.js';

export * from '../index.js';

useNodeWorkers();
useNodeCompressors();
