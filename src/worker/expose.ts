// Exposes the WorkerApi implementation over a comlink endpoint, transferring result buffers back and
// loading the implementation lazily so the entry module has no top-level await (toolchain P8).
import { expose, transfer, type Endpoint } from 'comlink';
import { installErrorTransfer } from './error-transfer.js';
import { resultTransfers, type WorkerApi, type WorkerConfig } from './worker-api.js';

/** Serve the WorkerApi on `endpoint` (default: the dedicated worker's global scope). */
export function exposeWorkerApi(endpoint?: Endpoint): void {
  installErrorTransfer();
  let config: WorkerConfig = {};
  let impl: Promise<WorkerApi> | undefined;
  const api = (): Promise<WorkerApi> => (impl ??= import('./worker-impl.js').then((m) => m.createWorkerApi(config)));
  const send = <T>(result: T): T => {
    const buffers = resultTransfers(result);
    return buffers.length > 0 ? transfer(result, buffers) : result;
  };
  const served: WorkerApi = {
    async configure(next) {
      config = { ...config, ...next };
      if (impl) await (await impl).configure(next);
    },
    kernelsInfo: async () => (await api()).kernelsInfo(),
    tagFile: async (r) => send(await (await api()).tagFile(r)),
    mergeFileGroup: async (r) => send(await (await api()).mergeFileGroup(r)),
    compactFileSlice: async (r) => send(await (await api()).compactFileSlice(r)),
  };
  expose(served, endpoint);
}
