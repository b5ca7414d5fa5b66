// The browser worker entry (a module Worker the pool starts with `new URL('./worker-entry.js', import.meta.url)`):
// serves the WorkerApi over comlink. No top-level await anywhere in its imports.
import { exposeWorkerApi } from './expose.js';

exposeWorkerApi();
