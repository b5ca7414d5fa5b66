// The metadata table's deltacommit for one data instant (hudi-v9-write.md §4.2, §4.4, §6.2): the MDT's
// `<T>.deltacommit.requested` (empty), `<T>.deltacommit.inflight` (an empty HoodieCommitMetadata, UPSERT_PREPPED),
// one log file per receiving MDT file group named after the data instant T, then `<T>_<C>.deltacommit` with one
// write stat per log file and the metadata record schema (without meta fields) as `extraMetadata.schema`. Also the
// undoing of such a deltacommit by an attempt that never completed its data instant (nobody saw it: files go, no
// rollback instant). The records come from metadata/metadata-write-records.ts; this file only encodes and stores.
import type { TableConfig } from '../../config/table-config.js';
import { isLakeletError } from '../../errors.js';
import { logFileName, parseLogFileName } from '../../file-group/file-names.js';
import { parseProperties } from '../../config/properties.js';
import { baseName, metadataTablePath, metadataTimelineDir, PROPERTIES_PATH } from '../../layout.js';
import { parseMetadataPartitions } from '../../metadata/metadata-partitions.js';
import { metadataLogFileBytes } from '../../metadata/metadata-log-blocks.js';
import { metadataRecordSchemaText } from '../../metadata/metadata-schema.js';
import type { MetadataFileGroupWrite } from '../../metadata/metadata-write-records.js';
import type { Storage } from '../../storage/storage.js';
import { commitMetadataBytes } from '../../timeline/commit-metadata-avro.js';
import type { WriteStatInput } from '../../timeline/commit-metadata-writer.js';
import { parseInstantFileName } from '../../timeline/instant.js';
import { systemClock, type Clock } from '../clock.js';
import { instantTransition, type InstantTransition } from '../commit/transitions.js';
import type { MetadataTable } from './metadata-table.js';

/** Hudi's operation type of every MDT deltacommit a data write makes. */
export const METADATA_DELTACOMMIT_OPERATION = 'UPSERT_PREPPED';

/** What {@link writeMetadataDeltacommit} needs. */
export interface MetadataDeltacommitInput {
  /** The data table's storage (rooted at the data table; MDT files are `.hoodie/metadata/…`). */
  storage: Storage;
  /** The data table's config (its version is the MDT's; its timeline layout is the MDT's). */
  dataConfig: TableConfig;
  /** The opened MDT ({@link openMetadataTable}), as of the data write's commit. */
  metadataTable: MetadataTable;
  /** The data instant's requested time: the MDT deltacommit's requested time, and the name of every log. */
  instantTime: string;
  /** The records per receiving MDT file group ({@link metadataWriteRecords}). */
  writes: readonly MetadataFileGroupWrite[];
  /** The completion time's source (default: the system clock). */
  clock?: Clock;
}

/** What {@link writeMetadataDeltacommit} did. */
export interface MetadataDeltacommitResult {
  /** The MDT deltacommit's requested time (= the data instant). */
  instantTime: string;
  /** Its completion time: the data instant must complete later. */
  completionTime: string;
  /** The MDT log files (paths relative to the data table) it wrote, one per receiving file group. */
  logFiles: string[];
  /** False when a previous attempt had already completed it (a lost acknowledgement): nothing was written. */
  written: boolean;
}

/** Write token of the MDT log files lakelet writes (`<group index>-0-0`: one task per file group, attempt 0). */
function writeToken(write: MetadataFileGroupWrite): string {
  return `${write.fileGroup}-0-0`;
}

/** The MDT timeline transitions of the deltacommit at `instantTime`. */
export function metadataDeltacommitTransition(storage: Storage, dataConfig: TableConfig, mdtProperties: ReadonlyMap<string, string>, instantTime: string): InstantTransition {
  const timelinePath = metadataTimelineDir(dataConfig.timelineLayoutVersion, mdtProperties.get('hoodie.timeline.path'));
  return instantTransition(storage, { timelinePath, timelineLayoutVersion: dataConfig.timelineLayoutVersion }, instantTime, 'deltacommit');
}

/**
 * Write the MDT deltacommit of data instant `instantTime` (see the file header): requested, inflight, one log
 * file per entry of `writes` (`.<fileId>_<instantTime>.log.1_<group>-0-0` in its partition's folder), completed.
 *
 * Contract: call it under the data table's commit lock, after the data instant's files are written and its
 * conflict check passed, and before the data instant completes — an MDT deltacommit counts for readers only once
 * its data instant completed (Java's valid-instant rule), so a crash in between leaves nothing visible, and the
 * data instant's rollback must undo it ({@link discardMetadataDeltacommit} for an attempt nobody saw).
 * Idempotent on retry: an MDT deltacommit already completed (a lost acknowledgement) is returned as it is
 * (`written: false`); leftovers of a crashed attempt (its logs for this instant under another name) are deleted
 * and the logs rewritten. With no `writes` the deltacommit still completes (Hudi writes one per data instant)
 * with no write stats. Returns the completion time — the data instant's completion must be minted later.
 */
export async function writeMetadataDeltacommit(input: MetadataDeltacommitInput): Promise<MetadataDeltacommitResult> {
  const { storage, dataConfig, metadataTable, instantTime, writes } = input;
  const transition = metadataDeltacommitTransition(storage, dataConfig, metadataTable.properties, instantTime);
  const done = await transition.completedPath();
  if (done !== undefined) return { instantTime, completionTime: completionTimeOf(done), logFiles: await logFilesOf(storage, metadataTable, instantTime), written: false };
  const layout = dataConfig.timelineLayoutVersion === 2 ? 2 : 1;
  await transition.request(new Uint8Array(0)); // false: a retry finds its own requested file
  await transition.markInflight(commitMetadataBytes(layout, { partitionToWriteStats: new Map(), operationType: METADATA_DELTACOMMIT_OPERATION }));
  const planned = writes.map((w) => ({ write: w, path: metadataTablePath(`${w.partition}/${logFileName(w.fileId, instantTime, 1, writeToken(w))}`) }));
  const keep = new Set(planned.map((p) => p.path));
  for (const stale of await logFilesOf(storage, metadataTable, instantTime)) if (!keep.has(stale)) await storage.delete(stale);
  const slices = new Map<string, Awaited<ReturnType<MetadataTable['latestSlices']>>>();
  const stats: WriteStatInput[] = [];
  for (const { write, path } of planned) {
    const bytes = metadataLogFileBytes(write, { instantTime, version: metadataTable.version, createTime: (input.clock ?? systemClock).now() });
    await storage.write(path, bytes);
    if (!slices.has(write.partition)) slices.set(write.partition, await metadataTable.latestSlices(write.partition));
    const base = slices.get(write.partition)?.find((s) => s.fileId === write.fileId)?.baseFile;
    const name = baseName(path);
    stats.push({
      fileId: write.fileId, path: `${write.partition}/${name}`, partitionPath: write.partition, prevCommit: base?.instantTime ?? instantTime,
      numWrites: write.upserts.length + write.deletes.length, numDeletes: write.deletes.length, numUpdateWrites: write.upserts.length, numInserts: 0,
      totalWriteBytes: bytes.length, fileSizeInBytes: bytes.length, logVersion: 1, logOffset: 0, baseFile: base?.name ?? '', logFiles: [name],
    });
  }
  const byPartition = new Map<string, WriteStatInput[]>();
  for (const s of stats) byPartition.set(s.partitionPath, [...(byPartition.get(s.partitionPath) ?? []), s]);
  const completed = commitMetadataBytes(layout, {
    partitionToWriteStats: byPartition,
    compacted: false,
    extraMetadata: { schema: metadataRecordSchemaText(metadataTable.version, { metaFields: false }) },
    operationType: METADATA_DELTACOMMIT_OPERATION,
  });
  await transition.complete(completed, { clock: input.clock ?? systemClock, landed: 'exists' });
  const path = await transition.completedPath();
  return { instantTime, completionTime: path === undefined ? instantTime : completionTimeOf(path), logFiles: planned.map((p) => p.path), written: true };
}

/** The completion time in a layout-2 completed file's name (`<t>_<c>.deltacommit`); the requested time on layout 1. */
function completionTimeOf(path: string): string {
  const i = parseInstantFileName(baseName(path));
  return i?.completionTime ?? i?.requestedTime ?? '';
}

/** Every MDT log file named after `instantTime`, in every partition folder of the MDT (paths relative to the data table). */
export async function logFilesOf(storage: Storage, metadataTable: Pick<MetadataTable, 'partitions'>, instantTime: string, extraPartitions: readonly string[] = []): Promise<string[]> {
  const out: string[] = [];
  for (const partition of new Set([...metadataTable.partitions, ...extraPartitions])) {
    let files;
    try {
      files = await storage.list(metadataTablePath(partition));
    } catch (err) {
      if (isLakeletError(err, 'NOT_FOUND')) continue;
      throw err;
    }
    for (const f of files) if (f.kind === 'file' && parseLogFileName(baseName(f.path))?.instantTime === instantTime) out.push(f.path);
  }
  return out;
}

/**
 * Undo the MDT deltacommit of a data instant that never completed and that nobody saw (an aborted attempt):
 * its log files, then its completed, inflight and requested files (idempotent). A data instant that may have
 * been seen pending is rolled back with an MDT rollback instant instead.
 */
export async function discardMetadataDeltacommit(storage: Storage, dataConfig: TableConfig, metadataTable: Pick<MetadataTable, 'partitions' | 'properties'>, instantTime: string): Promise<void> {
  for (const f of await logFilesOf(storage, metadataTable, instantTime)) await storage.delete(f);
  await metadataDeltacommitTransition(storage, dataConfig, metadataTable.properties, instantTime).remove('COMPLETED', 'INFLIGHT', 'REQUESTED');
}

/**
 * {@link discardMetadataDeltacommit} for a data table whose MDT is not opened: nothing when the table lists no
 * metadata partitions or its MDT has no properties (a table without an MDT); else the MDT's properties are read
 * for its timeline folder.
 */
export async function discardMetadataDeltacommitOf(storage: Storage, dataConfig: TableConfig, instantTime: string): Promise<void> {
  const partitions = parseMetadataPartitions(dataConfig.properties.get('hoodie.table.metadata.partitions'));
  if (partitions.length === 0 || dataConfig.version < 8) return;
  let properties: Map<string, string>;
  try {
    properties = parseProperties(new TextDecoder().decode(await storage.read(metadataTablePath(PROPERTIES_PATH))));
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND')) return;
    throw err;
  }
  await discardMetadataDeltacommit(storage, dataConfig, { partitions, properties }, instantTime);
}
