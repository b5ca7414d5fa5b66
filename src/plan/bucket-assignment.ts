// Bucket assignment, the sizing half of step 5 (pure, on counts; plan/workload.ts feeds and drains it): updates
// go to their file group; inserts fill small files (below the small-file limit) up to the max file size first,
// then new file groups sized by the record-size estimate — Hudi's UpsertPartitioner in miniature.

/** Write sizing options. */
export interface FileSizing {
  /** Files below this size (bytes) take inserts. Hudi's `hoodie.parquet.small.file.limit` (default 100 MiB). */
  smallFileLimit: number;
  /** Target maximum base file size (bytes). Hudi's `hoodie.parquet.max.file.size` (default 120 MiB). */
  maxFileSize: number;
  /** Bytes per record used to size files before any stats exist (default 1024). */
  recordSizeEstimate: number;
}

/** Defaults of {@link FileSizing}, Hudi's. */
export const DEFAULT_FILE_SIZING: FileSizing = { smallFileLimit: 100 * 1024 * 1024, maxFileSize: 120 * 1024 * 1024, recordSizeEstimate: 1024 };

/** A live base file that may take inserts. */
export interface SmallFileCandidate {
  partitionPath: string;
  fileId: string;
  baseInstantTime: string;
  sizeBytes: number;
}

/** Per partition: how many new records, and how many updates/deletes per existing file group. */
export interface PartitionWorkload {
  inserts: number;
  /** fileId → number of updates (and deletes) routed to it. */
  updates: Map<string, number>;
}

/** One output file of the write. */
export interface Bucket {
  /** `UPDATE` rewrites an existing file group (updates, and maybe inserts into a small file); `INSERT` starts a new group. */
  kind: 'UPDATE' | 'INSERT';
  partitionPath: string;
  fileId: string;
  /** Inserts routed to this bucket. */
  inserts: number;
  /** Updates and deletes routed to this bucket. */
  updates: number;
}

/** The result: buckets, and per partition the order in which its inserts fill buckets. */
export interface BucketPlan {
  buckets: Bucket[];
  /** partition → list of [bucket index, number of inserts], consumed in order. */
  insertRoutes: Map<string, [bucket: number, count: number][]>;
}

/**
 * Assign a write's workload to buckets. `smallFiles` are the partition's live base files; those under the
 * limit take inserts up to `maxFileSize`. `newFileId` names new file groups.
 */
export function assignBuckets(
  workload: ReadonlyMap<string, PartitionWorkload>,
  smallFiles: ReadonlyMap<string, readonly SmallFileCandidate[]>,
  sizing: FileSizing,
  newFileId: () => string,
  useSmallFiles = true,
): BucketPlan {
  const recordSize = Math.max(1, sizing.recordSizeEstimate);
  const perNewFile = Math.max(1, Math.floor(sizing.maxFileSize / recordSize));
  const buckets: Bucket[] = [];
  const insertRoutes = new Map<string, [number, number][]>();
  const byFile = new Map<string, number>();
  for (const [partitionPath, w] of [...workload].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const [fileId, count] of w.updates) {
      byFile.set(`${partitionPath}\u0000${fileId}`, buckets.length);
      buckets.push({ kind: 'UPDATE', partitionPath, fileId, inserts: 0, updates: count });
    }
    let remaining = w.inserts;
    const routes: [number, number][] = [];
    if (useSmallFiles) {
      const candidates = [...(smallFiles.get(partitionPath) ?? [])]
        .filter((f) => f.sizeBytes < sizing.smallFileLimit)
        .sort((a, b) => a.sizeBytes - b.sizeBytes || (a.fileId < b.fileId ? -1 : 1));
      for (const f of candidates) {
        if (remaining === 0) break;
        const capacity = Math.floor((sizing.maxFileSize - f.sizeBytes) / recordSize);
        if (capacity <= 0) continue;
        const take = Math.min(capacity, remaining);
        const key = `${partitionPath}\u0000${f.fileId}`;
        let index = byFile.get(key);
        if (index === undefined) {
          index = buckets.length;
          byFile.set(key, index);
          buckets.push({ kind: 'UPDATE', partitionPath, fileId: f.fileId, inserts: 0, updates: 0 });
        }
        (buckets[index] as Bucket).inserts += take;
        routes.push([index, take]);
        remaining -= take;
      }
    }
    while (remaining > 0) {
      const take = Math.min(perNewFile, remaining);
      routes.push([buckets.length, take]);
      buckets.push({ kind: 'INSERT', partitionPath, fileId: newFileId(), inserts: take, updates: 0 });
      remaining -= take;
    }
    if (routes.length > 0) insertRoutes.set(partitionPath, routes);
  }
  return { buckets, insertRoutes };
}
