// DELETE log-block content versions 1 and 2 (Hudi 0.10–0.13): the Kryo object graph Hudi's
// `SerializationUtils.serialize` writes for `HoodieKey[]` (1) and `DeleteRecord[]` (2), decoded as Hudi 0.14 reads
// it (`HoodieDeleteBlock.deserialize` → `Kryo.readClassAndObject`) — and nothing else.
//
// Hudi's Kryo (4.0.2): registration not required, references on (`MapReferenceResolver`), the default
// registrations (ids 0–9: int, String, float, boolean, byte, char, short, long, double, void; primitive wrappers
// share them), and from 0.13 `HoodieCommonKryoRegistrar` (ids 10–26 Hudi records and payloads) then Avro `Utf8`
// (id 27, `AvroUtf8Serializer`). `writeClass`: varint 0 = null, 1 = by name (varint name id; the class name
// follows the first time the id is seen), n ≥ 2 = registered id n − 2. References: every object but the eight
// primitive wrappers carries a varint marker — 0 null (where null may be), 1 a new object (it takes the next id,
// in pre-order), n ≥ 2 the object with id n − 2 seen before. `ObjectArraySerializer`: varint length + 1, then,
// the component class not being final, each element with `writeClassAndObject`. `FieldSerializer`: fields in
// alphabetical order — `DeleteRecord {hoodieKey, orderingVal}` (declared types not final: class, then object),
// `HoodieKey {partitionPath, recordKey}` (String is final: marker, then the string). Hudi's own sample
// (`TestHoodieDeleteBlock.testDeserializeV2DeleteBlock`) has exactly this shape.

import { unsupported } from '../../errors.js';
import { dateFromDays, dateFromMillis, decimalFromBytes } from '../../schema/values.js';
import { KryoInput } from '../kryo/input.js';
import type { OrderingValType } from './delete-block.js';

/** A record of a Kryo delete block: the `DeleteRecord` fields, `orderingVal` in lakelet's value model. */
export interface KryoDeleteRecord {
  recordKey: string | null;
  partitionPath: string | null;
  orderingVal: unknown;
  /** The version-3 orderingVal branch the Java value maps to (Hudi 0.14's `wrapValueIntoAvro`). */
  orderingValType: OrderingValType;
}

const MODEL = 'org.apache.hudi.common.model.';
/** `DeleteRecord` (content version 2). */
export const DELETE_RECORD_CLASS = `${MODEL}DeleteRecord`;
/** `HoodieKey` (a DeleteRecord's key; content version 1's elements). */
export const HOODIE_KEY_CLASS = `${MODEL}HoodieKey`;
const ARRAY_OF = (c: string) => `[L${c};`;
const UTF8_REGISTERED = 'org.apache.avro.util.Utf8 (registered id 27)';

/** Kryo's default registrations (ids 0–9), by id; the primitive wrappers use their primitive's. */
const REGISTERED: Record<number, string> = {
  0: 'java.lang.Integer', 1: 'java.lang.String', 2: 'java.lang.Float', 3: 'java.lang.Boolean', 4: 'java.lang.Byte',
  5: 'java.lang.Character', 6: 'java.lang.Short', 7: 'java.lang.Long', 8: 'java.lang.Double', 9: 'void',
  27: UTF8_REGISTERED,
};

/** Types without reference markers (`Util.isWrapperClass`). */
const WRAPPERS = new Set(['java.lang.Integer', 'java.lang.Float', 'java.lang.Boolean', 'java.lang.Long', 'java.lang.Byte', 'java.lang.Character', 'java.lang.Short', 'java.lang.Double']);

/** Ordering-value classes read (by name or registration) and the version-3 branch each maps to. */
const ORDERING_CLASSES: Record<string, OrderingValType> = {
  'java.lang.Integer': 'int', 'java.lang.Short': 'int', 'java.lang.Byte': 'int', 'java.lang.Long': 'long',
  'java.lang.Float': 'float', 'java.lang.Double': 'double', 'java.lang.Boolean': 'boolean', 'java.lang.String': 'string',
  'java.lang.Character': 'string', [UTF8_REGISTERED]: 'string', 'java.math.BigDecimal': 'decimal',
  'java.time.LocalDate': 'date', 'java.sql.Timestamp': 'timestamp-micros', 'java.util.Date': 'timestamp-micros',
};

interface RefEntry {
  cls: string;
  value: unknown;
  done: boolean;
}

interface Key {
  partitionPath: string | null;
  recordKey: string | null;
}

interface Rec {
  key: Key;
  orderingVal: unknown;
  cls: string | null;
}

/** One pass over a Kryo graph: the class-name table and the reference table. */
class GraphReader {
  private readonly names = new Map<number, string>();
  private readonly refs: RefEntry[] = [];

  constructor(readonly input: KryoInput) {}

  /** `DefaultClassResolver.readClass`: null, or the class's Java name. */
  readClass(): string | null {
    const at = this.input.pos;
    const tag = this.input.readVarInt(true);
    if (tag < 0) throw this.input.error(`class tag ${tag >>> 0} out of range`, at);
    if (tag === 0) return null;
    if (tag === 1) {
      const nameId = this.input.readVarInt(true);
      const known = this.names.get(nameId);
      if (known !== undefined) return known;
      const name = this.input.readString();
      if (name === null || name === '') throw this.input.error(`class name id ${nameId} has no class name`, at);
      this.names.set(nameId, name);
      return name;
    }
    const cls = REGISTERED[tag - 2];
    if (cls === undefined) {
      throw unsupported(`log block: a Kryo delete block names registered class id ${tag - 2}, which is not a class Hudi writes there`, this.context(at, tag - 2));
    }
    return cls;
  }

  /** `Kryo.readClassAndObject` where only `expected` (never null) may stand: anything else is CORRUPT_FILE. */
  readClassAndObjectOf(expected: string, what: string): unknown {
    const at = this.input.pos;
    const cls = this.readClass();
    if (cls !== expected) throw this.storeError(cls, expected, at, what);
    return this.readObject(cls, false);
  }

  /** `Kryo.readObject` (`mayBeNull` false) / `readObjectOrNull` (true) of a known class, reference marker first. */
  readObject(cls: string, mayBeNull: boolean): unknown {
    const at = this.input.pos;
    if (WRAPPERS.has(cls)) {
      if (mayBeNull) {
        const marker = this.input.readVarInt(true);
        if (marker === 0) return null;
        if (marker !== 1) throw this.input.error(`null marker ${marker} before a ${cls}`, at);
      }
      return this.readBody(cls, at);
    }
    const marker = this.input.readVarInt(true);
    if (marker === 0) {
      if (mayBeNull) return null;
      throw this.input.error(`reference marker 0 (null) where a ${cls} cannot be null`, at);
    }
    if (marker === 1) {
      const entry: RefEntry = { cls, value: undefined, done: false };
      this.refs.push(entry);
      entry.value = this.readBody(cls, at);
      entry.done = true;
      return entry.value;
    }
    const entry = this.refs[marker - 2];
    if (entry === undefined) throw this.input.error(`reference to object id ${marker - 2}, but only ${this.refs.length} were read`, at);
    if (!entry.done) throw this.input.error(`reference to object id ${marker - 2}, which is still being read (a cycle)`, at);
    if (entry.cls !== cls) throw this.input.error(`reference to object id ${marker - 2} (a ${entry.cls}) where a ${cls} belongs`, at);
    return entry.value;
  }

  private readBody(cls: string, at: number): unknown {
    const input = this.input;
    switch (cls) {
      case ARRAY_OF(DELETE_RECORD_CLASS):
      case ARRAY_OF(HOODIE_KEY_CLASS): {
        const length = input.readVarInt(true);
        if (length === 0) return null;
        const count = length - 1;
        if (count < 0 || count > input.remaining) throw input.error(`array length ${count} exceeds the ${input.remaining} bytes left`, at);
        const component = cls.slice(2, -1);
        const out: unknown[] = [];
        for (let i = 0; i < count; i++) out.push(this.readClassAndObjectOf(component, 'an element'));
        return out;
      }
      case DELETE_RECORD_CLASS: {
        const key = this.readClassAndObjectOf(HOODIE_KEY_CLASS, 'DeleteRecord.hoodieKey') as Key;
        const valueAt = input.pos;
        const valueClass = this.readClass();
        if (valueClass !== null && ORDERING_CLASSES[valueClass] === undefined) {
          throw unsupported(`log block: a Kryo delete block has an orderingVal of class ${valueClass}, which lakelet does not read`, this.context(valueAt, valueClass));
        }
        const orderingVal = valueClass === null ? null : this.readObject(valueClass, false);
        return { key, orderingVal, cls: valueClass } satisfies Rec;
      }
      case HOODIE_KEY_CLASS: {
        const partitionPath = this.readObject('java.lang.String', true) as string | null;
        const recordKey = this.readObject('java.lang.String', true) as string | null;
        return { partitionPath, recordKey } satisfies Key;
      }
      case 'java.lang.Integer':
        return input.readVarInt(false);
      case 'java.lang.Long':
        return input.readVarLong(false);
      case 'java.lang.Short':
        return input.readShort();
      case 'java.lang.Byte':
        return input.readByte();
      case 'java.lang.Float':
        return input.readFloat();
      case 'java.lang.Double':
        return input.readDouble();
      case 'java.lang.Boolean':
        return input.readBoolean();
      case 'java.lang.Character':
        return input.readChar();
      case 'java.lang.String':
        return input.readString();
      case UTF8_REGISTERED: {
        // AvroUtf8Serializer: the bytes as Kryo's ByteArraySerializer writes them (varint length + 1, bytes).
        const length = input.readVarInt(true);
        if (length === 0) throw input.error('a null Utf8 orderingVal', at);
        const bytesAt = input.pos;
        return input.decodeUtf8(input.readBytes(length - 1), bytesAt);
      }
      case 'java.math.BigDecimal': {
        // BigDecimalSerializer: BigInteger (varint length + 1, two's-complement bytes), then the scale (zigzag).
        const length = input.readVarInt(true);
        if (length === 0) return null;
        if (length === 1) throw input.error('a BigDecimal with an empty unscaled value', at);
        const bytes = input.readBytes(length - 1);
        const scale = input.readVarInt(false);
        if (scale < 0) throw unsupported(`log block: a Kryo delete block has a BigDecimal orderingVal with negative scale ${scale}`, this.context(at, scale));
        return decimalFromBytes(bytes, scale);
      }
      case 'java.time.LocalDate': {
        // TimeSerializers.LocalDateSerializer: year (varint), month and day (one byte each).
        const year = input.readVarInt(true);
        const month = input.readByte();
        const day = input.readByte();
        const date = new Date(0);
        date.setUTCFullYear(year, month - 1, day);
        if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) throw input.error(`invalid LocalDate ${year}-${month}-${day}`, at);
        return dateFromDays(date.getTime() / 86_400_000);
      }
      case 'java.sql.Timestamp':
      case 'java.util.Date':
        // DefaultSerializers.DateSerializer: epoch milliseconds (varlong, optimizePositive).
        return dateFromMillis(input.readVarLong(true));
      default:
        throw unsupported(`log block: a Kryo delete block holds an object of class ${cls}, which Hudi does not write there`, this.context(at, cls));
    }
  }

  private storeError(found: string | null, expected: string, at: number, what: string): Error {
    return this.input.error(`${found === null ? 'null' : `a ${found}`} where ${what} must be a ${expected}`, at);
  }

  /** Error context: the file, the absolute offset and the offending value. */
  context(at: number, value: unknown): { path?: string; offset: number; value: unknown } {
    return { ...(this.input.path === undefined ? {} : { path: this.input.path }), offset: this.input.offsetOf(at), value };
  }
}

/**
 * Decode the Kryo data of a DELETE block of content version 1 (`HoodieKey[]`; every ordering value is 0, as
 * `DeleteRecord.create(HoodieKey)` gives) or 2 (`DeleteRecord[]`). `data` is the serialized graph (after the
 * version and length ints); `dataOffset` (its offset in the file) and `path` only decorate errors. A class other
 * than those Hudi writes there → `UNSUPPORTED` naming it; malformed data or stray bytes → `CORRUPT_FILE`.
 */
export function decodeKryoDeleteRecords(data: Uint8Array, version: 1 | 2, path?: string, dataOffset = 0): KryoDeleteRecord[] {
  const input = new KryoInput(data, path, dataOffset);
  const graph = new GraphReader(input);
  const expected = ARRAY_OF(version === 1 ? HOODIE_KEY_CLASS : DELETE_RECORD_CLASS);
  const at = input.pos;
  const cls = graph.readClass();
  if (cls !== expected) {
    if (cls === ARRAY_OF(HOODIE_KEY_CLASS) || cls === ARRAY_OF(DELETE_RECORD_CLASS)) {
      throw input.error(`content version ${version} holds a ${cls}, not a ${expected}`, at);
    }
    throw unsupported(`log block: a Kryo delete block (content version ${version}) holds ${cls === null ? 'null' : `a ${cls}`}, not a ${expected}`, graph.context(at, cls));
  }
  const items = graph.readObject(cls, false) as unknown[] | null;
  if (items === null) throw input.error(`a null ${expected}`, at);
  if (input.remaining !== 0) throw input.error(`${input.remaining} stray bytes after the delete records`);
  if (version === 1) {
    return (items as Key[]).map((k) => ({ recordKey: k.recordKey, partitionPath: k.partitionPath, orderingVal: 0, orderingValType: 'int' }));
  }
  return (items as Rec[]).map((r) => ({
    recordKey: r.key.recordKey,
    partitionPath: r.key.partitionPath,
    orderingVal: r.orderingVal,
    orderingValType: r.cls === null || r.orderingVal === null ? 'null' : (ORDERING_CLASSES[r.cls] as OrderingValType),
  }));
}
