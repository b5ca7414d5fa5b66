// The instants the source's rollbacks and restores undid, read from their plans (pending) or metadata
// (completed): on the target those instants are taken back instead of counting as divergence.
import type { Storage } from '../storage/storage.js';
import { isLakeletError } from '../errors.js';
import type { Instant } from '../timeline/instant.js';
import { parseRestoreMetadata, parseRestorePlan } from '../timeline/restore-metadata.js';
import { parseRollbackMetadata, parseRollbackPlan } from '../timeline/rollback-metadata.js';
import { timelineFilePathOf, type TableDirs } from './replicate-paths.js';

/** Requested times undone by `instants` (rollback and restore instants of the table at `dirs`). */
export async function rolledBackTimes(storage: Storage, dirs: TableDirs, instants: readonly Instant[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const i of instants) {
    const completed = i.state === 'COMPLETED';
    const name = completed ? i.fileName : `${i.requestedTime}.${i.action}.requested`;
    const path = timelineFilePathOf(dirs, name);
    let bytes: Uint8Array;
    try {
      bytes = await storage.read(path);
    } catch (err) {
      if (isLakeletError(err, 'NOT_FOUND')) continue; // gone since the listing (archived): nothing to take back
      throw err;
    }
    if (i.action === 'rollback') {
      if (completed) for (const t of parseRollbackMetadata(bytes, path).commitsRollback) out.add(t);
      else out.add(parseRollbackPlan(bytes, path).instantToRollback.commitTime);
    } else if (completed) {
      for (const t of parseRestoreMetadata(bytes, path).instantsToRollback) out.add(t);
    } else {
      for (const t of parseRestorePlan(bytes, path).instantsToRollback) out.add(t.commitTime);
    }
  }
  return out;
}
