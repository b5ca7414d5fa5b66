// REFERENCE IMPLEMENTATION for tests: the copy-on-write merge as it was before the columnar merge (issue 13), a
// copy of src/merge/cow-merge.ts' row-object mergeFileGroupRows. Old base file rows are read as row objects,
// merged, and written with BaseFileWriter.write. The columnar merge must give byte-identical files; do not
// "improve" this file, it is the baseline the differential test compares against.
import { BaseFileWriter, type BaseFileWriterOptions } from '../../src/format/parquet/write.js';
import { readParquetFooter, readParquetRows, type AsyncBuffer } from '../../src/format/parquet/read.js';
import type { HoodieRecord } from '../../src/merge/hoodie-record.js';
import { newerWins, usesEventTime } from '../../src/merge/ordering.js';
import type { MergedFileGroup, MergeFileGroupSpec } from '../../src/merge/cow-merge.js';

/**
 * REFERENCE ONLY (the row-object merge before the columnar one, kept unchanged for differential tests).
 * Merge the old base file (`file`, read row group by row group; undefined for a new group) with the updates
 * and inserts and encode the new base file. Untouched rows keep their commit time and seqno; updated and
 * inserted rows get the new instant's; every row gets the new file name.
 */
export async function referenceRowMerge(spec: MergeFileGroupSpec, file: AsyncBuffer | undefined, compressors?: BaseFileWriterOptions['compressors']): Promise<MergedFileGroup> {
  const name = spec.fileName;
  const writer = new BaseFileWriter({ ...spec.writer, ...(compressors ? { compressors } : {}), schema: spec.schema });
  const eventTime = usesEventTime(spec.mergeMode, spec);
  // Event-time ordering: the incoming record replaces the stored one unless its ordering value is smaller.
  const incomingWins = (stored: Record<string, unknown>, incoming: HoodieRecord): boolean =>
    !eventTime || newerWins(spec.orderingKinds, incoming.ordering, spec.orderingFields.map((f) => stored[f]));
  const keys: string[] = [];
  let seq = 0;
  let inserted = 0;
  let updated = 0;
  let deleted = 0;
  const fresh = (r: HoodieRecord): Record<string, unknown> => ({
    _hoodie_commit_time: spec.instantTime,
    _hoodie_commit_seqno: `${spec.instantTime}_${spec.taskId}_${seq++}`,
    _hoodie_record_key: r.recordKey,
    _hoodie_partition_path: spec.partitionPath,
    _hoodie_file_name: name,
    ...r.data,
  });

  if (file) {
    const path = spec.basePath ?? name;
    const footer = await readParquetFooter(file, path);
    let start = 0;
    for (const count of footer.rowGroupRows) {
      const rows = await readParquetRows(file, footer, path, { rowStart: start, rowEnd: start + count });
      start += count;
      const out: Record<string, unknown>[] = [];
      for (const row of rows) {
        const key = String(row._hoodie_record_key);
        const incoming = spec.updates.get(key);
        // A delete without an ordering value (delete(), a partition move) applies by arrival.
        if (incoming?.isDelete && (incoming.ordering.length === 0 || incomingWins(row, incoming))) {
          deleted++;
          continue;
        }
        if (incoming && !incoming.isDelete && incomingWins(row, incoming)) {
          out.push(fresh(incoming));
          updated++;
        } else {
          row._hoodie_file_name = name;
          out.push(row);
        }
        if (spec.collectKeys) keys.push(key);
      }
      writer.write(out);
    }
  }
  if (spec.mergedRows) {
    for (const row of spec.mergedRows) {
      row._hoodie_file_name = name;
      if (spec.collectKeys) keys.push(String(row._hoodie_record_key));
    }
    writer.write(spec.mergedRows);
  }
  const inserts: Record<string, unknown>[] = [];
  for (const r of spec.inserts) {
    inserts.push(fresh(r));
    if (spec.collectKeys) keys.push(r.recordKey);
    inserted++;
  }
  writer.write(inserts);
  const bytes = writer.finish();
  return { bytes, rowCount: writer.rowCount, inserted, updated, deleted, keys };
}
