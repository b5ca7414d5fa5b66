// Parquet base files (and PARQUET_DATA log blocks) read through hyparquet: footer metadata and Hudi's
// footer keys, row-group selection, projection, and values converted to lakelet's value model (values.ts).
import { parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import type { AsyncBuffer, FileMetaData, SchemaElement, SchemaTree } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { corruptFile, LakeletError } from '../errors.js';
import { dateFromDays, dateFromMicros, dateFromMillis, decimalFromBytes, formatDecimal } from './values.js';

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

/** An AsyncBuffer over bytes already in memory. */
export function bufferFromBytes(bytes: Uint8Array): AsyncBuffer {
  return {
    byteLength: bytes.byteLength,
    slice: (start: number, end?: number) => bytes.slice(start, end ?? bytes.byteLength).buffer as ArrayBuffer,
  };
}

/** Read and check a parquet footer. Anything that is not a readable parquet file → `CORRUPT_FILE` naming `path`. */
export async function readParquetFooter(file: AsyncBuffer, path: string): Promise<ParquetFooter> {
  if (file.byteLength < 12) throw corruptFile(`parquet: file of ${file.byteLength} bytes is too short to be parquet`, path, 0);
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(file, { parsers: PARSERS });
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

/**
 * Read rows of a parquet file as plain objects in lakelet's value model. Decoding failures → `CORRUPT_FILE`
 * naming `path`.
 */
export async function readParquetRows(file: AsyncBuffer, footer: ParquetFooter, path: string, options: ReadParquetRowsOptions = {}): Promise<Record<string, unknown>[]> {
  const columns = options.columns?.filter((c) => footer.columns.includes(c));
  const tree = parquetSchema(footer.metadata);
  let rows: Record<string, unknown>[];
  try {
    rows = await parquetReadObjects({
      file,
      metadata: footer.metadata,
      columns,
      rowStart: options.rowStart,
      rowEnd: options.rowEnd,
      compressors,
      utf8: false,
      parsers: PARSERS,
    });
  } catch (err) {
    if (err instanceof LakeletError) throw err;
    throw corruptFile(`parquet: cannot decode data (${(err as Error).message})`, path, undefined, err);
  }
  const converters: [string, (v: unknown) => unknown][] = [];
  for (const child of tree.children) {
    const conv = converterFor(child);
    if (conv && (!columns || columns.includes(child.element.name))) converters.push([child.element.name, conv]);
  }
  if (converters.length > 0) {
    for (const row of rows) for (const [name, conv] of converters) row[name] = conv(row[name]);
  }
  return rows;
}

/** Marker put on schema elements whose DECIMAL annotation was removed so hyparquet hands over raw values. */
interface RawDecimalElement extends SchemaElement {
  lakeletDecimalScale?: number;
}

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

/** A value converter for a schema subtree, or undefined when hyparquet's values need no change. */
function converterFor(node: SchemaTree): ((v: unknown) => unknown) | undefined {
  const el = node.element as RawDecimalElement;
  if (el.lakeletDecimalScale !== undefined) {
    const scale = el.lakeletDecimalScale;
    return (v) => {
      if (v === null || v === undefined) return null;
      if (v instanceof Uint8Array) return decimalFromBytes(v, scale);
      if (typeof v === 'bigint') return formatDecimal(v, scale);
      if (typeof v === 'number') return formatDecimal(BigInt(v), scale);
      return v;
    };
  }
  if (node.children.length === 0) return undefined;
  const ct = el.converted_type;
  const lt = el.logical_type?.type;
  if (ct === 'LIST' || lt === 'LIST') {
    const item = deepestSingleChild(node);
    const conv = item && converterFor(item);
    return (v) => {
      const list = unwrapTwoLevelList(v);
      return conv && Array.isArray(list) ? list.map(conv) : list;
    };
  }
  if (ct === 'MAP' || ct === 'MAP_KEY_VALUE' || lt === 'MAP') {
    const kv = node.children[0];
    const valueNode = kv?.children[1];
    const conv = valueNode && converterFor(valueNode);
    return conv && ((v) => {
      if (v === null || typeof v !== 'object') return v;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = conv(x);
      return out;
    });
  }
  const fields: [string, (v: unknown) => unknown][] = [];
  for (const c of node.children) {
    const conv = converterFor(c);
    if (conv) fields.push([c.element.name, conv]);
  }
  if (fields.length === 0) return undefined;
  return (v) => {
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    for (const [k, conv] of fields) o[k] = conv(o[k]);
    return o;
  };
}

/**
 * parquet-avro's legacy 2-level lists (`repeated group array { … }`) come out of hyparquet as
 * `{ array: [...] }`; unwrap them to a plain array.
 */
function unwrapTwoLevelList(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const keys = Object.keys(v);
  if (keys.length !== 1) return v;
  const inner = (v as Record<string, unknown>)[keys[0] as string];
  return Array.isArray(inner) ? inner : v;
}

/** The element node of a 3-level (or 2-level) parquet list. */
function deepestSingleChild(list: SchemaTree): SchemaTree | undefined {
  const repeated = list.children[0];
  if (!repeated) return undefined;
  if (repeated.children.length === 1 && repeated.element.name !== 'array' && !repeated.element.name.endsWith('_tuple')) return repeated.children[0];
  return repeated;
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
