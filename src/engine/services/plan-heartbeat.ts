// Holding a table-service plan while it runs (compaction, clustering): the plan's heartbeat, created with
// writeIfAbsent (a live one held by another runner → `CONFLICT`; an expired one is taken over), beating while the
// run goes on and stopped after it; the run's markers are dropped once it is done.
import { LakeletError } from '../../errors.js';
import { heartbeatPath } from '../../layout.js';
import type { Storage } from '../../storage/storage.js';
import type { Clock } from '../clock.js';
import { deleteMarkers } from '../commit/commit-protocol.js';
import { HEARTBEAT_INTERVAL_MS, heartbeatExpired, startHeartbeat } from '../commit/heartbeat.js';

/** Run `body` holding the heartbeat of plan `instant` (`what` names the service in messages); `beat` keeps it alive. */
export async function withPlanHeartbeat<T>(storage: Storage, instant: string, what: string, timing: { clock: Clock; timeoutMs: number }, body: (beat: () => Promise<void>) => Promise<T>): Promise<T> {
  const { clock, timeoutMs } = timing;
  if (!(await storage.writeIfAbsent(heartbeatPath(instant), new TextEncoder().encode(String(clock.now()))))) {
    if (!(await heartbeatExpired(storage, instant, timeoutMs, clock))) {
      throw new LakeletError('CONFLICT', `${what}: ${instant} is being run by another writer (its heartbeat is live)`, { instant });
    }
  }
  const heartbeat = await startHeartbeat(storage, instant, HEARTBEAT_INTERVAL_MS, clock);
  let result: T;
  try {
    result = await body(() => heartbeat.beat());
  } catch (err) {
    await heartbeat.stop();
    throw err;
  }
  await heartbeat.stop();
  await deleteMarkers(storage, instant).catch(() => undefined);
  return result;
}
