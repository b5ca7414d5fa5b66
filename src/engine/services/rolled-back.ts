// "Was this write rolled back?" — read from the rollback instants on the timeline (their plans name the
// instant they undo). A writer asks it under the commit lock before completing: a rolled-back write must
// never complete, even when a stalled writer recreated some of its timeline files afterwards.
import type { TableConfig } from '../../config/table-config.js';
import { isLakeletError } from '../../errors.js';
import { instantFilePath, timelineFilePath } from '../../layout.js';
import type { Storage } from '../../storage/storage.js';
import { compareInstantTimes } from '../../timeline/instant.js';
import { parseRollbackMetadata, parseRollbackPlan } from '../../timeline/rollback-metadata.js';
import type { Timeline } from '../../timeline/timeline.js';

/**
 * The rollback instant (any state) that undoes `instantTime`, or undefined. Only rollbacks requested after
 * the instant can target it, so older ones are not read.
 */
export async function rollbackOf(storage: Storage, config: TableConfig, timeline: Timeline, instantTime: string): Promise<string | undefined> {
  for (const r of timeline.instants) {
    if (r.action !== 'rollback' || compareInstantTimes(r.requestedTime, instantTime) <= 0) continue;
    const plan = instantFilePath(config, r.requestedTime, 'rollback', 'REQUESTED');
    try {
      if (parseRollbackPlan(await storage.read(plan), plan).instantToRollback.commitTime === instantTime) return r.requestedTime;
      continue;
    } catch (err) {
      if (!isLakeletError(err, 'NOT_FOUND') || r.state !== 'COMPLETED') throw err;
    }
    // A completed rollback whose plan is gone: its metadata names what it undid.
    const done = timelineFilePath(config, r);
    if (parseRollbackMetadata(await storage.read(done), done).commitsRollback.includes(instantTime)) return r.requestedTime;
  }
  return undefined;
}
