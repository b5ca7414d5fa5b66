// Step 5 of a write, profile and bucket (pure): count a tagged write's inserts and updates per partition and
// file group, pick the base files that may take inserts (merge-on-read: no logs, updates or pending compaction),
// assign buckets (plan/bucket-assignment.ts), route each insert to its bucket, and build the inflight profile.
import { LakeletError } from '../errors.js';
import type { TableType } from '../config/table-config.js';
import { fileGroupKey, type FileSlice } from '../file-group/file-slice.js';
import type { WorkloadProfile } from '../timeline/commit-metadata-writer.js';
import { assignBuckets, type Bucket, type FileSizing, type PartitionWorkload, type SmallFileCandidate } from './bucket-assignment.js';

/** Everything the planner needs: the tagged records and the table's live slices. */
export interface WorkloadInput<R extends { readonly partitionPath: string }> {
  /**
   * Hudi's write operation (`UPSERT`, `INSERT`, `BULK_INSERT`, `DELETE`, `INSERT_OVERWRITE`, …). Only `UPSERT`
   * and `INSERT` fill small files; it is also the profile's `operationType`.
   */
  operation: string;
  tableType: TableType;
  /** The latest file slice of every live file group. */
  slices: readonly FileSlice[];
  /** Tagged updates and deletes: file-group key ({@link fileGroupKey}) → the records routed to that group. */
  updates: ReadonlyMap<string, { readonly size: number }>;
  /** Records for no existing group, in input order. */
  inserts: readonly R[];
  /** File-group keys in a pending compaction plan (merge-on-read; anything with `has`). */
  pendingCompactions: { has(groupKey: string): boolean };
  /** Sizing, with `recordSizeEstimate` already the table's average record size when it has one. */
  sizing: FileSizing;
  /** Names a new file group (`<uuid>-0`). */
  newFileId: () => string;
}

/** What the write carries out: the buckets, their inserts, and the profile for the inflight file. */
export interface WorkloadPlan<R> {
  /** One output file each: `UPDATE` for an existing group (updates, maybe inserts into a small file), `INSERT` for a new one. */
  buckets: Bucket[];
  /** Per bucket (same index as `buckets`): its inserts, in input order. */
  insertsByBucket: R[][];
  /** Per partition: inserts, and updates per file group (the planner's input). */
  workload: Map<string, PartitionWorkload>;
  /** The workload profile Hudi writes into `<t>.inflight` (serialize with `serializeWorkloadProfile`). */
  profile: WorkloadProfile;
}

/** Per partition: how many inserts, and how many updates per existing file group. */
export function profileWorkload(slices: readonly FileSlice[], updates: ReadonlyMap<string, { readonly size: number }>, inserts: readonly { readonly partitionPath: string }[]): Map<string, PartitionWorkload> {
  const sliceOf = new Map(slices.map((s) => [fileGroupKey(s.partitionPath, s.fileId), s]));
  const workload = new Map<string, PartitionWorkload>();
  const of = (p: string): PartitionWorkload => {
    let w = workload.get(p);
    if (!w) workload.set(p, (w = { inserts: 0, updates: new Map() }));
    return w;
  };
  for (const [group, records] of updates) {
    const s = sliceOf.get(group);
    if (!s) throw new LakeletError('ABORTED', `workload: updates are tagged to file group ${JSON.stringify(group.replace('\u0000', '/'))}, which has no live slice`, { value: group.replace('\u0000', '/') });
    of(s.partitionPath).updates.set(s.fileId, records.size);
  }
  for (const r of inserts) of(r.partitionPath).inserts++;
  return workload;
}

/**
 * The base files that may take inserts, per partition (size limits are applied by `assignBuckets`). On a
 * merge-on-read table only groups without log files, without updates in this write and outside every
 * pending compaction qualify: inserts are rewritten into their base file, which a log or a compaction
 * plan would leave behind.
 */
export function smallFileCandidates(
  slices: readonly FileSlice[],
  tableType: TableType,
  updates: { has(groupKey: string): boolean },
  pendingCompactions: { has(groupKey: string): boolean },
): Map<string, SmallFileCandidate[]> {
  const out = new Map<string, SmallFileCandidate[]>();
  const isMor = tableType === 'MERGE_ON_READ';
  for (const s of slices) {
    if (!s.baseFile) continue;
    const key = fileGroupKey(s.partitionPath, s.fileId);
    if (isMor && (s.logFiles.length > 0 || updates.has(key) || pendingCompactions.has(key))) continue;
    let list = out.get(s.partitionPath);
    if (!list) out.set(s.partitionPath, (list = []));
    list.push({ partitionPath: s.partitionPath, fileId: s.fileId, baseInstantTime: s.baseInstantTime, sizeBytes: s.baseFile.size });
  }
  return out;
}

/**
 * Route inserts to buckets: per partition, in input order, the first routes' counts take the first inserts.
 * `ABORTED` when the routes do not hold every insert (a planner bug, never expected).
 */
export function routeInserts<R extends { readonly partitionPath: string }>(
  inserts: readonly R[],
  insertRoutes: ReadonlyMap<string, readonly (readonly [bucket: number, count: number])[]>,
  bucketCount: number,
): R[][] {
  const out: R[][] = Array.from({ length: bucketCount }, () => []);
  const at = new Map<string, { route: number; left: number }>();
  for (const r of inserts) {
    const routes = insertRoutes.get(r.partitionPath) ?? [];
    let cursor = at.get(r.partitionPath);
    if (!cursor) at.set(r.partitionPath, (cursor = { route: 0, left: routes[0]?.[1] ?? 0 }));
    while (cursor.left === 0 && cursor.route < routes.length - 1) cursor.left = routes[++cursor.route]?.[1] ?? 0;
    const bucket = cursor.left > 0 ? routes[cursor.route]?.[0] : undefined;
    const list = bucket === undefined ? undefined : out[bucket];
    if (!list) throw new LakeletError('ABORTED', `workload: no bucket for an insert into ${JSON.stringify(r.partitionPath)}`, { value: r.partitionPath });
    list.push(r);
    cursor.left--;
  }
  return out;
}

/** The workload profile of the inflight file: per partition its inserts and every bucket's planned writes. */
export function workloadProfile(operation: string, workload: ReadonlyMap<string, PartitionWorkload>, buckets: readonly Bucket[], slices: readonly FileSlice[]): WorkloadProfile {
  const baseOf = new Map(slices.map((s) => [fileGroupKey(s.partitionPath, s.fileId), s.baseInstantTime]));
  return {
    operationType: operation,
    partitions: new Map([...workload].map(([p, w]) => [p, {
      numInserts: w.inserts,
      fileGroups: buckets
        .filter((b) => b.partitionPath === p)
        .map((b) => ({ fileId: b.fileId, prevCommit: baseOf.get(fileGroupKey(p, b.fileId)), numUpdateWrites: b.updates, numInserts: b.inserts })),
    }])),
  };
}

/**
 * Plan step 5 of a write: updates go to their file group; inserts fill small files first (`UPSERT`/`INSERT`
 * only, with the merge-on-read exclusions of {@link smallFileCandidates}), then new file groups sized to the
 * max file size. Returns the buckets with their inserts and the profile for the inflight file.
 */
export function planWorkload<R extends { readonly partitionPath: string }>(input: WorkloadInput<R>): WorkloadPlan<R> {
  const workload = profileWorkload(input.slices, input.updates, input.inserts);
  const useSmallFiles = input.operation === 'UPSERT' || input.operation === 'INSERT';
  const smallFiles = useSmallFiles ? smallFileCandidates(input.slices, input.tableType, input.updates, input.pendingCompactions) : new Map<string, SmallFileCandidate[]>();
  const { buckets, insertRoutes } = assignBuckets(workload, smallFiles, input.sizing, input.newFileId, useSmallFiles);
  return {
    buckets,
    insertsByBucket: routeInserts(input.inserts, insertRoutes, buckets.length),
    workload,
    profile: workloadProfile(input.operation, workload, buckets, input.slices),
  };
}
