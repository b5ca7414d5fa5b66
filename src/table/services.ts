// The Table's table services, run the one way they all run: under the table's write lock, on the table loaded
// afresh and checked maintainable for the operation, then the service; the snapshot the service left is what
// the table shows afterwards. Also the services whose set-up is more than one call: rollback (pending restores
// finished first), compaction (schedule, then run every pending plan) and disabling the metadata table.
import { withTableWriteLock } from '../engine/commit/write-lock.js';
import type { EngineContext } from '../engine/context.js';
import { scheduleCompaction, type CompactionResult } from '../engine/services/compaction.js';
import { finishPendingRestores } from '../engine/services/restore-pending.js';
import type { RollbackResult } from '../engine/services/rollback.js';
import { checkTableMaintainable, disableMetadataTable, type DisableMetadataTableResult, type MaintenanceOperation } from '../engine/table-support.js';
import { resolveWriteOptions, type WriteOptions } from '../engine/write/write-options.js';
import type { Instant } from '../timeline/instant.js';

/**
 * One table service: under the table's write lock, the table loaded afresh, refused when lakelet cannot
 * maintain it (before anything is written), then the service; afterwards the snapshot the service left is
 * what the table shows (a failing re-read does not report a service that ran as failed: a later refresh()
 * catches up).
 */
export async function runTableService<T>(ctx: EngineContext, operation: MaintenanceOperation, service: (ctx: EngineContext) => Promise<T>): Promise<T> {
  try {
    return await withTableWriteLock(ctx.storage, async () => {
      await checkTableMaintainable(await ctx.load(), operation);
      return service(ctx);
    });
  } finally {
    ctx.invalidate();
    await ctx.snapshot().catch(() => undefined);
  }
}

/** `Table.rollback`: pending restores finished first, then the latest (or the given) write rolled back. */
export function rollbackTable(ctx: EngineContext, instant: string | Instant | undefined, options: Pick<WriteOptions, 'clock' | 'heartbeatTimeoutMs'> & { force?: boolean }): Promise<RollbackResult> {
  return runTableService(ctx, 'rollback', async (ctx) => {
    if ((await finishPendingRestores(await ctx.snapshot())).length > 0) await ctx.reload();
    const { force, ...timing } = options;
    const { clock, heartbeatTimeoutMs } = resolveWriteOptions(ctx.defaults, timing);
    return (await import('../engine/services/rollback-latest.js')).rollbackLatestWrite(ctx, typeof instant === 'object' ? instant.requestedTime : instant, { clock, heartbeatTimeoutMs, force: force === true });
  });
}

/** `Table.compact`: a plan scheduled (a live pending write → `CONFLICT`), then every pending compaction run. */
export async function compactTable(ctx: EngineContext, options: WriteOptions & { force?: boolean }): Promise<CompactionResult[]> {
  const { options: resolved, release } = ctx.writeOptions(options);
  try {
    return await runTableService(ctx, 'compact', async (ctx) => {
      await scheduleCompaction(ctx, resolved.compaction, options.force ?? true, { ...resolved, whenWritesPending: 'conflict' });
      return (await import('../engine/services/compaction-run.js')).runPendingCompactions(ctx, resolved);
    });
  } finally {
    await release();
  }
}

/** `Table.disableMetadataTable`: under the write lock on the table loaded afresh; the table re-read afterwards. */
export async function disableTableMetadataTable(ctx: EngineContext): Promise<DisableMetadataTableResult> {
  const result = await withTableWriteLock(ctx.storage, async () => disableMetadataTable(await ctx.load()));
  await ctx.load();
  return result;
}
