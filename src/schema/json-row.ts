// JSON encoding of rows (the CLI's `--format jsonl`, the demo's tables): strings, booleans and numbers as
// JSON; int64 as a number when safe, else a string; decimals as strings with their scale; dates
// `YYYY-MM-DD`; timestamps ISO-8601 UTC; binary as base64; float32 as its shortest round-trip text.
import type { AvroRecordSchema, AvroSchema } from '../format/avro/schema.js';
import { encodeBase64 } from '../format/base64.js';
import { nonNullType } from './table-schema.js';

/** The shortest decimal text whose float32 rounding gives back `x` (`1.100000023841858` → `1.1`). */
export function shortestFloat32(x: number): number {
  if (!Number.isFinite(x) || Number.isInteger(x)) return x;
  const f = Math.fround(x);
  for (let p = 1; p <= 9; p++) {
    const y = Number(f.toPrecision(p));
    if (Math.fround(y) === f) return y;
  }
  return f;
}

/** Encode one value of the given Avro type as a JSON-compatible value. */
export function jsonValue(value: unknown, type: AvroSchema | undefined): unknown {
  if (value === null || value === undefined) return null;
  const t = type ? nonNullType(type).type : undefined;
  const logical = t && 'logicalType' in t ? t.logicalType?.name : undefined;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    return logical === 'date' ? value.toISOString().slice(0, 10) : value.toISOString();
  }
  if (typeof value === 'bigint') return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return String(value);
    return t?.type === 'float' ? shortestFloat32(value) : value;
  }
  if (value instanceof Uint8Array) return encodeBase64(value);
  if (Array.isArray(value)) {
    const item = t?.type === 'array' ? t.items : undefined;
    return value.map((v) => jsonValue(v, item));
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    if (t?.type === 'record') {
      for (const f of t.fields) if (f.name in (value as object)) out[f.name] = jsonValue((value as Record<string, unknown>)[f.name], f.type);
      for (const [k, v] of Object.entries(value)) if (!(k in out)) out[k] = jsonValue(v, undefined);
    } else {
      const valueType = t?.type === 'map' ? t.values : undefined;
      for (const [k, v] of Object.entries(value)) out[k] = jsonValue(v, valueType);
    }
    return out;
  }
  return value;
}

/** Encode a row: columns in the row's order, each by its type in `schema`. */
export function jsonRow(row: Record<string, unknown>, schema: AvroRecordSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = jsonValue(v, schema.fields.find((f) => f.name === k)?.type);
  return out;
}
