// `Table.cluster`: as the other table services, under the table's write lock on the table loaded afresh — a
// clustering plan scheduled (a live pending write → `CONFLICT`), then every pending clustering run.
import type { ClusteringResult } from '../engine/services/clustering.js';
import type { ServiceTiming } from '../engine/services/compaction.js';
import type { EngineContext } from '../engine/context.js';
import type { ClusteringOptions } from '../plan/clustering-plan.js';
import { runTableService } from './services.js';

/** Options of `Table.cluster`: what to cluster and how to lay it out, and the service timing. */
export type ClusterOptions = ClusteringOptions & ServiceTiming;

/**
 * Schedule a clustering of the table's small file groups and run every pending clustering (a crashed one starts
 * over). Returns the result of the newest clustering run, or undefined when there was nothing to cluster.
 */
export async function clusterTable(ctx: EngineContext, options: ClusterOptions = {}): Promise<ClusteringResult | undefined> {
  const { runPendingClusterings, scheduleClustering } = await import('../engine/services/clustering.js'); // the service loads on first use
  const { options: resolved, release } = ctx.writeOptions({ ...(options.clock && { clock: options.clock }), ...(options.heartbeatTimeoutMs !== undefined && { heartbeatTimeoutMs: options.heartbeatTimeoutMs }) });
  try {
    return await runTableService(ctx, 'write', async (ctx) => {
      const timing = { clock: resolved.clock, heartbeatTimeoutMs: resolved.heartbeatTimeoutMs };
      const scheduled = await scheduleClustering(ctx, { ...options, ...timing, whenWritesPending: 'conflict' });
      const results = await runPendingClusterings(ctx, { ...resolved, ...timing }, scheduled);
      return results.at(-1);
    });
  } finally {
    await release();
  }
}
