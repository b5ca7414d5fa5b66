// The merge of one file slice, pure (bytes in, rows out): the base file's rows, then the log blocks that count
// (file-group/log-scanner.ts) merged on top by the record merger — full records, deletes, and the partial records
// of IS_PARTIAL blocks column by column (docs/partial-updates.md); a block header lakelet does not understand is
// UNSUPPORTED. Queries and compaction share it; compaction also encodes the result as the new base file, inline
// or inside a worker (both give identical bytes).
import type { BaseFileWriterOptions } from '../format/parquet/write.js';
import type { AvroRecordSchema, AvroSchema } from '../format/avro/schema.js';
import { footerSchema, schemaPromoter } from '../schema/promotion.js';
import { scanLogBlocks, type LogBlock } from '../format/log/block.js';
import { dataBlockSchema, decodeAvroDataBlock, parquetDataBlockBytes } from '../format/log/content.js';
import { checkKnownHeaderKeys, isPartialBlock } from '../format/log/header.js';
import { bufferFromBytes, readParquetFooter, readParquetRows, type AsyncBuffer } from '../format/parquet/read.js';
import { scanSliceLogs, type LogScanWarning, type LogVisibility, type SliceLogBlock } from '../file-group/log-scanner.js';
import { corruptFile } from '../errors.js';
import { isCommittedWriteTime, type Timeline } from '../timeline/timeline.js';
import { mergeFileGroupRows, type MergedFileGroup, type MergeFileGroupSpec } from './cow-merge.js';
import { checkPartialMergeable } from './partial-merge.js';
import { RecordMerger, type RecordMergerOptions } from './record-merger.js';

/** One log file of a slice, as read (in log order). */
export interface SliceLogFile {
  /** Path of the log file (relative to the table root), for block provenance and errors. */
  path: string;
  bytes: Uint8Array;
}

/**
 * Which writes count, as plain data (it crosses to workers): the requested times of the timeline's completed
 * writes, the requested time of its first instant (older blocks belong to archived commits), and T.
 */
export interface WireLogVisibility {
  completedWrites: readonly string[];
  /** The first instant of the active timeline (any action); undefined for an empty timeline. */
  timelineStart: string | undefined;
  /** Snapshot instant T; undefined = latest. */
  asOf: string | undefined;
}

/** {@link WireLogVisibility} of a timeline as of T (computed on the calling thread). */
export function wireLogVisibility(timeline: Timeline, asOf: string | undefined): WireLogVisibility {
  return { completedWrites: timeline.completedWrites().map((i) => i.requestedTime), timelineStart: timeline.instants[0]?.requestedTime, asOf };
}

/** The timeline's `isCommittedWrite` from {@link WireLogVisibility}: the same rule, `isCommittedWriteTime`. */
export function logVisibility(wire: WireLogVisibility): LogVisibility {
  const completed = new Set(wire.completedWrites);
  return {
    isCommittedWrite: (t) => isCommittedWriteTime(t, (x) => completed.has(x), wire.timelineStart),
    asOf: wire.asOf,
  };
}

/** What merging a slice needs besides its base rows. */
export interface SliceMergeInput {
  logs: readonly SliceLogFile[];
  visibility: LogVisibility;
  merge: RecordMergerOptions;
  /** Columns needed from parquet data blocks (undefined = all). */
  columns: readonly string[] | undefined;
  /** The table schema: records of blocks written under an older schema are promoted to it (undefined = as written). */
  schema?: AvroRecordSchema | undefined;
}

/** A merged slice: the surviving rows (base order first, then new keys in arrival order) and skipped corrupt blocks. */
export interface MergedSlice {
  rows: Record<string, unknown>[];
  warnings: LogScanWarning[];
}

/**
 * Merge a slice: `baseBatches` (the base file's rows, batch by batch; empty without a base file), then the
 * log blocks that count, in log order.
 */
export async function mergeSlice(baseBatches: AsyncIterable<Record<string, unknown>[]> | Iterable<Record<string, unknown>[]>, input: SliceMergeInput): Promise<MergedSlice> {
  const merger = new RecordMerger(input.merge);
  for await (const batch of baseBatches) merger.addBase(batch);
  const { blocks, warnings } = scanCheckedLogs(input.logs, input.visibility);
  const columns = input.columns ? [...input.columns] : undefined;
  for (const { block, path } of blocks) {
    if (block.type === 'DELETE') {
      const { decodeDeleteBlock } = await import('../format/log/delete-block.js'); // only slices with deletes load it
      merger.addDeletes(
        decodeDeleteBlock(block, path)
          .filter((d) => d.recordKey !== null)
          .map((d) => ({ recordKey: d.recordKey as string, partitionPath: d.partitionPath, orderingVal: d.orderingVal })),
      );
      continue;
    }
    if (block.type !== 'AVRO_DATA' && block.type !== 'PARQUET_DATA') continue;
    const partial = isPartialBlock(block, path) ? partialFields(block, path, input.merge) : undefined;
    let rows: Record<string, unknown>[];
    let writerSchema: AvroSchema | undefined;
    if (block.type === 'AVRO_DATA') {
      rows = decodeAvroDataBlock(block, path).records;
      writerSchema = dataBlockSchema(block, path);
    } else {
      const file = bufferFromBytes(parquetDataBlockBytes(block, path));
      const footer = await readParquetFooter(file, `${path}@${block.contentOffset}`);
      rows = await readParquetRows(file, footer, path, { columns });
      writerSchema = block.header.SCHEMA === undefined ? footerSchema(footer.keyValues) : dataBlockSchema(block, path);
    }
    // Records of an older schema read in the table's types; a partial block's absent columns stay absent.
    const promoter = input.schema && schemaPromoter(input.schema, writerSchema, partial === undefined);
    if (promoter) for (const row of rows) promoter.row(row);
    if (partial) merger.addPartialRecords(rows, partial);
    else merger.addRecords(rows);
  }
  return { rows: [...merger.rows()], warnings };
}

/**
 * The slice's blocks that count (file-group/log-scanner.ts), after refusing any block of the slice — counted or
 * not — whose header holds a key lakelet does not know or an IS_PARTIAL that is not a boolean (what such a block
 * means, even for whether it counts, is unknown). The check scans the logs' framing once more (headers only).
 */
function scanCheckedLogs(logs: readonly SliceLogFile[], visibility: LogVisibility): { blocks: SliceLogBlock[]; warnings: LogScanWarning[] } {
  for (const log of logs) {
    for (const block of scanLogBlocks(log.bytes, log.path).blocks) {
      checkKnownHeaderKeys(block, log.path);
      isPartialBlock(block, log.path);
    }
  }
  return scanSliceLogs(logs, visibility);
}

/** The columns a partial block's records carry (its SCHEMA header), checked mergeable. */
function partialFields(block: LogBlock, path: string, merge: RecordMergerOptions): ReadonlySet<string> {
  const schema: AvroSchema = dataBlockSchema(block, path);
  if (schema.type !== 'record') throw corruptFile(`log block: the SCHEMA header of a partial ${block.type} block is not a record schema`, path, block.offset);
  const fields = new Set(schema.fields.map((f) => f.name));
  checkPartialMergeable(merge, fields, { path, offset: block.offset });
  return fields;
}

/**
 * A parquet file's rows, one batch per non-empty row group, projected to `columns` (undefined = all), promoted to
 * `schema` when given (the file may be written under an older one).
 */
export async function* parquetBatches(file: AsyncBuffer, path: string, columns: readonly string[] | undefined, schema?: AvroRecordSchema): AsyncGenerator<Record<string, unknown>[]> {
  const footer = await readParquetFooter(file, path);
  const cols = columns ? [...columns] : undefined;
  const promoter = schema && schemaPromoter(schema, footerSchema(footer.keyValues));
  let start = 0;
  for (const n of footer.rowGroupRows) {
    const rowStart = start;
    start += n;
    if (n === 0) continue;
    const rows = await readParquetRows(file, footer, path, { columns: cols, rowStart, rowEnd: start });
    if (promoter) for (const row of rows) promoter.row(row);
    yield rows;
  }
}

/** The compacted base file of a slice, and the corrupt log blocks its merge skipped. */
export type CompactedSlice = MergedFileGroup & { warnings: LogScanWarning[] };

/**
 * Compact one slice: merge the base file (`base`, undefined for a log-only slice; its path is `spec.basePath`)
 * with the logs, then encode the merged rows as they are (records keep their commit time and seqno) as the
 * new base file `spec.fileName`. `spec.updates`/`inserts` are normally empty.
 */
export async function compactSlice(spec: MergeFileGroupSpec, base: AsyncBuffer | undefined, logs: readonly SliceLogFile[], visibility: WireLogVisibility, merge: RecordMergerOptions, compressors?: BaseFileWriterOptions['compressors']): Promise<CompactedSlice> {
  const batches = base ? parquetBatches(base, spec.basePath ?? spec.fileName, undefined, spec.schema) : [];
  const merged = await mergeSlice(batches, { logs, visibility: logVisibility(visibility), merge, columns: undefined, schema: spec.schema });
  // The base file's rows are in `merged.rows`: the encode gets no base file of its own.
  const file = await mergeFileGroupRows({ ...spec, mergedRows: merged.rows }, undefined, compressors);
  return { ...file, warnings: merged.warnings };
}
