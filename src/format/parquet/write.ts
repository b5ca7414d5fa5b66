// Writes Hudi base files: parquet encoded by hyparquet-writer's column encoder, rows shredded here (Dremel
// levels for parquet-avro's schema shapes), and the footer keys Hudi writes (Avro schema, bloom filter, key range).
import type { ColumnChunk, KeyValue, RowGroup } from 'hyparquet';
import { gzipSync } from 'fflate';
import { ByteWriter } from 'hyparquet-writer/src/bytewriter.js';
import { writeColumn } from 'hyparquet-writer/src/column.js';
import { writeIndexes } from 'hyparquet-writer/src/indexes.js';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { snappyCompress } from 'hyparquet-writer/src/snappy.js';
import { LakeletError } from '../../errors.js';
import { avroSchemaJson, type AvroRecordSchema } from '../avro/schema.js';
import { createBloomFilter, type HudiBloomFilter } from '../bloom-filter.js';
import { AVRO_SCHEMA_FOOTER_KEY, BLOOM_FILTER_FOOTER_KEY, BLOOM_FILTER_TYPE_FOOTER_KEY, MAX_RECORD_KEY_FOOTER_KEY, MIN_RECORD_KEY_FOOTER_KEY } from './hudi-footer.js';
import { parquetSchemaFor, type ParquetFileSchema, type ParquetLeaf } from './schema.js';
import { Shredder } from './shred.js';
import type { LeafColumn } from './leaf-column.js';
import type { ColumnBatch } from './column-batch.js';
import { bigIntFromTwosComplement } from '../../schema/values.js';

/** Parquet compression codecs a base file can be written with. */
export type BaseFileCodec = 'GZIP' | 'SNAPPY' | 'ZSTD' | 'UNCOMPRESSED';

/** A page compressor: raw bytes in, codec-framed bytes out. */
export type PageCompressor = (input: Uint8Array) => Uint8Array;

/** Options of {@link BaseFileWriter}. */
export interface BaseFileWriterOptions {
  /** The full file schema (meta fields first when `populateMetaFields`); written as `parquet.avro.schema`. */
  schema: AvroRecordSchema;
  /** Page compression (default `GZIP`, Hudi's `hoodie.parquet.compression.codec`). ZSTD needs `compressors.ZSTD`. */
  codec?: BaseFileCodec;
  /** Compressors overriding or adding to the built-in GZIP (fflate) and SNAPPY ones. */
  compressors?: Partial<Record<Exclude<BaseFileCodec, 'UNCOMPRESSED'>, PageCompressor>>;
  /** Rows per row group (default 100 000). */
  rowGroupRows?: number;
  /**
   * Hudi's record-key bloom filter (default DYNAMIC_V0, 60000 entries, fpp 1e-9, bound 100000, when
   * `populateMetaFields`); `false` writes none.
   */
  bloomFilter?: { numEntries?: number; fpp?: number; maxEntries?: number; type?: 'DYNAMIC_V0' | 'SIMPLE' } | false;
  /**
   * Rows carry the `_hoodie_*` meta columns (default true): every row needs a non-empty `_hoodie_record_key`,
   * which feeds the bloom filter and the `hoodie_min_record_key` / `hoodie_max_record_key` footer keys.
   */
  populateMetaFields?: boolean;
}

/** `created_by` in the footer, in parquet-mr's `<app> version <v> (build <b>)` form. */
export const BASE_FILE_CREATED_BY = 'lakelet version 0.1.0 (build hyparquet-writer 0.17.0)';

const RECORD_KEY_FIELD = '_hoodie_record_key';
const PAGE_SIZE = 1 << 20;
const STATS_TRUNCATE_LENGTH = 64;
// Level 1: about twice as fast as the default level 6 for files within ~2% of the size (any level reads the same).
const gzip: PageCompressor = (b) => gzipSync(b, { mtime: 0, level: 1 });

type ColumnEncoder = Parameters<typeof writeColumn>[0]['column'];
type ColumnResult = ReturnType<typeof writeColumn>;

/**
 * Streams rows into a Hudi base file. Rows are shredded into column buffers as they arrive and encoded one row
 * group at a time, so memory holds about one row group plus the compressed output. A row that does not fit the
 * schema throws `INVALID_ARGUMENT` naming the field; rows before it stay written and the writer stays usable.
 */
export class BaseFileWriter {
  private readonly schema: AvroRecordSchema;
  private readonly parquet: ParquetFileSchema;
  private readonly codec: BaseFileCodec;
  private readonly compressors: Record<string, PageCompressor>;
  private readonly rowGroupRows: number;
  private readonly keyed: boolean;
  private readonly bloom: HudiBloomFilter | undefined;
  private readonly writer = new ByteWriter(1 << 16);
  private readonly rowGroups: RowGroup[] = [];
  private readonly indexes: ColumnResult[] = [];
  private shredder: Shredder;
  private buffered = 0;
  private rows = 0;
  private minKey: string | undefined;
  private maxKey: string | undefined;
  private done = false;

  constructor(options: BaseFileWriterOptions) {
    const { schema } = options;
    if (schema?.type !== 'record') throw new LakeletError('INVALID_ARGUMENT', 'base file writer: schema must be a parsed Avro record schema');
    this.schema = schema;
    this.codec = options.codec ?? 'GZIP';
    this.compressors = { GZIP: gzip, SNAPPY: snappyCompress, ...options.compressors };
    if (!['GZIP', 'SNAPPY', 'ZSTD', 'UNCOMPRESSED'].includes(this.codec)) {
      throw new LakeletError('INVALID_ARGUMENT', `base file writer: unknown codec "${String(this.codec)}"`, { value: this.codec });
    }
    if (this.codec !== 'UNCOMPRESSED' && this.compressors[this.codec] === undefined) {
      throw new LakeletError('UNSUPPORTED', `base file writer: codec ${this.codec} needs a compressor in options.compressors`, { value: this.codec });
    }
    this.rowGroupRows = options.rowGroupRows ?? 100_000;
    if (!Number.isSafeInteger(this.rowGroupRows) || this.rowGroupRows < 1) {
      throw new LakeletError('INVALID_ARGUMENT', `base file writer: rowGroupRows must be a positive integer, got ${this.rowGroupRows}`, { value: this.rowGroupRows });
    }
    this.keyed = options.populateMetaFields ?? true;
    if (this.keyed && !schema.fields.some((f) => f.name === RECORD_KEY_FIELD)) {
      throw new LakeletError('INVALID_ARGUMENT', `base file writer: populateMetaFields needs a "${RECORD_KEY_FIELD}" field in the schema`, { field: RECORD_KEY_FIELD });
    }
    if (this.keyed && options.bloomFilter !== false) this.bloom = createBloomFilter(options.bloomFilter ?? {});
    this.parquet = parquetSchemaFor(schema);
    this.shredder = new Shredder(this.parquet);
    this.writer.appendUint32(0x31524150); // PAR1
  }

  /** Rows accepted so far (written and buffered). */
  get rowCount(): number {
    return this.rows;
  }

  /**
   * Bytes of encoded, compressed row groups so far (rows still buffered for the current row group are not
   * counted): the file size estimate used for rolling to a new file.
   */
  get bytesWritten(): number {
    return this.writer.offset;
  }

  /** Add rows (lakelet value model). Encodes a row group each time `rowGroupRows` rows are buffered. */
  write(rows: readonly Record<string, unknown>[]): void {
    this.checkOpen();
    for (const row of rows) {
      if (row === null || typeof row !== 'object' || Array.isArray(row)) {
        throw new LakeletError('INVALID_ARGUMENT', `base file writer: row ${this.rows} is not an object`, { value: row });
      }
      let key: string | undefined;
      if (this.keyed) {
        const k = row[RECORD_KEY_FIELD];
        if (typeof k !== 'string' || k === '') {
          throw new LakeletError('INVALID_ARGUMENT', `base file writer: row ${this.rows} has no ${RECORD_KEY_FIELD} (a non-empty string is required)`, { field: RECORD_KEY_FIELD, value: k });
        }
        key = k;
      }
      this.shredder.row(row);
      if (key !== undefined) {
        this.bloom?.add(key);
        if (this.minKey === undefined || key < this.minKey) this.minKey = key;
        if (this.maxKey === undefined || key > this.maxKey) this.maxKey = key;
      }
      this.rows++;
      this.buffered++;
      if (this.buffered >= this.rowGroupRows) this.flushRowGroup(this.buffered);
    }
  }

  /**
   * Add a batch of rows held as column vectors: the same file as {@link BaseFileWriter.write} with the same rows,
   * without row objects. A flat primitive column goes straight to its leaf (a Float64Array / BigInt64Array /
   * Int32Array vector of a double / long / int column in one copy); nested columns are shredded value by value.
   * A bad value throws `INVALID_ARGUMENT` naming the field and the batch row, and nothing of the batch is kept.
   */
  writeColumns(batch: ColumnBatch): void {
    this.checkOpen();
    const n = batch.length;
    if (!Number.isSafeInteger(n) || n < 0) {
      throw new LakeletError('INVALID_ARGUMENT', `base file writer: batch length must be a non-negative integer, got ${String(n)}`, { value: n });
    }
    for (const [name, vector] of Object.entries(batch.columns)) {
      if (vector.length < n) throw new LakeletError('INVALID_ARGUMENT', `base file writer: column "${name}" has ${vector.length} values for a batch of ${n} rows`, { field: name });
    }
    const keys = this.keyed ? batch.columns[RECORD_KEY_FIELD] : undefined;
    if (this.keyed) {
      for (let i = 0; i < n; i++) {
        const k = keys?.[i];
        if (typeof k !== 'string' || k === '') {
          throw new LakeletError('INVALID_ARGUMENT', `base file writer: batch row ${i} has no ${RECORD_KEY_FIELD} (a non-empty string is required)`, { field: RECORD_KEY_FIELD, value: k, row: i });
        }
      }
    }
    const mark = this.shredder.mark();
    try {
      for (const column of this.parquet.columns) this.shredder.vector(column, batch.columns[column.name], n);
    } catch (err) {
      this.shredder.rollback(mark);
      throw err;
    }
    if (keys !== undefined) {
      for (let i = 0; i < n; i++) {
        const key = keys[i] as string;
        this.bloom?.add(key);
        if (this.minKey === undefined || key < this.minKey) this.minKey = key;
        if (this.maxKey === undefined || key > this.maxKey) this.maxKey = key;
      }
    }
    this.rows += n;
    this.buffered += n;
    while (this.buffered >= this.rowGroupRows) this.flushRowGroup(this.rowGroupRows);
  }

  /** Encode the last row group and the footer; returns the whole file. The writer cannot be used afterwards. */
  finish(): Uint8Array {
    this.checkOpen();
    this.flushRowGroup(this.buffered);
    this.done = true;
    writeIndexes(this.writer, this.indexes);
    writeMetadata(
      this.writer,
      {
        version: 1,
        created_by: BASE_FILE_CREATED_BY,
        schema: this.parquet.elements,
        num_rows: BigInt(this.rows),
        row_groups: this.rowGroups,
        key_value_metadata: this.footerKeys(),
        metadata_length: 0,
      },
      STATS_TRUNCATE_LENGTH,
    );
    this.writer.appendUint32(0x31524150); // PAR1
    return new Uint8Array(this.writer.getBuffer());
  }

  private checkOpen(): void {
    if (this.done) throw new LakeletError('INVALID_ARGUMENT', 'base file writer: finish() was already called');
  }

  /** Footer key/values in the order Hudi's parquet files list them. */
  private footerKeys(): KeyValue[] {
    const kv: KeyValue[] = [
      { key: AVRO_SCHEMA_FOOTER_KEY, value: avroSchemaJson(this.schema) },
      { key: 'writer.model.name', value: 'avro' },
    ];
    if (this.bloom !== undefined) {
      if (this.bloom.type.includes('DYNAMIC')) kv.push({ key: BLOOM_FILTER_TYPE_FOOTER_KEY, value: this.bloom.type });
      kv.push({ key: BLOOM_FILTER_FOOTER_KEY, value: this.bloom.serialize() });
    }
    if (this.minKey !== undefined && this.maxKey !== undefined) {
      kv.push({ key: MIN_RECORD_KEY_FOOTER_KEY, value: this.minKey }, { key: MAX_RECORD_KEY_FOOTER_KEY, value: this.maxKey });
    }
    return kv;
  }

  /** Encode the buffered rows as one row group. */
  private flushRowGroup(rows: number): void {
    if (rows === 0) return;
    const start = this.writer.offset;
    const columns: ColumnChunk[] = [];
    let uncompressed = 0n;
    for (const leaf of this.parquet.leaves) {
      const lc = this.shredder.leaves[leaf.index] as LeafColumn;
      const ext = lc.extent(rows);
      const b = legacyPageData(lc, ext.levels);
      lc.shift(ext.levels, ext.count);
      const column: ColumnEncoder = {
        columnName: leaf.columnName,
        element: leaf.encodeElement,
        schemaPath: leaf.schemaPath,
        codec: this.codec,
        compressors: this.compressors,
        stats: true,
        statisticsTruncateLength: STATS_TRUNCATE_LENGTH,
        pageSize: PAGE_SIZE,
        columnIndex: false,
        offsetIndex: true,
      };
      let result: ColumnResult;
      try {
        result = writeColumn({
          writer: this.writer,
          column,
          pageData: {
            values: b.values,
            definitionLevels: leaf.maxDef > 0 ? b.defs : [],
            repetitionLevels: leaf.maxRep > 0 ? b.reps : [],
            maxDefinitionLevel: leaf.maxDef,
          },
        });
      } catch (err) {
        throw new LakeletError('INVALID_ARGUMENT', `base file writer: cannot encode column "${leaf.columnName}" (${(err as Error).message})`, { field: leaf.columnName }, { cause: err });
      }
      if (leaf.decimal !== undefined) fixDecimalStats(result.chunk, leaf, b.values);
      uncompressed += result.chunk.meta_data?.total_uncompressed_size ?? 0n;
      columns.push(result.chunk);
      this.indexes.push(result);
    }
    this.rowGroups.push({
      columns,
      total_byte_size: uncompressed,
      num_rows: BigInt(rows),
      file_offset: BigInt(start),
      total_compressed_size: BigInt(this.writer.offset - start),
    });
    this.buffered -= rows;
  }
}

/** Write rows to a complete base file in one call (see {@link BaseFileWriter}). */
export function writeBaseFile(rows: readonly Record<string, unknown>[], options: BaseFileWriterOptions): Uint8Array {
  const writer = new BaseFileWriter(options);
  writer.write(rows);
  return writer.finish();
}

/**
 * Decimal statistics compare as signed integers, not as bytes. hyparquet-writer takes the footer min/max of a
 * DECIMAL column as unscaled bigints; a zero bound of a BYTE_ARRAY decimal would serialize as zero bytes, so
 * such chunks keep only the null count.
 */
function fixDecimalStats(chunk: ColumnChunk, leaf: ParquetLeaf, values: unknown[]): void {
  const stats = chunk.meta_data?.statistics;
  if (!stats) return;
  let min: bigint | undefined;
  let max: bigint | undefined;
  for (const v of values) {
    if (!(v instanceof Uint8Array)) continue;
    const n = bigIntFromTwosComplement(v);
    if (min === undefined || n < min) min = n;
    if (max === undefined || n > max) max = n;
  }
  delete stats.min_value;
  delete stats.max_value;
  delete stats.is_min_value_exact;
  delete stats.is_max_value_exact;
  if (min === undefined || max === undefined) return;
  if (leaf.decimal === 'bytes' && (min === 0n || max === 0n)) return;
  stats.min_value = min;
  stats.max_value = max;
}

function legacyPageData(lc: LeafColumn, levels: number): { values: unknown[]; defs: number[]; reps: number[] } {
  const values: unknown[] = [];
  let next = 0;
  for (let i = 0; i < levels; i++) {
    if (lc.maxDef > 0 && lc.defs[i] !== lc.maxDef) { values.push(null); continue; }
    const n = lc.numbers;
    const v = n === undefined ? lc.binaries[next] : n[next];
    values.push(lc.type === 'BOOLEAN' ? v === 1 : v);
    next++;
  }
  return { values, defs: [...lc.defs.subarray(0, levels)], reps: [...lc.reps.subarray(0, levels)] };
}
