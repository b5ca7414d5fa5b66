// The read planner (pure): which file slices a snapshot, read-optimized or incremental query reads,
// after partition pruning, and which rows it keeps (commit-time window of incremental queries).
import type { TableConfig } from '../config/table-config.js';
import { fileGroupKey, type FileSlice } from '../file-group/file-slice.js';
import type { FileSystemView } from '../file-group/file-system-view.js';
import { compareInstantTimes } from '../timeline/instant.js';
import { matchValue, type ComparableKind, type CompiledFilter } from './filters.js';

/** What a query asks for, after validation. */
export interface ReadRequest {
  /** Snapshot instant (inclusive); undefined = latest. For incremental queries: the end instant. */
  asOf: string | undefined;
  readOptimized: boolean;
  /** Incremental window `(from, asOf]`, when this is an incremental query. */
  incrementalFrom: string | undefined;
  /** File groups written in the incremental window (`fileGroupKey`s). */
  incrementalGroups: ReadonlySet<string> | undefined;
  filters: readonly CompiledFilter[];
}

/** The plan: slices to read and the row-level rules to apply. */
export interface ReadPlan {
  slices: FileSlice[];
  /** Keep only rows whose commit time is in `(from, to]` (incremental queries). */
  commitTimeRange: { from: string; to: string } | undefined;
  /** Filters applied to merged rows. */
  filters: readonly CompiledFilter[];
}

/**
 * Values of the partition fields encoded in a partition path, or undefined when the path cannot be
 * decoded (timestamp key generators, a segment count that does not match the fields).
 */
export function partitionValues(config: TableConfig, partitionPath: string): Map<string, string | null> | undefined {
  const fields = config.partitionFields;
  if (fields.length === 0 || config.keyGeneratorType === 'TIMESTAMP' || config.keyGeneratorType === 'CUSTOM') return undefined;
  const segments = partitionPath === '' ? [] : partitionPath.split('/');
  if (segments.length !== fields.length) return undefined;
  const out = new Map<string, string | null>();
  for (let i = 0; i < fields.length; i++) {
    let seg = segments[i] as string;
    const field = fields[i] as string;
    if (config.hiveStylePartitioning) {
      if (!seg.startsWith(`${field}=`)) return undefined;
      seg = seg.slice(field.length + 1);
    }
    if (config.urlEncodePartitioning) {
      try {
        seg = decodeURIComponent(seg);
      } catch {
        return undefined;
      }
    }
    out.set(field, seg === '__HIVE_DEFAULT_PARTITION__' ? null : seg);
  }
  return out;
}

/** A partition value (text from the path) as a value of the column's kind. */
function typedPartitionValue(kind: ComparableKind, text: string | null): unknown {
  if (text === null) return null;
  switch (kind) {
    case 'number': return Number(text);
    case 'bigint': return /^-?\d+$/.test(text) ? BigInt(text) : Number(text);
    case 'boolean': return text === 'true';
    default: return text;
  }
}

/** Does a partition path possibly hold rows matching the filters on partition fields? */
export function partitionMayMatch(config: TableConfig, partitionPath: string, filters: readonly CompiledFilter[]): boolean {
  const relevant = filters.filter((f) => config.partitionFields.includes(f.field));
  if (relevant.length === 0) return true;
  const values = partitionValues(config, partitionPath);
  if (!values) return true;
  return relevant.every((f) => matchValue(f, typedPartitionValue(f.kind, values.get(f.field) ?? null)));
}

/** Plan a read: pick slices from the view, prune partitions, restrict incremental reads to written groups. */
export function planRead(config: TableConfig, view: FileSystemView, request: ReadRequest): ReadPlan {
  const partitionFilter = (p: string) => partitionMayMatch(config, p, request.filters);
  let slices = view.latestSlices({ asOf: request.asOf, partitionFilter, baseFilesOnly: request.readOptimized });
  let commitTimeRange: ReadPlan['commitTimeRange'];
  if (request.incrementalFrom !== undefined) {
    const groups = request.incrementalGroups ?? new Set<string>();
    slices = slices.filter((s) => groups.has(fileGroupKey(s.partitionPath, s.fileId)));
    commitTimeRange = { from: request.incrementalFrom, to: request.asOf ?? '99999999999999999' };
  }
  return { slices, commitTimeRange, filters: request.filters };
}

/** Is a commit time inside an incremental window `(from, to]`? */
export function inCommitRange(commitTime: unknown, range: { from: string; to: string }): boolean {
  if (typeof commitTime !== 'string') return false;
  return compareInstantTimes(commitTime, range.from) > 0 && compareInstantTimes(commitTime, range.to) <= 0;
}
