// The pool's side of the worker transport: comlink's proxy, transfer and release, with LakeletError carried across
// (error-transfer.ts). The pool (pool.ts) loads this file with the first task it sends to a worker, so work that
// runs inline only (small writes, reads, pool size 0) never loads comlink.
import { releaseProxy, transfer, wrap } from 'comlink';
import { installErrorTransfer } from './error-transfer.js';

/** What the pool uses of comlink. */
export interface WorkerTransport {
  wrap: typeof wrap;
  transfer: typeof transfer;
  releaseProxy: typeof releaseProxy;
}

/** comlink for the pool, its LakeletError transfer handler installed (idempotent). */
export function workerTransport(): WorkerTransport {
  installErrorTransfer();
  return { wrap, transfer, releaseProxy };
}
