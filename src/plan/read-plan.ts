// The read planner (pure): which file slices a snapshot, read-optimized or incremental query reads,
// after partition pruning and the metadata table's data skipping, and which rows it keeps (commit-time window of incremental queries).
import { DEPRECATED_DEFAULT_PARTITION_PATH, type TableConfig } from '../config/table-config.js';
import { fileGroupKey, type FileSlice } from '../file-group/file-slice.js';
import type { FileSystemView } from '../file-group/file-system-view.js';
import { DEFAULT_PARTITION_PATH, ESCAPED_PARTITION_PATH_PROPERTY, unescapePathName } from '../keygen/partition-path.js';
import { compareInstantTimes } from '../timeline/instant.js';
import { matchValue, type CompiledFilter } from '../expr/filter.js';
import type { ComparableKind } from '../schema/compare.js';

/** What a query asks for, after validation. */
export interface ReadRequest {
  /** Snapshot instant (inclusive); undefined = latest. For incremental queries: the end instant. */
  asOf: string | undefined;
  readOptimized: boolean;
  /** Incremental window `(from, asOf]`, when this is an incremental query. */
  incrementalFrom: string | undefined;
  /** File groups written in the incremental window (`fileGroupKey`s). */
  incrementalGroups: ReadonlySet<string> | undefined;
  /**
   * Merge-on-read incremental queries: the paths of the files the window's writes wrote (their write stats).
   * Only these files of a slice are read, as Hudi's incremental relations build their file-system view over the
   * window's affected files (see {@link windowSlices}).
   */
  incrementalFiles?: ReadonlySet<string> | undefined;
  filters: readonly CompiledFilter[];
  /**
   * Completion-time reads (table versions 8 and 9): the snapshot counts writes completed at or before this
   * completion time (instead of `asOf`), see `SliceQuery.completedBy`.
   */
  completedBy?: string | undefined;
  /**
   * Completion-time incremental queries: the requested times of the writes that completed in the window; rows
   * are kept when their commit time is one of them (instead of the `(from, asOf]` commit-time window).
   */
  incrementalCommitTimes?: ReadonlySet<string> | undefined;
  /** What the metadata table's indexes rule out (engine/metadata/metadata-skipping.ts); nothing when absent. */
  skipping?: DataSkipping | undefined;
}

/**
 * Data skipping from the metadata table's indexes: file groups the record index names for a key filter, data
 * files whose column stats rule a filter out, partitions whose partition stats do. A slice is skipped when its
 * group is not named, or when its base file and every log file it reads are ruled out (a file without stats is
 * never ruled out, and a read-optimized read looks at the base file only).
 */
export interface DataSkipping {
  /** Only these file groups (`fileGroupKey`s) can hold the filtered keys. */
  fileGroups?: ReadonlySet<string>;
  /** File names (base and log) whose column stats rule out a filter. */
  excludedFiles?: ReadonlySet<string>;
  /** Partition paths whose partition stats rule out a filter. */
  excludedPartitions?: ReadonlySet<string>;
}

/** May the slice hold a row the skipping data does not rule out? */
export function sliceMayMatch(slice: FileSlice, skipping: DataSkipping, readOptimized: boolean): boolean {
  if (skipping.fileGroups && !skipping.fileGroups.has(fileGroupKey(slice.partitionPath, slice.fileId))) return false;
  const excluded = skipping.excludedFiles;
  if (!excluded) return true;
  const names = [...(slice.baseFile ? [slice.baseFile.name] : []), ...(readOptimized ? [] : slice.logFiles.map((l) => l.name))];
  return names.length === 0 || !names.every((n) => excluded.has(n));
}

/** How an incremental window is read: over completion times (table versions 8, 9) or requested times (6). */
export type IncrementalRangeType = 'completionTime' | 'requestedTime';

/** The plan: slices to read and the row-level rules to apply. */
export interface ReadPlan {
  slices: FileSlice[];
  /** Keep only rows whose commit time is in `(from, to]` (incremental queries over requested times). */
  commitTimeRange: { from: string; to: string } | undefined;
  /** Keep only rows whose commit time is one of these (incremental queries over completion times). */
  commitTimes?: ReadonlySet<string> | undefined;
  /** Filters applied to merged rows. */
  filters: readonly CompiledFilter[];
}

/** A `%XX` escape lakelet's writer produces without urlencode: `/`, `\`, `%`, controls, DEL (and `.`, first). */
const SAFETY_ESCAPE = /^%(2[Ff]|5[Cc]|25|[01][0-9A-Fa-f]|7[Ff]|2[Ee])$/;

/** The inverse of lakelet's safety escaping, or undefined when `text` holds a `%` that is not one of its escapes. */
function unescapeSafety(text: string, leadingSegment: boolean): string | undefined {
  let bad = false;
  const out = text.replace(/%(..)?/gs, (m: string, _h: string | undefined, at: number) => {
    if (m.length !== 3 || !SAFETY_ESCAPE.test(m)) {
      bad = true;
      return m;
    }
    const code = parseInt(m.slice(1), 16);
    if (code === 0x2e && !(leadingSegment && at === 0)) bad = true; // lakelet escapes `.` only at a segment's start
    return String.fromCharCode(code);
  });
  return bad ? undefined : out;
}

/**
 * The values a partition path segment (without `field=`) may stand for, most likely first; undefined when it
 * cannot be decoded. `__HIVE_DEFAULT_PARTITION__` is a null or empty value (or that very text). With urlencode, Hive's
 * `unescapePathName`. Without it, lakelet's tables escape `/ \ %`, controls and DEL (a leading `.` too in plain
 * style) and Hudi writes values raw: in a table marked {@link ESCAPED_PARTITION_PATH_PROPERTY} the escapes are
 * decoded; otherwise a segment whose every `%` is such an escape may be either, and both are candidates.
 */
export function partitionSegmentValues(config: TableConfig, segment: string): (string | null)[] | undefined {
  // Hudi writes null and '' as the default partition (a value spelled like it cannot be told apart).
  if (segment === DEFAULT_PARTITION_PATH) return [null, '', DEFAULT_PARTITION_PATH];
  // Hudi 0.10/0.11 (table versions 3, 4) wrote null and '' as `default`; a later table may still hold such a
  // partition (upgraded with hoodie.skip.default.partition.validation) and Hudi's PartitionPathParser reads
  // `default` as null in every version, so it is a candidate either way (docs/hudi-format-v3-v5.md).
  if (segment === DEPRECATED_DEFAULT_PARTITION_PATH) return config.defaultPartitionPath === segment ? [null, '', segment] : [segment, null, ''];
  if (config.urlEncodePartitioning) {
    if (/%(?![0-9A-Fa-f]{2})/.test(segment)) return undefined;
    const value = unescapePathName(segment);
    return [value];
  }
  if (!segment.includes('%')) return [segment];
  const decoded = unescapeSafety(segment, !config.hiveStylePartitioning);
  if (config.properties.get(ESCAPED_PARTITION_PATH_PROPERTY) === 'true') return decoded === undefined ? undefined : [decoded];
  return decoded === undefined ? [segment] : [decoded, segment];
}

/**
 * The candidate values of each partition field encoded in a partition path (see {@link partitionSegmentValues}),
 * or undefined when the path cannot be decoded (timestamp and custom key generators, a segment count or
 * `field=` prefix that does not match the fields).
 */
export function partitionValueCandidates(config: TableConfig, partitionPath: string): Map<string, (string | null)[]> | undefined {
  const fields = config.partitionFields;
  if (fields.length === 0 || config.keyGeneratorType === 'TIMESTAMP' || config.keyGeneratorType === 'CUSTOM') return undefined;
  const segments = partitionPath === '' ? [] : partitionPath.split('/');
  if (segments.length !== fields.length) return undefined;
  const out = new Map<string, (string | null)[]>();
  for (let i = 0; i < fields.length; i++) {
    let seg = segments[i] as string;
    const field = fields[i] as string;
    if (config.hiveStylePartitioning) {
      if (!seg.startsWith(`${field}=`)) return undefined;
      seg = seg.slice(field.length + 1);
    }
    const values = partitionSegmentValues(config, seg);
    if (values === undefined) return undefined;
    out.set(field, values);
  }
  return out;
}

/**
 * Values of the partition fields encoded in a partition path (the most likely reading of each; the default
 * partition → null), or undefined when the path cannot be decoded.
 */
export function partitionValues(config: TableConfig, partitionPath: string): Map<string, string | null> | undefined {
  const candidates = partitionValueCandidates(config, partitionPath);
  if (!candidates) return undefined;
  return new Map([...candidates].map(([field, values]) => [field, values[0] ?? null]));
}

/** A partition value (text from the path) as a value of the column's kind; undefined when it is not one. */
function typedPartitionValue(kind: ComparableKind, text: string | null): unknown {
  if (text === null) return null;
  if (kind === 'string') return text;
  if (text === '' || text === DEFAULT_PARTITION_PATH) return null; // only a string column holds these texts
  switch (kind) {
    case 'number': { const n = Number(text); return Number.isNaN(n) && text !== 'NaN' ? undefined : n; }
    case 'bigint': return /^-?\d+$/.test(text) ? BigInt(text) : Number.isNaN(Number(text)) ? undefined : Number(text);
    case 'boolean': return text === 'true' ? true : text === 'false' ? false : undefined;
    default: return text;
  }
}

/** Does a partition path possibly hold rows matching the filters on partition fields? */
export function partitionMayMatch(config: TableConfig, partitionPath: string, filters: readonly CompiledFilter[]): boolean {
  const relevant = filters.filter((f) => config.partitionFields.includes(f.field));
  if (relevant.length === 0) return true;
  const values = partitionValueCandidates(config, partitionPath);
  if (!values) return true;
  return relevant.every((f) => (values.get(f.field) ?? [null]).some((text) => {
    const v = typedPartitionValue(f.kind, text);
    return v === undefined || matchValue(f, v); // a value the path cannot type: keep the partition
  }));
}

/** Plan a read: pick slices from the view, prune partitions, restrict incremental reads to written groups. */
export function planRead(config: TableConfig, view: FileSystemView, request: ReadRequest): ReadPlan {
  const skipping = request.skipping;
  const partitionFilter = (p: string) => partitionMayMatch(config, p, request.filters) && !(skipping?.excludedPartitions?.has(p) ?? false);
  let slices = view.latestSlices({ asOf: request.asOf, partitionFilter, baseFilesOnly: request.readOptimized, completedBy: request.completedBy });
  if (skipping) slices = slices.filter((s) => sliceMayMatch(s, skipping, request.readOptimized));
  let commitTimeRange: ReadPlan['commitTimeRange'];
  let commitTimes: ReadPlan['commitTimes'];
  if (request.incrementalFrom !== undefined || request.incrementalCommitTimes !== undefined) {
    const groups = request.incrementalGroups ?? new Set<string>();
    slices = slices.filter((s) => groups.has(fileGroupKey(s.partitionPath, s.fileId)));
    if (request.incrementalFiles !== undefined) slices = windowSlices(slices, request.incrementalFiles);
    if (request.incrementalCommitTimes !== undefined) commitTimes = request.incrementalCommitTimes;
    else commitTimeRange = { from: request.incrementalFrom as string, to: request.asOf ?? '99999999999999999' };
  }
  return { slices, commitTimeRange, commitTimes, filters: request.filters };
}

/** Is a commit time inside an incremental window `(from, to]`? */
export function inCommitRange(commitTime: unknown, range: { from: string; to: string }): boolean {
  if (typeof commitTime !== 'string') return false;
  return compareInstantTimes(commitTime, range.from) > 0 && compareInstantTimes(commitTime, range.to) <= 0;
}

/**
 * A merge-on-read incremental read's slices, cut down to the files the window's writes wrote (`files`: paths
 * from their write stats): the base file only when one of them wrote it (a compaction, or a write that rewrote
 * a small base file, in the window), the log files they wrote; a slice left with neither is dropped. This is
 * Hudi's rule (`MergeOnReadIncrementalRelation` 0.x and `…V2` 1.x build a `HoodieTableFileSystemView` over
 * `affectedFilesInCommits` only, read each latest slice merged, then keep rows whose `_hoodie_commit_time` is a
 * window write's): a version written in the window is merged with the window's other versions and with a base
 * file written in it, never with one written before — so a late-arriving update in the window (a lower
 * ordering value than the stored record) is returned, unless a base file written in the window holds the
 * stored record, which then wins the merge and is left out by its commit time.
 */
export function windowSlices(slices: readonly FileSlice[], files: ReadonlySet<string>): FileSlice[] {
  const out: FileSlice[] = [];
  for (const s of slices) {
    const baseFile = s.baseFile && files.has(s.baseFile.path) ? s.baseFile : undefined;
    const logFiles = s.logFiles.filter((l) => files.has(l.path));
    if (baseFile || logFiles.length > 0) out.push({ ...s, baseFile, logFiles });
  }
  return out;
}
