// The validator's `record-index` check: the MDT `record_index` partition (every file group scanned whole) against
// the latest snapshot's keys — each key must map to the partition and file group holding it, and no entry may
// name a key the snapshot lacks (Hudi's validator compares the record index with the data the same way).
import { unsupported } from '../../errors.js';
import { parseBaseFileName, parseLogFileName } from '../../file-group/file-names.js';
import { METADATA_PARTITION } from '../../metadata/metadata-partitions.js';
import { recordIndexFileId } from '../../metadata/record-index.js';
import { executeRead, resolveQuery } from '../read/query.js';
import type { TableState } from '../table-state.js';
import type { MetadataRecords } from './metadata-records.js';
import type { ValidationReport } from './validation-result.js';

interface Location {
  partitionPath: string;
  fileId: string;
}

const where = (l: Location) => `file group ${l.fileId} of ${l.partitionPath === '' ? 'the table root' : `partition ${JSON.stringify(l.partitionPath)}`}`;

/** The file group a row's `_hoodie_file_name` names: a base file's or log file's file id, else the value itself (log records carry the file id). */
function fileIdOf(fileName: string): string {
  return parseBaseFileName(fileName)?.fileId ?? parseLogFileName(fileName)?.fileId ?? fileName;
}

/** Every key of the latest snapshot and where it lives (from the meta columns). */
async function snapshotLocations(state: TableState): Promise<Map<string, Location>> {
  if (!state.config.populateMetaFields) {
    throw unsupported('validate: the record index of a table without meta fields (hoodie.populate.meta.fields=false) cannot be checked', { field: 'hoodie.populate.meta.fields', value: 'false' });
  }
  const read = await resolveQuery(state, { columns: ['_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name'] });
  const out = new Map<string, Location>();
  for await (const row of executeRead(state, read)) {
    out.set(String(row._hoodie_record_key), { partitionPath: String(row._hoodie_partition_path ?? ''), fileId: fileIdOf(String(row._hoodie_file_name ?? '')) });
  }
  return out;
}

/** `record-index`: one problem per key missing from the index, pointing elsewhere, or unknown to the data. */
export async function checkRecordIndex(state: TableState, records: MetadataRecords, report: ValidationReport): Promise<void> {
  const indexed = new Map<string, Location>();
  for (const { slice, records: rs } of await records.of(METADATA_PARTITION.RECORD_INDEX)) {
    for (const r of rs) {
      if (!r.recordIndexMetadata) continue;
      indexed.set(r.key, { partitionPath: r.recordIndexMetadata.partitionName ?? '', fileId: recordIndexFileId(r.recordIndexMetadata, slice.logFiles.at(-1)?.path ?? slice.baseFile?.path) });
    }
  }
  const data = await snapshotLocations(state);
  for (const [key, held] of data) {
    const entry = indexed.get(key);
    if (entry === undefined) report.add('record-index', key, `the record index has no entry for this key, which ${where(held)} holds`);
    else if (entry.partitionPath !== held.partitionPath || entry.fileId !== held.fileId) report.add('record-index', key, `the record index points at ${where(entry)}, but ${where(held)} holds the key`);
  }
  for (const [key, entry] of indexed) {
    if (!data.has(key)) report.add('record-index', key, `the record index points at ${where(entry)}, but the latest snapshot has no such key`);
  }
}
