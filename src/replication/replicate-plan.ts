// Which instants a replication target lacks and in what order they are published, and whether the target
// diverged from the source (a completed instant the source never had, or the same instant with other content).
// Pure: timelines and file sizes in, a plan or a CONFLICT out.
import { conflict } from '../errors.js';
import { METADATA_TABLE_DIR } from '../layout.js';
import { compareInstantTimes, completedAction, type Instant } from '../timeline/instant.js';
import type { Timeline } from '../timeline/timeline.js';
import type { ReplicatedTable } from './replicate-paths.js';

/** One table's active timeline as listed: the parsed instants and each timeline file's size. */
export interface TimelineSide {
  timeline: Timeline;
  /** Timeline file name → size in bytes. */
  sizes: ReadonlyMap<string, number>;
}

/** Publish one instant (or copy one pending table-service plan) on the target. */
export interface PublishStep {
  table: ReplicatedTable;
  /** The source's instant in its latest state. */
  instant: Instant;
  /** Its requested and inflight file names, copied first (skipped when the target has them at that size). */
  pendingFiles: string[];
  /** The completed file's name, created last with `writeIfAbsent`; undefined for a pending plan. */
  completedFile: string | undefined;
}

/** Take back, on the target, an instant the source rolled back (its completed file first, then the rest). */
export interface RevertStep {
  table: ReplicatedTable;
  requestedTime: string;
  /** Timeline file names to delete, in order. */
  files: string[];
}

/** What to do with the instants. */
export interface InstantPlan {
  reverts: RevertStep[];
  /** In publication order: each metadata-table instant before the data instant it belongs with. */
  steps: PublishStep[];
  /** The newest completed instant file both sides have (its bytes are compared), if any. */
  newestCommon: { table: ReplicatedTable; fileName: string } | undefined;
}

/** Both tables of one store; `metadata` undefined when the store has no metadata table. */
export interface StoreTimelines {
  data: TimelineSide;
  metadata: TimelineSide | undefined;
}

/** Plans of table services whose pending plan readers need (log files are written against a pending compaction). */
const PLAN_ACTIONS: ReadonlySet<string> = new Set(['compaction', 'logcompaction', 'clustering']);
const ROLLING_BACK: ReadonlySet<string> = new Set(['rollback', 'restore']);
const STATE_ORDER = { COMPLETED: 0, INFLIGHT: 1, REQUESTED: 2 } as const;

const keyOf = (i: Instant): string => `${i.requestedTime}.${completedAction(i.action)}`;
/** Where an instant sits in publication order: its completion time (layout 2), else its requested time. */
const orderTime = (i: Instant): string => i.completionTime ?? i.requestedTime;

/** The files (all states) of one instant on a timeline. */
function filesOf(timeline: Timeline, instant: Instant): Instant[] {
  const key = keyOf(instant);
  return timeline.files.filter((f) => keyOf(f) === key);
}

/**
 * The source's rollback and restore instants (any state) that may have undone instants still on the target:
 * those requested after the oldest target instant the source lacks (none lacking → none to read). Their plans
 * or metadata are read by the caller and passed to {@link planInstants} as the rolled-back times; those
 * instants are then taken back on the target instead of counting as divergence.
 */
export function rollbacksToRead(source: TimelineSide, target: TimelineSide | undefined): Instant[] {
  if (target === undefined) return [];
  const oldest = unmatchedInstants(target, source)[0]?.requestedTime;
  if (oldest === undefined) return [];
  return source.timeline.instants.filter((i) => ROLLING_BACK.has(i.action) && compareInstantTimes(i.requestedTime, oldest) > 0);
}

/**
 * The instants (any state) of `side` that `other` lacks — not on its timeline under the same requested time
 * and action, and not older than its active timeline (archived there) — oldest first.
 */
export function unmatchedInstants(side: TimelineSide, other: TimelineSide): Instant[] {
  const have = new Set(other.timeline.instants.map(keyOf));
  const start = other.timeline.instants[0]?.requestedTime;
  return side.timeline.instants.filter((i) => !have.has(keyOf(i)) && (start === undefined || compareInstantTimes(i.requestedTime, start) >= 0));
}

/** Requested times the source's rollbacks and restores undid, per table. */
export interface RolledBack {
  data: ReadonlySet<string>;
  metadata: ReadonlySet<string>;
}

/**
 * Check one table's target timeline against the source's: every target instant must be on the source (same
 * completed file name and size), archived there (older than the source's active timeline), or rolled back there
 * (then it is reverted). The first target instant that is none of these → `CONFLICT` naming it.
 */
function checkTable(table: ReplicatedTable, source: TimelineSide, target: TimelineSide, rolledBack: ReadonlySet<string>): RevertStep[] {
  const bySource = new Map(source.timeline.instants.map((i) => [keyOf(i), i]));
  const sourceStart = source.timeline.instants[0]?.requestedTime;
  const reverts: RevertStep[] = [];
  const where = table === 'data' ? 'the target' : "the target's metadata table";
  for (const t of target.timeline.instants) {
    const s = bySource.get(keyOf(t));
    if (s !== undefined) {
      if (t.state !== 'COMPLETED') continue; // a publication cut short, or a copied plan
      if (s.state !== 'COMPLETED') {
        throw conflict(`replicate: ${where} has ${t.fileName} completed but the source's ${s.requestedTime} is still ${s.state.toLowerCase()}: the target diverged`, { instant: t.requestedTime, path: t.fileName, table });
      }
      if (s.fileName !== t.fileName || source.sizes.get(s.fileName) !== target.sizes.get(t.fileName)) {
        throw conflict(`replicate: ${where} has instant ${t.requestedTime} as ${t.fileName} (${target.sizes.get(t.fileName)} bytes) but the source has ${s.fileName} (${source.sizes.get(s.fileName)} bytes): the target diverged`, { instant: t.requestedTime, path: t.fileName, table });
      }
      continue;
    }
    if (rolledBack.has(t.requestedTime)) {
      const files = filesOf(target.timeline, t).sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state]).map((f) => f.fileName);
      reverts.push({ table, requestedTime: t.requestedTime, files });
      continue;
    }
    if (sourceStart !== undefined && compareInstantTimes(t.requestedTime, sourceStart) < 0) continue; // archived on the source
    throw conflict(`replicate: ${where} has instant ${t.fileName} that the source lacks (someone else wrote there): the target diverged at ${t.requestedTime}`, { instant: t.requestedTime, path: t.fileName, table });
  }
  // Newest first, so the target stays at a prefix of the timeline while they go.
  return reverts.reverse();
}

/** The steps publishing one table's missing instants, and the pending plans before them. */
function stepsOf(table: ReplicatedTable, source: TimelineSide, target: TimelineSide | undefined): PublishStep[] {
  const targetSizes = target?.sizes ?? new Map<string, number>();
  const steps: PublishStep[] = [];
  for (const i of source.timeline.instants) {
    const pendingFiles = filesOf(source.timeline, i).filter((f) => f.state !== 'COMPLETED').map((f) => f.fileName);
    if (i.state === 'COMPLETED') {
      if (targetSizes.has(i.fileName)) continue;
      steps.push({ table, instant: i, pendingFiles, completedFile: i.fileName });
    } else if (PLAN_ACTIONS.has(i.action) && pendingFiles.some((f) => targetSizes.get(f) !== source.sizes.get(f))) {
      steps.push({ table, instant: i, pendingFiles, completedFile: undefined });
    }
  }
  return steps;
}

/**
 * Plan the instants of a replication: check divergence (data table first, then the metadata table), list the
 * reverts of instants the source rolled back, and the steps that publish what the target lacks — completed
 * instants in completion order (layout 1: requested order), each metadata-table instant before the data
 * instant completed at or after it, so the target's data table never names a metadata commit it lacks.
 * Pending writes of the source are not copied (they are not visible there either); pending compaction and
 * clustering plans are, before the instants after them.
 */
export function planInstants(source: StoreTimelines, target: StoreTimelines | undefined, rolledBack: RolledBack): InstantPlan {
  const reverts: RevertStep[] = [];
  if (target !== undefined) {
    reverts.push(...checkTable('data', source.data, target.data, rolledBack.data));
    if (target.metadata !== undefined) {
      if (source.metadata === undefined) {
        throw conflict(`replicate: the target has a metadata table (${METADATA_TABLE_DIR}) but the source has none: the target diverged`, { path: METADATA_TABLE_DIR });
      }
      reverts.push(...checkTable('metadata', source.metadata, target.metadata, rolledBack.metadata));
    }
  }
  const steps = [...(source.metadata ? stepsOf('metadata', source.metadata, target?.metadata) : []), ...stepsOf('data', source.data, target?.data)];
  const position = new Map(steps.map((s, n) => [s, n]));
  const tableRank = (s: PublishStep): number => (s.table === 'metadata' ? 0 : 1);
  steps.sort((a, b) => compareInstantTimes(orderTime(a.instant), orderTime(b.instant)) || tableRank(a) - tableRank(b) || (position.get(a) ?? 0) - (position.get(b) ?? 0));
  return { reverts, steps, newestCommon: target === undefined ? undefined : newestCommon(source, target) };
}

/** The newest completed instant file present on both sides (the data table's, else the metadata table's). */
function newestCommon(source: StoreTimelines, target: StoreTimelines): InstantPlan['newestCommon'] {
  for (const table of ['data', 'metadata'] as const) {
    const s = source[table];
    const t = target[table];
    if (!s || !t) continue;
    const common = t.timeline.completed().filter((i) => s.sizes.has(i.fileName));
    const last = common.at(-1);
    if (last) return { table, fileName: last.fileName };
  }
  return undefined;
}
