// The history (lineage) of one record: the CDC inference of cdc/ narrowed to one key and the file groups that can
// hold it (history-candidates.ts) — each write of the whole timeline (archived writes included) that touched
// such a group compared just before and just after, newest version first — and where the history ends: the
// record's creation, a clean that removed older slices, or instants archived beyond what the archive tells.
import { LakeletError } from '../../../errors.js';
import { fileGroupKey, type FileGroup } from '../../../file-group/file-slice.js';
import { compileFilters } from '../../../expr/filter.js';
import type { CommitMetadata } from '../../../timeline/commit-metadata.js';
import { compareInstantTimes, INIT_INSTANT_TIME, type Instant } from '../../../timeline/instant.js';
import type { TableState } from '../../table-state.js';
import { withArchivedWrites } from '../archived-fallback.js';
import type { ReadWarning } from '../file-slice-reader.js';
import type { ListingMode } from '../../metadata/metadata-listing.js';
import { byCompletionTime } from '../incremental-window.js';
import { GroupImages, type GroupRef } from '../cdc/cdc-group-images.js';
import { changeImage, type Row } from '../cdc/cdc-infer.js';
import { changesRecords, pointOrder, touchedGroups } from '../cdc/cdc-query.js';
import { candidateGroups, recordKeyOf, type RecordKeyInput } from './history-candidates.js';

/**
 * How a version came to be: `insert`, `update` or `delete` by its commit; `unknown` for the oldest value still
 * on storage when the writes before it were cleaned or archived (its commit is known, not what it did).
 */
export type HistoryOp = 'insert' | 'update' | 'delete' | 'unknown';

/** One committed version of a record. */
export interface RecordVersion {
  op: HistoryOp;
  /** The commit's instant (requested) time, `yyyyMMddHHmmssSSS`. */
  commitTime: string;
  /** Table versions 8 and 9: when the commit completed. */
  completionTime?: string;
  /** The commit's operation type (`UPSERT`, `INSERT`, `DELETE`, …) when its commit metadata is readable. */
  operation?: string;
  /** The record after the commit (no meta columns unless asked for); null for a delete. */
  value: Row | null;
  /** The file group the version lives in (for a delete: the group it was deleted from). */
  partitionPath: string;
  fileId: string;
  /** The file the commit wrote for that group (base or log file), when known. */
  file?: string;
  /** A partition move (a global index's update into another partition): the group the record left. */
  movedFrom?: { partitionPath: string; fileId: string };
}

/**
 * Where a history ends: `created` — the oldest version is the record's creation and nothing older exists
 * (`before`: its commit); `cleaned` — a clean removed the file slices of the writes at or before `before` (the
 * oldest instant still readable), so older versions are gone; `archived` — files older than the timeline and its
 * archive hold data, so writes at or before `before` (the oldest known write) are not known; `absent` — the whole
 * history was searched and the key never existed.
 */
export interface HistoryEnd {
  reason: 'created' | 'cleaned' | 'archived' | 'absent';
  before?: string;
}

/** The history of one record: its versions, newest first, and where the history ends. */
export interface RecordHistory {
  /** The `_hoodie_record_key` followed. */
  key: string;
  versions: RecordVersion[];
  end: HistoryEnd;
}

/** Options of a record history. */
export interface HistoryOptions {
  /** Only this partition's record (with a non-global index a record is its partition and key). Default: every partition. */
  partition?: string;
  /** Keep Hudi's meta columns (`_hoodie_commit_time`, …) in the values (default false). */
  metaColumns?: boolean;
  /** Called for each problem the read skips over (a corrupt log block). */
  onWarning?: (warning: ReadWarning) => void;
  /** Where the file listing comes from (default as the table's reads). */
  listing?: ListingMode;
}

interface Write {
  instant: Instant;
  metadata: CommitMetadata | undefined;
}

const KEY = '_hoodie_record_key';
const COMMIT_TIME = '_hoodie_commit_time';
const atOrAfter = (a: string, b: string) => compareInstantTimes(a, b) >= 0;

/** The file a write's stats name for a group. */
function writtenFile(metadata: CommitMetadata | undefined, g: GroupRef): string | undefined {
  for (const [partition, stats] of Object.entries(metadata?.partitionToWriteStats ?? {})) {
    for (const s of stats) if ((s.partitionPath ?? partition) === g.partitionPath && s.fileId === g.fileId && s.path) return s.path;
  }
  return undefined;
}

/** Candidate groups' (base) files of writes the timeline does not know: archived beyond the archive. */
function holdsUnknownWrites(groups: readonly FileGroup[], known: (t: string) => boolean, first: string | undefined): boolean {
  const unknown = (t: string) => !known(t) && (first === undefined || compareInstantTimes(t, first) < 0);
  return groups.some((g) => g.slices.some((s) => (s.baseFile !== undefined && unknown(s.baseFile.instantTime)) || s.logFiles.some((l) => l.completionTime === undefined && unknown(l.instantTime))));
}

/**
 * The history of the record `key` (see {@link RecordHistory}). Errors: `UNSUPPORTED` for a table without meta
 * columns (no record keys to follow), `INVALID_ARGUMENT` for an empty key.
 */
export async function recordHistory(state: TableState, keyInput: RecordKeyInput, options: HistoryOptions = {}): Promise<RecordHistory> {
  if (!state.config.populateMetaFields) {
    throw new LakeletError('UNSUPPORTED', 'history: the table does not populate meta fields (hoodie.populate.meta.fields=false), so a record cannot be followed by its key', { field: 'hoodie.populate.meta.fields' });
  }
  const key = await recordKeyOf(state, keyInput);
  const byCompletion = byCompletionTime(state);
  const { timeline, archivedMetadata } = await withArchivedWrites(state, INIT_INSTANT_TIME);
  const read = timeline === state.timeline ? state : state.withTimeline(timeline);
  const view = await read.fileSystemView();
  const groups = await candidateGroups(state.storage, view, key, { partition: options.partition });
  const order = pointOrder(timeline, byCompletion);
  const writes: Write[] = [];
  for (const instant of timeline.completedWrites().sort((a, b) => compareInstantTimes(order.key(a), order.key(b)))) {
    const metadata = groups.length === 0 ? undefined : archivedMetadata(instant.requestedTime) ?? (timeline.completedAt(instant.requestedTime) && state.timeline.completedAt(instant.requestedTime) ? await state.commitMetadata(instant) : undefined);
    writes.push({ instant, metadata });
  }
  // Which writes can be inferred: both images readable (the snapshot before, after the oldest readable instant).
  const readable = (await state.oldestReadableInstant())?.instant;
  const archivedBeyond = holdsUnknownWrites(groups, (t) => timeline.completedAt(t) !== undefined, writes[0]?.instant.requestedTime);
  let cut = -1;
  let cutBy: 'cleaned' | 'archived' = 'cleaned';
  writes.forEach((w, n) => {
    const prev = writes[n - 1]?.instant;
    const ok = prev === undefined ? !archivedBeyond && (readable === undefined || atOrAfter(w.instant.requestedTime, readable)) : readable === undefined || atOrAfter(prev.requestedTime, readable);
    if (!ok) {
      cut = n;
      cutBy = prev === undefined && archivedBeyond ? 'archived' : 'cleaned';
    }
  });
  const schema = await state.schemaAsOf(undefined);
  const images = new GroupImages(read, view, timeline, schema, options.onWarning ?? (() => undefined));
  const filters = compileFilters([[KEY, '=', key]], () => undefined);
  const refs: GroupRef[] = groups.map((g) => ({ partitionPath: g.partitionPath, fileId: g.fileId }));
  const candidates = new Set(refs.map((g) => fileGroupKey(g.partitionPath, g.fileId)));
  const keyRow = (rows: readonly Row[] | undefined) => rows?.find((r) => r[KEY] === key);
  const image = (row: Row): Row => (options.metaColumns ? { ...row } : changeImage(row));
  const completion = (t: string) => (byCompletion ? timeline.completionTimeOf(t) : undefined);
  const versions: RecordVersion[] = [];
  const cache = new Map<string, Row | undefined>(); // a group's row of the key after the last write read
  if (cut >= 0 && refs.length > 0) {
    const cutWrite = writes[cut] as Write;
    const at = await images.rowsAt(order.after(cutWrite.instant), refs, filters);
    for (const g of refs) {
      const k = fileGroupKey(g.partitionPath, g.fileId);
      const row = keyRow(at.get(k));
      cache.set(k, row);
      if (!row) continue;
      const t = typeof row[COMMIT_TIME] === 'string' ? (row[COMMIT_TIME] as string) : cutWrite.instant.requestedTime;
      const metadata = writes.find((w) => w.instant.requestedTime === t)?.metadata;
      const name = row._hoodie_file_name; // a base file's name (a log record's names only its file group)
      const file = writtenFile(metadata, g) ?? (typeof name === 'string' && name.includes('.') ? (g.partitionPath === '' ? name : `${g.partitionPath}/${name}`) : undefined);
      const done = completion(t);
      versions.push({ op: 'unknown', commitTime: t, ...(done === undefined ? {} : { completionTime: done }), ...(metadata?.operationType ? { operation: metadata.operationType } : {}), value: image(row), ...g, ...(file === undefined ? {} : { file }) });
    }
  }
  for (let n = cut + 1; n < writes.length && refs.length > 0; n++) {
    const { instant, metadata } = writes[n] as Write;
    if (metadata && !changesRecords(metadata)) continue;
    const touched = metadata ? touchedGroups(metadata).filter((g) => candidates.has(fileGroupKey(g.partitionPath, g.fileId))) : refs;
    if (touched.length === 0) continue;
    const prev = writes[n - 1]?.instant;
    const missing = touched.filter((g) => !cache.has(fileGroupKey(g.partitionPath, g.fileId)));
    const before = await images.rowsAt(prev ? order.after(prev) : 'empty', missing, filters);
    const after = await images.rowsAt(order.after(instant), touched, filters);
    const t = instant.requestedTime;
    const done = completion(t);
    const common = { commitTime: t, ...(done === undefined ? {} : { completionTime: done }), ...(metadata?.operationType ? { operation: metadata.operationType } : {}) };
    const found: RecordVersion[] = [];
    for (const g of touched) {
      const k = fileGroupKey(g.partitionPath, g.fileId);
      const b = cache.has(k) ? cache.get(k) : keyRow(before.get(k));
      const a = keyRow(after.get(k));
      cache.set(k, a);
      const file = writtenFile(metadata, g);
      const where = { partitionPath: g.partitionPath, fileId: g.fileId, ...(file === undefined ? {} : { file }) };
      if (a && !b) found.push({ op: 'insert', ...common, value: image(a), ...where });
      else if (b && !a) found.push({ op: 'delete', ...common, value: null, ...where });
      else if (a && b && a[COMMIT_TIME] === t) found.push({ op: 'update', ...common, value: image(a), ...where });
    }
    versions.push(...mergeMoves(found));
  }
  versions.reverse();
  return { key, versions, end: historyEnd(versions, cut >= 0 ? { by: cutBy, at: (writes[cut] as Write).instant.requestedTime } : undefined) };
}

/** One commit's delete in one group and insert in another: a partition move, one update. */
function mergeMoves(found: RecordVersion[]): RecordVersion[] {
  const del = found.find((v) => v.op === 'delete');
  const ins = found.find((v) => v.op === 'insert');
  if (!del || !ins) return found;
  const moved: RecordVersion = { ...ins, op: 'update', movedFrom: { partitionPath: del.partitionPath, fileId: del.fileId } };
  return found.filter((v) => v !== del && v !== ins).concat(moved);
}

/** Where the history ends, from its oldest version and the write before which nothing can be inferred. */
function historyEnd(versions: readonly RecordVersion[], cut: { by: 'cleaned' | 'archived'; at: string } | undefined): HistoryEnd {
  if (cut) return { reason: cut.by, before: cut.at };
  const oldest = versions[versions.length - 1];
  return oldest ? { reason: 'created', before: oldest.commitTime } : { reason: 'absent' };
}
