// One vector of values as it crosses to a worker (worker/record-wire.ts): numbers as a Float64Array, 64-bit
// bigints as a BigInt64Array, strings as the UTF-8 bytes of all of them joined with their end offsets — buffers
// the pool transfers rather than clones, so posting a file group's records costs the sending thread (a page's
// main thread) next to nothing: structured clone copies every value it serializes, ~1 ms per 300 KB. A vector of
// anything else (or strings that are not well-formed UTF-16, whose lone surrogates UTF-8 cannot carry) crosses as
// the plain array, cloned.

/** Slot kinds beside a packed vector: 0 a value, 1 null, 2 undefined (absent). */
const NULL = 1;
const ABSENT = 2;

/** Strings joined: `utf8` the UTF-8 bytes of all of them, `ends[i]` the end of string `i` in UTF-16 units. */
export interface PackedStrings {
  utf8: Uint8Array;
  ends: Uint32Array;
  kinds?: Uint8Array;
}

/** Numbers (every JS number, -0 and NaN included) or signed 64-bit bigints. */
export interface PackedNumbers {
  numbers: Float64Array | BigInt64Array;
  kinds?: Uint8Array;
}

/** A vector as it crosses. */
export type WireColumn = unknown[] | PackedStrings | PackedNumbers;

/** Longest string vector joined (V8's string limit is ~2^29 UTF-16 units); longer ones cross as arrays. */
const MAX_JOINED = 2 ** 28;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** Marks slot `i` of `kinds` (made on the first null or undefined) for a non-value; false for a value. */
function markSlot(kinds: { of?: Uint8Array }, values: readonly unknown[], i: number): boolean {
  const v = values[i];
  if (v !== null && v !== undefined) return false;
  (kinds.of ??= new Uint8Array(values.length))[i] = v === null ? NULL : ABSENT;
  return true;
}

/** `values` packed when they are all of one packable type (nulls and undefineds aside), else `values` itself. */
export function packColumn(values: unknown[]): WireColumn {
  let type: string | undefined;
  for (const v of values) {
    if (v === null || v === undefined) continue;
    const t = typeof v;
    if (type === undefined) type = t;
    else if (t !== type) return values;
    if (t === 'bigint' && BigInt.asIntN(64, v as bigint) !== v) return values;
  }
  if (type === 'string') return packStrings(values) ?? values;
  if (type !== 'number' && type !== 'bigint') return values;
  const kinds: { of?: Uint8Array } = {};
  const numbers = type === 'number' ? new Float64Array(values.length) : new BigInt64Array(values.length);
  for (let i = 0; i < values.length; i++) if (!markSlot(kinds, values, i)) numbers[i] = values[i] as never;
  return kinds.of ? { numbers, kinds: kinds.of } : { numbers };
}

function packStrings(values: readonly unknown[]): PackedStrings | undefined {
  const kinds: { of?: Uint8Array } = {};
  const ends = new Uint32Array(values.length);
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    if (!markSlot(kinds, values, i)) at += (values[i] as string).length;
    ends[i] = at;
  }
  if (at > MAX_JOINED) return undefined;
  const joined = values.join(''); // null and undefined join as ''
  // Lone surrogates would arrive as U+FFFD: such vectors cross as they are (isWellFormed: ES2024).
  const wellFormed = (joined as { isWellFormed?: () => boolean }).isWellFormed;
  if (typeof wellFormed !== 'function' || !wellFormed.call(joined)) return undefined;
  const bytes = utf8.encode(joined);
  return kinds.of ? { utf8: bytes, ends, kinds: kinds.of } : { utf8: bytes, ends };
}

/** The vector {@link packColumn} packed. */
export function unpackColumn(column: WireColumn): unknown[] {
  if (Array.isArray(column)) return column;
  const { kinds } = column;
  const out: unknown[] = new Array('ends' in column ? column.ends.length : column.numbers.length);
  if ('ends' in column) {
    const joined = fromUtf8.decode(column.utf8);
    let start = 0;
    for (let i = 0; i < out.length; i++) {
      const end = column.ends[i] as number;
      const kind = kinds === undefined ? 0 : kinds[i];
      out[i] = kind === 0 ? joined.slice(start, end) : kind === NULL ? null : undefined;
      start = end;
    }
    return out;
  }
  const { numbers } = column;
  for (let i = 0; i < out.length; i++) {
    const kind = kinds === undefined ? 0 : kinds[i];
    out[i] = kind === 0 ? numbers[i] : kind === NULL ? null : undefined;
  }
  return out;
}

/** The buffers of `views` that each view owns whole, for a transfer list (a view into a shared buffer stays cloned). */
export function ownedBuffers(views: readonly ArrayBufferView[]): ArrayBuffer[] {
  return views.filter((v) => v.byteOffset === 0 && v.byteLength === v.buffer.byteLength).map((v) => v.buffer as ArrayBuffer);
}

/** The buffers of a packed vector, for the transfer list (none for a plain array; packColumn makes them all fresh). */
export function columnBuffers(column: WireColumn): ArrayBuffer[] {
  if (Array.isArray(column)) return [];
  const views: ArrayBufferView[] = 'ends' in column ? [column.utf8, column.ends] : [column.numbers];
  if (column.kinds) views.push(column.kinds);
  return ownedBuffers(views);
}
