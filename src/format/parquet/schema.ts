// Avro → parquet schema of a base file, mapped as parquet-avro (Hudi's writer, old 2-level list structure) maps
// it, each leaf with its converter to the physical values (physical-values.ts) the encoder (encode/) writes.
import type { SchemaElement } from 'hyparquet';
import { LakeletError } from '../../errors.js';
import type { AvroRecordSchema, AvroSchema } from '../avro/schema.js';
import { epochMicros } from '../../schema/timestamp-micros.js';
import { bytesOf, decimalBytes, int32, int64, invalid, uuidBytes, validTime } from './physical-values.js';

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
          convert: (v, at) => decimalBytes(v, precision, scale, size, at),
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


function unsupported(at: string, why: string): LakeletError {
  return new LakeletError('UNSUPPORTED', `base file writer: field "${at}": ${why}`, { field: at });
}
