// Reading compaction plans off the timeline: which instants are compactions (pending or completed — a
// completed one shows as `<c>.commit`, its plan stays as `<c>.compaction.requested`) and which file groups
// each plan covers. Writers use it to write on top of pending plans and to detect plans they did not see.
import { fileGroupKey } from '../../file-group/file-slice.js';
import { instantFilePath, type TimelineLocation } from '../../layout.js';
import type { Storage } from '../../storage/storage.js';
import { parseCompactionPlan } from '../../timeline/compaction-plan.js';
import type { Timeline } from '../../timeline/timeline.js';
import { isLakeletError } from '../../errors.js';
import type { TableState } from '../table-state.js';

/** Requested times of every compaction on the timeline (any state), oldest first. */
export function compactionInstants(timeline: Timeline): string[] {
  const times = new Set<string>();
  for (const f of timeline.files) if (f.action === 'compaction') times.add(f.requestedTime);
  return [...times];
}

/**
 * File groups (by `fileGroupKey`) a compaction plan covers. A plan file that is gone (archived with its
 * commit) covers nothing the caller can still conflict with: empty.
 */
export async function compactionPlanGroups(storage: Storage, table: TimelineLocation, instant: string): Promise<Set<string>> {
  const path = instantFilePath(table, instant, 'compaction', 'REQUESTED');
  let bytes: Uint8Array;
  try {
    bytes = await storage.read(path);
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND')) return new Set();
    throw err;
  }
  return new Set(parseCompactionPlan(bytes, path).operations.map((op) => fileGroupKey(op.partitionPath, op.fileId)));
}

/** File groups of pending compaction plans, keyed by `fileGroupKey`, with the compaction instant. */
export async function pendingCompactionGroups(state: TableState): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const i of state.timeline.pending().filter((x) => x.action === 'compaction')) {
    const path = instantFilePath(state.config, i.requestedTime, 'compaction', 'REQUESTED');
    const plan = parseCompactionPlan(await state.storage.read(path), path);
    for (const op of plan.operations) out.set(fileGroupKey(op.partitionPath, op.fileId), i.requestedTime);
  }
  return out;
}
