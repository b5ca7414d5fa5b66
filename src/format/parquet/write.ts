// Writes Hudi base files: rows or column batches shredded into leaf columns (shred.ts), encoded by lakelet's own
// parquet encoder (encode/), and the footer keys Hudi writes (Avro schema, bloom filter, key range).
import type { KeyValue, SchemaElement } from 'hyparquet';
import { LakeletError } from '../../errors.js';
import { avroSchemaJson, type AvroRecordSchema } from '../avro/schema.js';
import { createBloomFilter, type HudiBloomFilter } from '../bloom-filter.js';
import { requestThreadKernels } from '../../kernels/thread-kernels-load.js';
import { defaultPageCompressors } from '../compress/default-compressors.js';
import { AVRO_SCHEMA_FOOTER_KEY, BLOOM_FILTER_FOOTER_KEY, BLOOM_FILTER_TYPE_FOOTER_KEY, MAX_RECORD_KEY_FOOTER_KEY, MIN_RECORD_KEY_FOOTER_KEY } from './hudi-footer.js';
import { parquetSchemaFor, type ParquetFileSchema } from './schema.js';
import { Shredder } from './shred.js';
import type { LeafColumn } from './leaf-column.js';
import type { ColumnBatch } from './column-batch.js';
import { physicalSignature, type PhysicalLeaf } from './physical-vector.js';
import { ByteSink } from './encode/byte-sink.js';
import { writeColumnChunk, type ChunkLeaf, type EncodedChunk } from './encode/column-chunk.js';
import { codecId, writeFileMetaData, writeOffsetIndexes, type EncodedRowGroup } from './encode/footer.js';

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
export const BASE_FILE_CREATED_BY = 'lakelet version 0.1.0 (build lakelet)';

const RECORD_KEY_FIELD = '_hoodie_record_key';
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
  /** Record keys not yet in the bloom filter: added in one batch per row group (WASM when loaded). */
  private readonly bloomKeys: string[] = [];
  private readonly out = new ByteSink(1 << 16);
  private readonly rowGroups: EncodedRowGroup[] = [];
  private readonly chunkLeaves: ChunkLeaf[];
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
    this.compressors = { ...defaultPageCompressors(), ...options.compressors } as Record<string, PageCompressor>;
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
    if (this.keyed && options.bloomFilter !== false) {
      this.bloom = createBloomFilter(options.bloomFilter ?? {});
      requestThreadKernels(); // for the batch adds per row group; JS adds the same bits until it has loaded
    }
    this.parquet = parquetSchemaFor(schema);
    this.shredder = new Shredder(this.parquet);
    this.chunkLeaves = this.parquet.leaves.map((l) => ({ element: l.schemaPath[l.schemaPath.length - 1] as ChunkLeaf['element'], path: l.schemaPath.slice(1).map((e) => e.name) }));
    this.out.u32(0x31524150); // PAR1
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
    return this.out.pos;
  }

  /**
   * How the top-level field `name` takes physical values (physical-vector.ts): the signature of its leaf and the
   * converter of its fresh values, for a flat byte-array leaf that has a signature; else undefined.
   */
  physicalLeaf(name: string): PhysicalLeaf | undefined {
    const column = this.parquet.columns.find((c) => c.name === name);
    if (column?.kind !== 'leaf' || column.repetition === 'REPEATED') return undefined;
    const { leaf, label } = column;
    const signature = physicalSignature(leaf.schemaPath[leaf.schemaPath.length - 1] as SchemaElement);
    if (signature === undefined) return undefined;
    return { signature, convert: (v) => (v === null || v === undefined ? null : leaf.convert(v, label)) };
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
        if (this.bloom !== undefined) this.bloomKeys.push(key);
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
        if (this.bloom !== undefined) this.bloomKeys.push(key);
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
    writeOffsetIndexes(this.out, this.rowGroups);
    writeFileMetaData(
      this.out,
      { schema: this.parquet.elements, numRows: this.rows, keyValues: this.footerKeys(), createdBy: BASE_FILE_CREATED_BY },
      this.rowGroups,
      codecId(this.codec),
    );
    this.out.u32(0x31524150); // PAR1
    return this.out.buf.slice(0, this.out.pos);
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

  /** Encode the first `rows` buffered rows as one row group. */
  private flushRowGroup(rows: number): void {
    // the keys so far into the bloom filter, in order: one batch per row group keeps at most a row group's keys held
    this.bloom?.addAll(this.bloomKeys);
    this.bloomKeys.length = 0;
    if (rows === 0) return;
    const start = this.out.pos;
    const compress = this.codec === 'UNCOMPRESSED' ? undefined : this.compressors[this.codec];
    const columns: EncodedChunk[] = [];
    let uncompressed = 0;
    for (const leaf of this.parquet.leaves) {
      const col = this.shredder.leaves[leaf.index] as LeafColumn;
      const { levels, count } = col.extent(rows);
      const chunk = writeColumnChunk(this.out, this.chunkLeaves[leaf.index] as ChunkLeaf, col, levels, count, compress);
      col.shift(levels, count);
      uncompressed += chunk.totalUncompressed;
      columns.push(chunk);
    }
    this.rowGroups.push({ columns, numRows: rows, fileOffset: start, totalByteSize: uncompressed, totalCompressedSize: this.out.pos - start });
    this.buffered -= rows;
  }
}

/** Write rows to a complete base file in one call (see {@link BaseFileWriter}). */
export function writeBaseFile(rows: readonly Record<string, unknown>[], options: BaseFileWriterOptions): Uint8Array {
  const writer = new BaseFileWriter(options);
  writer.write(rows);
  return writer.finish();
}
