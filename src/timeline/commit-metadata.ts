// Instant metadata: HoodieCommitMetadata / HoodieReplaceCommitMetadata with their write stats (JSON in
// layout 1, Avro object container in layout 2), and a generic decoder for every other instant file.
import { corruptFile } from '../errors.js';
import { readAvroContainer } from '../format/avro/container.js';

/** One file written by a commit (`HoodieWriteStat`, the fields lakelet uses; the rest stay in `raw`). */
export interface WriteStat {
  fileId: string;
  /** Path relative to the table root, when set. */
  path: string | undefined;
  partitionPath: string;
  prevCommit: string | undefined;
  numWrites: number;
  numDeletes: number;
  numUpdateWrites: number;
  numInserts: number;
  totalWriteBytes: number;
  fileSizeInBytes: number;
  /** Log files of a log write (MOR). */
  logFiles: string[];
  baseFile: string | undefined;
  raw: Record<string, unknown>;
}

/** The metadata of a completed commit, deltacommit or replacecommit. */
export interface CommitMetadata {
  partitionToWriteStats: Record<string, WriteStat[]>;
  /** Replacecommits only: file groups replaced, per partition. */
  partitionToReplaceFileIds: Record<string, string[]>;
  /** True for compaction commits. */
  compacted: boolean;
  extraMetadata: Record<string, string>;
  operationType: string | undefined;
}

const isAvroContainer = (b: Uint8Array): boolean => b[0] === 0x4f && b[1] === 0x62 && b[2] === 0x6a && b[3] === 0x01;
const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) ? (v as Record<string, unknown>) : {});

/**
 * Decode an instant file: JSON (layout 1 commit files and any file starting with `{`), an Avro object
 * container (`Obj\x01`), or nothing (empty files → `{}`). Undecodable bytes → `CORRUPT_FILE` naming `path`.
 */
export function decodeInstantFile(bytes: Uint8Array, path: string): Record<string, unknown> {
  if (bytes.length === 0) return {};
  if (isAvroContainer(bytes)) {
    const { records } = readAvroContainer(bytes, path);
    return obj(records[0]);
  }
  const text = new TextDecoder().decode(bytes);
  try {
    return obj(JSON.parse(text));
  } catch (err) {
    throw corruptFile(`timeline: instant file is neither JSON nor Avro (${(err as Error).message})`, path, 0, err);
  }
}

/**
 * Parse commit metadata (commit, deltacommit, replacecommit) from an instant file's bytes. A file that decodes
 * to something other than an object (a JSON array, string or number) → `CORRUPT_FILE` naming `path`.
 */
export function parseCommitMetadata(bytes: Uint8Array, path: string): CommitMetadata {
  if (bytes.length > 0 && !isAvroContainer(bytes)) {
    let root: unknown;
    try {
      root = JSON.parse(new TextDecoder().decode(bytes));
    } catch (err) {
      throw corruptFile(`timeline: instant file is neither JSON nor Avro (${(err as Error).message})`, path, 0, err);
    }
    if (!isObject(root)) throw corruptFile(`timeline: commit metadata is ${describe(root)}, expected an object`, path);
    return commitMetadataFromObject(root, path);
  }
  return commitMetadataFromObject(decodeInstantFile(bytes, path), path);
}

/**
 * Commit metadata from its decoded form (a JSON object, or the value of an Avro HoodieCommitMetadata /
 * HoodieReplaceCommitMetadata record, as archived timelines hold). Structurally invalid shapes → `CORRUPT_FILE`
 * naming `path` and the field: `partitionToWriteStats` / `partitionToReplaceFileIds` / `extraMetadata` that are
 * not objects, write-stat lists that are not arrays, stats that are not objects, a stat whose `fileId` is not a
 * string, whose `path`, `partitionPath`, `prevCommit` or `baseFile` is neither a string nor null, whose counters
 * are not numbers, whose `logFiles` is not a list of strings, and replaced file ids that are not strings.
 * Absent or null fields mean "none" (Hudi writes `{}` for commits that wrote nothing).
 */
export function commitMetadataFromObject(raw: Record<string, unknown>, path: string): CommitMetadata {
  const partitionToWriteStats: Record<string, WriteStat[]> = {};
  for (const [partition, stats] of Object.entries(objectField(raw, 'partitionToWriteStats', path))) {
    const where = `partitionToWriteStats[${JSON.stringify(partition)}]`;
    if (!Array.isArray(stats)) throw corruptFile(`timeline: ${where} is not a list (${describe(stats)})`, path);
    partitionToWriteStats[partition] = stats.map((s, i) => writeStat(s, partition, `${where}[${i}]`, path));
  }
  const partitionToReplaceFileIds: Record<string, string[]> = {};
  for (const [partition, ids] of Object.entries(objectField(raw, 'partitionToReplaceFileIds', path))) {
    const where = `partitionToReplaceFileIds[${JSON.stringify(partition)}]`;
    if (ids === null || ids === undefined) {
      partitionToReplaceFileIds[partition] = [];
      continue;
    }
    if (!Array.isArray(ids) || ids.some((x) => typeof x !== 'string')) throw corruptFile(`timeline: ${where} is not a list of file ids (${describe(ids)})`, path);
    partitionToReplaceFileIds[partition] = ids as string[];
  }
  const extraMetadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(objectField(raw, 'extraMetadata', path))) if (typeof v === 'string') extraMetadata[k] = v;
  if (raw.compacted !== undefined && raw.compacted !== null && typeof raw.compacted !== 'boolean') throw corruptFile(`timeline: compacted is ${describe(raw.compacted)}, expected a boolean`, path);
  return {
    partitionToWriteStats,
    partitionToReplaceFileIds,
    compacted: raw.compacted === true,
    extraMetadata,
    operationType: optionalString(raw, 'operationType', 'commit metadata', path),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array);

/** A short description of a JSON value's shape for error messages. */
function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

/** An object-valued field: absent or null → `{}`; anything else that is not an object → `CORRUPT_FILE`. */
function objectField(raw: Record<string, unknown>, field: string, path: string): Record<string, unknown> {
  const v = raw[field];
  if (v === undefined || v === null) return {};
  if (!isObject(v)) throw corruptFile(`timeline: ${field} is ${describe(v)}, expected an object`, path);
  return v;
}

function optionalString(s: Record<string, unknown>, field: string, where: string, path: string): string | undefined {
  const v = s[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw corruptFile(`timeline: ${where}.${field} is ${describe(v)}, expected a string`, path);
  return v;
}

const COUNTERS = ['numWrites', 'numDeletes', 'numUpdateWrites', 'numInserts', 'totalWriteBytes', 'fileSizeInBytes'] as const;

function counter(s: Record<string, unknown>, field: string, where: string, path: string): number {
  const v = s[field];
  if (v === undefined || v === null || v === '') return 0;
  const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw corruptFile(`timeline: ${where}.${field} is ${describe(v)}, expected a number`, path);
  return n;
}

function writeStat(value: unknown, partition: string, where: string, path: string): WriteStat {
  if (!isObject(value)) throw corruptFile(`timeline: ${where} is ${describe(value)}, expected a write stat object`, path);
  const s = value;
  if (typeof s.fileId !== 'string') throw corruptFile(`timeline: ${where}.fileId is ${s.fileId === undefined ? 'missing' : describe(s.fileId)}, expected a string`, path);
  const logFiles = s.logFiles;
  if (logFiles !== undefined && logFiles !== null && (!Array.isArray(logFiles) || logFiles.some((x) => typeof x !== 'string'))) {
    throw corruptFile(`timeline: ${where}.logFiles is ${describe(logFiles)}, expected a list of file names`, path);
  }
  const [numWrites, numDeletes, numUpdateWrites, numInserts, totalWriteBytes, fileSizeInBytes] = COUNTERS.map((f) => counter(s, f, where, path)) as [number, number, number, number, number, number];
  return {
    fileId: s.fileId,
    path: optionalString(s, 'path', where, path) || undefined,
    partitionPath: optionalString(s, 'partitionPath', where, path) ?? partition,
    prevCommit: optionalString(s, 'prevCommit', where, path),
    numWrites,
    numDeletes,
    numUpdateWrites,
    numInserts,
    totalWriteBytes,
    fileSizeInBytes,
    logFiles: Array.isArray(logFiles) ? (logFiles as string[]) : [],
    baseFile: optionalString(s, 'baseFile', where, path) || undefined,
    raw: s,
  };
}
