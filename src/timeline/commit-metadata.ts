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

const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'string' && v !== '' ? Number(v) : 0);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) ? (v as Record<string, unknown>) : {});

/**
 * Decode an instant file: JSON (layout 1 commit files and any file starting with `{`), an Avro object
 * container (`Obj\x01`), or nothing (empty files → `{}`). Undecodable bytes → `CORRUPT_FILE` naming `path`.
 */
export function decodeInstantFile(bytes: Uint8Array, path: string): Record<string, unknown> {
  if (bytes.length === 0) return {};
  if (bytes[0] === 0x4f && bytes[1] === 0x62 && bytes[2] === 0x6a && bytes[3] === 0x01) {
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

/** Parse commit metadata (commit, deltacommit, replacecommit) from an instant file's bytes. */
export function parseCommitMetadata(bytes: Uint8Array, path: string): CommitMetadata {
  return commitMetadataFromObject(decodeInstantFile(bytes, path), path);
}

/**
 * Commit metadata from its decoded form (a JSON object, or the value of an Avro HoodieCommitMetadata /
 * HoodieReplaceCommitMetadata record, as archived timelines hold). Bad shapes → `CORRUPT_FILE` naming `path`.
 */
export function commitMetadataFromObject(raw: Record<string, unknown>, path: string): CommitMetadata {
  const partitionToWriteStats: Record<string, WriteStat[]> = {};
  for (const [partition, stats] of Object.entries(obj(raw.partitionToWriteStats))) {
    if (!Array.isArray(stats)) throw corruptFile(`timeline: partitionToWriteStats[${JSON.stringify(partition)}] is not a list`, path);
    partitionToWriteStats[partition] = stats.map((s) => writeStat(obj(s), partition));
  }
  const partitionToReplaceFileIds: Record<string, string[]> = {};
  for (const [partition, ids] of Object.entries(obj(raw.partitionToReplaceFileIds))) {
    partitionToReplaceFileIds[partition] = Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : [];
  }
  const extraMetadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(raw.extraMetadata))) if (typeof v === 'string') extraMetadata[k] = v;
  return {
    partitionToWriteStats,
    partitionToReplaceFileIds,
    compacted: raw.compacted === true,
    extraMetadata,
    operationType: str(raw.operationType),
  };
}

function writeStat(s: Record<string, unknown>, partition: string): WriteStat {
  return {
    fileId: str(s.fileId) ?? '',
    path: str(s.path) || undefined,
    partitionPath: str(s.partitionPath) ?? partition,
    prevCommit: str(s.prevCommit),
    numWrites: num(s.numWrites),
    numDeletes: num(s.numDeletes),
    numUpdateWrites: num(s.numUpdateWrites),
    numInserts: num(s.numInserts),
    totalWriteBytes: num(s.totalWriteBytes),
    fileSizeInBytes: num(s.fileSizeInBytes),
    logFiles: Array.isArray(s.logFiles) ? s.logFiles.filter((x): x is string => typeof x === 'string') : [],
    baseFile: str(s.baseFile) || undefined,
    raw: s,
  };
}
