// Physical column vectors: a flat BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY column whose values are already what the
// base-file writer's converter makes of them (the bytes an old base file stores: strings undecoded, decimals
// unscaled), so a copy-on-write rewrite moves them from the old file to the new one without decoding each value
// to lakelet's value model and converting it back. Only vectors marked here are trusted that way.
import type { SchemaElement } from 'hyparquet';

const marked = new WeakSet<object>();

/** Mark `vector` as holding physical values of its column (or null): the writer takes them unconverted. */
export function markPhysical<T extends unknown[]>(vector: T): T {
  marked.add(vector);
  return vector;
}

/** Whether `vector` was marked by {@link markPhysical}. */
export function isPhysical(vector: ArrayLike<unknown>): boolean {
  return marked.has(vector as object);
}

/** A writer's flat byte-array leaf that takes physical values (BaseFileWriter.physicalLeaf). */
export interface PhysicalLeaf {
  /** The leaf's {@link physicalSignature}: an old file's column of the same signature can be moved as stored. */
  signature: string;
  /** A fresh value (lakelet value model) as the leaf's physical value; null stays null. Throws `INVALID_ARGUMENT`. */
  convert(value: unknown): unknown;
}

/** A leaf element as read back by lakelet (its DECIMAL annotation possibly moved to `lakeletDecimalScale`). */
interface LeafElement extends SchemaElement {
  lakeletDecimalScale?: number;
}

/**
 * What a flat leaf's stored bytes mean, when they can be moved unconverted: `utf8` (a string column), or a decimal
 * of a scale in a BYTE_ARRAY or a FIXED_LEN_BYTE_ARRAY of a length; undefined for every other leaf (numbers keep
 * their own typed path; enums, uuids and plain bytes are converted as before). Two leaves with the same signature
 * store a value as the same bytes.
 */
export function physicalSignature(el: LeafElement): string | undefined {
  if (el.type !== 'BYTE_ARRAY' && el.type !== 'FIXED_LEN_BYTE_ARRAY') return undefined;
  const width = el.type === 'FIXED_LEN_BYTE_ARRAY' ? `fixed(${el.type_length})` : 'bytes';
  const scale = el.lakeletDecimalScale ?? (el.converted_type === 'DECIMAL' || el.logical_type?.type === 'DECIMAL' ? el.scale ?? 0 : undefined);
  if (scale !== undefined) return `decimal(${scale}) ${width}`;
  if (el.type === 'BYTE_ARRAY' && (el.converted_type === 'UTF8' || el.logical_type?.type === 'STRING')) return 'utf8';
  return undefined;
}
