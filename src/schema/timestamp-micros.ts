// Timestamps with microseconds: `MicrosDate`, a Date that also carries its exact epoch microseconds, so a
// value read from a timestamp-micros column (or given as micros) is written back without losing digits.
// Everything that expects a Date keeps working; the writers ask `epochMicros()` for the exact value.

/** `a / b` rounded towards negative infinity. */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

/**
 * A Date (its time value the millisecond the instant falls in) that keeps the exact epoch microseconds:
 * what lakelet returns for timestamp-micros values, and what it accepts to write them exactly.
 * `toISOString()` (and so `JSON.stringify`) prints six fraction digits when the microseconds are not whole
 * milliseconds. Mutating it with a Date setter drops the extra microseconds (the Date value wins).
 */
export class MicrosDate extends Date {
  /** Exact microseconds since the epoch, as constructed. */
  readonly micros: bigint;

  constructor(epochMicros: bigint) {
    super(Number(floorDiv(epochMicros, 1000n)));
    this.micros = epochMicros;
  }

  /** Microseconds beyond the millisecond (0–999), or 0 after the Date was changed by a setter. */
  get subMillisecondMicros(): number {
    return BigInt(this.getTime()) === floorDiv(this.micros, 1000n) ? Number(this.micros - floorDiv(this.micros, 1000n) * 1000n) : 0;
  }

  override toISOString(): string {
    const iso = super.toISOString();
    const extra = this.subMillisecondMicros;
    return extra === 0 ? iso : `${iso.slice(0, -1)}${String(extra).padStart(3, '0')}Z`;
  }
}

/** Epoch microseconds → a {@link MicrosDate}. */
export function dateFromEpochMicros(micros: bigint): MicrosDate {
  return new MicrosDate(micros);
}

/** The exact epoch microseconds of a Date: a MicrosDate's own, else its milliseconds × 1000. */
export function epochMicros(d: Date): bigint {
  const ms = BigInt(d.getTime());
  if (d instanceof MicrosDate && floorDiv(d.micros, 1000n) === ms) return d.micros;
  return ms * 1000n;
}

/**
 * An ISO-8601 fraction of a second (the digits after the dot) as microseconds past the millisecond: digits
 * 4–6 (`"123456"` → 456; `"1234567"` → 456, nanoseconds dropped; fewer than four digits → 0).
 */
export function fractionMicros(frac: string): number {
  return frac.length <= 3 ? 0 : Number(frac.slice(3, 6).padEnd(3, '0'));
}

/** The key of the plain object a MicrosDate becomes on the worker wire (NUL: no Avro field can be named so). */
const WIRE_KEY = '\u0000lakelet.micros';

/**
 * `value` with every MicrosDate (inside plain objects, arrays and Maps) replaced by a plain marker object that
 * survives structured cloning — a cloned MicrosDate would arrive as a plain Date without its microseconds.
 * Returns `value` itself when it holds no MicrosDate. Undo with {@link microsFromWire} on the other side.
 * With `schema` (the Avro schema of the records inside), the deep walk runs only when it has a microsecond time
 * type: no other schema's records can hold a MicrosDate.
 */
export function microsToWire<T>(value: T, schema?: unknown): T {
  return schema && !hasMicros(schema) ? value : (toWire(value) as T);
}

/** Whether an Avro schema has a microsecond time type (only its values can hold a MicrosDate). */
const hasMicros = (schema: unknown): boolean => JSON.stringify(schema).includes('micros"');

function toWire(v: unknown): unknown {
  if (v instanceof MicrosDate) return v.subMillisecondMicros === 0 ? new Date(v.getTime()) : { [WIRE_KEY]: v.micros };
  if (v === null || typeof v !== 'object' || v instanceof Date || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return v;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    v.forEach((x, i) => {
      const y = toWire(x);
      if (y !== x) (out ??= v.slice())[i] = y;
    });
    return out ?? v;
  }
  if (v instanceof Map) {
    let out: Map<unknown, unknown> | undefined;
    for (const [k, x] of v) {
      const y = toWire(x);
      if (y !== x) (out ??= new Map(v)).set(k, y);
    }
    return out ?? v;
  }
  let out: Record<string, unknown> | undefined;
  for (const [k, x] of Object.entries(v)) {
    const y = toWire(x);
    if (y !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = y;
  }
  return out ?? v;
}

/**
 * Turn the markers {@link microsToWire} left back into MicrosDates, in place (the receiver owns its clone); with
 * the `schema` given there, only when it has a microsecond time type.
 */
export function microsFromWire<T>(value: T, schema?: unknown): T {
  return schema && !hasMicros(schema) ? value : (fromWire(value) as T);
}

function fromWire(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || v instanceof Date || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = fromWire(v[i]);
    return v;
  }
  if (v instanceof Map) {
    for (const [k, x] of v) v.set(k, fromWire(x));
    return v;
  }
  const o = v as Record<string, unknown>;
  const micros = o[WIRE_KEY];
  if (typeof micros === 'bigint') return new MicrosDate(micros);
  for (const k of Object.keys(o)) o[k] = fromWire(o[k]);
  return o;
}
