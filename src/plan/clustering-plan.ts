// Clustering planning (pure): which file groups a clustering rewrites and how they are grouped, as Hudi's
// SparkSizeBasedClusteringPlanStrategy (PartitionAwareClusteringPlanStrategy) schedules them — per partition,
// the latest slices whose base file is below the small-file limit and that no pending compaction or clustering
// holds, largest first, packed into groups of at most `maxBytesPerGroup`, each writing
// ceil(groupBytes / targetFileSize) file groups; at most `maxGroups` groups per partition and per plan (the
// partitions left partly unscheduled are the plan's `missingSchedulePartitions`, as Hudi 1.x's incremental
// table services record them). The Avro form of the plan is timeline/clustering-plan-avro.ts.
import { invalidArgument } from '../errors.js';
import { fileGroupKey } from '../file-group/file-slice.js';
import { MAX_LAYOUT_COLUMNS } from './layout-keys.js';
import type { LayoutStrategy } from './layout-sort.js';

/** What a clustering selects and how it lays the data out (Hudi's `hoodie.clustering.plan.strategy.*`). */
export interface ClusteringOptions {
  /** Only base files smaller than this are clustered (`small.file.limit`, default 300 MB). */
  smallFileLimitBytes?: number;
  /** Size of the files clustering writes (`target.file.max.bytes`, default 1 GB). */
  targetFileSizeBytes?: number;
  /** Most input bytes in one clustering group (`max.bytes.per.group`, default 2 GB). */
  maxBytesPerGroup?: number;
  /** Most clustering groups in one plan, and in one partition (`max.num.groups`, default 30). */
  maxGroups?: number;
  /** Columns the rewritten files are sorted by (`sort.columns`); none: the rows keep their order. */
  sortColumns?: string[];
  /** How rows are sorted by `sortColumns` (`hoodie.layout.optimize.strategy`, default linear). */
  layout?: LayoutStrategy;
  /** Cluster only these partitions (`hoodie.clustering.partition.selected`); default all. */
  partitions?: string[];
  /**
   * Whether a partition whose candidates make a single group of one file group is still rewritten
   * (`single.group.clustering.enabled`, default true as Hudi; always true with sort columns).
   */
  singleGroupClustering?: boolean;
  /**
   * The table's URI as Spark names it (e.g. `s3a://bucket/trips`, `file:/data/trips`): the plan's slice paths are
   * written absolute under it, so every Hudi version's executor can run the plan (timeline/clustering-plan-avro.ts).
   * Default: derived from the storage where it has a URI (the caller's), else relative paths (Hudi 1.x resolves them).
   */
  basePath?: string;
}

/** One candidate file slice (the latest committed slice of a file group). */
export interface ClusteringSliceInput {
  partitionPath: string;
  fileId: string;
  /** The slice's base file: table-relative path and size (sizes are not stored in a plan: 0 when read back). */
  baseFile?: { path: string; sizeBytes: number };
  /** The slice's committed log files, table-relative paths, in order. */
  logFiles: { path: string; sizeBytes: number }[];
}

/** One clustering group: slices of one partition rewritten together into `numOutputFileGroups` file groups. */
export interface ClusteringGroup {
  slices: ClusteringSliceInput[];
  numOutputFileGroups: number;
  /** Hudi's group metrics: TOTAL_IO_READ_MB, TOTAL_IO_WRITE_MB, TOTAL_IO_MB, TOTAL_LOG_FILES_SIZE, TOTAL_LOG_FILES. */
  metrics: Record<string, number>;
  /** The group's `extraMetadata` (Hudi writes null). */
  extraMetadata?: Record<string, string> | null;
}

/** A clustering plan (the `HoodieClusteringPlan` of a `.clustering.requested`). */
export interface ClusteringPlan {
  groups: ClusteringGroup[];
  strategyClassName: string;
  /** `hoodie.clustering.plan.strategy.sort.columns` when sorting; `hoodie.layout.optimize.strategy` for a curve. */
  strategyParams: Record<string, string>;
  /** True: clustering keeps the `_hoodie_commit_time`/seqno of the rows it copies (Hudi 1.x always writes true). */
  preserveHoodieMetadata: boolean;
  /** Partitions whose candidates did not all fit the plan (maxGroups); Hudi 1.x writes [] when none. */
  missingSchedulePartitions?: string[];
  /** The plan's `extraMetadata` (Hudi writes {}). */
  extraMetadata?: Record<string, string>;
  /** The table URI the slice paths are written under (not an Avro field; see {@link ClusteringOptions.basePath}). */
  basePath?: string;
}

/** Options with Hudi's defaults filled in. */
export type ResolvedClusteringOptions = Required<Omit<ClusteringOptions, 'partitions' | 'sortColumns' | 'basePath'>> & Pick<ClusteringOptions, 'partitions' | 'sortColumns' | 'basePath'>;

/** Hudi's Spark clustering execution strategy, the one named by every plan. */
export const SORT_AND_SIZE_EXECUTION_STRATEGY = 'org.apache.hudi.client.clustering.run.strategy.SparkSortAndSizeExecutionStrategy';
/** Strategy param naming the sort columns (comma-separated). */
export const SORT_COLUMNS_PARAM = 'hoodie.clustering.plan.strategy.sort.columns';
/** Strategy param naming the layout when it is a curve (Hudi reads it from the write config; lakelet from the plan). */
export const LAYOUT_STRATEGY_PARAM = 'hoodie.layout.optimize.strategy';

const MB = 1024 * 1024;
const LAYOUTS: readonly string[] = ['linear', 'z-order', 'hilbert'];

function positiveInt(name: string, v: unknown, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) {
    throw invalidArgument(`cluster: ${name} must be a positive integer, got ${JSON.stringify(v)}`, { field: name, value: v });
  }
  return v;
}

function stringList(name: string, v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) {
    throw invalidArgument(`cluster: ${name} must be an array of strings`, { field: name, value: v });
  }
  const seen = new Set<string>();
  for (const s of v as string[]) {
    if (seen.has(s)) throw invalidArgument(`cluster: ${name} names ${JSON.stringify(s)} twice`, { field: name, value: s });
    seen.add(s);
  }
  return [...(v as string[])];
}

/** Validate clustering options and fill in Hudi's defaults; a bad value is INVALID_ARGUMENT naming the option. */
export function resolveClusteringOptions(o: ClusteringOptions | undefined): ResolvedClusteringOptions {
  const opts = o ?? {};
  if (typeof opts !== 'object') throw invalidArgument('cluster: options must be an object', { value: o });
  const layout = opts.layout ?? 'linear';
  if (!LAYOUTS.includes(layout)) {
    throw invalidArgument(`cluster: layout must be linear, z-order or hilbert, got ${JSON.stringify(layout)}`, { field: 'layout', value: layout });
  }
  const sortColumns = stringList('sortColumns', opts.sortColumns);
  if (sortColumns?.some((c) => c === '' || c.includes(','))) {
    throw invalidArgument('cluster: sortColumns must be non-empty column names without commas', { field: 'sortColumns', value: sortColumns });
  }
  const sorting = sortColumns !== undefined && sortColumns.length > 0;
  if (layout !== 'linear' && !sorting) {
    throw invalidArgument(`cluster: layout ${layout} needs sortColumns`, { field: 'layout', value: layout });
  }
  if (layout !== 'linear' && sortColumns!.length > MAX_LAYOUT_COLUMNS) {
    throw invalidArgument(`cluster: layout ${layout} takes at most ${MAX_LAYOUT_COLUMNS} sortColumns, got ${sortColumns!.length}`, { field: 'sortColumns', value: sortColumns });
  }
  const partitions = stringList('partitions', opts.partitions);
  const single = opts.singleGroupClustering ?? true;
  if (typeof single !== 'boolean') {
    throw invalidArgument('cluster: singleGroupClustering must be a boolean', { field: 'singleGroupClustering', value: single });
  }
  const out: ResolvedClusteringOptions = {
    smallFileLimitBytes: positiveInt('smallFileLimitBytes', opts.smallFileLimitBytes, 300 * MB),
    targetFileSizeBytes: positiveInt('targetFileSizeBytes', opts.targetFileSizeBytes, 1024 * MB),
    maxBytesPerGroup: positiveInt('maxBytesPerGroup', opts.maxBytesPerGroup, 2048 * MB),
    maxGroups: positiveInt('maxGroups', opts.maxGroups, 30),
    layout,
    singleGroupClustering: single,
  };
  if (sorting) out.sortColumns = sortColumns;
  if (partitions !== undefined) out.partitions = partitions;
  if (opts.basePath !== undefined) {
    if (typeof opts.basePath !== 'string' || !/^[a-z][a-z0-9+.-]*:\//i.test(opts.basePath)) {
      throw invalidArgument(`cluster: basePath must be an absolute URI such as s3a://bucket/table or file:/data/table, got ${JSON.stringify(opts.basePath)}`, { field: 'basePath', value: opts.basePath });
    }
    out.basePath = opts.basePath;
  }
  return out;
}

/**
 * The bytes a slice counts for when packing groups: its base file; a log-only slice counts its log files (Hudi
 * assumes `parquet.max.file.size` for it, having no cheap log sizes — lakelet has them).
 */
export function sliceBytes(s: ClusteringSliceInput): number {
  return s.baseFile !== undefined ? s.baseFile.sizeBytes : s.logFiles.reduce((n, l) => n + l.sizeBytes, 0);
}

/** Hudi's group metrics (FileSliceMetricUtils): MB values are whole MiB (integer division), in Spark's key order. */
export function clusteringGroupMetrics(slices: readonly ClusteringSliceInput[]): Record<string, number> {
  let logFiles = 0;
  let logBytes = 0;
  let read = 0;
  let write = 0;
  for (const s of slices) {
    logFiles += s.logFiles.length;
    logBytes += s.logFiles.reduce((n, l) => n + Math.max(0, l.sizeBytes), 0);
    const base = s.baseFile?.sizeBytes ?? 0;
    read += base;
    write += base > 0 ? base : sliceBytes(s);
  }
  const readMb = Math.floor((read + logBytes) / MB);
  const writeMb = Math.floor(write / MB);
  return { TOTAL_LOG_FILES: logFiles, TOTAL_IO_MB: readMb + writeMb, TOTAL_IO_READ_MB: readMb, TOTAL_LOG_FILES_SIZE: logBytes, TOTAL_IO_WRITE_MB: writeMb };
}

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** One partition's groups (Hudi's buildClusteringGroupsForPartition), and whether candidates were left out. */
function partitionGroups(candidates: ClusteringSliceInput[], o: ResolvedClusteringOptions): { groups: ClusteringSliceInput[][]; partial: boolean } {
  // Largest first ("makes dividing more compact"); ties by fileId so the plan does not depend on listing order.
  const sorted = [...candidates].sort((a, b) => sliceBytes(b) - sliceBytes(a) || compareStrings(a.fileId, b.fileId));
  const groups: ClusteringSliceInput[][] = [];
  let current: ClusteringSliceInput[] = [];
  let bytes = 0;
  for (const s of sorted) {
    const size = sliceBytes(s);
    if (bytes + size > o.maxBytesPerGroup && current.length > 0) {
      groups.push(current);
      current = [];
      bytes = 0;
      if (groups.length >= o.maxGroups) return { groups, partial: true };
    }
    current.push(s);
    bytes += size;
  }
  if (current.length > 1 || (current.length === 1 && (o.singleGroupClustering || o.sortColumns !== undefined))) groups.push(current);
  if (groups.length > o.maxGroups) return { groups: groups.slice(0, o.maxGroups), partial: true };
  return { groups, partial: false };
}

/**
 * Plan a clustering (pure). `slices` are the latest committed slices of the table (their uncommitted log files
 * already left out); `excluded` holds the `fileGroupKey`s of file groups under pending compaction or clustering,
 * which are never candidates. Partitions are taken in path order. Undefined when there is nothing to cluster.
 */
export function planClustering(slices: readonly ClusteringSliceInput[], excluded: ReadonlySet<string>, options: ClusteringOptions): ClusteringPlan | undefined {
  const o = resolveClusteringOptions(options);
  const only = o.partitions === undefined ? undefined : new Set(o.partitions);
  const byPartition = new Map<string, ClusteringSliceInput[]>();
  for (const s of slices) {
    if (only !== undefined && !only.has(s.partitionPath)) continue;
    if (excluded.has(fileGroupKey(s.partitionPath, s.fileId))) continue;
    if ((s.baseFile?.sizeBytes ?? 0) >= o.smallFileLimitBytes) continue;
    let list = byPartition.get(s.partitionPath);
    if (list === undefined) byPartition.set(s.partitionPath, (list = []));
    list.push(s);
  }
  const missing = new Set<string>();
  const all: { partition: string; slices: ClusteringSliceInput[] }[] = [];
  for (const partition of [...byPartition.keys()].sort(compareStrings)) {
    const { groups, partial } = partitionGroups(byPartition.get(partition)!, o);
    if (partial) missing.add(partition);
    for (const g of groups) all.push({ partition, slices: g });
  }
  for (const cut of all.slice(o.maxGroups)) missing.add(cut.partition);
  const chosen = all.slice(0, o.maxGroups);
  if (chosen.length === 0) return undefined;
  const strategyParams: Record<string, string> = {};
  if (o.sortColumns !== undefined) {
    strategyParams[SORT_COLUMNS_PARAM] = o.sortColumns.join(',');
    if (o.layout !== 'linear') strategyParams[LAYOUT_STRATEGY_PARAM] = o.layout;
  }
  return {
    groups: chosen.map(({ slices: g }) => ({
      slices: g.map((s) => ({ ...s, ...(s.baseFile ? { baseFile: { ...s.baseFile } } : {}), logFiles: s.logFiles.map((l) => ({ ...l })) })),
      numOutputFileGroups: Math.max(1, Math.ceil(g.reduce((n, s) => n + sliceBytes(s), 0) / o.targetFileSizeBytes)),
      metrics: clusteringGroupMetrics(g),
      extraMetadata: null,
    })),
    strategyClassName: SORT_AND_SIZE_EXECUTION_STRATEGY,
    strategyParams,
    preserveHoodieMetadata: true,
    missingSchedulePartitions: [...missing].sort(compareStrings),
    extraMetadata: {},
    ...(o.basePath === undefined ? {} : { basePath: o.basePath }),
  };
}
