// The errors of row validation: values shown short for messages, `row N: field 'x' ...` errors, the
// well-formed-string check, and the plain-object test rows and defaults are held to.
import { LakeletError } from '../errors.js';
import { loneSurrogateProblem } from './well-formed.js';

/** `value` shown short for an error message: bigints with `n`, Dates as ISO text, bytes by length, JSON cut at 80 characters. */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : `Date(${value.toISOString()})`;
  if (value instanceof Uint8Array) return `Uint8Array(${value.length})`;
  if (value instanceof ArrayBuffer) return `ArrayBuffer(${value.byteLength})`;
  try {
    const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return String(value);
  }
}

/** An `INVALID_ARGUMENT` error "row N: field 'path' message" with context `{ row, field, value }`. */
export function fail(row: number, path: string, message: string, value: unknown): LakeletError {
  return new LakeletError('INVALID_ARGUMENT', `row ${row}: field '${path}' ${message}`, { row, field: path, value });
}

/** The error for a value that does not fit its type: "row N: field 'path' expects T, got V" (+ `why`). */
export function expects(row: number, path: string, typeName: string, value: unknown, why = ''): LakeletError {
  return fail(row, path, `expects ${typeName}, got ${show(value)}${why}`, value);
}

/** `text`, unless it holds a lone surrogate (stored as UTF-8 it would change: a key would no longer match). */
export function wellFormed(text: string, path: string, row: number): string {
  const problem = loneSurrogateProblem(text);
  if (problem !== undefined) throw fail(row, path, problem, text);
  return text;
}

/** Whether `v` is a plain object (prototype `Object.prototype` or null): a row, a record or a map value. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};
