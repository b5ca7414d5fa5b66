// `validateTable`: lakelet's metadata table validator (Hudi's HoodieMetadataTableValidator). Loads the table once,
// runs `files-exist` on every table, and on a table with a metadata table the MDT checks of the partitions it
// lists: `files-partition`, `record-index`, `column-stats`, `partition-stats` and `metadata-structure`. The
// checks that read data files run only when no live file is missing (a read would fail on the first one).
// Reports every difference instead of stopping at the first; read-only.
import type { Storage } from '../../storage/storage.js';
import { METADATA_PARTITION } from '../../metadata/metadata-partitions.js';
import { openMetadataTable } from '../metadata/metadata-table.js';
import { TableState } from '../table-state.js';
import { checkFilesExist, checkFilesPartition } from './files-checks.js';
import { MetadataRecords } from './metadata-records.js';
import { checkRecordIndex } from './record-index-check.js';
import { checkStats, type StatsChecks } from './stats-checks.js';
import { checkMetadataStructure } from './structure-checks.js';
import { ValidationReport, type ValidateOptions, type ValidationCheck, type ValidationResult } from './validation-result.js';

/** A table to validate: an opened `Table` (anything with its `storage`) or a storage rooted at the table. */
export type ValidationTarget = Storage | { readonly storage: Storage };

const isStorage = (t: ValidationTarget): t is Storage => typeof (t as Storage).list === 'function' && typeof (t as Storage).read === 'function';

/**
 * Validate a table against its timeline and its metadata table (see {@link ValidationCheck} for each check).
 * Reads the table as it is in storage now (an opened `Table`'s cached state is not used). `ok` is true when no
 * problem was found; `checked` names the checks that ran (`['files-exist']` for a table without a metadata table).
 * A metadata table that cannot be opened (missing properties) is a `metadata-structure` problem; one lakelet cannot
 * read (a version-6 table's, a foreign table type or format) → `UNSUPPORTED` naming the property, as are the
 * record index of a table without meta fields and a column type whose statistics are not verified.
 */
export async function validateTable(target: ValidationTarget, options: ValidateOptions = {}): Promise<ValidationResult> {
  const storage = isStorage(target) ? target : target.storage;
  const wanted = (c: ValidationCheck) => options.checks === undefined || options.checks.includes(c);
  const report = new ValidationReport();
  const state = await TableState.load(storage);
  let filesPresent = false;
  if (wanted('files-exist')) await report.run('files-exist', async () => void (filesPresent = await checkFilesExist(state, report)));
  else filesPresent = await checkFilesExist(state, new ValidationReport()).catch(() => false); // only decides whether data can be read

  let mdt;
  try {
    mdt = await openMetadataTable(storage, { dataConfig: state.config, dataTimeline: state.timeline });
  } catch (err) {
    if (!wanted('metadata-structure')) throw err;
    await report.run('metadata-structure', () => Promise.reject(err));
    return report.result();
  }
  if (mdt === undefined) return report.result();
  const records = new MetadataRecords(mdt);
  const has = (p: string) => mdt.partitions.includes(p);
  if (wanted('files-partition') && has(METADATA_PARTITION.FILES)) await report.run('files-partition', () => checkFilesPartition(state, records, report));
  if (filesPresent) {
    if (wanted('record-index') && has(METADATA_PARTITION.RECORD_INDEX)) await report.run('record-index', () => checkRecordIndex(state, records, report));
    const columnStats = wanted('column-stats') && has(METADATA_PARTITION.COLUMN_STATS);
    const partitionStats = wanted('partition-stats') && has(METADATA_PARTITION.PARTITION_STATS);
    const fileStats: NonNullable<StatsChecks['fileStats']> = new Map(); // files' recomputed stats, shared by both checks
    if (columnStats) await report.run('column-stats', () => checkStats(state, records, { columnStats: true, partitionStats: false, fileStats }, report));
    if (partitionStats) await report.run('partition-stats', () => checkStats(state, records, { columnStats: false, partitionStats: true, fileStats }, report));
  }
  if (wanted('metadata-structure')) await report.run('metadata-structure', () => checkMetadataStructure(state, records, report));
  return report.result();
}
