// The metadata table's side of a data rollback (hudi-v9-write.md §4.2: "a data rollback R of X becomes an MDT
// rollback R that deletes X's MDT log files"; fixture v9_nonpartitioned_rollback): the MDT's
// `<R>.rollback.requested` (the plan: X's MDT log files, one request per file), an empty inflight, the log files
// deleted, X's MDT timeline files removed, `<R>_<C>.rollback` completed — before the data rollback completes,
// whose completion time is then minted after C. Idempotent: a re-run of an interrupted rollback keeps its plan.
import type { TableConfig } from '../../config/table-config.js';
import { parseProperties } from '../../config/properties.js';
import { isLakeletError } from '../../errors.js';
import { metadataTablePath, PROPERTIES_PATH } from '../../layout.js';
import { parseMetadataPartitions } from '../../metadata/metadata-partitions.js';
import type { Storage } from '../../storage/storage.js';
import { parseRollbackPlan, serializeRollbackMetadata, serializeRollbackPlan } from '../../timeline/rollback-metadata.js';
import { parseInstantFileName } from '../../timeline/instant.js';
import { parseInstantTime } from '../../timeline/instant-time.js';
import type { Clock } from '../clock.js';
import { instantTransition } from '../commit/transitions.js';
import { logFilesOf, metadataDeltacommitTransition } from './metadata-writer.js';

const METADATA_PREFIX = metadataTablePath('');

/** `clock`, never earlier than one millisecond after the instant time `floor`. */
export function clockAfter(clock: Clock, floor: string): Clock {
  const min = parseInstantTime(floor).getTime() + 1;
  return { now: () => Math.max(clock.now(), min), sleep: (ms) => clock.sleep(ms) };
}

/**
 * Roll back the MDT deltacommit of data instant `target` as part of the data rollback `rollbackTime` (see the
 * file header). Call it before the data rollback completes; complete that with the clock it returns (later than
 * the MDT rollback's completion). Nothing is written — and `clock` returned — when the table has no MDT or the
 * MDT holds nothing of `target` (no timeline file, no log file).
 */
export async function rollbackMetadataDeltacommit(storage: Storage, dataConfig: TableConfig, rollbackTime: string, target: { requestedTime: string; action: string }, clock: Clock): Promise<Clock> {
  const partitions = parseMetadataPartitions(dataConfig.properties.get('hoodie.table.metadata.partitions'));
  if (partitions.length === 0 || dataConfig.version < 8) return clock;
  let properties: Map<string, string>;
  try {
    properties = parseProperties(new TextDecoder().decode(await storage.read(metadataTablePath(PROPERTIES_PATH))));
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND')) return clock;
    throw err;
  }
  const mdt = { partitions, properties };
  const deltacommit = metadataDeltacommitTransition(storage, dataConfig, properties, target.requestedTime);
  const location = { timelinePath: deltacommit.table.timelinePath, timelineLayoutVersion: dataConfig.timelineLayoutVersion };
  const rollback = instantTransition(storage, location, rollbackTime, 'rollback');
  const done = await rollback.completedPath();
  if (done !== undefined) return clockAfter(clock, parseInstantFileName(done.slice(done.lastIndexOf('/') + 1))?.completionTime ?? rollbackTime);
  const started = clock.now();
  let files: string[]; // MDT-relative paths, as the MDT's own plan names them
  if (await rollback.exists('REQUESTED')) {
    const path = rollback.path('REQUESTED');
    files = parseRollbackPlan(await storage.read(path), path).rollbackRequests.flatMap((r) => r.filesToBeDeleted);
  } else {
    files = (await logFilesOf(storage, mdt, target.requestedTime)).map((f) => f.slice(METADATA_PREFIX.length)).sort();
    const hasInstant = (await deltacommit.exists('REQUESTED')) || (await deltacommit.exists('INFLIGHT')) || (await deltacommit.exists('COMPLETED'));
    if (files.length === 0 && !hasInstant) return clock;
    const plan = serializeRollbackPlan({
      instantToRollback: { commitTime: target.requestedTime, action: 'deltacommit' },
      rollbackRequests: files.map((f) => ({ partitionPath: f.slice(0, f.indexOf('/')), filesToBeDeleted: [f], logBlocksToBeDeleted: {} })),
    });
    await rollback.request(plan, { mode: 'overwrite' });
  }
  await rollback.markInflight();
  for (const f of files) await storage.delete(metadataTablePath(f));
  await deltacommit.remove('COMPLETED', 'INFLIGHT', 'REQUESTED');
  const byPartition: Record<string, { partitionPath: string; successDeleteFiles: string[]; rollbackLogFiles: Record<string, number>; logFilesFromFailedCommit: Record<string, number> }> = {};
  for (const f of files) {
    const p = f.slice(0, f.indexOf('/'));
    (byPartition[p] ??= { partitionPath: p, successDeleteFiles: [], rollbackLogFiles: {}, logFilesFromFailedCommit: {} }).successDeleteFiles.push(f);
  }
  const metadata = serializeRollbackMetadata({
    startRollbackTime: rollbackTime,
    timeTakenInMillis: Math.max(0, clock.now() - started),
    totalFilesDeleted: files.length,
    commitsRollback: [target.requestedTime],
    partitionMetadata: byPartition,
    instantsRollback: [{ commitTime: target.requestedTime, action: 'deltacommit' }],
  });
  await rollback.complete(metadata, { mode: 'overwrite', clock });
  const path = await rollback.completedPath();
  return clockAfter(clock, (path && parseInstantFileName(path.slice(path.lastIndexOf('/') + 1))?.completionTime) ?? rollbackTime);
}
