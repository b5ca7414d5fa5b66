// Writing v6 (timeline layout 1) commit metadata: completed commit/deltacommit/replacecommit JSON and the
// inflight "workload profile", byte-for-byte in the shape Hudi's Jackson pretty printer gives them.
import { LakeletError } from '../errors.js';

/** A JSON value with ordered object keys (a `Map`, so integer-like keys such as `"10"` keep their place). */
type Json = null | boolean | number | bigint | string | readonly Json[] | ReadonlyMap<string, Json>;

/** A map keyed by partition path (or any string): a plain object, or a `Map` to fix the key order exactly. */
export type StringKeyed<T> = Readonly<Record<string, T>> | ReadonlyMap<string, T>;

/** Time spent writing one file (`HoodieWriteStat.RuntimeStats`), in milliseconds. */
export interface RuntimeStats {
  totalScanTime?: number;
  totalUpsertTime?: number;
  totalCreateTime?: number;
}

/**
 * One file written by a commit, as lakelet supplies it (the parsed `WriteStat` of commit-metadata.ts also
 * fits). Missing counters are 0, missing nullable fields `null`; fields absent here are taken from `raw`
 * when it has them (so a parsed stat serializes back to what was read). Giving `logFiles` (non-empty),
 * `baseFile` or `logVersion` makes it a log write (`HoodieDeltaWriteStat`: adds `logVersion`, `logOffset`,
 * `baseFile`, `logFiles`, `recordsStats`).
 */
export interface WriteStatInput {
  fileId: string;
  /** Path of the written file relative to the table root (`<partition>/<file name>`). */
  path?: string | undefined;
  partitionPath: string;
  /** Instant of the group's previous base file; `undefined` → the string `"null"` (a new file group). */
  prevCommit?: string | undefined;
  numWrites: number;
  numDeletes: number;
  numUpdateWrites: number;
  numInserts: number;
  totalWriteBytes: number;
  fileSizeInBytes: number;
  totalWriteErrors?: number;
  totalLogRecords?: number;
  totalLogFilesCompacted?: number;
  totalLogSizeCompacted?: number;
  totalUpdatedRecordsCompacted?: number;
  totalLogBlocks?: number;
  totalCorruptLogBlock?: number;
  totalRollbackBlocks?: number;
  minEventTime?: number | undefined;
  maxEventTime?: number | undefined;
  /** Default `{ totalScanTime: 0, totalUpsertTime: 0, totalCreateTime: 0 }`. */
  runtimeStats?: RuntimeStats | undefined;
  /** Log writes: version of the log file written (default: taken from `path`, else 1). */
  logVersion?: number | undefined;
  /** Log writes: byte offset where the appended blocks start (default 0). */
  logOffset?: number | undefined;
  /** Log writes: name of the slice's base file (default `""`). */
  baseFile?: string | undefined;
  /** Log writes: names of all log files of the slice, this one included. */
  logFiles?: readonly string[] | undefined;
  /** Compaction (layout 2 only): name of the base file the new one replaces. */
  prevBaseFile?: string | undefined;
  /** Fields as read from a commit file; used for every field not given above. */
  raw?: Readonly<Record<string, unknown>> | undefined;
}

/** What {@link serializeCommitMetadata} writes (the parsed `CommitMetadata` also fits). */
export interface CommitMetadataInput {
  partitionToWriteStats: StringKeyed<readonly WriteStatInput[]>;
  /** Replacecommits: file groups replaced, per partition. */
  partitionToReplaceFileIds?: StringKeyed<readonly string[]> | undefined;
  /** True for compaction commits (default false). */
  compacted?: boolean | undefined;
  /** `schema` → the writer schema (Avro JSON without meta fields), and any other string entries. */
  extraMetadata?: StringKeyed<string> | undefined;
  /** `UPSERT`, `INSERT`, `DELETE`, `INSERT_OVERWRITE`, …; default `UNKNOWN` (Hudi's default). */
  operationType?: string | undefined;
  /**
   * Whether this is `HoodieReplaceCommitMetadata` (writes `partitionToReplaceFileIds`, even when empty).
   * Default: when `partitionToReplaceFileIds` is non-empty or `operationType` is a replace operation
   * (`INSERT_OVERWRITE`, `INSERT_OVERWRITE_TABLE`, `DELETE_PARTITION`, `CLUSTER`).
   */
  replaceCommit?: boolean | undefined;
}

/** The planned work of one partition in an inflight file. */
export interface PartitionWorkload {
  /** Inserts planned for the partition in total (the first stat, with `fileId` `""`). */
  numInserts: number;
  /** Per file group receiving records: its previous commit and planned updates / inserts. */
  fileGroups?: readonly { fileId: string; prevCommit?: string | undefined; numUpdateWrites?: number; numInserts?: number }[];
}

/** The workload profile Hudi writes into `<t>.inflight` / `<t>.deltacommit.inflight` / `<t>.replacecommit.inflight`. */
export interface WorkloadProfile {
  operationType: string;
  partitions: StringKeyed<PartitionWorkload>;
}

const REPLACE_OPERATIONS = new Set(['INSERT_OVERWRITE', 'INSERT_OVERWRITE_TABLE', 'DELETE_PARTITION', 'CLUSTER']);
/** HoodieWriteStat's JSON fields in Jackson's order (the order of the Java class), with their defaults. */
const STAT_FIELDS: readonly (readonly [string, Json])[] = [
  ['fileId', ''], ['path', null], ['cdcStats', null], ['prevCommit', 'null'], ['numWrites', 0], ['numDeletes', 0],
  ['numUpdateWrites', 0], ['numInserts', 0], ['totalWriteBytes', 0], ['totalWriteErrors', 0], ['tempPath', null],
  ['partitionPath', null], ['totalLogRecords', 0], ['totalLogFilesCompacted', 0], ['totalLogSizeCompacted', 0],
  ['totalUpdatedRecordsCompacted', 0], ['totalLogBlocks', 0], ['totalCorruptLogBlock', 0], ['totalRollbackBlocks', 0],
  ['fileSizeInBytes', 0], ['minEventTime', null], ['maxEventTime', null], ['runtimeStats', null],
];
/** The extra fields of HoodieDeltaWriteStat (log writes), after the common ones. */
const DELTA_FIELDS: readonly (readonly [string, Json])[] = [
  ['logVersion', 1], ['logOffset', 0], ['baseFile', ''], ['logFiles', []], ['recordsStats', new Map([['val', null]])],
];

const ZERO_RUNTIME = { totalScanTime: 0, totalUpsertTime: 0, totalCreateTime: 0 };

function logVersionOf(path: string | undefined): number | undefined {
  const m = /\.log\.(\d+)/.exec(path ?? '');
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

function entriesOf<T>(m: StringKeyed<T>): [string, T][] {
  return m instanceof Map ? [...(m as ReadonlyMap<string, T>).entries()] : Object.entries(m as Record<string, T>);
}

/** Any plain JS value (parsed JSON, Avro values) as Json. */
function toJson(v: unknown, field: string): Json {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new LakeletError('INVALID_ARGUMENT', `commit metadata: ${field} is not a finite number`, { field, value: v });
    return v;
  }
  if (Array.isArray(v)) return v.map((x) => toJson(x, field));
  if (v instanceof Map) return new Map([...(v as Map<string, unknown>)].map(([k, x]) => [String(k), toJson(x, field)]));
  if (typeof v === 'object') return new Map(Object.entries(v).map(([k, x]) => [k, toJson(x, `${field}.${k}`)]));
  throw new LakeletError('INVALID_ARGUMENT', `commit metadata: ${field} has an unsupported value`, { field, value: String(v) });
}

function writeStatJson(s: WriteStatInput, partition: string, index: number): Json {
  const raw = s.raw ?? {};
  const given: Record<string, unknown> = {
    fileId: s.fileId,
    path: s.path,
    prevCommit: s.prevCommit,
    numWrites: s.numWrites,
    numDeletes: s.numDeletes,
    numUpdateWrites: s.numUpdateWrites,
    numInserts: s.numInserts,
    totalWriteBytes: s.totalWriteBytes,
    totalWriteErrors: s.totalWriteErrors,
    partitionPath: s.partitionPath,
    totalLogRecords: s.totalLogRecords,
    totalLogFilesCompacted: s.totalLogFilesCompacted,
    totalLogSizeCompacted: s.totalLogSizeCompacted,
    totalUpdatedRecordsCompacted: s.totalUpdatedRecordsCompacted,
    totalLogBlocks: s.totalLogBlocks,
    totalCorruptLogBlock: s.totalCorruptLogBlock,
    totalRollbackBlocks: s.totalRollbackBlocks,
    fileSizeInBytes: s.fileSizeInBytes,
    minEventTime: s.minEventTime,
    maxEventTime: s.maxEventTime,
    runtimeStats: s.runtimeStats === undefined ? undefined : { ...ZERO_RUNTIME, ...s.runtimeStats },
    logVersion: s.logVersion ?? (s.raw === undefined ? logVersionOf(s.path) : undefined),
    logOffset: s.logOffset,
    baseFile: s.baseFile,
    logFiles: s.logFiles !== undefined && s.logFiles.length > 0 ? s.logFiles : undefined,
  };
  const isDelta = (s.logFiles?.length ?? 0) > 0 || s.baseFile !== undefined || s.logVersion !== undefined || 'logVersion' in raw || 'logFiles' in raw;
  const where = `partitionToWriteStats[${JSON.stringify(partition)}][${index}]`;
  const out = new Map<string, Json>();
  for (const [key, fallback] of isDelta ? [...STAT_FIELDS, ...DELTA_FIELDS] : STAT_FIELDS) {
    const value = given[key] !== undefined ? given[key] : key in raw ? raw[key] : key === 'runtimeStats' ? ZERO_RUNTIME : fallback;
    out.set(key, toJson(value, `${where}.${key}`));
  }
  return out;
}

/**
 * Serialize completed commit metadata (`<t>.commit`, `<t>.deltacommit`, `<t>.replacecommit` of a v6 table)
 * as Hudi's JSON: top-level keys `partitionToWriteStats`, `compacted`, `extraMetadata`, `operationType`
 * (+ `partitionToReplaceFileIds` for replacecommits), every write stat with all of HoodieWriteStat's fields
 * in Hudi's order, Jackson's pretty-printed layout, UTF-8, no trailing newline.
 */
export function serializeCommitMetadata(md: CommitMetadataInput): Uint8Array {
  const top = new Map<string, Json>();
  top.set('partitionToWriteStats', new Map(entriesOf(md.partitionToWriteStats).map(([p, stats]) => [p, stats.map((s, i) => writeStatJson(s, p, i))])));
  top.set('compacted', md.compacted ?? false);
  top.set('extraMetadata', toJson(new Map(entriesOf(md.extraMetadata ?? {})), 'extraMetadata'));
  const operationType = md.operationType ?? 'UNKNOWN';
  top.set('operationType', operationType);
  const replaced = entriesOf(md.partitionToReplaceFileIds ?? {});
  if (md.replaceCommit ?? (replaced.length > 0 || REPLACE_OPERATIONS.has(operationType))) {
    top.set('partitionToReplaceFileIds', toJson(new Map(replaced), 'partitionToReplaceFileIds'));
  }
  return new TextEncoder().encode(prettyJson(top));
}

/**
 * Serialize an inflight workload profile as Hudi 0.14 does: per partition one stat with `fileId` `""`,
 * `prevCommit` `"null"` and the partition's planned inserts, then one stat per file group with its
 * `prevCommit` and planned `numUpdateWrites`/`numInserts`; `path`, `partitionPath`, `runtimeStats` null.
 */
export function serializeWorkloadProfile(profile: WorkloadProfile): Uint8Array {
  const stat = (fileId: string, prevCommit: string | undefined, numInserts: number, numUpdateWrites: number): Json => {
    const values: Record<string, Json> = { fileId, prevCommit: prevCommit ?? 'null', numInserts, numUpdateWrites };
    return new Map(STAT_FIELDS.map(([k, fallback]) => [k, values[k] ?? fallback]));
  };
  const partitions = new Map<string, Json>();
  for (const [p, w] of entriesOf(profile.partitions)) {
    const stats: Json[] = [stat('', undefined, w.numInserts, 0)];
    for (const g of w.fileGroups ?? []) stats.push(stat(g.fileId, g.prevCommit, g.numInserts ?? 0, g.numUpdateWrites ?? 0));
    partitions.set(p, stats);
  }
  const top = new Map<string, Json>([
    ['partitionToWriteStats', partitions],
    ['compacted', false],
    ['extraMetadata', new Map()],
    ['operationType', profile.operationType],
  ]);
  return new TextEncoder().encode(prettyJson(top));
}

/** A JSON string literal as Jackson writes it (short escapes, `\u00XX` in upper-case hex, no `/` escape). */
function jsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c >= 0x20) out += s[i];
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else out += `\\u00${c.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `${out}"`;
}

/**
 * Jackson's DefaultPrettyPrinter: objects break lines with two-space indents per object level, `" : "`
 * between key and value, `{ }` when empty; arrays stay on the line (`[ a, b ]`, `[ ]`) and add no indent.
 */
function prettyJson(value: Json, level = 0): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return jsonString(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const items = value as readonly Json[];
    return items.length === 0 ? '[ ]' : `[ ${items.map((x) => prettyJson(x, level)).join(', ')} ]`;
  }
  const entries = [...(value as ReadonlyMap<string, Json>)];
  if (entries.length === 0) return '{ }';
  const inner = '\n' + '  '.repeat(level + 1);
  return `{${entries.map(([k, v]) => `${inner}${jsonString(k)} : ${prettyJson(v, level + 1)}`).join(',')}\n${'  '.repeat(level)}}`;
}
