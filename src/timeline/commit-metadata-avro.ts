// Writing timeline layout 2 (table versions 8 and 9) commit metadata: completed commit/deltacommit/replacecommit
// and the inflight "workload profile" as Avro object container files (null codec, one record) with the writer
// schemas Hudi 1.x embeds (hudi-v9-write.md §1, hudi-format.md §3.3–3.4), and the layout-2 requested replace plan.
// The layout dispatchers at the end pick JSON (layout 1) or Avro (layout 2) for a table.
import { writeAvroContainer } from '../format/avro/container.js';
import { REQUESTED_REPLACE_METADATA_SCHEMA } from './avro-schemas.js';
import { serializeCommitMetadata, serializeWorkloadProfile, type CommitMetadataInput, type StringKeyed, type WorkloadProfile, type WriteStatInput } from './commit-metadata-writer.js';
import { serializeRequestedReplaceMetadata, type RequestedReplaceMetadata } from './replace-metadata.js';
import type { TimelineAvroOptions } from './rollback-metadata.js';

const STR = { type: 'string', 'avro.java.string': 'String' } as const;
const OPT_STR = ['null', STR] as const;
const OPT_LONG = ['null', 'long'] as const;
const n = (name: string, type: unknown) => ({ name, type, default: null });

/** `HoodieWriteStat` as Hudi's commit files define it (inside `HoodieCommitMetadata`, field order kept; the archived timeline's entries embed the same record). */
export const WRITE_STAT_SCHEMA = {
  type: 'record',
  name: 'HoodieWriteStat',
  fields: [
    n('fileId', OPT_STR), n('path', OPT_STR), n('prevCommit', OPT_STR), n('numWrites', OPT_LONG), n('numDeletes', OPT_LONG),
    n('numUpdateWrites', OPT_LONG), n('totalWriteBytes', OPT_LONG), n('totalWriteErrors', OPT_LONG), n('partitionPath', OPT_STR),
    n('totalLogRecords', OPT_LONG), n('totalLogFiles', OPT_LONG), n('totalUpdatedRecordsCompacted', OPT_LONG), n('numInserts', OPT_LONG),
    n('totalLogBlocks', OPT_LONG), n('totalCorruptLogBlock', OPT_LONG), n('totalRollbackBlocks', OPT_LONG), n('fileSizeInBytes', OPT_LONG),
    n('logVersion', ['null', 'int']), n('logOffset', OPT_LONG), n('baseFile', OPT_STR),
    n('logFiles', ['null', { type: 'array', items: STR, default: null }]),
    n('cdcStats', ['null', { type: 'map', values: 'long', 'avro.java.string': 'String', default: null }]),
    n('prevBaseFile', OPT_STR), n('minEventTime', OPT_LONG), n('maxEventTime', OPT_LONG),
    n('runtimeStats', ['null', {
      type: 'record',
      name: 'HoodieRuntimeStats',
      fields: [n('totalScanTime', OPT_LONG), n('totalCreateTime', OPT_LONG), n('totalUpsertTime', OPT_LONG)],
    }]),
    n('totalLogFilesCompacted', OPT_LONG), n('totalLogReadTimeMs', OPT_LONG), n('totalLogSizeCompacted', OPT_LONG), n('tempPath', OPT_STR),
    n('numUpdates', OPT_LONG),
  ],
} as const;

/**
 * `HoodieCommitMetadata` as a completed `<t>_<c>.commit` / `.deltacommit` and every inflight workload profile of a
 * v8/v9 table embed it (the same string in Hudi 1.0 and 1.1; built from Hudi's HoodieCommitMetadata.avsc as Java
 * renders it, checked against the fixtures' files).
 */
export const COMMIT_METADATA_FILE_SCHEMA = {
  type: 'record',
  name: 'HoodieCommitMetadata',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    n('partitionToWriteStats', ['null', { type: 'map', values: { type: 'array', items: WRITE_STAT_SCHEMA }, 'avro.java.string': 'String' }]),
    n('compacted', ['null', 'boolean']),
    n('extraMetadata', ['null', { type: 'map', values: STR, 'avro.java.string': 'String', default: null }]),
    { name: 'version', type: ['int', 'null'], default: 1 },
    n('operationType', OPT_STR),
  ],
} as const;

/**
 * `HoodieReplaceCommitMetadata` as a completed `<t>_<c>.replacecommit` of a v8/v9 table embeds it: the commit
 * metadata's fields (but no `default` inside the extraMetadata map) and `partitionToReplaceFileIds`.
 */
export const REPLACE_COMMIT_METADATA_FILE_SCHEMA = {
  type: 'record',
  name: 'HoodieReplaceCommitMetadata',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    n('partitionToWriteStats', ['null', { type: 'map', values: { type: 'array', items: WRITE_STAT_SCHEMA }, 'avro.java.string': 'String' }]),
    n('compacted', ['null', 'boolean']),
    n('extraMetadata', ['null', { type: 'map', values: STR, 'avro.java.string': 'String' }]),
    { name: 'version', type: ['int', 'null'], default: 1 },
    n('operationType', OPT_STR),
    n('partitionToReplaceFileIds', ['null', { type: 'map', values: { type: 'array', items: STR }, 'avro.java.string': 'String' }]),
  ],
} as const;

type SchemaField = { name: string; type: unknown; default?: unknown; doc?: string };
type SchemaRecord = { type: 'record'; name: string; namespace?: string; fields: readonly SchemaField[] };

/**
 * `HoodieRequestedReplaceMetadata` as Hudi 1.x embeds it (`<t>.replacecommit.requested`, `<t>.clustering.requested`):
 * the 0.14 schema whose `HoodieClusteringPlan` gained a trailing `missingSchedulePartitions` (nullable string array).
 */
export const REQUESTED_REPLACE_METADATA_V2_SCHEMA: SchemaRecord = (() => {
  const root = REQUESTED_REPLACE_METADATA_SCHEMA as unknown as SchemaRecord;
  return {
    ...root,
    fields: root.fields.map((f) => {
      if (f.name !== 'clusteringPlan') return f;
      const [nul, plan] = f.type as [string, SchemaRecord];
      const extra: SchemaField = { name: 'missingSchedulePartitions', type: ['null', { type: 'array', items: STR }], default: null };
      return { ...f, type: [nul, { ...plan, fields: [...plan.fields, extra] }] };
    }),
  };
})();

const COMMIT_JSON = JSON.stringify(COMMIT_METADATA_FILE_SCHEMA);
const REPLACE_JSON = JSON.stringify(REPLACE_COMMIT_METADATA_FILE_SCHEMA);
const REQUESTED_REPLACE_JSON = JSON.stringify(REQUESTED_REPLACE_METADATA_V2_SCHEMA);

const REPLACE_OPERATIONS = new Set(['INSERT_OVERWRITE', 'INSERT_OVERWRITE_TABLE', 'DELETE_PARTITION', 'CLUSTER']);
const LONG_FIELDS = [
  'numWrites', 'numDeletes', 'numUpdateWrites', 'totalWriteBytes', 'totalWriteErrors', 'totalLogRecords', 'totalUpdatedRecordsCompacted',
  'numInserts', 'totalLogBlocks', 'totalCorruptLogBlock', 'totalRollbackBlocks', 'fileSizeInBytes', 'totalLogFilesCompacted',
  'totalLogReadTimeMs', 'totalLogSizeCompacted', 'numUpdates',
] as const;

function entriesOf<T>(m: StringKeyed<T>): [string, T][] {
  return m instanceof Map ? [...(m as ReadonlyMap<string, T>).entries()] : Object.entries(m as Record<string, T>);
}

/** A write stat as the Avro writer takes it (a profile's stats have no partition path). */
type StatInput = Omit<WriteStatInput, 'partitionPath'> & { partitionPath?: string | undefined };

/**
 * One `HoodieWriteStat` record: given fields first, then `raw` (a parsed stat), then Hudi's values for a field
 * not set — a completed stat's runtime stats are zeros when unknown, a profile's are null.
 */
function writeStatRecord(s: StatInput, completed: boolean): Record<string, unknown> {
  const raw = (s.raw ?? {}) as Record<string, unknown>;
  const pick = (key: string, given: unknown, fallback: unknown): unknown => (given !== undefined ? given : key in raw && raw[key] !== undefined ? raw[key] : fallback);
  const isLog = (s.logFiles?.length ?? 0) > 0 || s.logVersion !== undefined || s.baseFile !== undefined;
  const given: Record<string, unknown> = { ...s };
  const out: Record<string, unknown> = {
    fileId: s.fileId,
    path: pick('path', s.path, null),
    prevCommit: pick('prevCommit', s.prevCommit, 'null'),
  };
  for (const k of LONG_FIELDS) out[k] = pick(k, given[k], 0);
  const runtime = pick('runtimeStats', s.runtimeStats, completed ? {} : null) as Record<string, unknown> | null;
  return {
    fileId: out.fileId,
    path: out.path,
    prevCommit: out.prevCommit,
    numWrites: out.numWrites,
    numDeletes: out.numDeletes,
    numUpdateWrites: out.numUpdateWrites,
    totalWriteBytes: out.totalWriteBytes,
    totalWriteErrors: out.totalWriteErrors,
    partitionPath: pick('partitionPath', s.partitionPath, null),
    totalLogRecords: out.totalLogRecords,
    totalLogFiles: pick('totalLogFiles', undefined, null),
    totalUpdatedRecordsCompacted: out.totalUpdatedRecordsCompacted,
    numInserts: out.numInserts,
    totalLogBlocks: out.totalLogBlocks,
    totalCorruptLogBlock: out.totalCorruptLogBlock,
    totalRollbackBlocks: out.totalRollbackBlocks,
    fileSizeInBytes: out.fileSizeInBytes,
    logVersion: pick('logVersion', s.logVersion, isLog ? 1 : null),
    logOffset: pick('logOffset', s.logOffset, isLog ? 0 : null),
    baseFile: pick('baseFile', s.baseFile, isLog ? '' : null),
    logFiles: pick('logFiles', s.logFiles === undefined ? undefined : [...s.logFiles], null),
    cdcStats: pick('cdcStats', undefined, null),
    prevBaseFile: pick('prevBaseFile', s.prevBaseFile, null),
    minEventTime: pick('minEventTime', s.minEventTime, null),
    maxEventTime: pick('maxEventTime', s.maxEventTime, null),
    runtimeStats: runtime === null ? null : { totalScanTime: runtime.totalScanTime ?? 0, totalCreateTime: runtime.totalCreateTime ?? 0, totalUpsertTime: runtime.totalUpsertTime ?? 0 },
    totalLogFilesCompacted: out.totalLogFilesCompacted,
    totalLogReadTimeMs: out.totalLogReadTimeMs,
    totalLogSizeCompacted: out.totalLogSizeCompacted,
    tempPath: pick('tempPath', undefined, null),
    numUpdates: out.numUpdates,
  };
}

const container = (schema: string, record: unknown, o: TimelineAvroOptions): Uint8Array => writeAvroContainer(schema, [record], o.syncMarker === undefined ? {} : { syncMarker: o.syncMarker });

/**
 * Serialize completed commit metadata of a v8/v9 table (`<t>_<c>.commit`, `.deltacommit`, `.replacecommit`) as
 * Hudi 1.x does: `HoodieCommitMetadata` (or `HoodieReplaceCommitMetadata` for replace operations, see
 * `CommitMetadataInput.replaceCommit`), `version` null, every write stat with all of `HoodieWriteStat`'s fields.
 */
export function serializeCommitMetadataAvro(md: CommitMetadataInput, options: TimelineAvroOptions = {}): Uint8Array {
  const operationType = md.operationType ?? 'UNKNOWN';
  const replaced = entriesOf(md.partitionToReplaceFileIds ?? {});
  const replace = md.replaceCommit ?? (replaced.length > 0 || REPLACE_OPERATIONS.has(operationType));
  const record: Record<string, unknown> = {
    partitionToWriteStats: Object.fromEntries(entriesOf(md.partitionToWriteStats).map(([p, stats]) => [p, stats.map((x) => writeStatRecord(x, true))])),
    compacted: md.compacted ?? false,
    extraMetadata: Object.fromEntries(entriesOf(md.extraMetadata ?? {})),
    version: null,
    operationType,
  };
  if (!replace) return container(COMMIT_JSON, record, options);
  record.partitionToReplaceFileIds = Object.fromEntries(replaced.map(([p, ids]) => [p, [...ids]]));
  return container(REPLACE_JSON, record, options);
}

/**
 * Serialize an inflight workload profile of a v8/v9 table as Hudi 1.x does (`HoodieCommitMetadata`): per partition
 * one stat with `fileId` `""`, `prevCommit` `"null"` and the partition's planned inserts, then one per file group
 * with its `prevCommit` and planned counts; `path`, `partitionPath`, `runtimeStats` and the log fields null.
 */
export function serializeWorkloadProfileAvro(profile: WorkloadProfile, options: TimelineAvroOptions = {}): Uint8Array {
  const stat = (fileId: string, prevCommit: string | undefined, numInserts: number, numUpdateWrites: number) =>
    writeStatRecord({ fileId, prevCommit: prevCommit ?? 'null', numInserts, numUpdateWrites, numWrites: 0, numDeletes: 0, totalWriteBytes: 0, fileSizeInBytes: 0 }, false);
  const partitions: Record<string, unknown[]> = {};
  for (const [p, w] of entriesOf(profile.partitions)) {
    partitions[p] = [stat('', undefined, w.numInserts, 0), ...(w.fileGroups ?? []).map((g) => stat(g.fileId, g.prevCommit, g.numInserts ?? 0, g.numUpdateWrites ?? 0))];
  }
  return container(COMMIT_JSON, { partitionToWriteStats: partitions, compacted: false, extraMetadata: {}, version: null, operationType: profile.operationType }, options);
}

/** Serialize `<t>.replacecommit.requested` of a v8/v9 table (omitted fields null: Hudi's insert_overwrite plan). */
export function serializeRequestedReplaceMetadataAvro(md: Partial<RequestedReplaceMetadata> = {}, options: TimelineAvroOptions = {}): Uint8Array {
  const record = {
    operationType: md.operationType ?? null,
    clusteringPlan: md.clusteringPlan ?? null,
    extraMetadata: md.extraMetadata === undefined || md.extraMetadata === null ? null : { ...md.extraMetadata },
    version: md.version ?? null,
  };
  return container(REQUESTED_REPLACE_JSON, record, options);
}

/** Timeline layouts: 1 (table version 6, JSON commit files) and 2 (v8/v9, Avro everywhere). */
export type TimelineLayout = 1 | 2;

/** Completed commit metadata in the table's layout: JSON (layout 1) or Avro (layout 2). */
export function commitMetadataBytes(layout: TimelineLayout, md: CommitMetadataInput): Uint8Array {
  return layout === 2 ? serializeCommitMetadataAvro(md) : serializeCommitMetadata(md);
}

/** The inflight workload profile in the table's layout. */
export function workloadProfileBytes(layout: TimelineLayout, profile: WorkloadProfile): Uint8Array {
  return layout === 2 ? serializeWorkloadProfileAvro(profile) : serializeWorkloadProfile(profile);
}

/** The all-null requested replace plan of an insert overwrite (or partition delete) in the table's layout. */
export function requestedReplaceBytes(layout: TimelineLayout): Uint8Array {
  return layout === 2 ? serializeRequestedReplaceMetadataAvro({}) : serializeRequestedReplaceMetadata({});
}
