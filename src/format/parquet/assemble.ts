// Nested parquet values: assembles top-level columns from hyparquet's per-leaf, level-decoded data following the
// parquet spec's nested-type rules (2-/3-level lists with their backward-compatibility rules, maps, structs).
import type { SchemaElement, SchemaTree } from 'hyparquet';
import { decimalFromBytes, formatDecimal } from '../../schema/values.js';

/** A schema element whose DECIMAL annotation was removed (and its scale kept) so values arrive unscaled and exact. */
export interface RawDecimalElement extends SchemaElement {
  lakeletDecimalScale?: number;
}

/**
 * Builds one top-level column's value from its leaves' data. `leaves` are the leaf paths (`path_in_schema`) in
 * schema order; `read` takes one entry per leaf: that leaf's hyparquet-assembled value for the row.
 */
export interface ColumnAssembler {
  leaves: string[][];
  read(slots: readonly unknown[]): unknown;
  /** For a plain (non-repeated) top-level leaf: converts its one value directly, skipping the slots. */
  flat?: (value: unknown) => unknown;
}

/**
 * How hyparquet (`assembleLists`) represents a leaf's levels, which this module decodes: every OPTIONAL or
 * REPEATED group on the leaf's path is an array in its parent's slot (REQUIRED groups add nothing). An OPTIONAL
 * group's array holds its one content slot, or is empty when the group is null; a REPEATED group's array holds
 * one slot per repetition (empty for none). A leaf's slot is its value (null when undefined), except a REPEATED
 * leaf: an array of its values, or null when it has none. A reader takes the slots of a node's leaves at
 * `slots[offset …]`.
 */
type Reader = (slots: readonly unknown[], offset: number) => unknown;

interface Compiled {
  read: Reader;
  leafCount: number;
}

const utf8 = new TextDecoder();

/** Compile the value assembler of a top-level column (a child of the schema root). */
export function columnAssembler(column: SchemaTree): ColumnAssembler {
  const leaves: string[][] = [];
  const collect = (n: SchemaTree): void => {
    if (n.children.length === 0) leaves.push(n.path);
    else for (const c of n.children) collect(c);
  };
  collect(column);
  const { read } = compileNode(column);
  const assembler: ColumnAssembler = { leaves, read: (slots) => read(slots, 0) };
  if (column.children.length === 0 && column.element.repetition_type !== 'REPEATED') assembler.flat = leafConverter(column.element as RawDecimalElement);
  return assembler;
}

function shapeError(): Error {
  return new Error('unexpected nested column shape');
}

/** A slot that must be a container array. */
function container(slot: unknown): ArrayLike<unknown> {
  if (!Array.isArray(slot)) throw shapeError();
  return slot;
}

/** The slots of `count` leaves from `offset`, each taken from that leaf's container at `i`. */
function at(slots: readonly unknown[], offset: number, count: number, i: number): unknown[] {
  const out: unknown[] = new Array(count);
  for (let k = 0; k < count; k++) out[k] = container(slots[offset + k])[i];
  return out;
}

/** A node in its parent's slot: applies its own repetition, then its content. */
function compileNode(node: SchemaTree): Compiled {
  const repetition = node.element.repetition_type;
  if (node.children.length === 0) {
    const conv = leafConverter(node.element as RawDecimalElement);
    if (repetition === 'REPEATED') {
      return { leafCount: 1, read: (slots, offset) => {
        const s = slots[offset];
        return s === null || s === undefined ? [] : Array.from(container(s), conv);
      } };
    }
    return { leafCount: 1, read: (slots, offset) => conv(slots[offset]) };
  }
  const content = compileGroup(node);
  const { leafCount } = content;
  if (repetition === 'OPTIONAL') {
    return { leafCount, read: (slots, offset) => (container(slots[offset]).length === 0 ? null : content.read(at(slots, offset, leafCount, 0), 0)) };
  }
  if (repetition === 'REPEATED') return { leafCount, read: repeated(content) };
  return content;
}

/** Read each repetition of a repeated group (the first leaf's container gives the count). */
function repeated({ read, leafCount }: Compiled): Reader {
  return (slots, offset) => {
    const n = container(slots[offset]).length;
    const out: unknown[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = read(at(slots, offset, leafCount, i), 0);
    return out;
  };
}

/** The value of a present group: a list, a map or a record. */
function compileGroup(node: SchemaTree): Compiled {
  const el = node.element;
  const ct = el.converted_type;
  const lt = el.logical_type?.type;
  const only = node.children.length === 1 ? node.children[0] : undefined;
  if ((ct === 'LIST' || lt === 'LIST') && only?.element.repetition_type === 'REPEATED') return compileList(node, only);
  if ((ct === 'MAP' || ct === 'MAP_KEY_VALUE' || lt === 'MAP') && only?.element.repetition_type === 'REPEATED'
    && only.children.length >= 1 && only.children.length <= 2) return compileMap(only);
  const fields = node.children.map((c) => ({ name: c.element.name, ...compileNode(c) }));
  return { leafCount: fields.reduce((n, f) => n + f.leafCount, 0), read: (slots, offset) => {
    const entries: [string, unknown][] = new Array(fields.length);
    let pos = offset;
    for (let k = 0; k < fields.length; k++) {
      const f = fields[k] as (typeof fields)[number];
      entries[k] = [f.name, f.read(slots, pos)];
      pos += f.leafCount;
    }
    return Object.fromEntries(entries);
  } };
}

/**
 * A LIST group. The spec's backward-compatibility rules decide the element: the repeated field itself when it is
 * a primitive, a group of several fields, or a group named `array` or `<list name>_tuple` (2-level lists, as
 * parquet-avro writes); otherwise its one field (the standard 3-level `list`/`element` form).
 */
function compileList(node: SchemaTree, rep: SchemaTree): Compiled {
  const name = rep.element.name;
  const repIsElement = rep.children.length !== 1 || name === 'array' || name === `${node.element.name}_tuple`;
  if (repIsElement) return compileNode(rep);
  const element = compileNode(rep.children[0] as SchemaTree);
  return { leafCount: element.leafCount, read: repeated(element) };
}

/** A MAP group: its repeated key/value group becomes an object keyed by the keys' string form. */
function compileMap(entry: SchemaTree): Compiled {
  const [keyNode, valueNode] = entry.children as [SchemaTree, SchemaTree | undefined];
  const key = compileNode(keyNode);
  const value = valueNode && compileNode(valueNode);
  const leafCount = key.leafCount + (value?.leafCount ?? 0);
  const entries = repeated({ leafCount, read: (slots, offset) => [mapKey(key.read(slots, offset)), value ? value.read(slots, offset + key.leafCount) : null] });
  return { leafCount, read: (slots, offset) => Object.fromEntries(entries(slots, offset) as [string, unknown][]) };
}

function mapKey(k: unknown): string {
  if (typeof k === 'string') return k;
  if (k instanceof Uint8Array) return utf8.decode(k);
  if (k instanceof Date) return k.toISOString();
  return String(k);
}

/** Converts a leaf value hyparquet decoded to lakelet's value model (decimals, enums; undefined → null). */
function leafConverter(el: RawDecimalElement): (v: unknown) => unknown {
  const scale = el.lakeletDecimalScale;
  if (scale !== undefined) {
    return (v) => {
      if (v === null || v === undefined) return null;
      if (v instanceof Uint8Array) return decimalFromBytes(v, scale);
      if (typeof v === 'bigint') return formatDecimal(v, scale);
      if (typeof v === 'number') return formatDecimal(BigInt(v), scale);
      return v;
    };
  }
  if (el.converted_type === 'ENUM' || el.logical_type?.type === 'ENUM') {
    return (v) => (v instanceof Uint8Array ? utf8.decode(v) : v ?? null);
  }
  return (v) => v ?? null;
}
