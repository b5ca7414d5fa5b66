// Avro binary datum encoding: compiles one writer closure per schema node that turns lakelet values (the
// model of src/format/values.ts) into Avro bytes; the inverse of decoder.ts. Bad values → INVALID_ARGUMENT.

import { LakeletError } from '../../errors.js';
import type { AvroSchema, AvroRecordSchema, AvroLogicalType } from './schema.js';
import { AvroWriter } from './writer.js';
import { epochMicros } from '../../schema/timestamp-micros.js';

export { AvroWriter } from './writer.js';

/** A compiled writer for one schema: appends the encoding of `value` to `writer`. */
export type DatumWriter = (writer: AvroWriter, value: unknown) => void;

interface Compiled {
  write: DatumWriter;
  /** Whether `value` can be written by this node (used to pick union branches). */
  accepts: (value: unknown) => boolean;
}

const compiledRoots = new WeakMap<AvroSchema, DatumWriter>();
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const MS_PER_DAY = 86_400_000;

function invalid(message: string, value: unknown, field?: string): LakeletError {
  const shown = typeof value === 'bigint' ? `${value}n` : value instanceof Uint8Array ? `Uint8Array(${value.length})` : safeJson(value);
  return new LakeletError('INVALID_ARGUMENT', `avro encode: ${message}${field === undefined ? '' : ` (field ${field})`}: got ${shown}`, field === undefined ? { value } : { field, value });
}

function safeJson(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 80);
  } catch {
    return String(value);
  }
}

/**
 * Compile (once, cached per schema node) a writer that accepts lakelet values. Besides the values the
 * decoder produces it also accepts: numbers for `long`/time-micros (safe integers), `undefined` for `null`,
 * strings/bigints/numbers for decimals, numbers (days) for `date`, numbers/bigints for timestamps.
 * Union branches are chosen by the first branch that accepts the value.
 */
export function compileAvroWriter(schema: AvroSchema): DatumWriter {
  let fn = compiledRoots.get(schema);
  if (fn === undefined) {
    fn = compile(schema, new Map()).write;
    compiledRoots.set(schema, fn);
  }
  return fn;
}

/** Encode one value as an Avro binary datum. */
export function encodeAvroDatum(schema: AvroSchema, value: unknown): Uint8Array {
  const w = new AvroWriter(256);
  compileAvroWriter(schema)(w, value);
  return w.finish();
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof Date);
const isInt32 = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX;
const isLongLike = (v: unknown): v is bigint | number =>
  (typeof v === 'bigint' && v >= -(1n << 63n) && v < 1n << 63n) || (typeof v === 'number' && Number.isSafeInteger(v));
const isDecimalLike = (v: unknown): boolean => typeof v === 'string' || typeof v === 'bigint' || (typeof v === 'number' && Number.isFinite(v));

function compile(node: AvroSchema, memo: Map<AvroSchema, Compiled>): Compiled {
  const known = memo.get(node);
  if (known !== undefined) return known;
  switch (node.type) {
    case 'null':
      return { accepts: (v) => v === null || v === undefined, write: (_w, v) => { if (v !== null && v !== undefined) throw invalid('expected null', v); } };
    case 'boolean':
      return { accepts: (v) => typeof v === 'boolean', write: (w, v) => { if (typeof v !== 'boolean') throw invalid('expected boolean', v); w.writeBoolean(v); } };
    case 'int':
      if (node.logicalType?.name === 'date') {
        const accepts = (v: unknown): boolean => v instanceof Date || isInt32(v);
        return {
          accepts,
          write: (w, v) => {
            if (v instanceof Date && !Number.isNaN(v.getTime())) w.writeInt(Math.floor(v.getTime() / MS_PER_DAY));
            else if (isInt32(v)) w.writeInt(v);
            else throw invalid('expected a Date or day number for date', v);
          },
        };
      }
      return { accepts: isInt32, write: (w, v) => { if (!isInt32(v)) throw invalid('expected an int32 number', v); w.writeInt(v); } };
    case 'long':
      return compileLong(node.logicalType);
    case 'float':
    case 'double': {
      const f = node.type === 'float';
      return {
        accepts: (v) => typeof v === 'number',
        write: (w, v) => {
          if (typeof v !== 'number') throw invalid(`expected a number for ${node.type}`, v);
          if (f) w.writeFloat(v);
          else w.writeDouble(v);
        },
      };
    }
    case 'string':
      return { accepts: (v) => typeof v === 'string', write: (w, v) => { if (typeof v !== 'string') throw invalid('expected a string', v); w.writeString(v); } };
    case 'bytes': {
      const l = node.logicalType;
      if (l?.name === 'decimal') {
        return { accepts: isDecimalLike, write: (w, v) => w.writeBytes(decimalToBytes(v, l.precision, l.scale, undefined)) };
      }
      return { accepts: (v) => v instanceof Uint8Array, write: (w, v) => { if (!(v instanceof Uint8Array)) throw invalid('expected a Uint8Array', v); w.writeBytes(v); } };
    }
    case 'fixed': {
      const { size, logicalType: l } = node;
      if (l?.name === 'decimal') {
        return { accepts: isDecimalLike, write: (w, v) => w.writeFixed(decimalToBytes(v, l.precision, l.scale, size)) };
      }
      if (l?.name === 'uuid') {
        return { accepts: (v) => typeof v === 'string', write: (w, v) => w.writeFixed(uuidToBytes(v)) };
      }
      const accepts = (v: unknown): boolean => v instanceof Uint8Array && v.length === size;
      return { accepts, write: (w, v) => { if (!(v instanceof Uint8Array) || v.length !== size) throw invalid(`expected a Uint8Array of ${size} bytes for ${node.fullName}`, v); w.writeFixed(v); } };
    }
    case 'enum': {
      const index = new Map(node.symbols.map((s, i) => [s, i]));
      return {
        accepts: (v) => typeof v === 'string' && index.has(v),
        write: (w, v) => {
          const i = typeof v === 'string' ? index.get(v) : undefined;
          if (i === undefined) throw invalid(`expected a symbol of enum ${node.fullName}`, v);
          w.writeInt(i);
        },
      };
    }
    case 'array': {
      const item = compile(node.items, memo);
      return {
        accepts: Array.isArray,
        write: (w, v) => {
          if (!Array.isArray(v)) throw invalid('expected an array', v);
          if (v.length > 0) {
            w.writeLong(v.length);
            for (const x of v) item.write(w, x);
          }
          w.writeByte(0);
        },
      };
    }
    case 'map': {
      const value = compile(node.values, memo);
      return {
        accepts: isPlainObject,
        write: (w, v) => {
          if (!isPlainObject(v)) throw invalid('expected a plain object for map', v);
          const keys = Object.keys(v);
          if (keys.length > 0) {
            w.writeLong(keys.length);
            for (const k of keys) {
              w.writeString(k);
              value.write(w, v[k]);
            }
          }
          w.writeByte(0);
        },
      };
    }
    case 'union': {
      const branches = node.branches.map((b) => compile(b, memo));
      return {
        accepts: (v) => branches.some((b) => b.accepts(v)),
        write: (w, v) => {
          for (let i = 0; i < branches.length; i++) {
            const b = branches[i] as Compiled;
            if (b.accepts(v)) {
              w.writeInt(i);
              b.write(w, v);
              return;
            }
          }
          throw invalid(`no union branch [${node.branches.map((b) => b.type).join(', ')}] accepts the value`, v);
        },
      };
    }
    case 'record':
      return compileRecord(node, memo);
  }
}

function compileLong(l: AvroLogicalType | undefined): Compiled {
  const name = l?.name;
  if (name === 'timestamp-millis' || name === 'local-timestamp-millis' || name === 'timestamp-micros' || name === 'local-timestamp-micros') {
    const micros = name.endsWith('micros');
    return {
      accepts: (v) => v instanceof Date || isLongLike(v),
      write: (w, v) => {
        if (v instanceof Date) {
          const ms = v.getTime();
          if (Number.isNaN(ms)) throw invalid('invalid Date', v);
          w.writeLong(micros ? epochMicros(v) : ms);
        } else if (isLongLike(v)) w.writeLong(v);
        else throw invalid(`expected a Date or integer for ${name}`, v);
      },
    };
  }
  return { accepts: isLongLike, write: (w, v) => { if (!isLongLike(v)) throw invalid('expected a bigint or safe integer for long', v); w.writeLong(v); } };
}

function compileRecord(node: AvroRecordSchema, memo: Map<AvroSchema, Compiled>): Compiled {
  const self: Compiled = { accepts: () => false, write: () => undefined };
  memo.set(node, self);
  const fields = node.fields.map((f) => ({
    name: f.name,
    c: compile(f.type, memo),
    hasDefault: f.hasDefault,
    fallback: f.hasDefault ? defaultToValue(f.type, f.default) : undefined,
  }));
  const required = fields.filter((f) => !f.hasDefault && !f.c.accepts(undefined)).map((f) => f.name);
  self.accepts = (v) => isPlainObject(v) && required.every((k) => v[k] !== undefined);
  self.write = (w, v) => {
    if (!isPlainObject(v)) throw invalid(`expected an object for record ${node.fullName}`, v);
    for (const f of fields) {
      let x = Object.prototype.hasOwnProperty.call(v, f.name) ? v[f.name] : undefined;
      if (x === undefined && f.hasDefault) x = f.fallback;
      try {
        f.c.write(w, x);
      } catch (err) {
        if (err instanceof LakeletError && err.context.field === undefined) throw invalid(err.message.replace(/^avro encode: /, '').replace(/: got .*$/s, ''), x, `${node.fullName}.${f.name}`);
        throw err;
      }
    }
  };
  return self;
}

/** Turn a JSON default (Avro spec encoding) into a lakelet value for the given type. */
function defaultToValue(type: AvroSchema, json: unknown): unknown {
  const t = type.type === 'union' ? type.branches[0] : type;
  if (t === undefined || json === null) return json;
  if ((t.type === 'bytes' || t.type === 'fixed') && typeof json === 'string' && t.logicalType?.name !== 'decimal' && t.logicalType?.name !== 'uuid') {
    return Uint8Array.from(json, (ch) => ch.charCodeAt(0) & 0xff);
  }
  if (t.type === 'long' && typeof json === 'number' && Number.isSafeInteger(json)) return BigInt(json);
  if (t.type === 'record' && isPlainObject(json)) {
    const out: Record<string, unknown> = {};
    for (const f of t.fields) if (json[f.name] !== undefined) out[f.name] = defaultToValue(f.type, json[f.name]);
    return out;
  }
  return json;
}

/**
 * Decimal value → big-endian two's-complement bytes (minimal length, or exactly `size` for fixed).
 * Strings may have at most `scale` fraction digits (extra trailing zeros allowed); no silent rounding.
 */
export function decimalToBytes(value: unknown, precision: number, scale: number, size: number | undefined): Uint8Array {
  let unscaled: bigint;
  if (typeof value === 'bigint') unscaled = value * 10n ** BigInt(scale);
  else {
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
    const m = typeof text === 'string' ? /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim()) : null;
    if (m === null || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) throw invalid(`expected a decimal(${precision},${scale})`, value);
    let frac = m[3] ?? '';
    if (frac.length > scale) {
      if (!/^0*$/.test(frac.slice(scale))) throw invalid(`more than ${scale} fraction digits for decimal(${precision},${scale})`, value);
      frac = frac.slice(0, scale);
    }
    unscaled = BigInt(`${m[1] === '-' ? '-' : ''}${m[2] === '' ? '0' : m[2]}${frac.padEnd(scale, '0')}`);
  }
  const abs = unscaled < 0n ? -unscaled : unscaled;
  if (abs.toString().length > precision && abs !== 0n) throw invalid(`value exceeds precision ${precision}`, value);
  let len = 1;
  while (unscaled >= 1n << BigInt(8 * len - 1) || unscaled < -(1n << BigInt(8 * len - 1))) len++;
  const out = new Uint8Array(size ?? len);
  if (len > out.length) throw invalid(`decimal does not fit in fixed(${out.length})`, value);
  let x = BigInt.asUintN(out.length * 8, unscaled);
  for (let i = out.length - 1; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

function uuidToBytes(v: unknown): Uint8Array {
  const hex = typeof v === 'string' ? v.replace(/-/g, '') : '';
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw invalid('expected a UUID string', v);
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}
