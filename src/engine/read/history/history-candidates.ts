// Which file groups a record's history can be in, found the bloom index's way (Hudi's HoodieBloomIndex key-range
// then bloom-filter check on each retained base file's footer) so a history never reads unrelated groups' data;
// and the record key a caller names, as a string or by its key fields (the table's key generator builds it).
import { LakeletError } from '../../../errors.js';
import type { FileGroup } from '../../../file-group/file-slice.js';
import type { FileSystemView } from '../../../file-group/file-system-view.js';
import { readHudiFooter } from '../../../format/parquet/hudi-footer.js';
import { readParquetFooter } from '../../../format/parquet/read.js';
import { bloomCandidates } from '../../../index/bloom-index.js';
import { keyGeneratorOptionsFromConfig, loadKeyGenerator } from '../../../keygen/key-generator.js';
import { withoutMetaFields } from '../../../schema/table-schema.js';
import { storageBuffer } from '../../../storage/async-buffer.js';
import type { Storage } from '../../../storage/storage.js';
import type { TableState } from '../../table-state.js';

/** A record key: the `_hoodie_record_key` string, or the record-key field values (a composite key's parts). */
export type RecordKeyInput = string | Readonly<Record<string, unknown>>;

/**
 * The `_hoodie_record_key` of `key`: a string is taken as it is; an object of the record-key fields' values goes
 * through the table's key generator (`f1:v1,f2:v2` for a complex key). `INVALID_ARGUMENT` for an empty key or
 * missing key fields.
 */
export async function recordKeyOf(state: TableState, key: RecordKeyInput): Promise<string> {
  if (typeof key === 'string') {
    if (key === '') throw new LakeletError('INVALID_ARGUMENT', 'history: the record key is empty', { field: 'key', value: key });
    return key;
  }
  if (key === null || typeof key !== 'object') throw new LakeletError('INVALID_ARGUMENT', `history: a record key is a string or an object of key fields, got ${String(key)}`, { field: 'key', value: key });
  const schema = withoutMetaFields(await state.schemaAsOf(undefined));
  const fields = state.config.recordKeyFields;
  const missing = fields.filter((f) => !(f in key));
  if (missing.length > 0) throw new LakeletError('INVALID_ARGUMENT', `history: the key names no value for record-key field(s) ${missing.join(', ')}`, { field: 'key', value: missing });
  // Only the record key is computed: the partition fields need not be given.
  return (await loadKeyGenerator(keyGeneratorOptionsFromConfig(state.config, schema))).recordKey(key);
}

/** Options of {@link candidateGroups}. */
export interface CandidateOptions {
  /** Only groups of this partition (a non-global index's record is its partition and key). */
  partition?: string | undefined;
}

/** Might a base file hold `key`: its footer's key range and bloom filter (a footer without them: yes). */
async function baseFileMayHold(storage: Storage, path: string, size: number, key: string): Promise<boolean> {
  const footer = await readParquetFooter(await storageBuffer(storage, path, size || undefined), path);
  return bloomCandidates(readHudiFooter(footer.keyValues, { path }), [key]).length > 0;
}

/**
 * The file groups (every retained slice) that may hold `key` at some point: a group one of whose base files'
 * footers admits the key, or that has a slice without a base file (log-only: no footer to rule it out). Logs on
 * top of a base file hold updates and deletes of their group's keys only (inserts go to base files, as with
 * Hudi's bloom and simple indexes), so they need no check of their own. Replaced groups count (clustering moved
 * the record on, but its older versions are there).
 */
export async function candidateGroups(storage: Storage, view: FileSystemView, key: string, options: CandidateOptions = {}): Promise<FileGroup[]> {
  const out: FileGroup[] = [];
  for (const g of view.fileGroups()) {
    if (options.partition !== undefined && g.partitionPath !== options.partition) continue;
    let candidate = false;
    for (const s of g.slices) {
      if (!s.baseFile) candidate = true;
      else candidate = await baseFileMayHold(storage, s.baseFile.path, s.baseFile.size, key);
      if (candidate) break;
    }
    if (candidate) out.push(g);
  }
  return out.sort((a, b) => (a.partitionPath < b.partitionPath ? -1 : a.partitionPath > b.partitionPath ? 1 : a.fileId < b.fileId ? -1 : a.fileId > b.fileId ? 1 : 0));
}
