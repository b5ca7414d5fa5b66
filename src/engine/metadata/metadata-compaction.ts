// The metadata table's own compaction (hudi-v9-write.md §4.2), run after a regular write once it is due
// (metadata/metadata-compaction-plan.ts): under the commit lock, at a fresh time X later than every time of
// both timelines — `X.compaction.requested` (the plan over every MDT file group, Avro), an empty
// `X.compaction.inflight`, one base HFile per file group merging its slice's base and logs by the payload's
// rules (the bloom meta block and file info of metadataBaseFileBytes), then `X_C.commit` (`compacted`,
// COMPACT). Readers take the new bases only once the commit exists; a crash before it leaves a pending
// compaction that the next run re-executes from its plan (same file names, rewritten), so it is idempotent.
import type { TableConfig } from '../../config/table-config.js';
import { LakeletError } from '../../errors.js';
import { metadataTablePath, PROPERTIES_PATH } from '../../layout.js';
import type { MetadataFileSlice, MetadataSliceFile } from '../../metadata/metadata-file-slices.js';
import { metadataCompactedBaseFileName, metadataCompactionDue, metadataCompactionOperations, METADATA_COMPACT_MAX_DELTA_COMMITS } from '../../metadata/metadata-compaction-plan.js';
import { metadataBaseFileBytes } from '../../metadata/metadata-log-blocks.js';
import { metadataRecordSchemaText } from '../../metadata/metadata-schema.js';
import type { Storage } from '../../storage/storage.js';
import type { WriteStatInput } from '../../timeline/commit-metadata-writer.js';
import { commitMetadataBytes } from '../../timeline/commit-metadata-avro.js';
import { parseCompactionPlan, serializeCompactionPlan, type CompactionPlan } from '../../timeline/compaction-plan.js';
import type { Clock } from '../clock.js';
import { instantTransition } from '../commit/transitions.js';
import { loadTableConfig } from '../table-state.js';
import { metadataTimelineLocation, runMetadataService } from './metadata-service.js';
import { readMetadataSlice } from './metadata-slice-reader.js';
import type { MetadataTable } from './metadata-table.js';

/** Options of {@link compactMetadataTable}. */
export interface MetadataCompactionOptions {
  /** MDT deltacommits since the last MDT compaction that make one due (Java's default 10). */
  maxDeltaCommits?: number;
  /** Time source of the instant and completion times and the commit lock (default the system clock). */
  clock?: Clock;
  /** Silence after which the commit lock's holder counts as gone (default 60 s). */
  heartbeatTimeoutMs?: number;
}

/** What an MDT compaction did. */
export interface MetadataCompactionResult {
  /** The MDT compaction instant. */
  instant: string;
  /** File groups in its plan. */
  fileGroups: number;
  /** Base HFiles written (groups whose slice holds no record get none, as in Java). */
  baseFilesWritten: number;
}

/** Is the data table one whose MDT lakelet may compact (layout 2, `files` listed, MDT properties present)? */
async function hasMetadataTable(storage: Storage, config: TableConfig): Promise<boolean> {
  if (config.timelineLayoutVersion !== 2) return false;
  const listed = (config.properties.get('hoodie.table.metadata.partitions') ?? '').split(',').map((p) => p.trim());
  if (!listed.includes('files')) return false;
  try {
    await storage.head(metadataTablePath(PROPERTIES_PATH));
    return true;
  } catch {
    return false;
  }
}

/** The slices a plan names, rebuilt from the MDT folders (sizes from the listing). */
async function plannedSlices(storage: Storage, plan: CompactionPlan): Promise<MetadataFileSlice[]> {
  const sizes = new Map<string, number>();
  for (const partition of new Set(plan.operations.map((o) => o.partitionPath))) {
    for (const f of await storage.list(metadataTablePath(partition))) if (f.kind === 'file') sizes.set(f.path, f.size);
  }
  const file = (partition: string, name: string, instantTime: string): MetadataSliceFile => {
    const path = metadataTablePath(`${partition}/${name}`);
    const size = sizes.get(path);
    if (size === undefined) throw new LakeletError('NOT_FOUND', `metadata compaction: ${path}, named by the plan, is missing`, { path });
    return { path, name, instantTime, size, completionTime: instantTime };
  };
  return plan.operations.map((o) => ({
    partition: o.partitionPath,
    fileId: o.fileId,
    baseFile: o.dataFilePath ? file(o.partitionPath, o.dataFilePath, o.baseInstantTime) : undefined,
    logFiles: o.deltaFilePaths.map((n) => file(o.partitionPath, n, o.baseInstantTime)),
  }));
}

/** Run a planned MDT compaction from its inflight state: the base files (rewritten on a re-run), then the commit. */
async function executeMetadataCompaction(mdt: MetadataTable, instant: string, plan: CompactionPlan, clock: Clock): Promise<MetadataCompactionResult> {
  const storage = mdt.storage;
  const stats: Record<string, WriteStatInput[]> = {};
  let written = 0;
  const slices = await plannedSlices(storage, plan);
  for (const [i, slice] of slices.entries()) {
    const records = await readMetadataSlice(mdt, slice);
    if (records.length === 0 && slice.baseFile === undefined) continue; // nothing to compact into a base (Java writes none)
    const name = metadataCompactedBaseFileName(slice.fileId, i, instant);
    const bytes = metadataBaseFileBytes(records, mdt.version, { createTime: clock.now() });
    await storage.write(metadataTablePath(`${slice.partition}/${name}`), bytes);
    written++;
    const logSize = slice.logFiles.reduce((n, l) => n + l.size, 0);
    (stats[slice.partition] ??= []).push({
      fileId: slice.fileId,
      path: `${slice.partition}/${name}`,
      partitionPath: slice.partition,
      prevCommit: slice.baseFile?.instantTime,
      numWrites: records.length,
      numDeletes: 0,
      numUpdateWrites: 0,
      numInserts: slice.baseFile ? 0 : records.length,
      totalWriteBytes: bytes.length,
      fileSizeInBytes: bytes.length,
      totalLogFilesCompacted: slice.logFiles.length,
      totalLogSizeCompacted: logSize,
      totalUpdatedRecordsCompacted: records.length,
      ...(slice.baseFile ? { prevBaseFile: slice.baseFile.name } : {}),
    });
  }
  const metadata = commitMetadataBytes(2, {
    partitionToWriteStats: stats,
    compacted: true,
    operationType: 'COMPACT',
    extraMetadata: { schema: metadataRecordSchemaText(mdt.version, { metaFields: false }) },
  });
  // A re-run after a lost acknowledgement finds its completed file there: that is fine.
  await instantTransition(storage, metadataTimelineLocation(mdt), instant, 'compaction').complete(metadata, { clock });
  return { instant, fileGroups: plan.operations.length, baseFilesWritten: written };
}

/** Re-run MDT compactions a crash interrupted (requested or inflight), oldest first. */
async function finishPendingMetadataCompactions(mdt: MetadataTable, clock: Clock): Promise<MetadataCompactionResult[]> {
  const out: MetadataCompactionResult[] = [];
  for (const pending of mdt.timeline.pending()) {
    if (pending.action !== 'compaction') continue;
    const transition = instantTransition(mdt.storage, metadataTimelineLocation(mdt), pending.requestedTime, 'compaction');
    const path = transition.path('REQUESTED');
    const plan = parseCompactionPlan(await mdt.storage.read(path), path);
    if (pending.state === 'REQUESTED') await transition.markInflight();
    out.push(await executeMetadataCompaction(mdt, pending.requestedTime, plan, clock));
  }
  return out;
}

/**
 * Compact the data table's metadata table when it is due (see `metadataCompactionDue`): first re-run any MDT
 * compaction a crash interrupted, then — under the commit lock, when at least `maxDeltaCommits` MDT
 * deltacommits completed since the last one and no data or MDT instant is pending — plan and run a new one.
 * Returns the compaction run (the new one, else the last interrupted one finished), or undefined when the
 * table has no metadata table or none was due (nothing written then).
 */
export async function compactMetadataTable(storage: Storage, options: MetadataCompactionOptions = {}): Promise<MetadataCompactionResult | undefined> {
  const config = await loadTableConfig(storage);
  if (!(await hasMetadataTable(storage, config))) return undefined;
  return runMetadataService(storage, config, options, {
    action: 'compaction',
    finishPending: finishPendingMetadataCompactions,
    plan: async (mdt, dataTimeline) => {
      if (!metadataCompactionDue(mdt.timeline, dataTimeline, options.maxDeltaCommits ?? METADATA_COMPACT_MAX_DELTA_COMMITS).due) return undefined;
      const slices = await Promise.all(mdt.partitions.map((p) => mdt.latestSlices(p)));
      return { requested: serializeCompactionPlan({ operations: metadataCompactionOperations(slices), extraMetadata: {}, version: 2 }) };
    },
    execute: (mdt, instant, requested, path, clock) => executeMetadataCompaction(mdt, instant, parseCompactionPlan(requested, path), clock),
  });
}

