// One leaf column's buffered data between row groups: its definition and repetition levels and its non-null
// physical values, kept typed (Float64Array for DOUBLE, BigInt64Array for INT64, …) so the page encoder copies
// them out in one go. Strings stay JS strings until the encoder writes them as UTF-8.
import type { ParquetType } from 'hyparquet';

/** The typed store of a fixed-width physical type; byte arrays and strings are kept in a plain array. */
export type NumericStore = Float64Array | Float32Array | Int32Array | BigInt64Array | Uint8Array;

/** A BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY value as buffered: bytes, or a string the encoder writes as UTF-8. */
export type BinaryValue = Uint8Array | string;

const utf8 = new TextEncoder();

function numericStore(type: ParquetType, capacity: number): NumericStore | undefined {
  switch (type) {
    case 'DOUBLE': return new Float64Array(capacity);
    case 'FLOAT': return new Float32Array(capacity);
    case 'INT32': return new Int32Array(capacity);
    case 'INT64': return new BigInt64Array(capacity);
    case 'BOOLEAN': return new Uint8Array(capacity);
    default: return undefined;
  }
}

function grown<T extends NumericStore>(store: T, need: number): T {
  if (need <= store.length) return store;
  const next = new (store.constructor as new (n: number) => T)(Math.max(need, store.length * 2, 64));
  next.set(store as never);
  return next;
}

/**
 * The levels and non-null values of one leaf column, appended row by row (or vector by vector) and cut into row
 * groups by {@link LeafColumn.shift}. `levels` counts level entries (one per value slot, null or not);
 * `count` counts the non-null values.
 */
export class LeafColumn {
  /** Physical type of the values. */
  readonly type: ParquetType;
  /** Max definition level; levels are only recorded when it is above 0. */
  readonly maxDef: number;
  /** Max repetition level; repetition levels are only recorded when it is above 0. */
  readonly maxRep: number;
  /** Definition levels `[0, levels)` (empty when `maxDef` is 0). */
  defs: Uint8Array;
  /** Repetition levels `[0, levels)` (empty when `maxRep` is 0). */
  reps: Uint8Array;
  /** Fixed-width values `[0, count)`; undefined for byte-array types. */
  numbers: NumericStore | undefined;
  /**
   * Byte-array values `[0, count)`; empty for fixed-width types. Its length is a capacity (grown by doubling, as
   * the typed stores are): slots from `count` on are spare. Filling a preallocated array is ~4x cheaper in V8
   * than pushing or raising `length` per batch.
   */
  binaries: BinaryValue[] = [];
  /** Level entries buffered. */
  levels = 0;
  /** Non-null values buffered. */
  count = 0;

  constructor(type: ParquetType, maxDef: number, maxRep: number) {
    this.type = type;
    this.maxDef = maxDef;
    this.maxRep = maxRep;
    this.defs = new Uint8Array(maxDef > 0 ? 64 : 0);
    this.reps = new Uint8Array(maxRep > 0 ? 64 : 0);
    this.numbers = numericStore(type, 64);
  }

  /** Record a level entry with no value (`def` below `maxDef`). */
  pushNull(def: number, rep: number): void {
    this.level(def, rep);
  }

  /** Record a non-null physical value at `maxDef`. */
  push(value: unknown, rep: number): void {
    this.level(this.maxDef, rep);
    const store = this.numbers;
    if (store === undefined) {
      this.binaryRoom(this.count + 1)[this.count] = value as BinaryValue;
    } else {
      const s = grown(store, this.count + 1);
      this.numbers = s;
      if (s instanceof BigInt64Array) s[this.count] = value as bigint;
      else s[this.count] = value === true ? 1 : value === false ? 0 : (value as number);
    }
    this.count++;
  }

  /**
   * Append `n` slots of a flat column (`maxRep` 0) from `vector`: null or undefined as a null slot (`refuseNull`
   * returns the error of a required column, else undefined), any other value as `convert` makes it. One pass with
   * the stores sized once. On a throw, `levels` has grown by the slots taken before the bad one.
   */
  pushFlat(vector: ArrayLike<unknown>, n: number, convert: (v: unknown) => unknown, refuseNull: (v: unknown) => Error | undefined): void {
    const maxDef = this.maxDef;
    if (maxDef > 0) this.defs = grown(this.defs, this.levels + n);
    const defs = this.defs;
    let levels = this.levels;
    let count = this.count;
    try {
      const store = this.numbers === undefined ? undefined : (this.numbers = grown(this.numbers, count + n));
      const big = store instanceof BigInt64Array;
      const out = store === undefined ? this.binaryRoom(count + n) : this.binaries;
      for (let i = 0; i < n; i++) {
        const v = vector[i];
        if (v === null || v === undefined) {
          const refused = refuseNull(v);
          if (refused) throw refused;
          defs[levels++] = 0;
          continue;
        }
        const value = convert(v);
        if (store === undefined) out[count] = value as BinaryValue;
        else if (big) store[count] = value as bigint;
        else store[count] = value === true ? 1 : value === false ? 0 : (value as number);
        if (maxDef > 0) defs[levels] = maxDef;
        levels++;
        count++;
      }
    } finally {
      this.levels = levels;
      this.count = count;
    }
  }

  /**
   * Append `n` non-null values of a flat column (`maxRep` 0) in one copy: `source` is a typed array of this
   * column's store type.
   */
  pushTyped(source: NumericStore, n: number): void {
    if (this.maxDef > 0) {
      this.defs = grown(this.defs, this.levels + n);
      this.defs.fill(this.maxDef, this.levels, this.levels + n);
    }
    const s = grown(this.numbers as NumericStore, this.count + n);
    this.numbers = s;
    s.set(source.subarray(0, n) as never, this.count);
    this.levels += n;
    this.count += n;
  }

  /**
   * Make values `[0, count)` one kind: when stored bytes (a physical vector's, see physical-vector.ts) and strings
   * (converted fresh values) are mixed, the strings become their UTF-8 bytes, so statistics and the dictionary
   * compare like with like. A chunk of one kind is left as it is.
   */
  uniformBinaries(count: number): void {
    if (this.numbers !== undefined || count < 2) return;
    const values = this.binaries;
    const strings = typeof values[0] === 'string';
    let i = 1;
    while (i < count && (typeof values[i] === 'string') === strings) i++;
    if (i === count) return;
    for (let k = 0; k < count; k++) {
      const v = values[k];
      if (typeof v === 'string') values[k] = utf8.encode(v);
    }
  }

  /** Drop everything after `levels` level entries and `count` values (undo a partly shredded row or batch). */
  truncate(levels: number, count: number): void {
    if (this.numbers === undefined) this.binaries.fill(undefined as never, count, this.count);
    this.levels = levels;
    this.count = count;
  }

  /** Level entries and values that make up the first `rows` rows. */
  extent(rows: number): { levels: number; count: number } {
    let levels = rows;
    if (this.maxRep > 0) {
      levels = this.levels;
      let seen = 0;
      for (let i = 0; i < this.levels; i++) {
        if (this.reps[i] === 0 && seen++ === rows) {
          levels = i;
          break;
        }
      }
    }
    if (this.maxDef === 0) return { levels, count: levels };
    let count = 0;
    const d = this.defs;
    const max = this.maxDef;
    for (let i = 0; i < levels; i++) if (d[i] === max) count++;
    return { levels, count };
  }

  /** Remove the first `levels` level entries and `count` values (a row group was encoded from them). */
  shift(levels: number, count: number): void {
    if (this.maxDef > 0) this.defs.copyWithin(0, levels, this.levels);
    if (this.maxRep > 0) this.reps.copyWithin(0, levels, this.levels);
    if (this.numbers !== undefined) this.numbers.copyWithin(0, count, this.count);
    else this.binaries.copyWithin(0, count, this.count).fill(undefined as never, this.count - count, this.count);
    this.levels -= levels;
    this.count -= count;
  }

  /** The byte-array store with room for `need` values (grown by doubling; spare slots are holes). */
  private binaryRoom(need: number): BinaryValue[] {
    const have = this.binaries;
    if (need <= have.length) return have;
    const next: BinaryValue[] = new Array(Math.max(need, have.length * 2, 64));
    for (let i = 0; i < this.count; i++) next[i] = have[i] as BinaryValue;
    this.binaries = next;
    return next;
  }

  private level(def: number, rep: number): void {
    const i = this.levels;
    if (this.maxDef > 0) {
      if (i >= this.defs.length) this.defs = grown(this.defs, i + 1);
      this.defs[i] = def;
    }
    if (this.maxRep > 0) {
      if (i >= this.reps.length) this.reps = grown(this.reps, i + 1);
      this.reps[i] = rep;
    }
    this.levels = i + 1;
  }
}
