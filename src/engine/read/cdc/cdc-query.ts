// The CDC query by inference (Hudi's `hoodie.datasource.query.incremental.format=cdc` on a table without `.cdc`
// files): for each write of the window `(from, to]`, in commit order, the file groups it wrote or replaced are
// read just before and just after it and compared by record key (cdc-infer.ts). Compactions and clusterings
// change no record and give no change. Streams one commit's changes at a time.
import { LakeletError } from '../../../errors.js';
import { fileGroupKey } from '../../../file-group/file-slice.js';
import type { CommitMetadata } from '../../../timeline/commit-metadata.js';
import { compareInstantTimes, type Instant } from '../../../timeline/instant.js';
import type { Timeline } from '../../../timeline/timeline.js';
import type { TableState } from '../../table-state.js';
import { withArchivedWrites } from '../archived-fallback.js';
import type { ReadWarning } from '../file-slice-reader.js';
import type { ListingMode } from '../../metadata/metadata-listing.js';
import type { ReadOptions } from '../query.js';
import { incrementalWindow, type WindowWrite } from '../incremental-window.js';
import { GroupImages, type GroupRef, type TimelinePoint } from './cdc-group-images.js';
import { inferGroupChanges, type ChangeRecord, type Row } from './cdc-infer.js';
import { cdcFilesByGroup, changesFromCdcRecords, readCdcFiles, type CdcFileRecords, type CdcSource } from './cdc-files.js';

/** Options of a CDC query: the changes of the writes in `(from, to]` (bounds as for incremental queries). */
export interface ChangesOptions {
  /**
   * Exclusive start instant. Table version 6: a requested time; versions 8 and 9: a completion time (the
   * requested time of a completed write stands for its completion), as Hudi 1.x chooses CDC ranges.
   */
  from: string | Date;
  /** Inclusive end instant (default: the latest write). */
  to?: string | Date;
  /** Called for each problem the read skips over (a corrupt log block). */
  onWarning?: (warning: ReadWarning) => void;
  /** Where the file listing comes from (see {@link ReadOptions.listing}; default as the table's reads). */
  listing?: ListingMode;
  /**
   * Where changes come from on tables written with CDC (`hoodie.table.cdc.enabled`): `auto` (default) the `.cdc`
   * files a write names and inference elsewhere, `files` as Hudi's reader (a rewritten base file without a `.cdc`
   * file → `NOT_FOUND`), `infer` by comparing file slices only. Merge-on-read deltacommits are inferred from their
   * log files in every mode, and compactions give no changes (as in Spark; their `.cdc` files are not read).
   */
  cdcSource?: CdcSource;
}

/** The changes of one commit, in partition / file group / record-key order. */
export interface CommitChanges {
  commitTime: string;
  changes: ChangeRecord[];
}

/** Operations whose commits rewrite files without changing records: no changes (Hudi's CDC skips them too). */
const NO_CHANGE_OPERATIONS: ReadonlySet<string> = new Set(['COMPACT', 'LOG_COMPACT', 'CLUSTER']);

/** Does this write change records (not a compaction, log compaction or clustering)? */
export function changesRecords(metadata: CommitMetadata): boolean {
  return !metadata.compacted && !NO_CHANGE_OPERATIONS.has((metadata.operationType ?? '').toUpperCase());
}

/** Does a write stat of this write name `.cdc` files (HoodieWriteStat.cdcStats)? */
function namesCdcFiles(metadata: CommitMetadata): boolean {
  return Object.values(metadata.partitionToWriteStats).some((stats) => stats.some((s) => s.raw.cdcStats !== null && typeof s.raw.cdcStats === 'object'));
}

/** Rows kept across writes for reuse as the next write's before-images, at most (older entries are dropped). */
const CACHED_ROWS = 200_000;

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The file groups a write wrote (its write stats) or replaced, in partition / file id order. */
export function touchedGroups(metadata: CommitMetadata): GroupRef[] {
  const out = new Map<string, GroupRef>();
  const add = (partitionPath: string, fileId: string) => {
    if (fileId) out.set(fileGroupKey(partitionPath, fileId), { partitionPath, fileId });
  };
  for (const [partition, stats] of Object.entries(metadata.partitionToWriteStats)) for (const s of stats) add(s.partitionPath ?? partition, s.fileId);
  for (const [partition, ids] of Object.entries(metadata.partitionToReplaceFileIds)) for (const id of ids) add(partition, id);
  return [...out.values()].sort((a, b) => compareText(a.partitionPath, b.partitionPath) || compareText(a.fileId, b.fileId));
}

/** How a timeline orders writes and names the point just after one: requested times (v6) or completion times. */
export function pointOrder(timeline: Timeline, byCompletion: boolean) {
  const key = (i: Instant) => (byCompletion ? i.completionTime ?? i.requestedTime : i.requestedTime);
  const writes = timeline.completedWrites().sort((a, b) => compareInstantTimes(key(a), key(b)));
  const after = (i: Instant): TimelinePoint => (byCompletion ? { completedBy: key(i) } : { asOf: i.requestedTime });
  /** The completed write (of any kind) just before `i`, or undefined for the table's first write. */
  const previous = (i: Instant): Instant | undefined => {
    let prev: Instant | undefined;
    for (const w of writes) {
      if (compareInstantTimes(key(w), key(i)) >= 0) break;
      prev = w;
    }
    return prev;
  };
  return { key, after, previous };
}

/**
 * Stream the changes of the window's writes, one commit at a time, oldest first (v6: requested order;
 * v8/v9: completion order). Errors: `INVALID_ARGUMENT` for a missing or reversed range, `UNSUPPORTED` for a
 * table without meta columns (no record keys to match), `NOT_FOUND` when a clean deleted files the range needs.
 */
export async function* commitChanges(state: TableState, options: ChangesOptions): AsyncGenerator<CommitChanges> {
  if (!state.config.populateMetaFields) {
    throw new LakeletError('UNSUPPORTED', 'changes: the table does not populate meta fields (hoodie.populate.meta.fields=false), so changes cannot be matched by record key', { field: 'hoodie.populate.meta.fields' });
  }
  const window = await incrementalWindow(state, options.from, options.to);
  const byCompletion = window.rangeType === 'completionTime';
  const timeline = byCompletion ? window.timeline : (await withArchivedWrites(state, window.from)).timeline;
  const order = pointOrder(timeline, byCompletion);
  const writes: WindowWrite[] = window.writes.filter((w) => changesRecords(w.metadata)).sort((a, b) => compareInstantTimes(order.key(a.instant), order.key(b.instant)));
  const first = writes[0];
  if (!first) return;
  await state.checkReadable((order.previous(first.instant) ?? first.instant).requestedTime);
  const last = writes[writes.length - 1] as WindowWrite;
  const schema = await state.schemaAsOf(last.instant.requestedTime);
  const view = await (timeline === state.timeline ? state : state.withTimeline(timeline)).fileSystemView();
  const images = new GroupImages(state, view, timeline, schema, options.onWarning ?? (() => undefined));
  const cache = new Map<string, Row[]>(); // a group's records after the last write of the window that touched it
  let cached = 0;
  const source = options.cdcSource ?? 'auto';
  if (source !== 'auto' && source !== 'files' && source !== 'infer') throw new LakeletError('INVALID_ARGUMENT', `changes: cdcSource ${JSON.stringify(source)} is not one of auto, files, infer`, { field: 'cdcSource', value: String(source) });
  for (const { instant, metadata } of writes) {
    const groups = touchedGroups(metadata);
    const prev = order.previous(instant);
    // The groups whose changes the write's .cdc files hold (AS_IS); a DATA_BEFORE_AFTER file needs no images.
    const cdc = new Map<string, { paths: string[]; records: CdcFileRecords }>();
    // .cdc files are read for writes that name them (or when `files` must check that they do).
    const readsFiles = source === 'files' || (source === 'auto' && namesCdcFiles(metadata));
    if (readsFiles) for (const [key, paths] of cdcFilesByGroup(metadata, source === 'files')) cdc.set(key, { paths, records: await readCdcFiles(state.storage, paths) });
    const imaged = groups.filter((g) => cdc.get(fileGroupKey(g.partitionPath, g.fileId))?.records.mode !== 'DATA_BEFORE_AFTER');
    const missing = imaged.filter((g) => !cache.has(fileGroupKey(g.partitionPath, g.fileId)));
    const before = await images.rowsAt(prev ? order.after(prev) : 'empty', missing);
    const after = await images.rowsAt(order.after(instant), imaged);
    const changes: ChangeRecord[] = [];
    for (const g of groups) {
      const key = fileGroupKey(g.partitionPath, g.fileId);
      const now = after.get(key);
      const old = cache.get(key) ?? before.get(key);
      const logged = cdc.get(key);
      changes.push(...(logged ? changesFromCdcRecords(logged.records, instant.requestedTime, old, now, logged.paths[0] as string) : inferGroupChanges(old ?? [], now ?? [], instant.requestedTime)));
      cached -= cache.get(key)?.length ?? 0;
      cache.delete(key);
      if (!now) continue; // not read: the next write reads its before-image
      cache.set(key, now);
      cached += now.length;
    }
    for (const [key, rows] of cache) {
      if (cached <= CACHED_ROWS) break;
      cache.delete(key);
      cached -= rows.length;
    }
    yield { commitTime: instant.requestedTime, changes };
  }
}

/** Every change of the window, in commit order (see {@link commitChanges}). */
export async function collectChanges(state: TableState, options: ChangesOptions): Promise<ChangeRecord[]> {
  const out: ChangeRecord[] = [];
  for await (const c of commitChanges(state, options)) out.push(...c.changes);
  return out;
}
