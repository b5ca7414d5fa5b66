// What a reader knows about a table at one moment (loaded through table-load.ts): config, active timeline, the
// data-file listing, the file-system view, commit metadata (cached per instant) and the table schema as of an instant.
import type { TableConfig } from '../config/table-config.js';
import { LakeletError, isLakeletError } from '../errors.js';
import { baseName, instantFilePath, PROPERTIES_PATH, timelineFilePath } from '../layout.js';
import type { CommittedWrite } from '../file-group/committed-files.js';
import { FileSystemView, type ReplaceRecord } from '../file-group/file-system-view.js';
import { parseLogFileName } from '../file-group/file-names.js';
import type { AvroRecordSchema } from '../format/avro/schema.js';
import { readParquetFooter } from '../format/parquet/read.js';
import { readHudiFooter } from '../format/parquet/hudi-footer.js';
import { parseRecordSchema, withMetaFields, withoutMetaFields } from '../schema/table-schema.js';
import type { FileInfo, Storage } from '../storage/storage.js';
import type { CommitMetadata } from '../timeline/commit-metadata.js';
import { compareInstantTimes, INIT_INSTANT_TIME, type Instant } from '../timeline/instant.js';
import type { Timeline } from '../timeline/timeline.js';
import { storageBuffer } from '../storage/async-buffer.js';
import { loadArchivedTimeline, readCommitMetadataOrArchived, withArchivedWrites } from './read/archived-fallback.js';
import type { ArchivedTimeline } from '../timeline/archived-timeline.js';
import { parseCleanerPlan, parseCleanMetadata } from '../timeline/clean-metadata.js';
import type { DataListing } from './metadata/metadata-listing.js';
import { filesMayHaveMoved, listDataFiles, loadTableConfig, loadTimeline } from './table-load.js';

/** Loading the config, the active timeline and the data files lives in table-load.ts; importers keep this path. */
export { listDataFiles, loadTableConfig, loadTimeline } from './table-load.js';

/** Where a state's data-file listing comes from (default: {@link listDataFiles}, storage). */
export type DataFileLister = (state: TableState) => Promise<DataListing>;

/** A table as loaded at one moment; caches listing, view and commit metadata. */
export class TableState {
  private files: Promise<DataListing> | undefined;
  private view: Promise<FileSystemView> | undefined;
  private metadata = new Map<string, Promise<CommitMetadata>>();

  /**
   * @param lister where the data-file listing comes from (default storage, {@link listDataFiles}); reads pass the
   * metadata-table lister (engine/metadata/metadata-listing.ts)
   */
  constructor(
    readonly storage: Storage,
    readonly config: TableConfig,
    readonly timeline: Timeline,
    private readonly lister?: DataFileLister,
  ) {}

  /** This state listed by `lister` instead (same config and timeline; the commit-metadata cache is shared). */
  withLister(lister: DataFileLister): TableState {
    const next = new TableState(this.storage, this.config, this.timeline, lister);
    next.metadata = this.metadata;
    return next;
  }

  /** This state with the given listing (same config, timeline and commit-metadata cache). */
  withListing(listing: DataListing): TableState {
    const next = this.withLister(async () => listing);
    next.files = Promise.resolve(listing);
    return next;
  }

  /** This state with another timeline (the archived writes merged in): same lister and the same listing. */
  withTimeline(timeline: Timeline): TableState {
    const next = new TableState(this.storage, this.config, timeline, this.lister);
    next.metadata = this.metadata;
    next.files = this.listing();
    return next;
  }

  /** Load config and timeline of the table in `storage`. */
  static async load(storage: Storage): Promise<TableState> {
    const config = await loadTableConfig(storage);
    return new TableState(storage, config, await loadTimeline(storage, config));
  }

  /** Path of an instant's timeline file. */
  instantPath(instant: Instant): string {
    return timelineFilePath(this.config, instant);
  }

  /** Commit metadata of a completed write instant (cached). */
  commitMetadata(instant: Instant): Promise<CommitMetadata> {
    let m = this.metadata.get(instant.requestedTime);
    if (!m) {
      // From the archive when a concurrent archival moved the instant file after the timeline was listed.
      m = readCommitMetadataOrArchived(this.storage, this.config, instant);
      this.metadata.set(instant.requestedTime, m);
    }
    return m;
  }

  /** The data-file listing (made once) and its source: storage, or the metadata table's `files` partition. */
  listing(): Promise<DataListing> {
    this.files ??= this.lister ? this.lister(this) : listDataFiles(this.storage).then((files) => ({ files, source: 'storage' as const }));
    return this.files;
  }

  /** The data files (listed once). */
  async dataFiles(): Promise<FileInfo[]> {
    return (await this.listing()).files;
  }

  /** The file-system view (built once). */
  fileSystemView(): Promise<FileSystemView> {
    this.view ??= (async () => {
      // Every completed write's metadata (cached per instant): replacecommits hide groups, and the write stats
      // name the live files the view checks storage still holds.
      const replaced: ReplaceRecord[] = [];
      const committed: CommittedWrite[] = [];
      const writes = this.timeline.completedWrites();
      let vanished = false; // a commit file gone since the timeline was listed: rolled back or archived meanwhile
      const metadata = await Promise.all(writes.map((i) => this.commitMetadata(i).catch((err: unknown) => {
        if (!isLakeletError(err, 'NOT_FOUND')) throw err;
        vanished = true;
        return undefined;
      })));
      writes.forEach((i, n) => {
        const md = metadata[n];
        if (!md) return;
        if (i.action === 'replacecommit') replaced.push({ instantTime: i.requestedTime, partitionToReplaceFileIds: md.partitionToReplaceFileIds });
        committed.push({ instantTime: i.requestedTime, completionTime: i.completionTime, metadata: md });
      });
      const listing = await this.listing();
      const files = listing.files;
      // Files vanish legitimately only after a clean, rollback or restore instant appears or a completed write
      // disappears. If that happened while the files were listed, the listing may be newer than the timeline:
      // skip the missing-file check rather than report a file a concurrent service removed. (A metadata-table
      // listing is as of this timeline: MDT instants count only when their data instant completed in it.)
      const moved = vanished || (listing.source === 'storage' && filesMayHaveMoved(this.timeline, await loadTimeline(this.storage, this.config)));
      const timeline = await this.viewTimeline(files);
      return new FileSystemView({ files, timeline, timelineLayoutVersion: this.config.timelineLayoutVersion, replaced, committed: moved ? undefined : committed });
    })();
    return this.view;
  }

  /**
   * The timeline the view places log files by: the active one, plus the archived writes (with their completion
   * times, from the history) when a layout-2 log names a deltacommit older than the active timeline.
   */
  private async viewTimeline(files: readonly FileInfo[]): Promise<Timeline> {
    if (this.config.timelineLayoutVersion !== 2) return this.timeline;
    const archivedLog = files.some((f) => {
      const log = parseLogFileName(baseName(f.path));
      return log !== undefined && log.extension === 'log' && !this.timeline.completedAt(log.instantTime) && this.timeline.isCommittedWrite(log.instantTime);
    });
    return archivedLog ? (await withArchivedWrites(this, INIT_INSTANT_TIME)).timeline : this.timeline;
  }

  /** Completed writes with requested time ≤ `asOf` (all when undefined). */
  writesAsOf(asOf: string | undefined): Instant[] {
    return this.timeline.completedWrites().filter((i) => asOf === undefined || compareInstantTimes(i.requestedTime, asOf) <= 0);
  }

  /**
   * The table schema as of an instant (data fields, plus the meta fields when the table has them):
   * from the latest commit's `extraMetadata.schema`, else a base file's `parquet.avro.schema`, else
   * `hoodie.table.create.schema`.
   */
  async schemaAsOf(asOf: string | undefined): Promise<AvroRecordSchema> {
    let schema: AvroRecordSchema | undefined;
    const writes = this.writesAsOf(asOf);
    for (let i = writes.length - 1; i >= 0 && !schema; i--) {
      const instant = writes[i] as Instant;
      const md = await this.commitMetadata(instant);
      const text = md.extraMetadata.schema;
      if (text) schema = parseRecordSchema(text, this.instantPath(instant));
      else if (!md.compacted) {
        const stat = Object.values(md.partitionToWriteStats).flat().find((s) => s.path?.endsWith('.parquet'));
        if (stat?.path) schema = await this.baseFileSchema(stat.path);
      }
    }
    if (!schema && asOf !== undefined) schema = await this.archivedSchemaAsOf(asOf);
    if (!schema && this.config.createSchema) schema = parseRecordSchema(this.config.createSchema, PROPERTIES_PATH);
    if (!schema) schema = { type: 'record', name: `${this.config.name}_record`, namespace: '', fullName: `${this.config.name}_record`, fields: [] };
    return this.tableSchema(schema);
  }

  /** Time travel past archival: the schema of the latest archived write at or before `asOf` that recorded one. */
  private async archivedSchemaAsOf(asOf: string): Promise<AvroRecordSchema | undefined> {
    const archived = await this.archivedTimeline();
    const writes = archived.completedWrites().filter((i) => compareInstantTimes(i.requestedTime, asOf) <= 0);
    for (let i = writes.length - 1; i >= 0; i--) {
      const time = (writes[i] as Instant).requestedTime;
      const text = archived.commitMetadata(time)?.extraMetadata.schema;
      if (text) return parseRecordSchema(text, `archived instant ${time}`);
    }
    return undefined;
  }

  /** A recorded schema shaped as the table shows it: meta fields first when the table has them, else none. */
  tableSchema(schema: AvroRecordSchema): AvroRecordSchema {
    return this.config.populateMetaFields ? withMetaFields(schema) : withoutMetaFields(schema);
  }

  private archived: Promise<ArchivedTimeline> | undefined;
  private readableFrom: Promise<{ instant: string; clean: string } | undefined> | undefined;

  /**
   * The archived timeline (v6 `.hoodie/archived/` log files, or the layout-2 LSM history), read once on first
   * use. Instants archived twice (a crash between writing the archive and trimming the active timeline) count
   * once; callers prefer the active timeline's copy.
   */
  archivedTimeline(): Promise<ArchivedTimeline> {
    this.archived ??= loadArchivedTimeline(this.storage, this.config);
    return this.archived;
  }

  /**
   * Completed writes with `from` < requested time ≤ `to`, with their commit metadata, oldest first: the active
   * timeline's, plus the archived ones (read only when `from` is older than the active timeline's first write).
   */
  async writesInRange(from: string, to: string): Promise<{ instant: Instant; metadata: CommitMetadata }[]> {
    const inRange = (t: string) => compareInstantTimes(t, from) > 0 && compareInstantTimes(t, to) <= 0;
    const active = this.timeline.completedWrites();
    const out: { instant: Instant; metadata: CommitMetadata }[] = [];
    const first = active[0]?.requestedTime;
    if (first === undefined || compareInstantTimes(from, first) < 0) {
      const archived = await this.archivedTimeline();
      for (const i of archived.completedWrites()) {
        if (!inRange(i.requestedTime) || this.timeline.completedAt(i.requestedTime)) continue;
        const metadata = archived.commitMetadata(i.requestedTime) ?? { partitionToWriteStats: {}, partitionToReplaceFileIds: {}, compacted: false, extraMetadata: {}, operationType: undefined };
        out.push({ instant: i, metadata });
      }
    }
    for (const i of active) if (inRange(i.requestedTime)) out.push({ instant: i, metadata: await this.commitMetadata(i) });
    return out.sort((a, b) => compareInstantTimes(a.instant.requestedTime, b.instant.requestedTime));
  }

  /**
   * The oldest instant whose snapshot is still complete on storage, with the clean that set it: the greatest
   * earliest-commit-to-retain of the completed (and pending) cleans on the active timeline; undefined when the
   * table was never cleaned. A clean without one (Hudi's KEEP_LATEST_FILE_VERSIONS) counts from the last
   * commit it saw.
   */
  oldestReadableInstant(): Promise<{ instant: string; clean: string } | undefined> {
    this.readableFrom ??= (async () => {
      let best: { instant: string; clean: string } | undefined;
      const raise = (instant: string | undefined, clean: string) => {
        if (instant && (best === undefined || compareInstantTimes(best.instant, instant) < 0)) best = { instant, clean };
      };
      for (const i of this.timeline.instants) {
        if (i.action !== 'clean') continue;
        if (i.state === 'COMPLETED') {
          const path = this.instantPath(i);
          const md = parseCleanMetadata(await this.storage.read(path), path);
          raise(md.earliestCommitToRetain || md.lastCompletedCommitTimestamp, i.requestedTime);
        } else {
          const path = instantFilePath(this.config, i.requestedTime, 'clean', 'REQUESTED');
          try {
            const plan = parseCleanerPlan(await this.storage.read(path), path);
            raise(plan.earliestInstantToRetain?.timestamp || plan.lastCompletedCommitTimestamp, i.requestedTime);
          } catch (err) {
            if (!isLakeletError(err, 'NOT_FOUND')) throw err;
          }
        }
      }
      return best;
    })();
    return this.readableFrom;
  }

  /**
   * Throw `NOT_FOUND` when a time-travel query as of `asOf` would need files a clean deleted: `asOf` is older
   * than {@link oldestReadableInstant} and its snapshot is not a savepointed commit's. The error names the
   * instant, the oldest readable instant and the savepoints still readable. Undefined `asOf` (latest) passes.
   */
  async checkReadable(asOf: string | undefined): Promise<void> {
    if (asOf === undefined) return;
    const from = await this.oldestReadableInstant();
    if (!from || compareInstantTimes(asOf, from.instant) >= 0) return;
    const savepoints = this.timeline.completed().filter((i) => i.action === 'savepoint').map((i) => i.requestedTime);
    const writes = this.writesAsOf(asOf);
    const snapshot = writes[writes.length - 1]?.requestedTime;
    if (snapshot !== undefined && savepoints.includes(snapshot)) return;
    const also = savepoints.filter((t) => compareInstantTimes(t, from.instant) < 0);
    throw new LakeletError(
      'NOT_FOUND',
      `query: the table as of ${asOf} is no longer readable (clean ${from.clean} deleted its files); the oldest readable instant is ${from.instant}` +
        (also.length > 0 ? `, or the savepoint${also.length > 1 ? 's' : ''} ${also.join(', ')}` : ''),
      { instant: asOf, value: from.instant, savepoints: also },
    );
  }

  private async baseFileSchema(path: string): Promise<AvroRecordSchema | undefined> {
    try {
      const footer = await readParquetFooter(await storageBuffer(this.storage, path), path);
      const text = readHudiFooter(footer.keyValues, { path, bloom: false }).avroSchema;
      return text ? parseRecordSchema(text, path) : undefined;
    } catch (err) {
      if (isLakeletError(err, 'NOT_FOUND')) return undefined;
      throw err;
    }
  }
}
