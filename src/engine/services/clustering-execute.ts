// Executing a clustering plan's groups (issue 19): each group's file slices read merged (the base file and, on
// merge-on-read, its committed log blocks), the rows sorted by the plan's sort columns and layout
// (plan/layout-sort.ts) and cut into runs of about the plan's target size, each written as the base file of a
// NEW file group at the clustering instant. Rows keep their `_hoodie_commit_time` and seqno (the plan's
// preserveHoodieMetadata); only `_hoodie_file_name` becomes the new file's name (hudi-format.md §5).
import { LakeletError } from '../../errors.js';
import { fileGroupKey, type FileSlice } from '../../file-group/file-slice.js';
import { markerPath } from '../../layout.js';
import { orderingSpec } from '../../merge/ordering.js';
import type { RecordIndexUpsert } from '../../metadata/metadata-write-records.js';
import { LAYOUT_STRATEGY_PARAM, SORT_COLUMNS_PARAM, type ClusteringPlan } from '../../plan/clustering-plan.js';
import { layoutOrderOfRows, parseLayoutStrategy } from '../../plan/layout-sort.js';
import type { WriteStatInput } from '../../timeline/commit-metadata-writer.js';
import { readFileSlice, type SliceReadContext } from '../read/file-slice-reader.js';
import type { TableState } from '../table-state.js';
import { mergeBucket } from '../write/merge-handle.js';
import { mergeFileGroupRows, type MergeFileGroupSpec } from '../../merge/cow-merge.js';
import type { ResolvedWriteOptions } from '../write/write-options.js';

/** Base-file writer settings a clustering run writes its files with. */
export type ClusteringWriterOptions = Pick<ResolvedWriteOptions, 'codec' | 'rowGroupRows' | 'bloomFilter'>;

/** What the groups of one clustering plan wrote, ready for its replacecommit. */
export interface ClusteredFiles {
  /** Write stats of the new base files, per partition (plan order). */
  stats: Map<string, WriteStatInput[]>;
  /** The input file groups, per partition: the replacecommit's `partitionToReplaceFileIds`. */
  replaced: Map<string, string[]>;
  /** Every record's new location (the metadata table's record_index moves each key to its new group). */
  locations: RecordIndexUpsert[];
  recordsWritten: number;
  bytesWritten: number;
  fileGroupsReplaced: number;
  fileGroupsWritten: number;
}

/** The sort a plan asks for: its sort columns (none: rows keep their order) and layout. */
export function planSort(plan: ClusteringPlan): { columns: string[]; layout: string } {
  const columns = (plan.strategyParams[SORT_COLUMNS_PARAM] ?? '').split(',').map((c) => c.trim()).filter((c) => c.length > 0);
  const layout = parseLayoutStrategy(plan.strategyParams[LAYOUT_STRATEGY_PARAM] ?? 'linear');
  return { columns, layout };
}

/** Rows encoded to estimate the bytes a row takes in the new files. */
const SAMPLE_ROWS = 256;

/** `rows` cut into `n` runs of near-equal length, in order (fewer when there are fewer rows). */
function runsOf<T>(rows: readonly T[], n: number): T[][] {
  const count = Math.max(1, Math.min(n, rows.length));
  const out: T[][] = [];
  for (let i = 0; i < count; i++) {
    const run = rows.slice(Math.floor((i * rows.length) / count), Math.floor(((i + 1) * rows.length) / count));
    if (run.length > 0) out.push(run);
  }
  return out;
}

/**
 * How many files a group's `rows` are written into. The plan sized the group by its input files' bytes, which
 * count each small file's own footer and bloom filter: the output of `planned` files would each fall well short
 * of the target. The target the plan implies (input bytes / planned files) is divided into the bytes the rows
 * take once encoded, estimated from a sample, as Hudi's writers roll over to a new file at the target size.
 */
async function outputFileCount(spec: Omit<MergeFileGroupSpec, 'taskId' | 'fileName' | 'collectKeys'>, rows: readonly Record<string, unknown>[], planned: number, inputBytes: number): Promise<number> {
  if (planned <= 1 || rows.length === 0 || inputBytes <= 0) return Math.max(1, planned);
  const sample = rows.slice(0, SAMPLE_ROWS);
  const encoded = await mergeFileGroupRows({ ...spec, taskId: 0, fileName: 'sample.parquet', collectKeys: false, mergedRows: [...sample] }, undefined);
  const estimate = (encoded.bytes.length / sample.length) * rows.length;
  return Math.max(1, Math.min(rows.length, Math.ceil(estimate / (inputBytes / planned))));
}

/**
 * Rewrite every group of `plan` (read from `state`, the table as it is now) into new file groups at `instant`;
 * `beat` keeps the run's heartbeat alive between groups. Files are written after their marker (CREATE), so an
 * interrupted run's files are found and removed before a re-run. A planned file group that is no longer live is
 * `CONFLICT` (it was replaced meanwhile; nothing is committed).
 */
export async function writeClusteredFiles(state: TableState, instant: string, plan: ClusteringPlan, writer: ClusteringWriterOptions, beat: () => Promise<void>): Promise<ClusteredFiles> {
  const { storage, config } = state;
  const schema = await state.schemaAsOf(undefined);
  const ordering = orderingSpec(config.orderingFields, schema);
  const ctx: SliceReadContext = {
    storage, config, timeline: state.timeline, asOf: undefined,
    merge: { mode: config.recordMergeMode, partialUpdateMode: config.properties.get('hoodie.table.partial.update.mode'), ...ordering },
    onWarning: () => undefined,
    schema, // files of older schemas are rewritten in the table's current types
  };
  const live = new Map<string, FileSlice>();
  for (const s of (await state.fileSystemView()).latestSlices()) live.set(fileGroupKey(s.partitionPath, s.fileId), s);
  const sort = planSort(plan);
  for (const c of sort.columns) {
    if (!schema.fields.some((f) => f.name === c)) throw new LakeletError('INVALID_ARGUMENT', `clustering: plan ${instant} sorts by column ${JSON.stringify(c)}, which the table schema lacks`, { instant, field: c });
  }
  const out: ClusteredFiles = { stats: new Map(), replaced: new Map(), locations: [], recordsWritten: 0, bytesWritten: 0, fileGroupsReplaced: 0, fileGroupsWritten: 0 };
  let taskId = 0;
  for (const group of plan.groups) {
    await beat();
    const rows: Record<string, unknown>[] = [];
    let partitionPath: string | undefined;
    let inputBytes = 0;
    for (const planned of group.slices) {
      const slice = live.get(fileGroupKey(planned.partitionPath, planned.fileId));
      if (!slice) {
        throw new LakeletError('CONFLICT', `clustering: plan ${instant} rewrites file group ${planned.partitionPath}/${planned.fileId}, which is no longer live (replaced meanwhile); nothing was committed`, { instant, value: `${planned.partitionPath}/${planned.fileId}` });
      }
      if (partitionPath !== undefined && partitionPath !== slice.partitionPath) {
        throw new LakeletError('CORRUPT_FILE', `clustering: plan ${instant} groups file groups of partitions ${partitionPath} and ${slice.partitionPath}; a clustering group holds one partition`, { instant, value: slice.partitionPath });
      }
      partitionPath = slice.partitionPath;
      inputBytes += slice.baseFile ? slice.baseFile.size : slice.logFiles.reduce((n, l) => n + l.size, 0);
      for (const row of await readFileSlice(ctx, slice, { columns: undefined, filters: [], baseOnly: false })) rows.push(row);
      const ids = out.replaced.get(slice.partitionPath) ?? [];
      ids.push(slice.fileId);
      out.replaced.set(slice.partitionPath, ids);
      out.fileGroupsReplaced++;
    }
    if (partitionPath === undefined) continue;
    const sorted = sort.columns.length === 0 ? rows : Array.from(layoutOrderOfRows(rows, sort.columns, sort.layout), (i) => rows[i]!);
    const spec = {
      instantTime: instant, partitionPath, updates: new Map(), inserts: [], schema,
      mergeMode: config.recordMergeMode, orderingFields: ordering.orderingFields, orderingKinds: ordering.orderingKinds,
      writer: { codec: writer.codec, rowGroupRows: writer.rowGroupRows, bloomFilter: writer.bloomFilter },
    };
    const files = await outputFileCount(spec, sorted, group.numOutputFileGroups, inputBytes);
    for (const run of runsOf(sorted, files)) {
      await beat();
      const fileId = `${crypto.randomUUID()}-0`;
      const written = await mergeBucket({
        ...spec, storage, taskId: taskId++, fileId, base: undefined, mergedRows: run,
        beforeWrite: (path) => storage.write(markerPath(instant, path, 'CREATE'), new Uint8Array(0)),
      });
      // As Hudi's clustering write stats: every record an insert into a new file group.
      const stat: WriteStatInput = { ...written.stat, numInserts: written.stat.numWrites };
      out.stats.set(partitionPath, [...(out.stats.get(partitionPath) ?? []), stat]);
      out.recordsWritten += stat.numWrites;
      out.bytesWritten += stat.fileSizeInBytes;
      out.fileGroupsWritten++;
      for (const row of run) {
        const key = row._hoodie_record_key;
        if (typeof key === 'string') out.locations.push({ key, partitionPath, fileId });
      }
    }
  }
  return out;
}
