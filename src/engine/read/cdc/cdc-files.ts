// Reading Hudi's `.cdc` log files for the CDC query (HoodieCDCExtractor's AS_IS case): which file groups of a
// write have CDC files (the write stat's `cdcStats`), which must have one, and the changes a file's CDC_DATA
// blocks hold — in DATA_BEFORE_AFTER as they are, in DATA_BEFORE / OP_KEY_ONLY with the missing images taken
// from the group's records just before and just after the write (as Hudi's reader does).
import type { CdcSupplementalLoggingMode } from '../../../config/cdc-config.js';
import { LakeletError } from '../../../errors.js';
import { fileGroupKey } from '../../../file-group/file-slice.js';
import { parseBaseFileName } from '../../../file-group/file-names.js';
import type { AvroRecordSchema } from '../../../format/avro/schema.js';
import { scanLogBlocks } from '../../../format/log/block.js';
import { dataBlockSchema, decodeAvroDataBlock } from '../../../format/log/content.js';
import { baseName } from '../../../layout.js';
import type { Storage } from '../../../storage/storage.js';
import type { CommitMetadata, WriteStat } from '../../../timeline/commit-metadata.js';
import { changeImage, instantMillis, type ChangeRecord, type Row } from './cdc-infer.js';

/**
 * Where `changes()` takes a write's changes from: `auto` (default) the `.cdc` files a write stat names, inference
 * elsewhere; `files` as Hudi's CDC reader — also refusing a rewritten base file without one (`NOT_FOUND`);
 * `infer` never reads `.cdc` files (compares file slices, as for tables without CDC).
 */
export type CdcSource = 'auto' | 'files' | 'infer';

/** The `.cdc` files of a write stat (the keys of its `cdcStats`), sorted. */
export function cdcPathsOf(stat: WriteStat): string[] {
  const stats = stat.raw.cdcStats;
  if (stats === null || typeof stats !== 'object') return [];
  return Object.keys(stats instanceof Map ? Object.fromEntries(stats as Map<string, unknown>) : stats).sort();
}

/**
 * The `.cdc` files of each file group a write wrote, by {@link fileGroupKey}. With `strict` (cdcSource `files`),
 * a stat that rewrote an existing base file — neither all inserts into a new file nor a delete that emptied the
 * group — without a `.cdc` file → `NOT_FOUND` naming it (Hudi: "There should be a cdc log file").
 */
export function cdcFilesByGroup(metadata: CommitMetadata, strict: boolean): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [partition, stats] of Object.entries(metadata.partitionToWriteStats)) {
    for (const s of stats) {
      const paths = cdcPathsOf(s);
      const key = fileGroupKey(s.partitionPath ?? partition, s.fileId);
      if (paths.length > 0) out.set(key, [...(out.get(key) ?? []), ...paths]);
      else if (strict && s.path && parseBaseFileName(baseName(s.path)) && !inferable(s, metadata.operationType)) {
        throw new LakeletError('NOT_FOUND', `changes: ${s.path} rewrote file group ${s.fileId} without a .cdc log file (cdcSource 'files' needs one; use 'auto')`, { path: s.path });
      }
    }
  }
  return out;
}

/** A base file write Hudi's reader infers: all inserts (BASE_FILE_INSERT) or a delete emptying the group (BASE_FILE_DELETE). */
function inferable(s: WriteStat, operation: string | undefined): boolean {
  if (s.numUpdateWrites === 0 && s.numWrites === s.numInserts) return true;
  return (operation ?? '').toUpperCase().includes('DELETE') && s.numWrites === 0 && s.numDeletes > 0;
}

/** One CDC record as decoded, and the mode its block's schema says it was written in. */
export interface CdcFileRecords {
  mode: CdcSupplementalLoggingMode;
  records: Record<string, unknown>[];
}

/** The mode a CDC block's schema was written in: `after` → DATA_BEFORE_AFTER, `before` → DATA_BEFORE, else OP_KEY_ONLY. */
function modeOf(schema: AvroRecordSchema): CdcSupplementalLoggingMode {
  const names = new Set(schema.fields.map((f) => f.name));
  return names.has('after') ? 'DATA_BEFORE_AFTER' : names.has('before') ? 'DATA_BEFORE' : 'OP_KEY_ONLY';
}

/** Every record of the CDC_DATA blocks of `.cdc` files (other blocks are skipped), in file and block order. */
export async function readCdcFiles(storage: Storage, paths: readonly string[]): Promise<CdcFileRecords> {
  let mode: CdcSupplementalLoggingMode | undefined;
  const records: Record<string, unknown>[] = [];
  for (const path of paths) {
    const bytes = await storage.read(path);
    const scan = scanLogBlocks(bytes, path);
    if (scan.corrupt.length > 0) {
      const c = scan.corrupt[0] as { offset: number; reason: string };
      throw new LakeletError('CORRUPT_FILE', `changes: .cdc file ${path} has a corrupt block at ${c.offset} (${c.reason})`, { path, offset: c.offset });
    }
    for (const block of scan.blocks) {
      if (block.type !== 'CDC_DATA') continue;
      const schema = dataBlockSchema(block, path);
      if (schema.type !== 'record') throw new LakeletError('CORRUPT_FILE', `changes: .cdc block at ${block.offset} of ${path} has no record schema`, { path, offset: block.offset });
      mode ??= modeOf(schema as AvroRecordSchema);
      // A CDC data block is an Avro data block under another type id (HoodieCDCDataBlock extends HoodieAvroDataBlock).
      records.push(...decodeAvroDataBlock({ ...block, type: 'AVRO_DATA' }, path, schema).records);
    }
  }
  return { mode: mode ?? 'DATA_BEFORE_AFTER', records };
}

const KEY = '_hoodie_record_key';

function rowsByKey(rows: readonly Row[] | undefined): Map<string, Row> {
  const out = new Map<string, Row>();
  for (const r of rows ?? []) if (typeof r[KEY] === 'string') out.set(r[KEY], r);
  return out;
}

const OPS = new Set(['i', 'u', 'd']);

/**
 * The changes of one file group from its CDC records, in record order. DATA_BEFORE_AFTER records carry both
 * images; DATA_BEFORE takes `after` from `afterRows` by record key, OP_KEY_ONLY also `before` from
 * `beforeRows` (the group's merged records, meta columns included, just before / after the write). A record
 * with another op, or whose key has no row where one is needed → `CORRUPT_FILE` naming `path`.
 */
export function changesFromCdcRecords(cdc: CdcFileRecords, commitTime: string, beforeRows: readonly Row[] | undefined, afterRows: readonly Row[] | undefined, path: string): ChangeRecord[] {
  const ts = instantMillis(commitTime);
  const before = rowsByKey(beforeRows);
  const after = rowsByKey(afterRows);
  const image = (rows: Map<string, Row>, key: unknown, which: string): Row => {
    const r = typeof key === 'string' ? rows.get(key) : undefined;
    if (!r) throw new LakeletError('CORRUPT_FILE', `changes: .cdc record of key ${JSON.stringify(key)} in ${path} has no ${which} image in its file group`, { path, value: String(key) });
    return changeImage(r);
  };
  return cdc.records.map((rec) => {
    const op = rec.op;
    if (typeof op !== 'string' || !OPS.has(op)) throw new LakeletError('CORRUPT_FILE', `changes: .cdc record in ${path} has op ${JSON.stringify(op)} (expected i, u or d)`, { path, value: String(op) });
    const o = op as ChangeRecord['op'];
    if (cdc.mode === 'DATA_BEFORE_AFTER') {
      return { op: o, ts_ms: ts, commitTime, before: o === 'i' ? null : (rec.before as Row | null), after: o === 'd' ? null : (rec.after as Row | null) };
    }
    const b = o === 'i' ? null : cdc.mode === 'DATA_BEFORE' ? (rec.before as Row | null) : image(before, rec.record_key, 'before');
    const a = o === 'd' ? null : image(after, rec.record_key, 'after');
    return { op: o, ts_ms: ts, commitTime, before: b, after: a };
  });
}
