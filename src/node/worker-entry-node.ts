// The Node worker entry: a worker_thread serving the WorkerApi over comlink's Node adapter (parentPort).
import { parentPort } from 'node:worker_threads';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { exposeWorkerApi } from '../worker/expose.js';
import { useNodeCompressors } from './compressors-node.js';

if (!parentPort) throw new Error('lakelet worker: worker-entry-node.js must run in a worker_thread');
useNodeCompressors(); // the same page compressors as the `lakelet/node` calling thread
exposeWorkerApi(nodeEndpoint(parentPort as unknown as Parameters<typeof nodeEndpoint>[0]));
