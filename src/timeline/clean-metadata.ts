// Clean timeline files of v6 tables (hudi-format.md §3.3): the plan (`<t>.clean.requested`, also copied into
// `<t>.clean.inflight`, Avro HoodieCleanerPlan) and the completed `<t>.clean` (Avro HoodieCleanMetadata).
import { corruptFile } from '../errors.js';
import { baseName, partitionFilePath } from '../layout.js';
import { readAvroContainer, writeAvroContainer } from '../format/avro/container.js';
import type { TimelineAvroOptions } from './rollback-metadata.js';

import { CLEAN_METADATA_SCHEMA, CLEANER_PLAN_SCHEMA } from './clean-schemas.js';

/** Hudi's cleaning policies. */
export type CleaningPolicy = 'KEEP_LATEST_COMMITS' | 'KEEP_LATEST_FILE_VERSIONS' | 'KEEP_LATEST_BY_HOURS';

/** An instant with its action and state (`HoodieActionInstant`). */
export interface ActionInstant {
  timestamp: string;
  action: string;
  state: string;
}

/** One file a clean deletes (`HoodieCleanFileInfo`). */
export interface CleanFileInfo {
  /** Path relative to the table root (Hudi writes absolute paths; parsing maps them to relative ones). */
  filePath: string;
  isBootstrapBaseFile: boolean;
}

/** `<t>.clean.requested`: what a clean will delete. */
export interface CleanerPlan {
  /** The oldest commit whose snapshot stays readable (absent for KEEP_LATEST_FILE_VERSIONS in Hudi). */
  earliestInstantToRetain: ActionInstant | undefined;
  lastCompletedCommitTimestamp: string;
  policy: string;
  /** Partition → files to delete. */
  filePathsToBeDeletedPerPartition: Record<string, CleanFileInfo[]>;
  /** Partitions left without file groups, deleted entirely. */
  partitionsToBeDeleted: string[];
  version: number;
}

/** What a clean did in one partition (`HoodieCleanPartitionMetadata`); file lists hold file names. */
export interface CleanPartitionMetadata {
  partitionPath: string;
  policy: string;
  deletePathPatterns: string[];
  successDeleteFiles: string[];
  failedDeleteFiles: string[];
  isPartitionDeleted: boolean;
}

/** The completed `<t>.clean`. */
export interface CleanMetadata {
  startCleanTime: string;
  timeTakenInMillis: number;
  totalFilesDeleted: number;
  /** Requested time of the oldest commit still readable, or `""` (KEEP_LATEST_FILE_VERSIONS in Hudi). */
  earliestCommitToRetain: string;
  lastCompletedCommitTimestamp: string;
  partitionMetadata: Record<string, CleanPartitionMetadata>;
  version: number;
}

/** Input of {@link serializeCleanerPlan}. */
export interface CleanerPlanInput {
  earliestInstantToRetain?: ActionInstant | undefined;
  lastCompletedCommitTimestamp?: string;
  policy: string;
  filePathsToBeDeletedPerPartition: Readonly<Record<string, readonly (string | CleanFileInfo)[]>>;
  partitionsToBeDeleted?: readonly string[];
  /** Plan version: Hudi writes 2 (plans carrying `filePathsToBeDeletedPerPartition`). */
  version?: number;
}

/** Input of {@link serializeCleanMetadata}. */
export interface CleanMetadataInput {
  startCleanTime: string;
  timeTakenInMillis: number;
  totalFilesDeleted: number;
  earliestCommitToRetain: string;
  lastCompletedCommitTimestamp?: string;
  partitionMetadata: Readonly<Record<string, Pick<CleanPartitionMetadata, 'partitionPath' | 'policy'> & Partial<CleanPartitionMetadata>>>;
  version?: number;
}

const PLAN_JSON = JSON.stringify(CLEANER_PLAN_SCHEMA);
const METADATA_JSON = JSON.stringify(CLEAN_METADATA_SCHEMA);
const containerOptions = (o: TimelineAvroOptions): { syncMarker?: Uint8Array } => (o.syncMarker === undefined ? {} : { syncMarker: o.syncMarker });

/** The Avro record (lakelet value model) of a cleaner plan: also what archived entries embed. */
export function cleanerPlanRecord(plan: CleanerPlanInput): Record<string, unknown> {
  const files: Record<string, unknown[]> = {};
  for (const [p, list] of Object.entries(plan.filePathsToBeDeletedPerPartition)) {
    files[p] = list.map((f) => (typeof f === 'string' ? { filePath: f, isBootstrapBaseFile: false } : { filePath: f.filePath, isBootstrapBaseFile: f.isBootstrapBaseFile }));
  }
  const e = plan.earliestInstantToRetain;
  return {
    earliestInstantToRetain: e ? { timestamp: e.timestamp, action: e.action, state: e.state } : null,
    lastCompletedCommitTimestamp: plan.lastCompletedCommitTimestamp ?? '',
    policy: plan.policy,
    filesToBeDeletedPerPartition: null,
    version: plan.version ?? 2,
    filePathsToBeDeletedPerPartition: files,
    partitionsToBeDeleted: [...(plan.partitionsToBeDeleted ?? [])],
  };
}

/** The Avro record of completed clean metadata. */
export function cleanMetadataRecord(md: CleanMetadataInput): Record<string, unknown> {
  const partitionMetadata: Record<string, unknown> = {};
  for (const [p, m] of Object.entries(md.partitionMetadata)) {
    partitionMetadata[p] = {
      partitionPath: m.partitionPath,
      policy: m.policy,
      deletePathPatterns: [...(m.deletePathPatterns ?? m.successDeleteFiles ?? [])],
      successDeleteFiles: [...(m.successDeleteFiles ?? [])],
      failedDeleteFiles: [...(m.failedDeleteFiles ?? [])],
      isPartitionDeleted: m.isPartitionDeleted ?? false,
    };
  }
  return {
    startCleanTime: md.startCleanTime,
    timeTakenInMillis: md.timeTakenInMillis,
    totalFilesDeleted: md.totalFilesDeleted,
    earliestCommitToRetain: md.earliestCommitToRetain,
    lastCompletedCommitTimestamp: md.lastCompletedCommitTimestamp ?? '',
    partitionMetadata,
    version: md.version ?? 2,
    bootstrapPartitionMetadata: {},
  };
}

/** Serialize a cleaner plan as Hudi's `<t>.clean.requested` (Avro object container, null codec). */
export function serializeCleanerPlan(plan: CleanerPlanInput, options: TimelineAvroOptions = {}): Uint8Array {
  return writeAvroContainer(PLAN_JSON, [cleanerPlanRecord(plan)], containerOptions(options));
}

/** Serialize completed clean metadata as Hudi's `<t>.clean` (Avro object container, null codec). */
export function serializeCleanMetadata(md: CleanMetadataInput, options: TimelineAvroOptions = {}): Uint8Array {
  return writeAvroContainer(METADATA_JSON, [cleanMetadataRecord(md)], containerOptions(options));
}

class Fields {
  constructor(readonly path: string) {}

  record(v: unknown, field: string): Record<string, unknown> {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof Uint8Array) throw corruptFile(`clean: ${field} is not a record`, this.path);
    return v as Record<string, unknown>;
  }

  string(v: unknown, field: string, fallback?: string): string {
    if (typeof v === 'string') return v;
    if ((v === null || v === undefined) && fallback !== undefined) return fallback;
    throw corruptFile(`clean: ${field} is not a string`, this.path);
  }

  number(v: unknown, field: string, fallback?: number): number {
    if (typeof v === 'number') return v;
    if (typeof v === 'bigint') return Number(v);
    if ((v === null || v === undefined) && fallback !== undefined) return fallback;
    throw corruptFile(`clean: ${field} is not a number`, this.path);
  }

  strings(v: unknown, field: string): string[] {
    if (v === null || v === undefined) return [];
    if (!Array.isArray(v)) throw corruptFile(`clean: ${field} is not a list`, this.path);
    return v.map((x, i) => this.string(x, `${field}[${i}]`));
  }
}

function onlyRecord(bytes: Uint8Array, path: string): Record<string, unknown> {
  const { records } = readAvroContainer(bytes, path);
  if (records.length !== 1) throw corruptFile(`clean: expected one record, found ${records.length}`, path);
  return new Fields(path).record(records[0], 'record');
}

/** Map a path from a plan (absolute when Hudi wrote it) to a path relative to the table root. */
export function relativeCleanPath(partitionPath: string, filePath: string): string {
  return partitionFilePath(partitionPath, baseName(filePath));
}

/** Interpret a decoded HoodieCleanerPlan record (from a plan file or an archived entry). */
export function cleanerPlanFromRecord(r: Record<string, unknown>, path: string): CleanerPlan {
  const f = new Fields(path);
  const e = r.earliestInstantToRetain;
  let earliest: ActionInstant | undefined;
  if (e !== null && e !== undefined) {
    const x = f.record(e, 'earliestInstantToRetain');
    earliest = {
      timestamp: f.string(x.timestamp, 'earliestInstantToRetain.timestamp'),
      action: f.string(x.action, 'earliestInstantToRetain.action', ''),
      state: f.string(x.state, 'earliestInstantToRetain.state', ''),
    };
  }
  const files: Record<string, CleanFileInfo[]> = {};
  const v2 = r.filePathsToBeDeletedPerPartition;
  if (v2 !== null && v2 !== undefined) {
    for (const [p, list] of Object.entries(f.record(v2, 'filePathsToBeDeletedPerPartition'))) {
      if (!Array.isArray(list)) throw corruptFile(`clean: filePathsToBeDeletedPerPartition[${JSON.stringify(p)}] is not a list`, path);
      files[p] = list.map((x, i) => {
        const info = f.record(x, `filePathsToBeDeletedPerPartition[${JSON.stringify(p)}][${i}]`);
        return { filePath: relativeCleanPath(p, f.string(info.filePath, 'filePath')), isBootstrapBaseFile: info.isBootstrapBaseFile === true };
      });
    }
  }
  const v1 = r.filesToBeDeletedPerPartition;
  if (v1 !== null && v1 !== undefined) {
    // Version-1 plans list file names per partition.
    for (const [p, list] of Object.entries(f.record(v1, 'filesToBeDeletedPerPartition'))) {
      if (files[p]) continue;
      files[p] = f.strings(list, `filesToBeDeletedPerPartition[${JSON.stringify(p)}]`).map((n) => ({ filePath: relativeCleanPath(p, n), isBootstrapBaseFile: false }));
    }
  }
  return {
    earliestInstantToRetain: earliest,
    lastCompletedCommitTimestamp: f.string(r.lastCompletedCommitTimestamp, 'lastCompletedCommitTimestamp', ''),
    policy: f.string(r.policy, 'policy', ''),
    filePathsToBeDeletedPerPartition: files,
    partitionsToBeDeleted: f.strings(r.partitionsToBeDeleted, 'partitionsToBeDeleted'),
    version: f.number(r.version, 'version', 1),
  };
}

/** Interpret a decoded HoodieCleanMetadata record (from a clean file or an archived entry). */
export function cleanMetadataFromRecord(r: Record<string, unknown>, path: string): CleanMetadata {
  const f = new Fields(path);
  const partitionMetadata: Record<string, CleanPartitionMetadata> = {};
  for (const [p, x] of Object.entries(f.record(r.partitionMetadata ?? {}, 'partitionMetadata'))) {
    const at = `partitionMetadata[${JSON.stringify(p)}]`;
    const m = f.record(x, at);
    partitionMetadata[p] = {
      partitionPath: f.string(m.partitionPath, `${at}.partitionPath`, p),
      policy: f.string(m.policy, `${at}.policy`, ''),
      deletePathPatterns: f.strings(m.deletePathPatterns, `${at}.deletePathPatterns`),
      successDeleteFiles: f.strings(m.successDeleteFiles, `${at}.successDeleteFiles`),
      failedDeleteFiles: f.strings(m.failedDeleteFiles, `${at}.failedDeleteFiles`),
      isPartitionDeleted: m.isPartitionDeleted === true,
    };
  }
  return {
    startCleanTime: f.string(r.startCleanTime, 'startCleanTime'),
    timeTakenInMillis: f.number(r.timeTakenInMillis, 'timeTakenInMillis', 0),
    totalFilesDeleted: f.number(r.totalFilesDeleted, 'totalFilesDeleted', 0),
    earliestCommitToRetain: f.string(r.earliestCommitToRetain, 'earliestCommitToRetain', ''),
    lastCompletedCommitTimestamp: f.string(r.lastCompletedCommitTimestamp, 'lastCompletedCommitTimestamp', ''),
    partitionMetadata,
    version: f.number(r.version, 'version', 1),
  };
}

/** Parse `<t>.clean.requested` (or a `<t>.clean.inflight` holding the plan). Bad shapes → `CORRUPT_FILE`. */
export function parseCleanerPlan(bytes: Uint8Array, path: string): CleanerPlan {
  return cleanerPlanFromRecord(onlyRecord(bytes, path), path);
}

/** Parse a completed `<t>.clean`. Bad shapes → `CORRUPT_FILE`. */
export function parseCleanMetadata(bytes: Uint8Array, path: string): CleanMetadata {
  return cleanMetadataFromRecord(onlyRecord(bytes, path), path);
}
