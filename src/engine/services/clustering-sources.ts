// The input of one clustering group as numbered chunks of column vectors, each read on demand and dropped after:
// a base file's row groups read columnar (format/parquet/read-columns.ts; values of an older schema promoted to
// the table's), or a slice with committed log blocks merged whole (engine/read/file-slice-reader.ts) as one
// chunk. Only the footers stay in memory between reads, never a file's bytes, so executing a group holds one
// chunk at a time and any chunk can be read again (the same rows in the same order every time).
import type { AvroRecordSchema } from '../../format/avro/schema.js';
import type { ColumnBatch } from '../../format/parquet/column-batch.js';
import { readParquetFooter, type ParquetFooter } from '../../format/parquet/read.js';
import { readParquetColumns } from '../../format/parquet/read-columns.js';
import type { FileSlice } from '../../file-group/file-slice.js';
import { rowsBatch } from '../../merge/take.js';
import { footerSchema, schemaPromoter, type SchemaPromoter } from '../../schema/promotion.js';
import { storageBuffer } from '../../storage/async-buffer.js';
import { readFileSlice, type SliceReadContext } from '../read/file-slice-reader.js';

/** One chunk of a group's input: a base-file row group, or a merged slice. */
interface Chunk {
  slice: number;
  /** Row range of the base file (row-group chunks), undefined for a merged slice. */
  rows?: { start: number; end: number };
  length: number;
}

/** A base-only slice's footer, and the promoter of its schema to the table's. */
interface BaseInput {
  footer: ParquetFooter;
  columns: string[];
  promoter: SchemaPromoter | undefined;
}

/** The chunks of a group's slices, in slice order (each slice's rows in file order). */
export interface GroupSource {
  /** Chunk lengths, in order; a group's rows are numbered chunk by chunk. */
  readonly lengths: readonly number[];
  /** Total rows of the group. */
  readonly rows: number;
  /** Reads chunk `i` (all table columns, or only `columns`). */
  read(i: number, columns?: readonly string[]): Promise<ColumnBatch>;
}

/** Observes the chunks a group source reads (tests count the rows held at once with it). */
export type ChunkObserver = (event: { chunk: number; rows: number; columns: number }) => void;

const mergesLogs = (ctx: SliceReadContext, slice: FileSlice): boolean => slice.logFiles.length > 0 && ctx.config.populateMetaFields;

/**
 * Open the slices of one group: footers of base-only slices are read (their row groups become chunks); a slice
 * with committed logs is merged once here to count its rows, and again on each read of its chunk.
 */
export async function openGroupSource(ctx: SliceReadContext, slices: readonly FileSlice[], schema: AvroRecordSchema, observe?: ChunkObserver): Promise<GroupSource> {
  const names = schema.fields.map((f) => f.name);
  const chunks: Chunk[] = [];
  const bases = new Map<number, BaseInput>();
  const merged = (i: number) => readFileSlice(ctx, slices[i]!, { columns: undefined, filters: [], baseOnly: false });
  for (const [i, slice] of slices.entries()) {
    if (mergesLogs(ctx, slice)) {
      chunks.push({ slice: i, length: (await merged(i)).length });
      continue;
    }
    const base = slice.baseFile;
    if (!base) continue;
    const footer = await readParquetFooter(await storageBuffer(ctx.storage, base.path, base.size || undefined), base.path);
    const present = new Set(footer.columns);
    bases.set(i, { footer, columns: names.filter((n) => present.has(n)), promoter: schemaPromoter(schema, footerSchema(footer.keyValues)) });
    let start = 0;
    for (const n of footer.rowGroupRows) {
      if (n > 0) chunks.push({ slice: i, rows: { start, end: start + n }, length: n });
      start += n;
    }
  }
  const lengths = chunks.map((c) => c.length);
  return {
    lengths,
    rows: lengths.reduce((a, b) => a + b, 0),
    async read(i, columns) {
      const chunk = chunks[i]!;
      const wanted = columns ?? names;
      let batch: ColumnBatch;
      if (chunk.rows === undefined) {
        batch = rowsBatch(await merged(chunk.slice), wanted);
      } else {
        const base = slices[chunk.slice]!.baseFile!;
        const input = bases.get(chunk.slice)!;
        const file = await storageBuffer(ctx.storage, base.path, base.size || undefined);
        const want = new Set(wanted);
        const present = input.columns.filter((c) => want.has(c));
        // None of the wanted columns is in this file (added to the schema later): every value is its default.
        const read = present.length === 0 ? { length: chunk.length, columns: {} } : await readParquetColumns(file, input.footer, base.path, { columns: present, rowStart: chunk.rows.start, rowEnd: chunk.rows.end });
        batch = input.promoter ? input.promoter.batch(read) : read;
      }
      observe?.({ chunk: i, rows: batch.length, columns: Object.keys(batch.columns).length });
      return batch;
    },
  };
}
