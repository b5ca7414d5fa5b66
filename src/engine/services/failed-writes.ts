// The failed-write step every write runs first (DESIGN.md §3 step 1): pending writes whose writer is gone rolled
// back, interrupted rollbacks finished, and heartbeats and markers that finished writes left swept. Only a
// timeline with a pending write or rollback needs rollback.ts, so the module is loaded then.
import { WRITE_ACTIONS } from '../../timeline/instant.js';
import { systemClock, type Clock } from '../clock.js';
import { sweepWriteLeftovers } from '../commit/commit-protocol.js';
import type { TableState } from '../table-state.js';
import type { RollbackResult } from './rollback.js';

/**
 * Roll back the table's failed writes (see rollback.ts `rollbackFailedWrites`), loading the rollback code only
 * when the timeline holds a pending write or rollback; otherwise only the leftovers are swept and this returns [].
 */
export async function rollbackFailedWrites(loaded: TableState, now?: Date, heartbeatTimeoutMs = 0, clock: Clock = systemClock): Promise<RollbackResult[]> {
  if (loaded.timeline.pending().some((i) => i.action === 'rollback' || WRITE_ACTIONS.has(i.action))) {
    return (await import('./rollback.js')).rollbackFailedWrites(loaded, now, heartbeatTimeoutMs, clock);
  }
  await sweepWriteLeftovers(loaded);
  return [];
}
