// Push: bring a copy of a Hudi table (in any other store) up to the source's completed timeline, so that a
// reader of the target only ever sees a prefix of the source's commits. Phases: list and plan (divergence →
// CONFLICT), take back instants the source rolled back, copy data files, publish instants in timeline order
// (completed file last, created atomically), copy the archived timeline and rewritten files, then delete what
// the source deleted. Every phase is idempotent: a run cut short is completed by the next.
import { parseTableConfig, type TableConfig } from '../config/table-config.js';
import { conflict, LakeletError, unsupported } from '../errors.js';
import { parseProperties } from '../config/properties.js';
import { archiveDir, baseName, METADATA_TABLE_DIR, metadataTablePath, PROPERTIES_PATH, timelineDir } from '../layout.js';
import type { Storage } from '../storage/storage.js';
import { compareInstantTimes, parseInstantFileName, type Instant } from '../timeline/instant.js';
import { Timeline } from '../timeline/timeline.js';
import { CopyContext, listStore, sameBytes, type ReplicateProgress } from './replicate-copy.js';
import { comparedByContent, dataCopyRank, finishCopyRank, pathRole, timelineFilePathOf, type PathRole, type TableDirs } from './replicate-paths.js';
import { planInstants, rollbacksToRead, type RolledBack, type StoreTimelines, type TimelineSide } from './replicate-plan.js';
import { rolledBackTimes } from './replicate-rolled-back.js';

/** Options of a push (the public options of {@link replicate}, and what pull and rebase add). */
export interface PushOptions {
  onProgress?: (progress: ReplicateProgress) => void;
  signal?: AbortSignal;
  /**
   * Instants of the target the source lacks to take back (delete, completed file first) instead of stopping
   * with `CONFLICT`, per table (requested times): the diverged tail a pull replaces with the source's timeline.
   */
  takeBack?: RolledBack;
}

/** What a push did. */
export interface PushResult {
  /** Completed data-table instant files this run published on the target, in order (not those it found there). */
  published: string[];
  /** Completed metadata-table instant files published. */
  metadataPublished: string[];
  /** Requested times of instants taken back on the target because the source rolled them back. */
  reverted: string[];
  filesCopied: number;
  bytesCopied: number;
  filesDeleted: number;
}

const MDT_PROPERTIES = `${METADATA_TABLE_DIR}/${PROPERTIES_PATH}`;

/** One store as listed, with its tables' folders and timelines. */
export interface StoreView {
  files: Map<string, number>;
  dirs: TableDirs[];
  config: TableConfig | undefined;
  timelines: StoreTimelines | undefined;
}

const readText = async (storage: Storage, path: string): Promise<string> => new TextDecoder().decode(await storage.read(path));

/** The metadata table's folders: its own `hoodie.properties` names them, in the data table's timeline layout. */
function metadataDirs(text: string, layout: 1 | 2): TableDirs {
  const get = (key: string): string | undefined => parseProperties(text).get(key);
  const timelineFolder = get('hoodie.timeline.path');
  const folders = { archiveFolder: get('hoodie.archivelog.folder'), timelineFolder, historyFolder: get('hoodie.timeline.history.path') };
  return { table: 'metadata', timelinePath: metadataTablePath(timelineDir(layout, timelineFolder)), archivePath: metadataTablePath(archiveDir(layout, folders)) };
}

function timelineSide(files: ReadonlyMap<string, number>, dirs: TableDirs): TimelineSide {
  const instants: Instant[] = [];
  const sizes = new Map<string, number>();
  for (const [path, size] of files) {
    if (!path.startsWith(`${dirs.timelinePath}/`) || path.indexOf('/', dirs.timelinePath.length + 1) >= 0) continue;
    const instant = parseInstantFileName(baseName(path));
    if (instant) {
      instants.push(instant);
      sizes.set(instant.fileName, size);
    }
  }
  return { timeline: new Timeline(instants), sizes };
}

/** List a store and read its tables' configuration and timelines. */
export async function viewOf(storage: Storage, ctx: CopyContext): Promise<StoreView> {
  ctx.checkAborted();
  const files = await listStore(storage);
  if (!files.has(PROPERTIES_PATH)) return { files, dirs: [], config: undefined, timelines: undefined };
  const config = parseTableConfig(await readText(storage, PROPERTIES_PATH), PROPERTIES_PATH);
  const data: TableDirs = { table: 'data', timelinePath: config.timelinePath, archivePath: config.archivePath };
  const metadata = files.has(MDT_PROPERTIES) ? metadataDirs(await readText(storage, MDT_PROPERTIES), config.timelineLayoutVersion) : undefined;
  const dirs = [data, ...(metadata ? [metadata] : [])];
  const timelines = { data: timelineSide(files, data), metadata: metadata ? timelineSide(files, metadata) : undefined };
  return { files, dirs, config, timelines };
}

/** The target must hold nothing, or the same table (name, type, version) as the source. */
export function checkSameTable(source: StoreView, target: StoreView, label: string): void {
  const s = source.config;
  if (!s) throw new LakeletError('INVALID_TABLE', `replicate: the source is not a Hudi table (${PROPERTIES_PATH} is missing)`, { path: PROPERTIES_PATH });
  const t = target.config;
  if (!t) {
    const stray = [...target.files.keys()].find((p) => !source.files.has(p) && pathRole(p, source.dirs) !== 'skip');
    if (stray !== undefined) throw conflict(`replicate: the target ${label} holds files but no Hudi table (${stray}); replicate into an empty store or a copy of the same table`, { path: stray });
    return;
  }
  for (const [what, a, b] of [['name', s.name, t.name], ['type', s.tableType, t.tableType], ['version', s.version, t.version]] as const) {
    if (a !== b) throw conflict(`replicate: the target's table ${what} is ${JSON.stringify(b)} but the source's is ${JSON.stringify(a)}: not a copy of this table`, { path: PROPERTIES_PATH, field: what, value: b });
  }
}

/**
 * Copy every completed instant of the Hudi table in `source` that `target` lacks (an empty store, or an
 * earlier replica), in timeline order: data files first, then each instant's requested and inflight files, its
 * completed file last (created only if absent); the metadata table's instants before the data instant they
 * belong with; then the archived timeline and rewritten files (`hoodie.properties`), and last the deletions of
 * the source's cleans, rollbacks and archival (files the source no longer has). Files already on the target with
 * the same size are not copied again (data files are immutable under their names); `hoodie.properties`, the
 * LSM `_version_` file and other files rewritten in place are compared by their bytes. Safe to run again at
 * any point after a crash or lost connection. A target that diverged — a completed instant the source lacks,
 * or one instant with other content — stops it with `CONFLICT` naming the first such instant.
 *
 * Instants the source rolled back or restored away are taken back on the target first (completed file first);
 * instants the target has that are older than the source's active timeline count as archived there. Pending
 * writes of the source are not copied; pending compaction and clustering plans are. While a run is under way
 * the target is at a prefix of the source's timeline; a prefix older than the source's oldest readable instant
 * (its files cleaned on the source) reads as the source would (`NOT_FOUND` naming a cleaned file) until the
 * run passes it. Run one replication per target at a time: deletions run only when the target's timelines
 * hold nothing the source's listing lacked, but a concurrent replicator's unpublished data files could be
 * among them.
 */
export async function push(source: Storage, target: Storage, options: PushOptions = {}): Promise<PushResult> {
  if (target.readOnly) throw unsupported(`replicate: the target ${target.label} is read-only`, {});
  const ctx = new CopyContext(source, target, options.onProgress, options.signal);
  const src = await viewOf(source, ctx);
  const tgt = await viewOf(target, ctx);
  checkSameTable(src, tgt, target.label);
  const srcTimelines = src.timelines as StoreTimelines;
  const dirOf = (table: 'data' | 'metadata'): TableDirs => src.dirs.find((d) => d.table === table) as TableDirs;

  const rolledBack = {
    data: union(await rolledBackTimes(source, dirOf('data'), rollbacksToRead(srcTimelines.data, tgt.timelines?.data)), options.takeBack?.data),
    metadata: union(srcTimelines.metadata ? await rolledBackTimes(source, dirOf('metadata'), rollbacksToRead(srcTimelines.metadata, tgt.timelines?.metadata)) : new Set<string>(), options.takeBack?.metadata),
  };
  const plan = planInstants(srcTimelines, tgt.timelines, rolledBack);
  if (plan.newestCommon) {
    const path = timelineFilePathOf(dirOf(plan.newestCommon.table), plan.newestCommon.fileName);
    const [a, b] = [await ctx.readSource(path), await ctx.readTarget(path)];
    if (a !== undefined && b !== undefined && !sameBytes(a, b)) {
      throw conflict(`replicate: the target's ${path} differs from the source's: the target diverged at ${plan.newestCommon.fileName}`, { path, instant: plan.newestCommon.fileName });
    }
  }

  const roles = new Map<string, PathRole>();
  for (const p of src.files.keys()) roles.set(p, pathRole(p, src.dirs));
  const lacking = (p: string): boolean => tgt.files.get(p) !== src.files.get(p);
  const byRole = (want: (r: PathRole) => boolean): string[] => [...src.files.keys()].filter((p) => want(roles.get(p) as PathRole));
  // hoodie.properties first when absent (the metadata table's before the data table's), so the target is a table.
  const first = byRole((r) => r === 'properties').filter((p) => !tgt.files.has(p)).sort((a, b) => b.length - a.length);
  const data = byRole((r) => r === 'data' || r === 'partition-metadata').filter(lacking)
    .sort((a, b) => dataCopyRank(roles.get(a) as PathRole) - dataCopyRank(roles.get(b) as PathRole) || (a < b ? -1 : a > b ? 1 : 0));
  const finish = byRole((r) => r === 'history' || r === 'history-manifest' || r === 'history-version' || r === 'properties' || r === 'mutable')
    .filter((p) => !first.includes(p) && (comparedByContent(roles.get(p) as PathRole) || lacking(p)))
    .sort((a, b) => finishCopyRank(roles.get(a) as PathRole) - finishCopyRank(roles.get(b) as PathRole) || (a < b ? -1 : 1));
  const stepFiles = plan.steps.flatMap((s) => [...s.pendingFiles, ...(s.completedFile ? [s.completedFile] : [])].map((f) => timelineFilePathOf(dirOf(s.table), f)));
  const todo = [...first, ...data, ...stepFiles, ...finish];
  ctx.filesTotal = todo.length;
  ctx.bytesTotal = todo.reduce((n, p) => n + (src.files.get(p) ?? 0), 0);

  ctx.phase = 'copy';
  for (const p of first) await ctx.copy(p);
  for (const r of plan.reverts) for (const f of r.files) await ctx.remove(timelineFilePathOf(dirOf(r.table), f));
  for (const p of data) if (!(await ctx.copy(p))) ctx.report(p, 0);

  ctx.phase = 'publish';
  const result: PushResult = { published: [], metadataPublished: [], reverted: plan.reverts.map((r) => r.requestedTime), filesCopied: 0, bytesCopied: 0, filesDeleted: 0 };
  for (const step of plan.steps) {
    const dirs = dirOf(step.table);
    for (const f of step.pendingFiles) {
      const path = timelineFilePathOf(dirs, f);
      if (tgt.files.get(path) === src.files.get(path)) ctx.report(path, src.files.get(path) ?? 0);
      else if (!(await ctx.copy(path))) throw new LakeletError('STORAGE', `replicate: the source's ${path} is gone since it was listed (the source changed while replicating); run replicate again`, { path });
    }
    if (step.completedFile === undefined) continue;
    if (await ctx.publish(timelineFilePathOf(dirs, step.completedFile), step.completedFile)) (step.table === 'data' ? result.published : result.metadataPublished).push(step.completedFile);
  }

  ctx.phase = 'finish';
  for (const p of finish) {
    if (comparedByContent(roles.get(p) as PathRole)) await ctx.copyIfDifferent(p);
    else if (!(await ctx.copy(p))) ctx.report(p, 0);
  }

  ctx.phase = 'delete';
  await deleteWhatTheSourceDeleted(ctx, src);
  return { ...result, filesCopied: ctx.filesCopied, bytesCopied: ctx.bytesCopied, filesDeleted: ctx.filesDeleted };
}

/**
 * The last phase: files on the target that the source no longer has — removed by its cleans, rollbacks,
 * restores, archival and LSM compaction — are deleted, data and history files first, then timeline files
 * (oldest instant first, its completed file last). Runs only when the target's timelines now hold nothing the
 * source's listing lacked; otherwise someone else wrote to the target meanwhile → `CONFLICT`.
 */
async function deleteWhatTheSourceDeleted(ctx: CopyContext, src: StoreView): Promise<void> {
  ctx.checkAborted();
  const now = await listStore(ctx.target);
  const extra = [...now.keys()].filter((p) => !src.files.has(p) && pathRole(p, src.dirs) !== 'skip');
  const timelineFiles = extra.filter((p) => pathRole(p, src.dirs) === 'timeline');
  const stray = timelineFiles.find((p) => !src.dirs.some((d) => p.startsWith(`${d.timelinePath}/`) && isOlderThanTimeline(src, d, baseName(p))));
  if (stray !== undefined) {
    throw conflict(`replicate: the target gained ${stray} while replicating (another writer or replicator): the target diverged; run replicate again`, { path: stray, instant: baseName(stray) });
  }
  const STATE = { REQUESTED: 0, INFLIGHT: 1, COMPLETED: 2 } as const;
  const instantOf = (p: string): Instant => parseInstantFileName(baseName(p)) as Instant;
  timelineFiles.sort((a, b) => {
    const x = instantOf(a);
    const y = instantOf(b);
    return x.requestedTime < y.requestedTime ? -1 : x.requestedTime > y.requestedTime ? 1 : STATE[x.state] - STATE[y.state];
  });
  ctx.filesTotal += extra.length;
  for (const p of extra) if (!timelineFiles.includes(p)) await ctx.remove(p);
  for (const p of timelineFiles) await ctx.remove(p);
}

/** Is this timeline file of an instant older than the source's active timeline (archived there)? */
function isOlderThanTimeline(src: StoreView, dirs: TableDirs, name: string): boolean {
  const side = src.timelines?.[dirs.table];
  const start = side?.timeline.instants[0]?.requestedTime;
  const instant = parseInstantFileName(name);
  return instant !== undefined && start !== undefined && compareInstantTimes(instant.requestedTime, start) < 0;
}

const union = (a: Set<string>, b: ReadonlySet<string> | undefined): Set<string> => (b === undefined ? a : new Set([...a, ...b]));
