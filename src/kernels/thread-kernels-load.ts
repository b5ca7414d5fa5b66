// How this thread loads its WASM kernels (thread-kernels.ts): kernels load asynchronously, so a writer or reader asks
// for a load once — through the loader the platform set: Node reads the .wasm bytes; browsers fetch the module next
// to wasm-kernels.js — and what it does before the load finishes runs in JS.
import { activeThreadKernels } from './thread-kernels.js';

/** Starts loading WASM kernels on this thread; a loaded instance installs itself. */
export type ThreadKernelsLoader = () => Promise<unknown>;

/**
 * Browsers (and workers) fetch the kernels next to wasm-kernels.js; a file: module (Node) cannot fetch them, and
 * a bundle without a module URL (workerd gives `import.meta.url` undefined) has nowhere to fetch them from.
 */
const moduleUrl: unknown = import.meta.url;
const fetchKernels: ThreadKernelsLoader | undefined = typeof moduleUrl !== 'string' || moduleUrl.startsWith('file:')
  ? undefined
  : () => import('./wasm-kernels.js').then(({ loadKernels }) => loadKernels());

let loader: ThreadKernelsLoader | undefined = fetchKernels;
let requested: Promise<void> | undefined;

/**
 * Sets how this thread loads the WASM kernels (Node: from the .wasm bytes); `undefined` turns the load off (JS
 * only, unless something else loads kernels). Takes effect if no load was requested yet.
 */
export function setThreadKernelsLoader(next: ThreadKernelsLoader | undefined): void {
  loader = next;
}

/** Starts the thread's WASM kernel load once, without waiting (callers use JS until it lands). */
export function requestThreadKernels(): void {
  requested ??= activeThreadKernels() === undefined && loader !== undefined ? loader().then(() => undefined, () => undefined) : Promise.resolve();
}

/**
 * Waits for the thread's WASM kernel load (started once); `true` when kernels are installed — by this load or any
 * other — and `false` when the load failed or no loader is set (JS stays in place).
 */
export async function loadThreadKernels(): Promise<boolean> {
  requestThreadKernels();
  await requested;
  return activeThreadKernels() !== undefined;
}
