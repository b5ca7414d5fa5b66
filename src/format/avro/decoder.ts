// Avro binary datum decoding: compiles one reader closure per schema node (done once per schema) that turns
// Avro bytes into lakelet's value model (src/format/values.ts). Bytes and fixed values are copied.

import type { AvroSchema, AvroRecordSchema, AvroLogicalType } from './schema.js';
import { AvroReader } from './reader.js';
import { dateFromDays, dateFromMicros, decimalFromBytes } from '../../schema/values.js';
import { MicrosDate } from '../../schema/timestamp-micros.js';

export { AvroReader } from './reader.js';

/** A compiled reader for one schema: reads one datum at the reader's position and advances it. */
export type DatumReader = (reader: AvroReader) => unknown;

/** Arrays/maps whose items take zero bytes (e.g. `null`) may claim at most this many items per block. */
const MAX_ZERO_SIZE_ITEMS = 10_000_000;

const compiledRoots = new WeakMap<AvroSchema, DatumReader>();

/**
 * Compile (once, cached per schema node) a reader producing lakelet values:
 * null→null, boolean, int/float/double→number, long→bigint, string/enum/uuid→string,
 * bytes/fixed→Uint8Array (a copy, never a view of the input), decimal→string with `scale` digits,
 * date/timestamps→Date, time-millis→number, time-micros→bigint, record→object, array→array, map→object.
 */
export function compileAvroReader(schema: AvroSchema): DatumReader {
  let fn = compiledRoots.get(schema);
  if (fn === undefined) {
    fn = compile(schema, new Map());
    compiledRoots.set(schema, fn);
  }
  return fn;
}

/** Options for {@link decodeAvroDatum}. */
export interface DecodeAvroDatumOptions {
  /** File name for error messages. */
  path?: string;
  /** Offset of `bytes[0]` within that file, for error messages. */
  offset?: number;
  /** Allow bytes left over after the datum (default false: leftovers are CORRUPT_FILE). */
  allowTrailing?: boolean;
}

/** Decode exactly one Avro binary datum from `bytes`. Malformed data → `CORRUPT_FILE` with path and offset. */
export function decodeAvroDatum(schema: AvroSchema, bytes: Uint8Array, options: DecodeAvroDatumOptions = {}): unknown {
  const reader = new AvroReader(bytes, options.path, 0, bytes.length, options.offset ?? 0);
  const value = compileAvroReader(schema)(reader);
  if (options.allowTrailing !== true && reader.pos !== reader.end) {
    throw reader.error(`${reader.end - reader.pos} unexpected bytes after the datum`);
  }
  return value;
}

function compile(node: AvroSchema, memo: Map<AvroSchema, DatumReader>): DatumReader {
  const known = memo.get(node);
  if (known !== undefined) return known;
  switch (node.type) {
    case 'null':
      return () => null;
    case 'boolean':
      return (r) => r.readBoolean();
    case 'int':
      if (node.logicalType?.name === 'date') return (r) => dateFromDays(r.readInt());
      return (r) => r.readInt();
    case 'long':
      return compileLong(node.logicalType);
    case 'float':
      return (r) => r.readFloat();
    case 'double':
      return (r) => r.readDouble();
    case 'bytes': {
      const logical = node.logicalType;
      if (logical?.name === 'decimal') {
        const scale = logical.scale;
        return (r) => decimalFromBytes(r.readBytesView(), scale);
      }
      return (r) => r.readBytes();
    }
    case 'string':
      return (r) => r.readString();
    case 'fixed': {
      const size = node.size;
      const logical = node.logicalType;
      if (logical?.name === 'decimal') {
        const scale = logical.scale;
        return (r) => decimalFromBytes(r.readFixedView(size), scale);
      }
      if (logical?.name === 'uuid') return (r) => uuidFromBytes(r.readFixedView(size));
      return (r) => r.readFixed(size);
    }
    case 'enum': {
      const symbols = node.symbols;
      return (r) => {
        const at = r.pos;
        const i = r.readInt();
        const s = symbols[i];
        if (s === undefined) throw r.error(`enum index ${i} out of range for ${node.fullName}`, at);
        return s;
      };
    }
    case 'array':
      return compileArray(compile(node.items, memo), minEncodedSize(node.items, new Set()));
    case 'map':
      return compileMap(compile(node.values, memo), 1 + minEncodedSize(node.values, new Set()));
    case 'union':
      return compileUnion(node.branches.map((b) => compile(b, memo)));
    case 'record':
      return compileRecord(node, memo);
  }
}

function compileLong(logical: AvroLogicalType | undefined): DatumReader {
  switch (logical?.name) {
    case 'timestamp-millis':
    case 'local-timestamp-millis':
      return (r) => new Date(r.readLongAsDouble());
    case 'timestamp-micros':
    case 'local-timestamp-micros':
      return (r) => {
        const start = r.pos;
        const micros = r.readLongAsDouble();
        if (Number.isSafeInteger(micros)) return micros % 1000 === 0 ? new Date(micros / 1000) : new MicrosDate(BigInt(micros));
        r.pos = start; // beyond 2^53: decode exactly
        return dateFromMicros(r.readLong());
      };
    default:
      return (r) => r.readLong();
  }
}

function compileRecord(node: AvroRecordSchema, memo: Map<AvroSchema, DatumReader>): DatumReader {
  // Recursive references made while compiling the fields go through `holder`.
  const holder: { fn: DatumReader } = { fn: () => null };
  memo.set(node, (r) => holder.fn(r));
  const names = node.fields.map((f) => f.name);
  const readers = node.fields.map((f) => compile(f.type, memo));
  const n = names.length;
  const needsDefine = names.includes('__proto__');
  const fn: DatumReader = needsDefine
    ? (r) => {
        const out: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) setOwn(out, names[i] as string, (readers[i] as DatumReader)(r));
        return out;
      }
    : (r) => {
        const out: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) out[names[i] as string] = (readers[i] as DatumReader)(r);
        return out;
      };
  holder.fn = fn;
  memo.set(node, fn);
  return fn;
}

/** Read a block count; negative counts are followed by the block's byte size, which is validated and ignored. */
function readBlockCount(r: AvroReader, minItemSize: number): number {
  const at = r.pos;
  let count = r.readLongNumber();
  if (count < 0) {
    count = -count;
    r.readLength();
  }
  if (minItemSize > 0 ? count * minItemSize > r.remaining : count > MAX_ZERO_SIZE_ITEMS) {
    throw r.error(`block count ${count} exceeds the remaining data`, at);
  }
  return count;
}

function compileArray(item: DatumReader, minItemSize: number): DatumReader {
  return (r) => {
    const out: unknown[] = [];
    for (let count = readBlockCount(r, minItemSize); count !== 0; count = readBlockCount(r, minItemSize)) {
      for (let i = 0; i < count; i++) out.push(item(r));
    }
    return out;
  };
}

function compileMap(value: DatumReader, minEntrySize: number): DatumReader {
  return (r) => {
    const out: Record<string, unknown> = {};
    for (let count = readBlockCount(r, minEntrySize); count !== 0; count = readBlockCount(r, minEntrySize)) {
      for (let i = 0; i < count; i++) {
        const key = r.readString();
        setOwn(out, key, value(r));
      }
    }
    return out;
  };
}

function compileUnion(branches: DatumReader[]): DatumReader {
  const [first, second] = branches;
  if (branches.length === 2 && first !== undefined && second !== undefined) {
    return (r) => {
      const at = r.pos;
      const i = r.readInt();
      if (i === 0) return first(r);
      if (i === 1) return second(r);
      throw r.error(`union branch ${i} out of range (2 branches)`, at);
    };
  }
  return (r) => {
    const at = r.pos;
    const i = r.readInt();
    const b = branches[i];
    if (b === undefined) throw r.error(`union branch ${i} out of range (${branches.length} branches)`, at);
    return b(r);
  };
}

/** Smallest possible encoded size of a value of `node` in bytes (recursion counts as 0). */
export function minEncodedSize(node: AvroSchema, visiting: Set<AvroSchema>): number {
  switch (node.type) {
    case 'null':
      return 0;
    case 'float':
      return 4;
    case 'double':
      return 8;
    case 'fixed':
      return node.size;
    case 'record': {
      if (visiting.has(node)) return 0;
      visiting.add(node);
      let total = 0;
      for (const f of node.fields) total += minEncodedSize(f.type, visiting);
      visiting.delete(node);
      return total;
    }
    default:
      return 1;
  }
}

/** Assign an own property, also for the key `__proto__` (which plain assignment would treat as the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Format 16 bytes as a canonical UUID string. */
export function uuidFromBytes(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) s += '-';
    s += HEX[b[i] as number] as string;
  }
  return s;
}
