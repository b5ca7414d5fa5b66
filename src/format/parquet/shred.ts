// Row shredding for base files: lakelet values → Dremel definition/repetition levels and physical values in each
// leaf column (parquet-avro's shapes: nullable unions, records, 2-level lists, maps), by row or by column vector.
import { LakeletError } from '../../errors.js';
import { LeafColumn, type NumericStore } from './leaf-column.js';
import type { ParquetFileSchema, ParquetNode } from './schema.js';
import { isPhysical } from './physical-vector.js';

/** A point to roll every leaf back to. */
export type ShredMark = readonly number[];

/** Shreds values into one {@link LeafColumn} per leaf of a file schema. */
export class Shredder {
  /** The leaf columns, in file order. */
  readonly leaves: LeafColumn[];
  private readonly schema: ParquetFileSchema;

  constructor(schema: ParquetFileSchema) {
    this.schema = schema;
    this.leaves = schema.leaves.map((l) => new LeafColumn(l.encodeElement.type as NonNullable<typeof l.encodeElement.type>, l.maxDef, l.maxRep));
  }

  /** Where every leaf stands now (levels, values), for {@link Shredder.rollback}. */
  mark(): ShredMark {
    const m: number[] = [];
    for (const l of this.leaves) m.push(l.levels, l.count);
    return m;
  }

  /** Undo everything shredded since `mark`. */
  rollback(mark: ShredMark): void {
    this.leaves.forEach((l, i) => l.truncate(mark[2 * i] as number, mark[2 * i + 1] as number));
  }

  /** Shred one row object; on a bad value, undo this row's partial output and rethrow. */
  row(row: Record<string, unknown>): void {
    const mark = this.mark();
    try {
      for (const column of this.schema.columns) this.slot(column, row[column.name], 0, 0);
    } catch (err) {
      this.rollback(mark);
      throw err;
    }
  }

  /**
   * Shred rows `[0, length)` of one top-level column vector (`undefined`: null in every row). A flat primitive
   * column takes its values directly (a typed vector of the leaf's store type in one copy). Errors name the field
   * and the batch row; the caller rolls back.
   */
  vector(column: ParquetNode, vector: ArrayLike<unknown> | undefined, length: number): void {
    let i = 0;
    try {
      if (vector === undefined) {
        for (; i < length; i++) this.slot(column, null, 0, 0);
        return;
      }
      if (column.kind === 'leaf') {
        const leaf = this.leaves[column.leaf.index] as LeafColumn;
        if (typedFits(leaf, vector)) {
          leaf.pushTyped(vector as unknown as NumericStore, length);
          return;
        }
        const { convert } = column.leaf;
        const label = column.label;
        const nullable = column.repetition !== 'REQUIRED';
        // A physical vector (stored bytes of an old base file, fresh values already converted) is taken as it is.
        const physical = column.repetition !== 'REPEATED' && leaf.numbers === undefined && isPhysical(vector);
        const before = leaf.levels;
        try {
          leaf.pushFlat(vector, length, physical ? same : (v) => convert(v, label), (v) => (nullable ? undefined : requiredNull(label, v)));
        } finally {
          // a flat column takes one level entry per row: the rows taken before a bad value
          i = leaf.levels - before;
        }
        return;
      }
      for (; i < length; i++) this.slot(column, vector[i], 0, 0);
    } catch (err) {
      if (err instanceof LakeletError) {
        throw new LakeletError(err.code, `${err.message} (batch row ${i})`, { ...err.context, field: err.context.field ?? column.label, row: i }, { cause: err });
      }
      throw err;
    }
  }

  /** A value in a non-repeated slot: null → null levels for every leaf below, else descend. */
  private slot(node: ParquetNode, value: unknown, parentDef: number, rep: number): void {
    if (value === null || value === undefined) {
      if (node.repetition === 'REQUIRED') throw requiredNull(node.label, value);
      this.nulls(node, parentDef, rep);
      return;
    }
    this.present(node, value, rep);
  }

  /** A non-null value at `node` (defined at level `node.def`), starting at repetition level `rep`. */
  private present(node: ParquetNode, value: unknown, rep: number): void {
    switch (node.kind) {
      case 'leaf':
        (this.leaves[node.leaf.index] as LeafColumn).push(node.leaf.convert(value, node.label), rep);
        return;
      case 'record': {
        if (!isPlainObject(value)) throw notA(node.label, 'a record (plain object)', value);
        const obj = value as Record<string, unknown>;
        for (const child of node.children) this.slot(child, obj[child.name], node.def, rep);
        return;
      }
      case 'list': {
        if (!Array.isArray(value)) throw notA(node.label, 'an array', value);
        if (value.length === 0) {
          this.nulls(node, node.def, rep);
          return;
        }
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (item === null || item === undefined) {
            throw new LakeletError('INVALID_ARGUMENT', `base file writer: field "${node.label}" has a null element at index ${i}; parquet-avro's 2-level lists (what Hudi writes) cannot hold nulls`, { field: node.label });
          }
          this.present(node.item, item, i === 0 ? rep : node.item.rep);
        }
        return;
      }
      case 'map': {
        let entries: [unknown, unknown][];
        if (value instanceof Map) entries = [...value.entries()];
        else if (isPlainObject(value)) entries = Object.entries(value as Record<string, unknown>);
        else throw notA(node.label, 'a map (plain object or Map)', value);
        if (entries.length === 0) {
          this.nulls(node, node.def, rep);
          return;
        }
        entries.forEach(([k, v], i) => {
          const r = i === 0 ? rep : node.entryRep;
          this.present(node.key, k, r);
          this.slot(node.value, v, node.entryDef, r);
        });
        return;
      }
    }
  }

  /** Record "undefined at level `def`" in every leaf under `node`. */
  private nulls(node: ParquetNode, def: number, rep: number): void {
    for (let i = node.firstLeaf; i < node.firstLeaf + node.leafCount; i++) (this.leaves[i] as LeafColumn).pushNull(def, rep);
  }
}

const same = (v: unknown): unknown => v;

/** A typed vector that is exactly the leaf's store (no conversion can change a value). */
function typedFits(leaf: LeafColumn, v: ArrayLike<unknown>): boolean {
  if (leaf.maxRep > 0) return false;
  switch (leaf.type) {
    case 'DOUBLE': return v instanceof Float64Array;
    case 'INT64': return v instanceof BigInt64Array;
    case 'INT32': return v instanceof Int32Array;
    default: return false;
  }
}

function requiredNull(label: string, value: unknown): LakeletError {
  return new LakeletError('INVALID_ARGUMENT', `base file writer: field "${label}" is required but the value is ${value}`, { field: label });
}

function isPlainObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof Date) && !(v instanceof Map);
}

function notA(label: string, expected: string, v: unknown): LakeletError {
  const got = Array.isArray(v) ? 'an array' : v instanceof Uint8Array ? 'bytes' : v instanceof Date ? 'a Date' : typeof v;
  return new LakeletError('INVALID_ARGUMENT', `base file writer: field "${label}" expects ${expected}, got ${got}`, { field: label });
}
