// Rollback timeline files of v6 tables: the plan (`<t>.rollback.requested`, Avro HoodieRollbackPlan) and the
// completed metadata (`<t>.rollback`, Avro HoodieRollbackMetadata) — writing and reading (hudi-format.md §3.3).
import { corruptFile } from '../errors.js';
import { readAvroContainer, writeAvroContainer } from '../format/avro/container.js';
import { ROLLBACK_METADATA_SCHEMA, ROLLBACK_PLAN_SCHEMA } from './avro-schemas.js';

/** An instant named by time and action (`HoodieInstantInfo`). */
export interface InstantInfo {
  commitTime: string;
  action: string;
}

/**
 * One unit of rollback work (`HoodieRollbackRequest`). Hudi writes `fileId`/`latestBaseInstant` `""` for a
 * request that deletes files, and fills them (with `logBlocksToBeDeleted`) for log blocks to be undone.
 * Paths are written as given; Hudi itself writes absolute storage paths here.
 */
export interface RollbackRequest {
  partitionPath: string;
  fileId: string;
  latestBaseInstant: string;
  /** Files to delete (base files and log files created by the failed instant). */
  filesToBeDeleted: string[];
  /** Log file → size of the log files holding blocks of the failed instant (a command block undoes them). */
  logBlocksToBeDeleted: Record<string, number>;
}

/** `<t>.rollback.requested`. */
export interface RollbackPlan {
  instantToRollback: InstantInfo;
  rollbackRequests: RollbackRequest[];
  /** Plan version (Hudi writes 1). */
  version: number;
}

/** What one partition's rollback did (`HoodieRollbackPartitionMetadata`). */
export interface RollbackPartitionMetadata {
  partitionPath: string;
  successDeleteFiles: string[];
  failedDeleteFiles: string[];
  /** Log file → size of the log files the rollback's command blocks were written to. */
  rollbackLogFiles: Record<string, number>;
  /** Log file → size of the log files the failed commit had written to. */
  logFilesFromFailedCommit: Record<string, number>;
}

/** The completed `<t>.rollback`. */
export interface RollbackMetadata {
  /** The rollback's own instant time. */
  startRollbackTime: string;
  timeTakenInMillis: number;
  totalFilesDeleted: number;
  /** Instant times rolled back. */
  commitsRollback: string[];
  partitionMetadata: Record<string, RollbackPartitionMetadata>;
  /** Metadata version (Hudi writes 1). */
  version: number;
  /** The instants rolled back, with their actions. */
  instantsRollback: InstantInfo[];
}

/** Input of {@link serializeRollbackPlan}: optional parts default to `""`, `[]`, `{}` and version 1. */
export interface RollbackPlanInput {
  instantToRollback: InstantInfo;
  rollbackRequests: readonly (Pick<RollbackRequest, 'partitionPath'> & Partial<RollbackRequest>)[];
  version?: number;
}

/** Input of {@link serializeRollbackMetadata}: optional parts default to `[]`, `{}` and version 1. */
export interface RollbackMetadataInput {
  startRollbackTime: string;
  timeTakenInMillis: number;
  totalFilesDeleted: number;
  commitsRollback: readonly string[];
  partitionMetadata: Readonly<Record<string, Pick<RollbackPartitionMetadata, 'partitionPath'> & Partial<RollbackPartitionMetadata>>>;
  version?: number;
  instantsRollback: readonly InstantInfo[];
}

/** Options of the Avro timeline-file writers. */
export interface TimelineAvroOptions {
  /** The container's 16-byte sync marker (default random) — fixed only to reproduce a file exactly. */
  syncMarker?: Uint8Array;
}

const ROLLBACK_PLAN_JSON = JSON.stringify(ROLLBACK_PLAN_SCHEMA);
const ROLLBACK_METADATA_JSON = JSON.stringify(ROLLBACK_METADATA_SCHEMA);

const containerOptions = (o: TimelineAvroOptions): { syncMarker?: Uint8Array } => (o.syncMarker === undefined ? {} : { syncMarker: o.syncMarker });

/** Serialize a rollback plan as Hudi's `<t>.rollback.requested` (Avro object container, null codec). */
export function serializeRollbackPlan(plan: RollbackPlanInput, options: TimelineAvroOptions = {}): Uint8Array {
  const record = {
    instantToRollback: { commitTime: plan.instantToRollback.commitTime, action: plan.instantToRollback.action },
    RollbackRequests: plan.rollbackRequests.map((r) => ({
      partitionPath: r.partitionPath,
      fileId: r.fileId ?? '',
      latestBaseInstant: r.latestBaseInstant ?? '',
      filesToBeDeleted: [...(r.filesToBeDeleted ?? [])],
      logBlocksToBeDeleted: { ...(r.logBlocksToBeDeleted ?? {}) },
    })),
    version: plan.version ?? 1,
  };
  return writeAvroContainer(ROLLBACK_PLAN_JSON, [record], containerOptions(options));
}

/** Serialize completed rollback metadata as Hudi's `<t>.rollback` (Avro object container, null codec). */
export function serializeRollbackMetadata(md: RollbackMetadataInput, options: TimelineAvroOptions = {}): Uint8Array {
  const partitionMetadata: Record<string, unknown> = {};
  for (const [p, m] of Object.entries(md.partitionMetadata)) {
    partitionMetadata[p] = {
      partitionPath: m.partitionPath,
      successDeleteFiles: [...(m.successDeleteFiles ?? [])],
      failedDeleteFiles: [...(m.failedDeleteFiles ?? [])],
      rollbackLogFiles: { ...(m.rollbackLogFiles ?? {}) },
      logFilesFromFailedCommit: { ...(m.logFilesFromFailedCommit ?? {}) },
    };
  }
  const record = {
    startRollbackTime: md.startRollbackTime,
    timeTakenInMillis: md.timeTakenInMillis,
    totalFilesDeleted: md.totalFilesDeleted,
    commitsRollback: [...md.commitsRollback],
    partitionMetadata,
    version: md.version ?? 1,
    instantsRollback: md.instantsRollback.map((i) => ({ commitTime: i.commitTime, action: i.action })),
  };
  return writeAvroContainer(ROLLBACK_METADATA_JSON, [record], containerOptions(options));
}

/** Field access on decoded Avro records with CORRUPT_FILE errors naming the file and the field. */
class Fields {
  constructor(readonly path: string) {}

  record(v: unknown, field: string): Record<string, unknown> {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw corruptFile(`rollback: ${field} is not a record`, this.path);
    return v as Record<string, unknown>;
  }

  string(v: unknown, field: string, fallback?: string): string {
    if (typeof v === 'string') return v;
    if ((v === null || v === undefined) && fallback !== undefined) return fallback;
    throw corruptFile(`rollback: ${field} is not a string`, this.path);
  }

  number(v: unknown, field: string, fallback?: number): number {
    if (typeof v === 'number') return v;
    if (typeof v === 'bigint') return Number(v);
    if ((v === null || v === undefined) && fallback !== undefined) return fallback;
    throw corruptFile(`rollback: ${field} is not a number`, this.path);
  }

  strings(v: unknown, field: string): string[] {
    if (v === null || v === undefined) return [];
    if (!Array.isArray(v)) throw corruptFile(`rollback: ${field} is not a list`, this.path);
    return v.map((x, i) => this.string(x, `${field}[${i}]`));
  }

  sizes(v: unknown, field: string): Record<string, number> {
    if (v === null || v === undefined) return {};
    const out: Record<string, number> = {};
    for (const [k, x] of Object.entries(this.record(v, field))) out[k] = this.number(x, `${field}[${JSON.stringify(k)}]`);
    return out;
  }

  instant(v: unknown, field: string): InstantInfo {
    const r = this.record(v, field);
    return { commitTime: this.string(r.commitTime, `${field}.commitTime`), action: this.string(r.action, `${field}.action`) };
  }
}

function firstRecord(bytes: Uint8Array, path: string): Record<string, unknown> {
  const { records } = readAvroContainer(bytes, path);
  if (records.length !== 1) throw corruptFile(`rollback: expected one record, found ${records.length}`, path);
  return new Fields(path).record(records[0], 'record');
}

/** Parse `<t>.rollback.requested`. Null optional parts read as `""` / `[]` / `{}`; bad shapes → `CORRUPT_FILE`. */
export function parseRollbackPlan(bytes: Uint8Array, path: string): RollbackPlan {
  const f = new Fields(path);
  const r = firstRecord(bytes, path);
  const requests = r.RollbackRequests ?? [];
  if (!Array.isArray(requests)) throw corruptFile('rollback: RollbackRequests is not a list', path);
  return {
    instantToRollback: f.instant(r.instantToRollback, 'instantToRollback'),
    rollbackRequests: requests.map((x, i) => {
      const q = f.record(x, `RollbackRequests[${i}]`);
      const at = `RollbackRequests[${i}]`;
      return {
        partitionPath: f.string(q.partitionPath, `${at}.partitionPath`),
        fileId: f.string(q.fileId, `${at}.fileId`, ''),
        latestBaseInstant: f.string(q.latestBaseInstant, `${at}.latestBaseInstant`, ''),
        filesToBeDeleted: f.strings(q.filesToBeDeleted, `${at}.filesToBeDeleted`),
        logBlocksToBeDeleted: f.sizes(q.logBlocksToBeDeleted, `${at}.logBlocksToBeDeleted`),
      };
    }),
    version: f.number(r.version, 'version', 1),
  };
}

/** Parse a completed `<t>.rollback`. Null optional parts read as `[]` / `{}`; bad shapes → `CORRUPT_FILE`. */
export function parseRollbackMetadata(bytes: Uint8Array, path: string): RollbackMetadata {
  const f = new Fields(path);
  const r = firstRecord(bytes, path);
  const partitionMetadata: Record<string, RollbackPartitionMetadata> = {};
  for (const [p, x] of Object.entries(f.record(r.partitionMetadata ?? {}, 'partitionMetadata'))) {
    const at = `partitionMetadata[${JSON.stringify(p)}]`;
    const m = f.record(x, at);
    partitionMetadata[p] = {
      partitionPath: f.string(m.partitionPath, `${at}.partitionPath`),
      successDeleteFiles: f.strings(m.successDeleteFiles, `${at}.successDeleteFiles`),
      failedDeleteFiles: f.strings(m.failedDeleteFiles, `${at}.failedDeleteFiles`),
      rollbackLogFiles: f.sizes(m.rollbackLogFiles, `${at}.rollbackLogFiles`),
      logFilesFromFailedCommit: f.sizes(m.logFilesFromFailedCommit, `${at}.logFilesFromFailedCommit`),
    };
  }
  const instants = r.instantsRollback ?? [];
  if (!Array.isArray(instants)) throw corruptFile('rollback: instantsRollback is not a list', path);
  return {
    startRollbackTime: f.string(r.startRollbackTime, 'startRollbackTime'),
    timeTakenInMillis: f.number(r.timeTakenInMillis, 'timeTakenInMillis'),
    totalFilesDeleted: f.number(r.totalFilesDeleted, 'totalFilesDeleted'),
    commitsRollback: f.strings(r.commitsRollback, 'commitsRollback'),
    partitionMetadata,
    version: f.number(r.version, 'version', 1),
    instantsRollback: instants.map((x, i) => f.instant(x, `instantsRollback[${i}]`)),
  };
}
