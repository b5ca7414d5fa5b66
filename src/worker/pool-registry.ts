// Worker pools owned by write-option layers: a Table's write defaults own the pools its writes use (the
// Table's close() closes them); writes without an owner share one realm-wide pool per size.
import { createWorkerPool, type WorkerPool } from './pool.js';

const owned = new WeakMap<object, Map<number, WorkerPool>>();
const shared = new Map<number, WorkerPool>();

/** The pool of `size` workers owned by `owner` (shared when undefined), created on first use; undefined for size 0. */
export function workerPoolFor(owner: object | undefined, size: number): WorkerPool | undefined {
  if (size <= 0) return undefined;
  let pools = owner === undefined ? shared : owned.get(owner);
  if (!pools) owned.set(owner as object, (pools = new Map()));
  let pool = pools.get(size);
  if (!pool) pools.set(size, (pool = createWorkerPool({ size })));
  return pool;
}

/** Close the pools `owner` owns (the shared ones when undefined). Later writes start new pools. */
export async function closeWorkerPools(owner?: object): Promise<void> {
  const pools = owner === undefined ? shared : owned.get(owner);
  if (!pools) return;
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}
