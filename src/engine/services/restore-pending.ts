// The restore step every write and service runs first: interrupted restores finished and a crashed restore's
// rollbacks swept. Only a timeline with a restore instant needs restore.ts, so the module is loaded then and
// stays out of every other table's bundle.
import type { TableState } from '../table-state.js';
import type { RestoreResult } from './restore.js';

/**
 * Finish the table's pending restores (see restore.ts `finishPendingRestores`), loading the restore code only
 * when the timeline holds a restore instant; otherwise there is nothing to finish or sweep and this returns [].
 */
export async function finishPendingRestores(state: TableState, options: { now?: Date } = {}): Promise<RestoreResult[]> {
  if (!state.timeline.instants.some((i) => i.action === 'restore')) return [];
  return (await import('./restore.js')).finishPendingRestores(state, options);
}
