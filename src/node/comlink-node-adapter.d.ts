// Types for comlink's Node adapter: its package ships `node-adapter.d.ts` beside the `.mjs`, which NodeNext
// resolution does not pick up for a `.mjs` import.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink';
  /** What the adapter needs of a worker_threads Worker or MessagePort. */
  export interface NodeEndpoint {
    postMessage(message: unknown, transfer?: readonly unknown[]): void;
    on(type: string, listener: (...args: unknown[]) => void): unknown;
    off(type: string, listener: (...args: unknown[]) => void): unknown;
    start?: () => void;
  }
  /** Wraps a Node port as a comlink endpoint. */
  export default function nodeEndpoint(nep: NodeEndpoint): Endpoint;
}
