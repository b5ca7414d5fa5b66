// A worker factory for Node tests whose "workers" serve the real WorkerApi on this thread, across a real
// MessageChannel (structured clone and transfers, as with worker_threads), with the kernels the test names
// (the WASM bytes from src/kernels/generated/, or the JS twin). It records which kernels each worker loaded
// and which ran each bloom probe, so a test can assert the kind that was used.
import { readFileSync } from 'node:fs';
import { expose, type Endpoint } from 'comlink';
import { installErrorTransfer } from '../../src/worker/error-transfer.js';
import { createWorkerApi } from '../../src/worker/worker-impl.js';
import type { WorkerFactory } from '../../src/worker/pool.js';
import type { WorkerApi, WorkerKernels } from '../../src/worker/worker-api.js';
import { wasmSimdSupported } from '../../src/kernels/wasm-kernels.js';
import type { KernelsKind } from '../../src/kernels/kernels.js';

/** The WASM kernel bytes the build generated (SIMD build when supported). */
export function generatedKernelBytes(): ArrayBuffer {
  const name = wasmSimdSupported() ? 'kernels.wasm' : 'kernels-scalar.wasm';
  const bytes = readFileSync(new URL(`../../src/kernels/generated/${name}`, import.meta.url));
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** What the in-process workers did. */
export interface InProcessWorkerLog {
  /** Workers started. */
  started: number;
  /** The kernel kind each worker loaded (asked on its first task). */
  loaded: KernelsKind[];
  /** Bloom-index tagFile calls by the kernels that reported running them (one that probed nothing says 'js'). */
  bloomProbes: Record<KernelsKind, number>;
  /** tagFile calls in all. */
  tagCalls: number;
}

/** An in-process worker factory, its log, and `close()` to shut every worker's channel. */
export interface InProcessWorkers {
  factory: WorkerFactory;
  log: InProcessWorkerLog;
  close(): void;
}

/** A factory whose workers load `kernels` (`'js'` forces the JS twin; an ArrayBuffer is a WASM module). */
export function inProcessWorkers(kernels: WorkerKernels): InProcessWorkers {
  installErrorTransfer();
  const log: InProcessWorkerLog = { started: 0, loaded: [], bloomProbes: { wasm: 0, js: 0 }, tagCalls: 0 };
  const ports: MessagePort[] = [];
  const factory: WorkerFactory = {
    create() {
      log.started++;
      const { port1, port2 } = new MessageChannel();
      ports.push(port1, port2);
      let api: WorkerApi = createWorkerApi({ kernels });
      let reported = false;
      const report = async (): Promise<void> => {
        if (reported) return;
        reported = true;
        log.loaded.push((await api.kernelsInfo()).kind);
      };
      const served: WorkerApi = {
        configure: async (next) => {
          if (next.kernels !== undefined) api = createWorkerApi({ kernels: next.kernels });
        },
        kernelsInfo: () => api.kernelsInfo(),
        tagFile: async (r) => {
          await report();
          log.tagCalls++;
          const result = await api.tagFile(r);
          // The kernels run only for a bloom probe; a call that probed nothing reports 'js'.
          if (r.useBloom) log.bloomProbes[result.kernels]++;
          return result;
        },
        mergeFileGroup: async (r) => (await report(), api.mergeFileGroup(r)),
        compactFileSlice: async (r) => (await report(), api.compactFileSlice(r)),
      };
      expose(served, port2 as unknown as Endpoint);
      return {
        endpoint: port1 as unknown as Endpoint,
        terminate: () => {
          port1.close();
          port2.close();
        },
        onFailure: () => undefined,
      };
    },
    defaultKernels: async () => kernels,
  };
  return { factory, log, close: () => ports.forEach((p) => p.close()) };
}
