// Pending clustering plans (lakelet's own, services/clustering.ts, or another engine's) and what a write may do
// beside them, as Hudi's default `SparkRejectUpdateStrategy`: updates and deletes of a file group in a pending
// clustering plan are refused (Hudi's HoodieClusteringUpdateException), so are overwrites replacing one; such
// groups never take inserts as small files. A v8/v9 plan is `<t>.clustering.requested`, a v6 one a
// `<t>.replacecommit.requested` whose operation is CLUSTER (hudi-format.md §3.3).
import { isLakeletError, LakeletError } from '../../errors.js';
import { fileGroupKey } from '../../file-group/file-slice.js';
import { instantFilePath } from '../../layout.js';
import { parseRequestedReplaceMetadata } from '../../timeline/replace-metadata.js';
import type { TableState } from '../table-state.js';

/** The file groups (`fileGroupKey`) of one clustering plan's input slices. */
function planGroups(plan: unknown): string[] {
  const out: string[] = [];
  const groups = (plan as { inputGroups?: unknown } | null)?.inputGroups;
  for (const g of Array.isArray(groups) ? groups : []) {
    const slices = (g as { slices?: unknown } | null)?.slices;
    for (const s of Array.isArray(slices) ? slices : []) {
      const { fileId, partitionPath } = (s ?? {}) as { fileId?: unknown; partitionPath?: unknown };
      if (typeof fileId === 'string') out.push(fileGroupKey(typeof partitionPath === 'string' ? partitionPath : '', fileId));
    }
  }
  return out;
}

/** One pending clustering: its instant, the action of its timeline files and its plan (Avro value model). */
export interface PendingClustering {
  instant: string;
  /** `clustering` (v8/v9) or `replacecommit` (v6). */
  action: 'clustering' | 'replacecommit';
  /** The requested file's `clusteringPlan`, as read. */
  plan: unknown;
  /** Path of the requested file. */
  path: string;
}

/** The pending clustering plans of the timeline, oldest first (a v6 replacecommit counts when its operation is CLUSTER). */
export async function pendingClusterings(state: TableState): Promise<PendingClustering[]> {
  const out: PendingClustering[] = [];
  for (const i of state.timeline.pending()) {
    const v8 = i.action === 'clustering';
    if (!v8 && i.action !== 'replacecommit') continue;
    const path = instantFilePath(state.config, i.requestedTime, i.action, 'REQUESTED');
    if (!state.timeline.files.some((f) => f.requestedTime === i.requestedTime && f.action === i.action && f.state === 'REQUESTED')) continue;
    let bytes: Uint8Array;
    try {
      bytes = await state.storage.read(path);
    } catch (err) {
      // A concurrent writer's replacecommit that was aborted or rolled back since the timeline was listed.
      if (isLakeletError(err, 'NOT_FOUND')) continue;
      throw err;
    }
    const md = parseRequestedReplaceMetadata(bytes, path);
    if (!v8 && md.operationType !== 'CLUSTER') continue;
    out.push({ instant: i.requestedTime, action: v8 ? 'clustering' : 'replacecommit', plan: md.clusteringPlan, path });
  }
  return out;
}

/** File groups of pending clustering plans, keyed by `fileGroupKey`, with the clustering instant. */
export async function pendingClusteringGroups(state: TableState): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const c of await pendingClusterings(state)) for (const g of planGroups(c.plan)) out.set(g, c.instant);
  return out;
}

/**
 * Refuse (`UNSUPPORTED`, before anything of the write is committed) a write that updates, deletes from or replaces
 * a file group under pending clustering, naming the group and the clustering instant.
 */
export function checkNoClusteringUpdates(clustering: ReadonlyMap<string, string>, touched: Iterable<string>, operation: string): void {
  if (clustering.size === 0) return;
  for (const g of touched) {
    const instant = clustering.get(g);
    if (instant === undefined) continue;
    const group = g.replace('\u0000', '/');
    throw new LakeletError('UNSUPPORTED', `write: ${operation} changes file group ${group}, which the pending clustering ${instant} is rewriting; as Hudi's default update strategy (SparkRejectUpdateStrategy), updates to file groups under pending clustering are refused — run the clustering first (lakelet cluster, or Hudi); nothing was committed`, { instant, value: group, operation });
  }
}
