// Step 5 of a write (DESIGN.md §3), its engine side: the planner inputs that take I/O (pending compaction and
// clustering plans, the average record size of recent commits), plan/workload.ts's buckets, and the workload
// profile written into the inflight file. Updates to file groups under pending clustering are refused here. A bulk insert's records are sorted by partition and key first (Hudi's default sort).
import { fileGroupKey, type FileSlice } from '../../file-group/file-slice.js';
import type { TaggedRecords } from '../../index/tagging.js';
import type { HoodieRecord } from '../../merge/hoodie-record.js';
import { SORT_KERNEL_MIN_RECORDS, sortByPartitionAndKey } from '../../merge/sort-records.js';
import { planWorkload, type WorkloadPlan } from '../../plan/workload.js';
import { workloadProfileBytes } from '../../timeline/commit-metadata-avro.js';
import { markInflight, type InflightWrite } from '../commit/commit-protocol.js';
import { mainThreadKernels } from '../kernels.js';
import { pendingCompactionGroups } from '../services/pending-compactions.js';
import { checkNoClusteringUpdates, pendingClusteringGroups } from '../services/pending-clustering.js';
import type { TableState } from '../table-state.js';
import type { WriteOperation } from './operation.js';
import type { ResolvedWriteOptions } from './write-options.js';

/** Step 5's outcome: the buckets with their records, and the groups of pending compaction plans. */
export interface ProfiledWrite {
  plan: WorkloadPlan<HoodieRecord>;
  /** Groups with a pending compaction (merge-on-read) → its instant. */
  pendingCompactions: Map<string, string>;
}

/**
 * Profile and bucket the tagged records, then mark the instant inflight with the profile. A write updating or
 * replacing (`replaced`) a file group under pending clustering → `UNSUPPORTED`; those groups take no inserts.
 */
export async function profileAndBucket(state: TableState, inflight: InflightWrite, op: WriteOperation, tagged: TaggedRecords, slices: readonly FileSlice[], options: ResolvedWriteOptions, replaced: ReadonlyMap<string, readonly string[]> = new Map()): Promise<ProfiledWrite> {
  const { config } = state;
  const clustering = await pendingClusteringGroups(state);
  if (clustering.size > 0) {
    checkNoClusteringUpdates(clustering, [...tagged.updates.keys(), ...[...replaced].flatMap(([p, ids]) => ids.map((id) => fileGroupKey(p, id)))], op);
    slices = slices.filter((s) => !clustering.has(fileGroupKey(s.partitionPath, s.fileId)));
  }
  if (op === 'BULK_INSERT') {
    const kernels = tagged.inserts.length >= SORT_KERNEL_MIN_RECORDS ? await mainThreadKernels(options.kernels) : undefined;
    sortByPartitionAndKey(tagged.inserts, kernels);
  }
  const pendingCompactions = config.tableType === 'MERGE_ON_READ' ? await pendingCompactionGroups(state) : new Map<string, string>();
  const sizing = { ...options, recordSizeEstimate: await averageRecordSize(state, options.smallFileLimit, options.recordSizeEstimate) };
  const plan = planWorkload({ operation: op, tableType: config.tableType, slices, updates: tagged.updates, inserts: tagged.inserts, pendingCompactions, sizing, newFileId: () => `${crypto.randomUUID()}-0` });
  await markInflight(state, inflight, workloadProfileBytes(config.timelineLayoutVersion, plan.profile));
  return { plan, pendingCompactions };
}

/** The file groups a write touches: its buckets' and the ones it replaces (the conflict check's input). */
export function touchedFileGroups(plan: WorkloadPlan<HoodieRecord>, replaced: ReadonlyMap<string, readonly string[]>): Set<string> {
  const touched = new Set(plan.buckets.map((b) => fileGroupKey(b.partitionPath, b.fileId)));
  for (const [p, ids] of replaced) for (const id of ids) touched.add(fileGroupKey(p, id));
  return touched;
}

/**
 * Bytes per record from the latest commit that wrote more than the small-file limit (as Hudi estimates
 * it; smaller commits are dominated by footers and bloom filters), else the configured estimate.
 */
async function averageRecordSize(state: TableState, smallFileLimit: number, fallback: number): Promise<number> {
  const writes = state.timeline.completedWrites();
  for (let i = writes.length - 1; i >= 0 && i >= writes.length - 10; i--) {
    const write = writes[i];
    if (write === undefined) continue;
    const md = await state.commitMetadata(write);
    let bytes = 0;
    let records = 0;
    for (const stats of Object.values(md.partitionToWriteStats)) for (const s of stats) { bytes += s.totalWriteBytes; records += s.numWrites; }
    if (records > 0 && bytes > smallFileLimit) return Math.max(1, Math.ceil(bytes / records));
  }
  return fallback;
}
