// The validator's file checks: `files-exist` (every live file the completed instants' write stats name is in
// storage — the file-system view's committed-file check, file-group/committed-files.ts, with every missing file
// reported) and `files-partition` (the MDT `files` partition lists exactly the committed data files storage
// holds, name and size, both ways — `.cdc` log files included, as Hudi lists them — and its `__all_partitions__`
// record exactly the partitions holding them).
// Files a pending clean plans to delete are left out on both sides, as Hudi's validator does: such a clean may
// have deleted some of them already, and the MDT drops them only when the clean completes. A deleted partition
// (a partition delete takes it out of `__all_partitions__` at once, Java's getPartitionsDeleted) keeps the files
// of its replaced groups, and its file list, until a clean: a partition `__all_partitions__` does not name whose
// committed files all belong to replaced groups is left out on both sides.
import { isLakeletError } from '../../errors.js';
import { parseBaseFileName, parseLogFileName } from '../../file-group/file-names.js';
import { fileGroupKey } from '../../file-group/file-slice.js';
import { baseName, instantFilePath, isMetaPath, isPartitionMetadataPath, parentPath, partitionFilePath } from '../../layout.js';
import { ALL_PARTITIONS_KEY, metadataListing, partitionPathOfFilesKey } from '../../metadata/files-partition.js';
import { METADATA_PARTITION } from '../../metadata/metadata-partitions.js';
import { METADATA_RECORD_TYPE } from '../../metadata/metadata-record.js';
import { parseCleanerPlan } from '../../timeline/clean-metadata.js';
import type { TableState } from '../table-state.js';
import type { ValidationReport } from './validation-result.js';
import type { MetadataRecords } from './metadata-records.js';

/**
 * `files-exist`: one problem per live file (latest slice of a non-replaced file group: its base file and the
 * logs completed deltacommits wrote onto it) that a completed instant's write stats name and storage lacks.
 * Returns true when none is missing.
 */
export async function checkFilesExist(state: TableState, report: ValidationReport): Promise<boolean> {
  const before = report.count('files-exist');
  const view = await state.fileSystemView();
  try {
    view.latestSlices();
  } catch (err) {
    if (!isLakeletError(err, 'NOT_FOUND') || !Array.isArray(err.context.missing)) throw err;
    for (const path of err.context.missing as string[]) report.add('files-exist', path, 'a completed instant wrote this live file, but storage does not have it');
  }
  return report.count('files-exist') === before;
}

/** Storage's committed data files, `.cdc` files included (their instant is a completed or archived write), partition → name → size. */
async function committedStorageFiles(state: TableState): Promise<{ files: Map<string, Map<string, number>>; partitions: Set<string> }> {
  const files = new Map<string, Map<string, number>>();
  const partitions = new Set<string>();
  for (const f of await state.dataFiles()) {
    if (f.kind !== 'file' || isMetaPath(f.path) || f.path.startsWith('__MACOSX/')) continue;
    const partition = parentPath(f.path);
    if (isPartitionMetadataPath(f.path)) {
      partitions.add(partition);
      continue;
    }
    const name = baseName(f.path);
    const log = parseLogFileName(name);
    const instant = parseBaseFileName(name)?.instantTime ?? (log && log.extension === 'log' ? log.instantTime : undefined);
    if (instant === undefined || !state.timeline.isCommittedWrite(instant)) continue;
    partitions.add(partition);
    let m = files.get(partition);
    if (!m) files.set(partition, (m = new Map()));
    m.set(name, f.size);
  }
  return { files, partitions };
}

/** Paths (relative to the table root) of the files that pending cleans plan to delete. */
async function filesOfPendingCleans(state: TableState): Promise<Set<string>> {
  const out = new Set<string>();
  for (const i of state.timeline.pending()) {
    if (i.action !== 'clean') continue;
    const path = instantFilePath(state.config, i.requestedTime, 'clean', 'REQUESTED');
    const plan = parseCleanerPlan(await state.storage.read(path), path);
    for (const files of Object.values(plan.filePathsToBeDeletedPerPartition)) for (const f of files) out.add(f.filePath);
  }
  return out;
}

const show = (p: string) => (p === '' ? 'the table root (non-partitioned)' : JSON.stringify(p));

/**
 * `files-partition`: the merged `files` records against storage — each committed file missing from the MDT,
 * each listed file storage lacks, each size that differs; each partition holding committed files that
 * `__all_partitions__` does not name, each named partition storage does not have, and each file-list record of
 * a partition `__all_partitions__` does not name.
 */
export async function checkFilesPartition(state: TableState, records: MetadataRecords, report: ValidationReport): Promise<void> {
  const merged = (await records.of(METADATA_PARTITION.FILES)).flatMap((s) => s.records);
  const listing = metadataListing(merged, `${METADATA_PARTITION.FILES} partition of the metadata table`);
  const named = new Set(merged.filter((r) => r.key === ALL_PARTITIONS_KEY).flatMap((r) => Object.entries(r.filesystemMetadata ?? {}).filter(([, i]) => !i.isDeleted).map(([k]) => k)));
  const stored = await committedStorageFiles(state);
  const cleaning = await filesOfPendingCleans(state);
  const replaced = (await state.fileSystemView()).replacedGroups();
  const isReplaced = (partition: string, name: string): boolean => {
    const fileId = parseBaseFileName(name)?.fileId ?? parseLogFileName(name)?.fileId;
    return fileId !== undefined && replaced.has(fileGroupKey(partition, fileId));
  };
  // Deleted partitions: not named, and every committed file left in them belongs to a replaced group.
  const deletedPartitions = new Set([...stored.files].filter(([p, files]) => !named.has(p) && [...files.keys()].every((n) => isReplaced(p, n))).map(([p]) => p));
  if (merged.some((r) => r.key === ALL_PARTITIONS_KEY)) {
    for (const r of merged) {
      if (r.type === METADATA_RECORD_TYPE.FILE_LIST && !named.has(r.key) && !deletedPartitions.has(r.key) && Object.values(r.filesystemMetadata ?? {}).some((i) => !i.isDeleted)) {
        report.add('files-partition', partitionPathOfFilesKey(r.key), `the files partition lists files of partition ${show(partitionPathOfFilesKey(r.key))}, but its ${ALL_PARTITIONS_KEY} record does not name it`);
      }
    }
  } else report.add('files-partition', ALL_PARTITIONS_KEY, `the files partition has no ${ALL_PARTITIONS_KEY} record`);
  for (const [partition, files] of stored.files) {
    if (deletedPartitions.has(partition)) continue;
    if (!listing.has(partition)) report.add('files-partition', partition, `partition ${show(partition)} holds committed files, but the files partition's ${ALL_PARTITIONS_KEY} does not list it`);
    const listed = listing.get(partition) ?? new Map<string, number>();
    for (const [name, size] of files) {
      const path = partitionFilePath(partition, name);
      if (cleaning.has(path)) continue;
      const mdtSize = listed.get(name);
      if (mdtSize === undefined) report.add('files-partition', path, `committed file (${size} bytes) is missing from the files partition`);
      else if (mdtSize !== size) report.add('files-partition', path, `the files partition says ${mdtSize} bytes, storage holds ${size}`);
    }
  }
  for (const [partition, files] of listing) {
    if (deletedPartitions.has(partition)) continue;
    if (files.size === 0 && !stored.partitions.has(partition)) report.add('files-partition', partition, `the files partition lists partition ${show(partition)}, which storage does not have`);
    const held = stored.files.get(partition);
    for (const [name, size] of files) {
      if (held?.has(name) || cleaning.has(partitionFilePath(partition, name))) continue;
      report.add('files-partition', partitionFilePath(partition, name), `listed in the files partition (${size} bytes), but storage holds no committed file of that name`);
    }
  }
}
