// Parquet base files (and PARQUET_DATA log blocks) read through hyparquet: footer metadata and Hudi's
// footer keys, row-group selection, projection, and values converted to lakelet's value model (values.ts).
import { parquetMetadataAsync, parquetRead, parquetSchema } from 'hyparquet';
import type { AsyncBuffer, FileMetaData } from 'hyparquet';
import { compressorsFor } from './decompress.js';
import { corruptFile, LakeletError } from '../../errors.js';
import { columnAssembler, type ColumnAssembler, type RawDecimalElement } from './assemble.js';
import { dateFromDays, dateFromMicros, dateFromMillis } from '../../schema/values.js';

export type { AsyncBuffer, FileMetaData } from 'hyparquet';

/** A parquet file's footer, with decimals marked for exact conversion. */
export interface ParquetFooter {
  metadata: FileMetaData;
  /** Footer key/value metadata (`parquet.avro.schema`, `hoodie_min_record_key`, …). */
  keyValues: Record<string, string>;
  /** Row count of each row group. */
  rowGroupRows: number[];
  /** Top-level column names in file order. */
  columns: string[];
}

const PARSERS = {
  timestampFromMilliseconds: (v: bigint) => dateFromMillis(v),
  timestampFromMicroseconds: (v: bigint) => dateFromMicros(v),
  timestampFromNanoseconds: (v: bigint) => dateFromMicros(v / 1000n),
  dateFromDays: (d: number) => dateFromDays(d),
};

/** {@link PARSERS} with strings left as their UTF-8 bytes (the physical read of a copy-on-write merge). */
const BYTES_PARSERS = { ...PARSERS, stringFromBytes: (bytes: Uint8Array) => bytes };

/** An AsyncBuffer over bytes already in memory. */
export function bufferFromBytes(bytes: Uint8Array): AsyncBuffer {
  return {
    byteLength: bytes.byteLength,
    slice: (start: number, end?: number) => bytes.slice(start, end ?? bytes.byteLength).buffer as ArrayBuffer,
  };
}

/** The tail a footer read fetches first (hyparquet's default): a footer that fits is read in one request. */
export const FOOTER_FETCH_BYTES = 1 << 19;

/** Read and check a parquet footer. Anything that is not a readable parquet file → `CORRUPT_FILE` naming `path`. */
export async function readParquetFooter(file: AsyncBuffer, path: string): Promise<ParquetFooter> {
  if (file.byteLength < 12) throw corruptFile(`parquet: file of ${file.byteLength} bytes is too short to be parquet`, path, 0);
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(file, { parsers: PARSERS, initialFetchSize: FOOTER_FETCH_BYTES });
  } catch (err) {
    if (err instanceof LakeletError && err.code !== 'CORRUPT_FILE') throw err;
    throw corruptFile(`parquet: cannot read footer (${(err as Error).message})`, path, file.byteLength, err);
  }
  const keyValues: Record<string, string> = {};
  for (const kv of metadata.key_value_metadata ?? []) if (kv.value !== undefined) keyValues[kv.key] = kv.value;
  let columns: string[];
  try {
    columns = parquetSchema(metadata).children.map((c) => c.element.name);
  } catch (err) {
    throw corruptFile(`parquet: invalid schema (${(err as Error).message})`, path, undefined, err);
  }
  return { metadata: withRawDecimals(metadata), keyValues, rowGroupRows: metadata.row_groups.map((g) => Number(g.num_rows)), columns };
}

/** Options of {@link readParquetRows}. */
export interface ReadParquetRowsOptions {
  /** Top-level columns to read (default all). Names absent from the file are skipped. */
  columns?: string[] | undefined;
  /** First row (inclusive) and last row (exclusive) of the file to read. */
  rowStart?: number;
  rowEnd?: number;
}

/** A planned read: the row range and the selected top-level columns with their assemblers. */
export interface LeafReadPlan {
  /** First row (inclusive) and last row (exclusive) of the file. */
  start: number;
  end: number;
  /** Projected top-level names, undefined for all columns. */
  columns: string[] | undefined;
  /** Selected top-level columns in file order. */
  selected: { name: string; element: RawDecimalElement; assembler: ColumnAssembler }[];
}

/** Plan a read of `options`' rows and columns; undefined when the range holds no rows. */
export function planLeafRead(footer: ParquetFooter, options: ReadParquetRowsOptions): LeafReadPlan | undefined {
  const columns = options.columns?.filter((c) => footer.columns.includes(c));
  const total = footer.rowGroupRows.reduce((a, b) => a + b, 0);
  const start = Math.max(0, options.rowStart ?? 0);
  const end = Math.min(total, options.rowEnd ?? total);
  if (end <= start) return undefined;
  const tree = parquetSchema(footer.metadata);
  const selected = tree.children.filter((c) => !columns || columns.includes(c.element.name))
    .map((c) => ({ name: c.element.name, element: c.element as RawDecimalElement, assembler: columnAssembler(c) }));
  return { start, end, columns, selected };
}

/** The typed arrays hyparquet hands over for non-null fixed-width leaves, kept typed in the dense leaf data. */
type TypedLeaf = Float64Array | Float32Array | Int32Array | BigInt64Array;

function typedLeaf(data: unknown): data is TypedLeaf {
  return data instanceof Float64Array || data instanceof Float32Array || data instanceof Int32Array || data instanceof BigInt64Array;
}

/**
 * One leaf's data per row of the planned range, as hyparquet assembles it (levels decoded; see assemble.ts): a
 * typed array when every page of the leaf came typed (no nulls, fixed width), else a plain array.
 */
export type DenseLeaf = TypedLeaf | unknown[];

/**
 * Decode the planned rows of every selected leaf into one dense vector per leaf (keyed by {@link leafKey}).
 * hyparquet hands each leaf's data (levels decoded, per row) through onPage; collecting it here keeps what its own
 * nested assembly loses (empty vs null lists, null groups, 2-level list elements). With `stringsAsBytes`, string
 * leaves keep their stored UTF-8 bytes (a Uint8Array per value) instead of being decoded. Decoding failures →
 * `CORRUPT_FILE` naming `path`.
 */
export async function readLeafData(file: AsyncBuffer, footer: ParquetFooter, path: string, plan: LeafReadPlan, options: { stringsAsBytes?: boolean } = {}): Promise<Map<string, DenseLeaf>> {
  const { start, end } = plan;
  const count = end - start;
  const leafData = new Map<string, DenseLeaf | undefined>();
  for (const { assembler } of plan.selected) for (const leaf of assembler.leaves) leafData.set(leafKey(leaf), undefined);
  if (plan.selected.length === 0) return leafData as Map<string, DenseLeaf>;
  try {
    await parquetRead({
      file,
      metadata: footer.metadata,
      columns: plan.columns,
      rowStart: start,
      rowEnd: end,
      compressors: await compressorsFor(footer.metadata),
      utf8: false,
      parsers: options.stringsAsBytes ? BYTES_PARSERS : PARSERS,
      onPage: ({ pathInSchema, columnData, rowStart }) => {
        const key = leafKey(pathInSchema);
        if (!leafData.has(key)) return;
        const from = Math.max(start, rowStart);
        const to = Math.min(end, rowStart + columnData.length);
        if (to <= from) return;
        let dense = leafData.get(key);
        if (dense === undefined) {
          dense = typedLeaf(columnData) ? new (columnData.constructor as new (n: number) => TypedLeaf)(count) : new Array(count);
        } else if (!Array.isArray(dense) && (!typedLeaf(columnData) || columnData.constructor !== dense.constructor)) {
          dense = Array.from(dense as ArrayLike<unknown>);
          dense.length = count;
        }
        leafData.set(key, dense);
        if (Array.isArray(dense)) {
          for (let r = from; r < to; r++) dense[r - start] = columnData[r - rowStart];
        } else {
          (dense as TypedLeaf).set((columnData as TypedLeaf).subarray(from - rowStart, to - rowStart) as never, from - start);
        }
      },
    });
  } catch (err) {
    if (err instanceof LakeletError) throw err;
    throw corruptFile(`parquet: cannot decode data (${(err as Error).message})`, path, undefined, err);
  }
  for (const [key, dense] of leafData) if (dense === undefined) leafData.set(key, new Array(count));
  return leafData as Map<string, DenseLeaf>;
}

/**
 * Read rows of a parquet file as plain objects in lakelet's value model. Nested columns follow the parquet spec's
 * rules (2- and 3-level lists, maps, structs; null lists and groups → null, empty lists → []). Decoding failures
 * → `CORRUPT_FILE` naming `path`.
 */
export async function readParquetRows(file: AsyncBuffer, footer: ParquetFooter, path: string, options: ReadParquetRowsOptions = {}): Promise<Record<string, unknown>[]> {
  const plan = planLeafRead(footer, options);
  if (!plan) return [];
  const count = plan.end - plan.start;
  const leafData = await readLeafData(file, footer, path, plan);
  try {
    const rows: Record<string, unknown>[] = new Array(count);
    const plans = plan.selected.map(({ name, assembler }) => {
      const data = assembler.leaves.map((l) => leafData.get(leafKey(l)) as DenseLeaf);
      return { name, read: assembler.read, flat: assembler.flat, data, slots: new Array<unknown>(data.length) };
    });
    for (let r = 0; r < count; r++) {
      const row: Record<string, unknown> = {};
      for (const { name, read, flat, data, slots } of plans) {
        if (flat) {
          row[name] = flat((data[0] as DenseLeaf)[r]);
          continue;
        }
        for (let k = 0; k < data.length; k++) slots[k] = (data[k] as DenseLeaf)[r];
        row[name] = read(slots);
      }
      rows[r] = row;
    }
    return rows;
  } catch (err) {
    if (err instanceof LakeletError) throw err;
    throw corruptFile(`parquet: cannot decode data (${(err as Error).message})`, path, undefined, err);
  }
}

/** The key of a leaf path in {@link readLeafData}'s map. */
export const leafKey = (path: readonly string[]): string => JSON.stringify(path);

/** Copy the metadata with DECIMAL annotations removed (and remembered), so decimals arrive unscaled and exact. */
function withRawDecimals(metadata: FileMetaData): FileMetaData {
  const schema = metadata.schema.map((el): RawDecimalElement => {
    const isDecimal = el.converted_type === 'DECIMAL' || el.logical_type?.type === 'DECIMAL';
    if (!isDecimal) return el;
    const scale = el.scale ?? (el.logical_type?.type === 'DECIMAL' ? el.logical_type.scale : 0) ?? 0;
    const copy: RawDecimalElement = { ...el, lakeletDecimalScale: scale };
    delete copy.converted_type;
    delete copy.logical_type;
    return copy;
  });
  return { ...metadata, schema };
}

/** Min/max statistics of one top-level column in one row group, when the file has usable ones. */
export interface ColumnStats {
  min: unknown;
  max: unknown;
  nullCount: number | undefined;
}

/** Usable min/max statistics per top-level primitive column of a row group (strings, numbers, booleans). */
export function rowGroupStats(footer: ParquetFooter, rowGroup: number): Map<string, ColumnStats> {
  const out = new Map<string, ColumnStats>();
  const group = footer.metadata.row_groups[rowGroup];
  if (!group) return out;
  for (const chunk of group.columns) {
    const md = chunk.meta_data;
    if (!md || md.path_in_schema.length !== 1) continue;
    const s = md.statistics;
    if (!s || s.min_value === undefined || s.max_value === undefined) continue;
    const el = footer.metadata.schema.find((e) => e.name === md.path_in_schema[0]) as RawDecimalElement | undefined;
    if (!el || el.lakeletDecimalScale !== undefined) continue;
    const isString = el.converted_type === 'UTF8' || el.logical_type?.type === 'STRING';
    if (md.type === 'BYTE_ARRAY' && !isString) continue;
    if (md.type === 'FIXED_LEN_BYTE_ARRAY' || md.type === 'INT96') continue;
    out.set(md.path_in_schema[0] as string, { min: s.min_value, max: s.max_value, nullCount: s.null_count === undefined ? undefined : Number(s.null_count) });
  }
  return out;
}
