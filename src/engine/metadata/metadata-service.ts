// The frame every metadata-table service (MDT compaction, MDT clean) runs in: under the data table's commit
// lock, finish the service's interrupted instants first, then plan a new one and, when there is something to
// do, request it at a fresh time later than every time of both timelines (`<t>.<action>.requested`, a
// CONFLICT when another writer took that name), mark it inflight and execute it.
import type { TableConfig } from '../../config/table-config.js';
import { LakeletError } from '../../errors.js';
import { metadataTimelineDir } from '../../layout.js';
import type { Storage } from '../../storage/storage.js';
import type { Timeline } from '../../timeline/timeline.js';
import { systemClock, type Clock } from '../clock.js';
import { withCommitLock } from '../commit/commit-lock.js';
import { heartbeatExpired, HEARTBEAT_TIMEOUT_MS } from '../commit/heartbeat.js';
import { mintInstantTime } from '../commit/instant-request.js';
import { instantTransition, type TransitionLocation } from '../commit/transitions.js';
import { loadTimeline } from '../table-state.js';
import { openMetadataTable, type MetadataTable } from './metadata-table.js';

/** Where the MDT's instant files live (its own `hoodie.timeline.path`; layout 2). */
export function metadataTimelineLocation(mdt: Pick<MetadataTable, 'properties'>): TransitionLocation {
  return { timelinePath: metadataTimelineDir(2, mdt.properties.get('hoodie.timeline.path')), timelineLayoutVersion: 2 };
}

/** What a new run of a service requests: its plan (the requested file) and the inflight file's bytes. */
export interface PlannedMetadataService {
  requested: Uint8Array;
  /** Bytes of `<t>.<action>.inflight` (default empty). */
  inflight?: Uint8Array;
}

/** One metadata-table service, in the steps {@link runMetadataService} calls. */
export interface MetadataService<R> {
  /** The MDT instant's action. */
  action: 'clean' | 'compaction';
  /** Re-run the service's interrupted instants; what each did. */
  finishPending(mdt: MetadataTable, clock: Clock): Promise<R[]>;
  /** A new run's plan on the current MDT, or undefined when nothing is due. */
  plan(mdt: MetadataTable, dataTimeline: Timeline): Promise<PlannedMetadataService | undefined>;
  /** Execute the requested and inflight instant from its plan (read back from `path`, its requested file). */
  execute(mdt: MetadataTable, instant: string, requested: Uint8Array, path: string, clock: Clock): Promise<R>;
}

/** Clock and lock settings of a metadata-table service. */
export interface MetadataServiceOptions {
  /** Time source of the instant and completion times and the commit lock (default the system clock). */
  clock?: Clock;
  /** Silence after which the commit lock's holder counts as gone (default 60 s). */
  heartbeatTimeoutMs?: number;
}

/**
 * Run `service` on the data table's metadata table under the commit lock. Returns the new run's result, else
 * the last interrupted run finished, else undefined (no MDT, or nothing due: nothing written then).
 */
export async function runMetadataService<R>(storage: Storage, config: TableConfig, options: MetadataServiceOptions, service: MetadataService<R>): Promise<R | undefined> {
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const owner = mintInstantTime(config, [], new Date(clock.now()));
  return withCommitLock(storage, owner, async (held) => {
    const dataTimeline = await loadTimeline(storage, config);
    let mdt = await openMetadataTable(storage, { dataConfig: config, dataTimeline });
    if (!mdt) return undefined;
    const finished = await service.finishPending(mdt, clock);
    if (finished.length > 0) mdt = (await openMetadataTable(storage, { dataConfig: config, dataTimeline })) as MetadataTable;
    const planned = await service.plan(mdt, dataTimeline);
    if (!planned) return finished.at(-1);
    const instant = mintInstantTime(config, [...dataTimeline.files, ...mdt.timeline.files], new Date(clock.now()));
    const transition = instantTransition(storage, metadataTimelineLocation(mdt), instant, service.action);
    await held();
    if (!(await transition.request(planned.requested))) {
      throw new LakeletError('CONFLICT', `metadata ${service.action}: instant ${instant} was requested by another writer meanwhile`, { instant, path: transition.path('REQUESTED') });
    }
    await transition.markInflight(planned.inflight);
    return service.execute(mdt, instant, planned.requested, transition.path('REQUESTED'), clock);
  }, { clock, ownerGone: (o) => heartbeatExpired(storage, o, timeoutMs, clock) });
}
