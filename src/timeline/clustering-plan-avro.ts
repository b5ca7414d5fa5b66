// The Avro form of a clustering plan: Hudi's `HoodieClusteringPlan` inside the `HoodieRequestedReplaceMetadata`
// of a `<t>.clustering.requested` (v8/v9, the Hudi 1.x schema with `missingSchedulePartitions`) or of a
// `<t>.replacecommit.requested` (v6, the 0.14 schema without it). Slice paths, so that Spark can execute the
// plan: Hudi 1.x's executor (ClusteringOperation → clusteringOperationToFileSlice) opens the base file at
// `new StoragePath(basePath, dataFilePath)` and each log at `new StoragePath(<basePath>/<partition>, deltaFilePath)`,
// so an absolute path is taken as is, a relative base file path is table-relative and a relative log path is
// the log file's name (what Hudi 1.x writes: `getPath().getName()`); Hudi 0.x opens `new Path(dataFilePath)`
// and needs absolute paths. With the table's URI (`basePath`: e.g. `file:/data/t`, `s3a://bucket/t`, as Spark
// writes them, see {@link tableBaseUri}) every path is written absolute, executable by Hudi 0.14+ and 1.x; without
// it (memory, OPFS, IndexedDB: no URI Spark could open) the base file is table-relative and logs are names,
// executable by Hudi 1.x. Read back, every form becomes table-relative (partition path + file name).
import { corruptFile } from '../errors.js';
import { baseName } from '../layout.js';
import type { ClusteringGroup, ClusteringPlan, ClusteringSliceInput } from '../plan/clustering-plan.js';
import { serializeRequestedReplaceMetadataAvro } from './commit-metadata-avro.js';
import { parseRequestedReplaceMetadata, serializeRequestedReplaceMetadata } from './replace-metadata.js';
import type { TimelineAvroOptions } from './rollback-metadata.js';

/** How slice paths are written. */
export interface ClusteringPlanAvroOptions {
  /**
   * The table's base URI (e.g. `file:/data/t` or `s3a://bucket/t`), prefixed to the table-relative slice paths
   * as Spark writes them (default the plan's own `basePath`); without either, relative paths as the file header
   * says.
   */
  basePath?: string;
  /** Leave out `missingSchedulePartitions` (the v6 schema has no such field). */
  v6?: boolean;
}

const fullPath = (basePath: string | undefined, path: string): string =>
  basePath === undefined ? path : `${basePath.replace(/\/+$/, '')}/${path}`;

/**
 * The URI Spark would name a table by, from its storage's label: `fs:/abs/dir` (nodeFsStorage) → `file:/abs/dir`,
 * `s3://bucket/root` (s3Storage's default label) → `s3a://bucket/root` (Hadoop's S3 connector); undefined for
 * any other store (memory, OPFS, IndexedDB, a relative folder, a custom label): no URI another engine could open.
 */
export function tableBaseUri(storageLabel: string): string | undefined {
  const fs = /^fs:(\/.*)$/.exec(storageLabel);
  if (fs) return `file:${fs[1]!.replace(/\/+$/, '') || '/'}`;
  const s3 = /^s3:\/\/([^/]+(?:\/.*)?)$/.exec(storageLabel);
  if (s3) return `s3a://${s3[1]!.replace(/\/+$/, '')}`;
  return undefined;
}

function sliceToAvro(s: ClusteringSliceInput, basePath: string | undefined): Record<string, unknown> {
  return {
    dataFilePath: s.baseFile === undefined ? '' : fullPath(basePath, s.baseFile.path),
    deltaFilePaths: s.logFiles.map((l) => (basePath === undefined ? baseName(l.path) : fullPath(basePath, l.path))),
    fileId: s.fileId,
    partitionPath: s.partitionPath,
    bootstrapFilePath: '',
    version: 1,
  };
}

/** The `HoodieClusteringPlan` value of `plan`, field for field as Spark writes it (see the file header for paths). */
export function clusteringPlanToAvro(plan: ClusteringPlan, options: ClusteringPlanAvroOptions = {}): unknown {
  const basePath = options.basePath ?? plan.basePath;
  const out: Record<string, unknown> = {
    inputGroups: plan.groups.map((g) => ({
      slices: g.slices.map((s) => sliceToAvro(s, basePath)),
      metrics: { ...g.metrics },
      numOutputFileGroups: g.numOutputFileGroups,
      extraMetadata: g.extraMetadata === undefined || g.extraMetadata === null ? null : { ...g.extraMetadata },
      version: 1,
    })),
    strategy: { strategyClassName: plan.strategyClassName, strategyParams: { ...plan.strategyParams }, version: 1 },
    extraMetadata: { ...(plan.extraMetadata ?? {}) },
    version: 1,
    preserveHoodieMetadata: plan.preserveHoodieMetadata,
  };
  if (!options.v6) out.missingSchedulePartitions = [...(plan.missingSchedulePartitions ?? [])];
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function stringMap(v: unknown, what: string, path: string): Record<string, string> | null {
  if (v === null || v === undefined) return null;
  if (!isRecord(v)) throw corruptFile(`clustering plan: ${what} is not a map`, path);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string') throw corruptFile(`clustering plan: ${what}[${JSON.stringify(k)}] is not a string`, path);
    out[k] = x;
  }
  return out;
}

/** A table-relative path of a file Spark named absolutely: the partition path and the file's name. */
function relative(partitionPath: string, p: string): string {
  return partitionPath === '' ? baseName(p) : `${partitionPath}/${baseName(p)}`;
}

function sliceFromAvro(v: unknown, where: string, path: string): ClusteringSliceInput {
  if (!isRecord(v)) throw corruptFile(`clustering plan: ${where} is not a HoodieSliceInfo`, path);
  if (typeof v.fileId !== 'string' || v.fileId === '') throw corruptFile(`clustering plan: ${where} has no fileId`, path);
  const partitionPath = v.partitionPath ?? '';
  if (typeof partitionPath !== 'string') throw corruptFile(`clustering plan: ${where}.partitionPath is not a string`, path);
  const data = v.dataFilePath ?? '';
  if (typeof data !== 'string') throw corruptFile(`clustering plan: ${where}.dataFilePath is not a string`, path);
  const deltas = v.deltaFilePaths ?? [];
  if (!Array.isArray(deltas) || deltas.some((d) => typeof d !== 'string')) throw corruptFile(`clustering plan: ${where}.deltaFilePaths is not a string array`, path);
  const slice: ClusteringSliceInput = { partitionPath, fileId: v.fileId, logFiles: (deltas as string[]).map((d) => ({ path: relative(partitionPath, d), sizeBytes: 0 })) };
  if (data !== '') slice.baseFile = { path: relative(partitionPath, data), sizeBytes: 0 };
  return slice;
}

function groupFromAvro(v: unknown, where: string, path: string): ClusteringGroup {
  if (!isRecord(v)) throw corruptFile(`clustering plan: ${where} is not a HoodieClusteringGroup`, path);
  const slices = v.slices ?? [];
  if (!Array.isArray(slices) || slices.length === 0) throw corruptFile(`clustering plan: ${where} has no slices`, path);
  const n = v.numOutputFileGroups ?? 1;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw corruptFile(`clustering plan: ${where}.numOutputFileGroups is not a count`, path);
  const metrics: Record<string, number> = {};
  if (v.metrics !== null && v.metrics !== undefined) {
    if (!isRecord(v.metrics)) throw corruptFile(`clustering plan: ${where}.metrics is not a map`, path);
    for (const [k, x] of Object.entries(v.metrics)) {
      if (typeof x !== 'number') throw corruptFile(`clustering plan: ${where}.metrics[${JSON.stringify(k)}] is not a number`, path);
      metrics[k] = x;
    }
  }
  return {
    slices: slices.map((s, i) => sliceFromAvro(s, `${where}.slices[${i}]`, path)),
    numOutputFileGroups: n,
    metrics,
    extraMetadata: stringMap(v.extraMetadata, `${where}.extraMetadata`, path),
  };
}

/** Read a `HoodieClusteringPlan` value (as the Avro reader decodes it); bad shapes → CORRUPT_FILE naming `path`. */
export function clusteringPlanFromAvro(value: unknown, path: string): ClusteringPlan {
  if (!isRecord(value)) throw corruptFile('clustering plan: not a HoodieClusteringPlan record', path);
  const groups = value.inputGroups ?? [];
  if (!Array.isArray(groups)) throw corruptFile('clustering plan: inputGroups is not an array', path);
  const strategy = value.strategy ?? {};
  if (!isRecord(strategy)) throw corruptFile('clustering plan: strategy is not a HoodieClusteringStrategy', path);
  const className = strategy.strategyClassName ?? '';
  if (typeof className !== 'string') throw corruptFile('clustering plan: strategy.strategyClassName is not a string', path);
  const preserve = value.preserveHoodieMetadata ?? false;
  if (typeof preserve !== 'boolean') throw corruptFile('clustering plan: preserveHoodieMetadata is not a boolean', path);
  const plan: ClusteringPlan = {
    groups: groups.map((g, i) => groupFromAvro(g, `inputGroups[${i}]`, path)),
    strategyClassName: className,
    strategyParams: stringMap(strategy.strategyParams, 'strategy.strategyParams', path) ?? {},
    preserveHoodieMetadata: preserve,
    extraMetadata: stringMap(value.extraMetadata, 'extraMetadata', path) ?? {},
  };
  const missing = value.missingSchedulePartitions;
  if (missing !== null && missing !== undefined) {
    if (!Array.isArray(missing) || missing.some((p) => typeof p !== 'string')) throw corruptFile('clustering plan: missingSchedulePartitions is not a string array', path);
    plan.missingSchedulePartitions = [...(missing as string[])];
  }
  return plan;
}

/**
 * The bytes of a clustering's requested instant for a table of `tableVersion`: `<t>.clustering.requested` on
 * v8/v9 (Hudi 1.x schema), `<t>.replacecommit.requested` on v6 (0.14 schema) — operation CLUSTER, the plan,
 * `extraMetadata` {} and version 1, as Spark writes them.
 */
export function clusteringRequestedBytes(plan: ClusteringPlan, tableVersion: number, options: Omit<ClusteringPlanAvroOptions, 'v6'> & TimelineAvroOptions = {}): Uint8Array {
  const v6 = tableVersion < 8;
  const basePath = options.basePath ?? plan.basePath;
  const avro = basePath === undefined ? { v6 } : { basePath, v6 };
  const md = { operationType: 'CLUSTER', clusteringPlan: clusteringPlanToAvro(plan, avro), extraMetadata: {}, version: 1 };
  const container = options.syncMarker === undefined ? {} : { syncMarker: options.syncMarker };
  return v6 ? serializeRequestedReplaceMetadata(md, container) : serializeRequestedReplaceMetadataAvro(md, container);
}

/** Parse a clustering's requested instant file; anything but a CLUSTER plan → CORRUPT_FILE naming `path`. */
export function parseClusteringRequested(bytes: Uint8Array, path: string): ClusteringPlan {
  const md = parseRequestedReplaceMetadata(bytes, path);
  if (md.operationType !== 'CLUSTER' || md.clusteringPlan === null) {
    throw corruptFile(`clustering plan: operationType is ${JSON.stringify(md.operationType)}, not CLUSTER with a plan`, path);
  }
  return clusteringPlanFromAvro(md.clusteringPlan, path);
}
