// Avro → parquet schema of a base file, mapped as parquet-avro (Hudi's writer, old 2-level list structure) maps
// it, plus the converters from lakelet's value model (values.ts) to the physical values the encoder (encode/) writes.
import type { SchemaElement } from 'hyparquet';
import { LakeletError } from '../../errors.js';
import type { AvroRecordSchema, AvroSchema } from '../avro/schema.js';
import { epochMicros } from '../../schema/timestamp-micros.js';

/** One primitive column of the file: its place in the schema, its levels and its value converter. */
export interface ParquetLeaf {
  /** Position among the file's leaf columns (column-chunk order). */
  readonly index: number;
  /** Dotted parquet path (`structField.child_struct.child_field1`). */
  readonly columnName: string;
  /** Schema elements from the root to this leaf, as written in the footer. */
  readonly schemaPath: SchemaElement[];
  /** The element handed to the page encoder: decimal annotations removed, REPEATED shown as REQUIRED. */
  readonly encodeElement: SchemaElement;
  readonly maxDef: number;
  readonly maxRep: number;
  /** Decimal leaves get their statistics recomputed as signed integers. */
  readonly decimal: 'bytes' | 'fixed' | undefined;
  /** Lakelet value → physical value; `label` names the field in errors. Throws `INVALID_ARGUMENT`. */
  readonly convert: (value: unknown, label: string) => unknown;
}

interface NodeBase {
  /** Avro field name (record children) or parquet element name. */
  readonly name: string;
  /** Dotted Avro path for messages. */
  readonly label: string;
  readonly repetition: 'REQUIRED' | 'OPTIONAL' | 'REPEATED';
  /** Definition level of a present value at this node; repetition level of this node. */
  readonly def: number;
  readonly rep: number;
  /** Leaves under this node are `leaves[firstLeaf .. firstLeaf + leafCount)`. */
  readonly firstLeaf: number;
  leafCount: number;
}

/** A node of the column tree the row shredder walks. */
export type ParquetNode =
  | (NodeBase & { readonly kind: 'leaf'; readonly leaf: ParquetLeaf })
  | (NodeBase & { readonly kind: 'record'; readonly children: ParquetNode[] })
  | (NodeBase & { readonly kind: 'list'; item: ParquetNode })
  | (NodeBase & { readonly kind: 'map'; readonly entryDef: number; readonly entryRep: number; key: ParquetNode; value: ParquetNode });

/** The parquet form of a base file's Avro record schema. */
export interface ParquetFileSchema {
  /** Flattened schema elements for the footer (root first). */
  readonly elements: SchemaElement[];
  /** Top-level columns, in Avro field order. */
  readonly columns: ParquetNode[];
  /** Every leaf column, in file order. */
  readonly leaves: ParquetLeaf[];
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const DAY_MS = 86_400_000;

/**
 * Map an Avro record schema to parquet the way parquet-avro 1.12 does for Hudi: nullable unions → OPTIONAL,
 * records → groups, arrays → 2-level `LIST` (`repeated … array`), maps → `MAP` of `key_value` with a required
 * UTF8 key. Unsupported shapes (multi-type unions, recursion, null-only fields) → `UNSUPPORTED` naming the field.
 */
export function parquetSchemaFor(schema: AvroRecordSchema): ParquetFileSchema {
  const elements: SchemaElement[] = [{ name: schema.fullName, num_children: schema.fields.length }];
  const leaves: ParquetLeaf[] = [];
  const onPath = new Set<AvroRecordSchema>([schema]);

  const build = (name: string, label: string, avro: AvroSchema, repetition: NodeBase['repetition'], parents: SchemaElement[], def: number, rep: number): ParquetNode => {
    let type = avro;
    if (type.type === 'union') {
      const rest = type.branches.filter((b) => b.type !== 'null');
      const nullable = rest.length < type.branches.length;
      if (rest.length !== 1) {
        throw unsupported(label, rest.length === 0 ? 'a union of only null has no parquet type' : 'unions of several non-null types are not supported');
      }
      type = rest[0] as AvroSchema;
      if (nullable && repetition === 'REQUIRED') repetition = 'OPTIONAL';
    } else if (type.type === 'null') {
      throw unsupported(label, 'a null-only field has no parquet type');
    }
    if (repetition !== 'REQUIRED') def += 1;
    if (repetition === 'REPEATED') rep += 1;
    const base = { name, label, repetition, def, rep, firstLeaf: leaves.length, leafCount: 0 };
    const element: SchemaElement = { name, repetition_type: repetition };
    elements.push(element);
    const path = [...parents, element];

    if (type.type === 'record') {
      if (onPath.has(type)) throw unsupported(label, `recursive record "${type.fullName}" cannot be stored in parquet`);
      onPath.add(type);
      element.num_children = type.fields.length;
      const children = type.fields.map((f) => build(f.name, `${label}.${f.name}`, f.type, 'REQUIRED', path, def, rep));
      onPath.delete(type);
      return finish({ ...base, kind: 'record', children });
    }
    if (type.type === 'array') {
      element.num_children = 1;
      element.converted_type = 'LIST';
      element.logical_type = { type: 'LIST' };
      const item = build('array', `${label}[]`, type.items, 'REPEATED', path, def, rep);
      return finish({ ...base, kind: 'list', item });
    }
    if (type.type === 'map') {
      element.num_children = 1;
      element.converted_type = 'MAP';
      element.logical_type = { type: 'MAP' };
      const entry: SchemaElement = { name: 'key_value', repetition_type: 'REPEATED', num_children: 2, converted_type: 'MAP_KEY_VALUE' };
      elements.push(entry);
      const entryPath = [...path, entry];
      const key = build('key', `${label}{key}`, { type: 'string' }, 'REQUIRED', entryPath, def + 1, rep + 1);
      const value = build('value', `${label}{}`, type.values, 'REQUIRED', entryPath, def + 1, rep + 1);
      return finish({ ...base, kind: 'map', entryDef: def + 1, entryRep: rep + 1, key, value });
    }
    const { convert, decimal } = primitive(type, element, label);
    const encodeElement: SchemaElement = { ...element, repetition_type: repetition === 'REPEATED' ? 'REQUIRED' : repetition };
    if (decimal !== undefined) {
      delete encodeElement.converted_type;
      delete encodeElement.logical_type;
      delete encodeElement.scale;
      delete encodeElement.precision;
    }
    const leaf: ParquetLeaf = {
      index: leaves.length,
      columnName: path.map((e) => e.name).join('.'),
      schemaPath: [elements[0] as SchemaElement, ...path],
      encodeElement,
      maxDef: def,
      maxRep: rep,
      decimal,
      convert,
    };
    leaves.push(leaf);
    return finish({ ...base, kind: 'leaf', leaf });
  };

  const finish = <T extends ParquetNode>(node: T): T => {
    node.leafCount = leaves.length - node.firstLeaf;
    return node;
  };

  const columns = schema.fields.map((f) => build(f.name, f.name, f.type, 'REQUIRED', [], 0, 0));
  return { elements, columns, leaves };
}

/** Fill in a primitive element's physical and logical type; return the value converter. */
function primitive(type: AvroSchema, el: SchemaElement, label: string): { convert: ParquetLeaf['convert']; decimal: ParquetLeaf['decimal'] } {
  const logical = 'logicalType' in type ? type.logicalType : undefined;
  switch (type.type) {
    case 'boolean':
      el.type = 'BOOLEAN';
      return plain((v, at) => (typeof v === 'boolean' ? v : invalid(at, 'a boolean', v)));
    case 'int':
      el.type = 'INT32';
      if (logical?.name === 'date') {
        el.converted_type = 'DATE';
        el.logical_type = { type: 'DATE' };
        return plain((v, at) => (v instanceof Date ? int32(Math.floor(validTime(v, at) / DAY_MS), at, v) : int32(v, at, v)));
      }
      if (logical?.name === 'time-millis') {
        el.converted_type = 'TIME_MILLIS';
        el.logical_type = { type: 'TIME', isAdjustedToUTC: true, unit: 'MILLIS' };
      }
      return plain((v, at) => int32(v, at, v));
    case 'long': {
      el.type = 'INT64';
      const name = logical?.name;
      if (name === 'timestamp-millis' || name === 'timestamp-micros' || name === 'local-timestamp-millis' || name === 'local-timestamp-micros') {
        const micros = name.endsWith('micros');
        const utc = name.startsWith('timestamp');
        if (utc) el.converted_type = micros ? 'TIMESTAMP_MICROS' : 'TIMESTAMP_MILLIS';
        el.logical_type = { type: 'TIMESTAMP', isAdjustedToUTC: utc, unit: micros ? 'MICROS' : 'MILLIS' };
        return plain((v, at) => {
          if (v instanceof Date) {
            const ms = BigInt(validTime(v, at));
            return micros ? epochMicros(v) : ms;
          }
          return int64(v, at);
        });
      }
      if (name === 'time-micros') {
        el.converted_type = 'TIME_MICROS';
        el.logical_type = { type: 'TIME', isAdjustedToUTC: true, unit: 'MICROS' };
      }
      return plain(int64);
    }
    case 'float':
      el.type = 'FLOAT';
      return plain((v, at) => (typeof v === 'number' ? v : invalid(at, 'a number', v)));
    case 'double':
      el.type = 'DOUBLE';
      return plain((v, at) => (typeof v === 'number' ? v : invalid(at, 'a number', v)));
    case 'string':
      el.type = 'BYTE_ARRAY';
      el.converted_type = 'UTF8';
      el.logical_type = { type: 'STRING' };
      return plain((v, at) => (typeof v === 'string' ? v : invalid(at, 'a string', v)));
    case 'enum': {
      el.type = 'BYTE_ARRAY';
      el.converted_type = 'ENUM';
      el.logical_type = { type: 'ENUM' };
      const symbols = new Set(type.symbols);
      return plain((v, at) => (typeof v === 'string' && symbols.has(v) ? v : invalid(at, `one of the symbols of enum "${type.fullName}"`, v)));
    }
    case 'bytes':
    case 'fixed': {
      const size = type.type === 'fixed' ? type.size : undefined;
      el.type = size === undefined ? 'BYTE_ARRAY' : 'FIXED_LEN_BYTE_ARRAY';
      if (size !== undefined) el.type_length = size;
      if (logical?.name === 'decimal') {
        const { precision, scale } = logical;
        el.converted_type = 'DECIMAL';
        el.logical_type = { type: 'DECIMAL', precision, scale };
        el.precision = precision;
        el.scale = scale;
        return {
          decimal: size === undefined ? 'bytes' : 'fixed',
          convert: (v, at) => twosComplement(decimalUnscaled(v, precision, scale, at), size),
        };
      }
      if (logical?.name === 'uuid' && size === 16) {
        return plain((v, at) => (typeof v === 'string' ? uuidBytes(v, at) : bytesOf(v, at, size)));
      }
      return plain((v, at) => bytesOf(v, at, size));
    }
    default:
      throw unsupported(label, `type "${type.type}" has no parquet mapping`);
  }
}

function plain(convert: ParquetLeaf['convert']): { convert: ParquetLeaf['convert']; decimal: undefined } {
  return { convert, decimal: undefined };
}

function int32(v: unknown, at: string, original: unknown): number {
  const n = typeof v === 'bigint' && v >= BigInt(INT32_MIN) && v <= BigInt(INT32_MAX) ? Number(v) : v;
  if (typeof n === 'number' && Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX) return n;
  return invalid(at, 'a 32-bit integer', original);
}

function int64(v: unknown, at: string): bigint {
  if (typeof v === 'bigint' && v >= INT64_MIN && v <= INT64_MAX) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  return invalid(at, 'a 64-bit integer (bigint)', v);
}

function validTime(d: Date, at: string): number {
  const t = d.getTime();
  return Number.isNaN(t) ? invalid(at, 'a valid Date', d) : t;
}

function bytesOf(v: unknown, at: string, size: number | undefined): Uint8Array {
  if (!(v instanceof Uint8Array)) return invalid(at, size === undefined ? 'a Uint8Array' : `a Uint8Array of ${size} bytes`, v);
  if (size !== undefined && v.length !== size) return invalid(at, `a Uint8Array of ${size} bytes`, v);
  return v;
}

function uuidBytes(v: string, at: string): Uint8Array {
  const hex = v.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) return invalid(at, 'a UUID', v);
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

const DECIMAL_RE = /^([+-])?(\d*)(?:\.(\d*))?$/;

/** A decimal string (or plain number) → its unscaled integer at `scale`, exactly; too many digits → error. */
export function decimalUnscaled(v: unknown, precision: number, scale: number, at: string): bigint {
  let text: string | undefined;
  if (typeof v === 'string') text = v.trim();
  else if (typeof v === 'number' && Number.isFinite(v) && !/e/i.test(String(v))) text = String(v);
  const m = text === undefined ? null : DECIMAL_RE.exec(text);
  const intPart = m?.[2] ?? '';
  let frac = m?.[3] ?? '';
  if (!m || (intPart === '' && frac === '')) return invalid(at, `a decimal(${precision},${scale}) string`, v);
  if (frac.length > scale) {
    if (!/^0*$/.test(frac.slice(scale))) return invalid(at, `a decimal with at most ${scale} fraction digits`, v);
    frac = frac.slice(0, scale);
  }
  const digits = (intPart + frac.padEnd(scale, '0')).replace(/^0+/, '');
  if (digits.length > precision) return invalid(at, `a decimal of at most ${precision} digits`, v);
  const unscaled = digits === '' ? 0n : BigInt(digits);
  return m[1] === '-' ? -unscaled : unscaled;
}

/**
 * Big-endian two's complement bytes of `value`: the shortest form (as Java's `BigInteger.toByteArray`, at least
 * one byte) when `size` is undefined, else sign-extended to exactly `size` bytes.
 */
export function twosComplement(value: bigint, size?: number): Uint8Array {
  let n = 1;
  if (size === undefined) {
    while (value < -(1n << BigInt(8 * n - 1)) || value >= 1n << BigInt(8 * n - 1)) n++;
  } else {
    n = size;
  }
  const out = new Uint8Array(n);
  let rest = value;
  for (let i = n - 1; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

function describe(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (v instanceof Uint8Array) return `${v.length} bytes`;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'an invalid Date' : `Date ${v.toISOString()}`;
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

/** Throw `INVALID_ARGUMENT` for a value that does not fit its field. */
function invalid(at: string, expected: string, v: unknown): never {
  throw new LakeletError('INVALID_ARGUMENT', `base file writer: field "${at}" expects ${expected}, got ${describe(v)}`, { field: at });
}

function unsupported(at: string, why: string): LakeletError {
  return new LakeletError('UNSUPPORTED', `base file writer: field "${at}": ${why}`, { field: at });
}
