// Step 1 of a write (DESIGN.md §3): the table as it is now, made ready — refused when lakelet cannot maintain
// it, interrupted restores finished, interrupted savepoints dropped, failed writes rolled back — and, once the
// records are built, the commit started: a fresh instant requested under the commit lock, with its heartbeat.
import { LakeletError } from '../../errors.js';
import { requestedReplaceBytes } from '../../timeline/commit-metadata-avro.js';
import { startWrite, type InflightWrite } from '../commit/commit-protocol.js';
import type { EngineContext } from '../context.js';
import { finishPendingRestores } from '../services/restore-pending.js';
import { rollbackFailedWrites } from '../services/failed-writes.js';
import { dropInterruptedSavepoints } from '../services/savepoint.js';
import { checkTableMaintainable, MAINTAINED_METADATA_PARTITIONS } from '../table-support.js';
import { dropUnmaintainedMetadataPartitions } from '../metadata/metadata-drop.js';
import { TableState } from '../table-state.js';
import { commitAction, isReplaceOperation, type WriteOperation } from './operation.js';
import type { ResolvedWriteOptions } from './write-options.js';
import { recordingStorage } from './written-files.js';

/** The table a write attempt works on, and the files the attempt writes (discarded if it does not commit). */
export interface PreparedTable {
  /** The table state over a recording store: every file the attempt writes is listed in `written`. */
  state: TableState;
  written: readonly string[];
}

/**
 * The table as it is on storage now, made ready for a write. The start-up steps share one load; the timeline is
 * listed again only after a step changed it.
 */
export async function prepareTable(ctx: EngineContext, options: ResolvedWriteOptions, now: Date | undefined): Promise<PreparedTable> {
  let loaded = await ctx.load();
  await checkTableMaintainable(loaded, 'write');
  // MDT partitions lakelet does not maintain leave the table before anything else is written (never left stale).
  const drop = await dropUnmaintainedMetadataPartitions(ctx.storage, loaded.config, MAINTAINED_METADATA_PARTITIONS);
  if (drop.propertiesChanged) {
    ctx.invalidate({ config: true });
    loaded = await ctx.load();
  }
  if ((await finishPendingRestores(loaded, now ? { now } : {})).length > 0) loaded = await ctx.reload();
  if ((await dropInterruptedSavepoints(loaded)) > 0) loaded = await ctx.reload();
  if ((await rollbackFailedWrites(loaded, now, options.heartbeatTimeoutMs, options.clock)).length > 0) loaded = await ctx.reload();
  if (!loaded.config.populateMetaFields) throw new LakeletError('UNSUPPORTED', 'write: tables without meta fields (hoodie.populate.meta.fields=false) cannot be written yet', { field: 'hoodie.populate.meta.fields' });
  const recorder = recordingStorage(ctx.storage);
  return { state: new TableState(recorder.storage, loaded.config, loaded.timeline), written: recorder.written };
}

/** Start the commit: `<t>.<action>.requested` (an empty replace plan for overwrites) and the heartbeat. */
export function startCommit(state: TableState, op: WriteOperation, options: ResolvedWriteOptions, now: Date | undefined): Promise<InflightWrite> {
  const requested = isReplaceOperation(op) ? requestedReplaceBytes(state.config.timelineLayoutVersion) : new Uint8Array(0);
  return startWrite(state, commitAction(op, state.config), requested, now, options.clock, options.heartbeatTimeoutMs);
}
