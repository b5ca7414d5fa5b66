// Restore timeline files of v6 tables (hudi-format.md §3.3): `<r>.restore.requested` is Avro HoodieRestorePlan
// (the instants to roll back, newest first, and the savepoint restored to), `<r>.restore.inflight` is empty,
// the completed `<r>.restore` is Avro HoodieRestoreMetadata embedding the rollback metadata of each instant.
import { corruptFile } from '../errors.js';
import { readAvroContainer, writeAvroContainer } from '../format/avro/container.js';
import { ROLLBACK_METADATA_SCHEMA } from './avro-schemas.js';
import {
  parseRollbackMetadata,
  serializeRollbackMetadata,
  type InstantInfo,
  type RollbackMetadata,
  type RollbackMetadataInput,
  type TimelineAvroOptions,
} from './rollback-metadata.js';

const JAVA_STRING = { type: 'string', 'avro.java.string': 'String' } as const;
const INSTANT_INFO = {
  type: 'record',
  name: 'HoodieInstantInfo',
  fields: [
    { name: 'commitTime', type: JAVA_STRING },
    { name: 'action', type: JAVA_STRING },
  ],
} as const;

/** `HoodieRestorePlan` writer schema (Hudi's `HoodieRestorePlan.avsc`, plan version 2, as Java renders it). */
export const RESTORE_PLAN_SCHEMA = {
  type: 'record',
  name: 'HoodieRestorePlan',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    { name: 'instantsToRollback', type: { type: 'array', items: INSTANT_INFO, default: null }, default: [] },
    { name: 'version', type: ['int', 'null'], default: 2 },
    { name: 'savepointToRestoreTimestamp', type: [JAVA_STRING, 'null'], default: null },
  ],
} as const;

/** HoodieRollbackMetadata as nested in another record of the same namespace (Java leaves the namespace out). */
const { namespace: _ns, ...NESTED_ROLLBACK_METADATA } = ROLLBACK_METADATA_SCHEMA;

/**
 * `HoodieRestoreMetadata` writer schema (Hudi's `HoodieRestoreMetadata.avsc` of the 0.x line, without the
 * later `extraMetadata` field; files that have it still parse).
 */
export const RESTORE_METADATA_SCHEMA = {
  type: 'record',
  name: 'HoodieRestoreMetadata',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    { name: 'startRestoreTime', type: JAVA_STRING },
    { name: 'timeTakenInMillis', type: 'long' },
    { name: 'instantsToRollback', type: { type: 'array', items: JAVA_STRING } },
    {
      name: 'hoodieRestoreMetadata',
      type: {
        type: 'map',
        values: { type: 'array', items: ['null', NESTED_ROLLBACK_METADATA], default: null },
        'avro.java.string': 'String',
      },
    },
    { name: 'version', type: ['int', 'null'], default: 1 },
    { name: 'restoreInstantInfo', type: { type: 'array', items: 'HoodieInstantInfo', default: null }, default: [] },
  ],
} as const;

/** `<r>.restore.requested`. */
export interface RestorePlan {
  /** The write instants to roll back, newest first. */
  instantsToRollback: InstantInfo[];
  /** Plan version (Hudi writes 2). */
  version: number;
  /** The savepoint restored to (null in version-1 plans). */
  savepointToRestoreTimestamp: string | null;
}

/** The completed `<r>.restore`. */
export interface RestoreMetadata {
  /** The restore's own instant time. */
  startRestoreTime: string;
  timeTakenInMillis: number;
  /** Instant times rolled back, newest first. */
  instantsToRollback: string[];
  /** Rolled-back instant time → the rollback metadata of its rollback (Hudi writes one per instant). */
  hoodieRestoreMetadata: Record<string, RollbackMetadata[]>;
  /** Metadata version (Hudi writes 1). */
  version: number;
  /** The instants rolled back, with their actions. */
  restoreInstantInfo: InstantInfo[];
}

/** Input of {@link serializeRestoreMetadata}: `version` defaults to 1, `restoreInstantInfo` to `[]`. */
export interface RestoreMetadataInput {
  startRestoreTime: string;
  timeTakenInMillis: number;
  instantsToRollback: readonly string[];
  hoodieRestoreMetadata: Readonly<Record<string, readonly RollbackMetadataInput[]>>;
  version?: number;
  restoreInstantInfo?: readonly InstantInfo[];
}

const PLAN_JSON = JSON.stringify(RESTORE_PLAN_SCHEMA);
const METADATA_JSON = JSON.stringify(RESTORE_METADATA_SCHEMA);
const containerOptions = (o: TimelineAvroOptions): { syncMarker?: Uint8Array } => (o.syncMarker === undefined ? {} : { syncMarker: o.syncMarker });

/** Serialize `<r>.restore.requested` (Avro object container, null codec). `version` defaults to 2. */
export function serializeRestorePlan(plan: { instantsToRollback: readonly InstantInfo[]; version?: number; savepointToRestoreTimestamp: string | null }, options: TimelineAvroOptions = {}): Uint8Array {
  const record = {
    instantsToRollback: plan.instantsToRollback.map((i) => ({ commitTime: i.commitTime, action: i.action })),
    version: plan.version ?? 2,
    savepointToRestoreTimestamp: plan.savepointToRestoreTimestamp,
  };
  return writeAvroContainer(PLAN_JSON, [record], containerOptions(options));
}

/** The rollback metadata record in the value model (decoded from its own serialization, so defaults match). */
function rollbackRecord(md: RollbackMetadataInput): unknown {
  const { records } = readAvroContainer(serializeRollbackMetadata(md));
  return records[0];
}

/** Serialize a completed `<r>.restore` (Avro object container, null codec). */
export function serializeRestoreMetadata(md: RestoreMetadataInput, options: TimelineAvroOptions = {}): Uint8Array {
  const byInstant: Record<string, unknown[]> = {};
  for (const [instant, list] of Object.entries(md.hoodieRestoreMetadata)) byInstant[instant] = list.map(rollbackRecord);
  const record = {
    startRestoreTime: md.startRestoreTime,
    timeTakenInMillis: md.timeTakenInMillis,
    instantsToRollback: [...md.instantsToRollback],
    hoodieRestoreMetadata: byInstant,
    version: md.version ?? 1,
    restoreInstantInfo: (md.restoreInstantInfo ?? []).map((i) => ({ commitTime: i.commitTime, action: i.action })),
  };
  return writeAvroContainer(METADATA_JSON, [record], containerOptions(options));
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function onlyRecord(bytes: Uint8Array, path: string): Record<string, unknown> {
  const { records } = readAvroContainer(bytes, path);
  if (records.length !== 1) throw corruptFile(`restore: expected one record, found ${records.length}`, path);
  const r = records[0];
  if (!isRecord(r)) throw corruptFile('restore: the record is not a record', path);
  return r;
}

function str(v: unknown, field: string, path: string): string {
  if (typeof v === 'string') return v;
  throw corruptFile(`restore: ${field} is not a string`, path);
}

function instants(v: unknown, field: string, path: string): InstantInfo[] {
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) throw corruptFile(`restore: ${field} is not a list`, path);
  return v.map((x, i) => {
    if (!isRecord(x)) throw corruptFile(`restore: ${field}[${i}] is not a record`, path);
    return { commitTime: str(x.commitTime, `${field}[${i}].commitTime`, path), action: str(x.action, `${field}[${i}].action`, path) };
  });
}

function intOr(v: unknown, fallback: number, field: string, path: string): number {
  if (v === null || v === undefined) return fallback;
  if (typeof v === 'number') return v;
  throw corruptFile(`restore: ${field} is not an int`, path);
}

/** Parse `<r>.restore.requested`. Version-1 plans (no savepoint field) read with a null savepoint. */
export function parseRestorePlan(bytes: Uint8Array, path: string): RestorePlan {
  const r = onlyRecord(bytes, path);
  const sp = r.savepointToRestoreTimestamp;
  return {
    instantsToRollback: instants(r.instantsToRollback, 'instantsToRollback', path),
    version: intOr(r.version, 2, 'version', path),
    savepointToRestoreTimestamp: sp === null || sp === undefined ? null : str(sp, 'savepointToRestoreTimestamp', path),
  };
}

/** Parse a completed `<r>.restore`; bad shapes → `CORRUPT_FILE` naming `path` and the field. */
export function parseRestoreMetadata(bytes: Uint8Array, path: string): RestoreMetadata {
  const r = onlyRecord(bytes, path);
  let timeTakenInMillis: number;
  if (typeof r.timeTakenInMillis === 'bigint') timeTakenInMillis = Number(r.timeTakenInMillis);
  else if (typeof r.timeTakenInMillis === 'number') timeTakenInMillis = r.timeTakenInMillis;
  else throw corruptFile('restore: timeTakenInMillis is not a long', path);
  const list = r.instantsToRollback ?? [];
  if (!Array.isArray(list)) throw corruptFile('restore: instantsToRollback is not a list', path);
  const map = r.hoodieRestoreMetadata ?? {};
  if (!isRecord(map)) throw corruptFile('restore: hoodieRestoreMetadata is not a map', path);
  const hoodieRestoreMetadata: Record<string, RollbackMetadata[]> = {};
  for (const [instant, value] of Object.entries(map)) {
    const at = `hoodieRestoreMetadata[${JSON.stringify(instant)}]`;
    if (value === null) {
      hoodieRestoreMetadata[instant] = [];
      continue;
    }
    if (!Array.isArray(value)) throw corruptFile(`restore: ${at} is not a list`, path);
    hoodieRestoreMetadata[instant] = value.filter((x) => x !== null).map((x) => rollbackFromRecord(x, path));
  }
  return {
    startRestoreTime: str(r.startRestoreTime, 'startRestoreTime', path),
    timeTakenInMillis,
    instantsToRollback: list.map((x, i) => str(x, `instantsToRollback[${i}]`, path)),
    hoodieRestoreMetadata,
    version: intOr(r.version, 1, 'version', path),
    restoreInstantInfo: instants(r.restoreInstantInfo, 'restoreInstantInfo', path),
  };
}

/** Reuse the rollback parser's validation for a nested record: re-wrap it in a one-record container. */
function rollbackFromRecord(value: unknown, path: string): RollbackMetadata {
  let bytes: Uint8Array;
  try {
    bytes = writeAvroContainer(JSON.stringify(ROLLBACK_METADATA_SCHEMA), [value]);
  } catch (err) {
    throw corruptFile('restore: a nested HoodieRollbackMetadata has a bad shape', path, undefined, err);
  }
  return parseRollbackMetadata(bytes, path);
}
