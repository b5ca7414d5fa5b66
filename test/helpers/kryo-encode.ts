// A test-only Kryo 4.x encoder for the delete records of DELETE log blocks of content versions 1 and 2, written
// from Kryo's writer side (Output.writeVarInt/writeVarLong/writeString/writeUtf8Length, DefaultClassResolver
// writeClass/writeName, MapReferenceResolver's written ids, ObjectArraySerializer.write, FieldSerializer's
// alphabetical fields) and Hudi's SerializationUtils (`writeClassAndObject` of the array, references on), not from
// lakelet's decoder. Hudi's own sample (TestHoodieDeleteBlock) is what the decoder is checked against; this builds
// the cases the sample does not have.

/** A Java ordering value as Hudi 0.10–0.13 could hold it in `DeleteRecord.orderingVal`. */
export type KryoOrderingValue =
  | { type: 'Integer' | 'Short' | 'Byte' | 'Float' | 'Double'; value: number }
  | { type: 'Long'; value: bigint }
  | { type: 'Boolean'; value: boolean }
  | { type: 'Character'; value: string }
  | { type: 'String'; value: string | null }
  /** 0.13: Avro Utf8, registered (id 27) with Hudi's AvroUtf8Serializer. */
  | { type: 'Utf8'; value: string }
  /** java.math.BigDecimal: unscaled value and scale. */
  | { type: 'BigDecimal'; unscaled: bigint; scale: number }
  | { type: 'LocalDate'; year: number; month: number; day: number }
  /** java.sql.Timestamp (epoch millis). */
  | { type: 'Timestamp'; millis: bigint }
  /** Any class by name, its body bytes as given (for refusal tests). */
  | { type: 'named'; className: string; body: Uint8Array };

/** One delete record to encode. */
export interface KryoDeleteInput {
  recordKey: string | null;
  partitionPath: string | null;
  /** null: a null orderingVal (class id 0). Ignored for version 1. */
  orderingVal: KryoOrderingValue | null;
}

/** Encoding options. */
export interface KryoEncodeOptions {
  /** 2 (DeleteRecord[], default) or 1 (HoodieKey[]). */
  version?: 1 | 2;
  /**
   * Equal strings are one Java instance (written once, then referenced), as Hudi's sample writes its constant
   * partition path. Default true; false writes every string anew.
   */
  shareEqualStrings?: boolean;
}

const MODEL = 'org.apache.hudi.common.model.';
const REGISTERED_IDS: Record<string, number> = { Integer: 0, String: 1, Float: 2, Boolean: 3, Byte: 4, Character: 5, Short: 6, Long: 7, Double: 8, Utf8: 27 };

class KryoOutput {
  private readonly bytes: number[] = [];
  private readonly nameIds = new Map<string, number>();
  private readonly written = new Map<unknown, number>();

  byte(b: number): void {
    this.bytes.push(b & 0xff);
  }

  raw(b: Uint8Array): void {
    for (const x of b) this.byte(x);
  }

  varInt(value: number, optimizePositive: boolean): void {
    let v = optimizePositive ? value >>> 0 : ((value << 1) ^ (value >> 31)) >>> 0;
    while (v >>> 7 !== 0) {
      this.byte((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    this.byte(v);
  }

  varLong(value: bigint, optimizePositive: boolean): void {
    let v = BigInt.asUintN(64, optimizePositive ? value : (value << 1n) ^ (value >> 63n));
    for (let i = 0; i < 8; i++) {
      if (v >> 7n === 0n) return this.byte(Number(v));
      this.byte(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.byte(Number(v)); // the 9th byte holds the top 8 bits whole
  }

  fixed(width: 2 | 4 | 8, write: (view: DataView) => void): void {
    const view = new DataView(new ArrayBuffer(width));
    write(view);
    this.raw(new Uint8Array(view.buffer));
  }

  utf8Length(value: number): void {
    if (value >>> 6 === 0) return this.byte(value | 0x80);
    this.byte(value | 0xc0);
    let rest = value >>> 6;
    while (rest >>> 7 !== 0) {
      this.byte((rest & 0x7f) | 0x80);
      rest >>>= 7;
    }
    this.byte(rest);
  }

  string(s: string | null): void {
    if (s === null) return this.byte(0x80);
    if (s.length === 0) return this.byte(0x81);
    const ascii = s.length > 1 && s.length < 64 && [...s].every((c) => c.charCodeAt(0) <= 127);
    if (ascii) {
      for (let i = 0; i < s.length; i++) this.byte(s.charCodeAt(i) | (i === s.length - 1 ? 0x80 : 0));
      return;
    }
    this.utf8Length(s.length + 1);
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c <= 0x7f) this.byte(c);
      else if (c > 0x7ff) {
        this.byte(0xe0 | ((c >> 12) & 0x0f));
        this.byte(0x80 | ((c >> 6) & 0x3f));
        this.byte(0x80 | (c & 0x3f));
      } else {
        this.byte(0xc0 | ((c >> 6) & 0x1f));
        this.byte(0x80 | (c & 0x3f));
      }
    }
  }

  /** writeClass: null → 0, registered → id + 2, else 1, the name id, and the name the first time. */
  writeClass(name: string | null, registeredId?: number): void {
    if (name === null) return this.varInt(0, true);
    if (registeredId !== undefined) return this.varInt(registeredId + 2, true);
    this.varInt(1, true);
    const known = this.nameIds.get(name);
    if (known !== undefined) return this.varInt(known, true);
    const id = this.nameIds.size;
    this.nameIds.set(name, id);
    this.varInt(id, true);
    this.string(name);
  }

  /** writeReferenceOrNull for a reference-tracked object: true when only a back reference was written. */
  reference(identity: unknown): boolean {
    const seen = this.written.get(identity);
    if (seen !== undefined) {
      this.varInt(seen + 2, true);
      return true;
    }
    this.written.set(identity, this.written.size);
    this.varInt(1, true);
    return false;
  }

  result(): Uint8Array {
    return new Uint8Array(this.bytes);
  }
}

function writeStringField(out: KryoOutput, s: string | null, share: boolean): void {
  if (s === null) return out.varInt(0, true); // writeObjectOrNull: NULL
  if (!out.reference(share ? `string:${s}` : {})) out.string(s);
}

function writeOrderingValue(out: KryoOutput, v: KryoOrderingValue | null, share: boolean): void {
  if (v === null) return out.writeClass(null);
  if (v.type === 'named') {
    out.writeClass(v.className);
    out.reference({});
    return out.raw(v.body);
  }
  if (v.type === 'BigDecimal' || v.type === 'LocalDate' || v.type === 'Timestamp') out.writeClass(`java.${v.type === 'BigDecimal' ? 'math' : v.type === 'LocalDate' ? 'time' : 'sql'}.${v.type}`);
  else out.writeClass(v.type, REGISTERED_IDS[v.type]);
  switch (v.type) {
    case 'Integer':
      return out.varInt(v.value, false);
    case 'Long':
      return out.varLong(v.value, false);
    case 'Short':
      return out.fixed(2, (d) => d.setInt16(0, v.value));
    case 'Byte':
      return out.byte(v.value);
    case 'Float':
      return out.fixed(4, (d) => d.setFloat32(0, v.value));
    case 'Double':
      return out.fixed(8, (d) => d.setFloat64(0, v.value));
    case 'Boolean':
      return out.byte(v.value ? 1 : 0);
    case 'Character':
      return out.fixed(2, (d) => d.setUint16(0, v.value.charCodeAt(0)));
    case 'String':
      if (!out.reference(share && v.value !== null ? `string:${v.value}` : {})) out.string(v.value);
      return;
    case 'Utf8': {
      out.reference({});
      const bytes = new TextEncoder().encode(v.value);
      out.varInt(bytes.length + 1, true);
      return out.raw(bytes);
    }
    case 'BigDecimal': {
      out.reference({});
      const bytes = twosComplement(v.unscaled);
      out.varInt(bytes.length + 1, true);
      out.raw(bytes);
      return out.varInt(v.scale, false);
    }
    case 'LocalDate':
      out.reference({});
      out.varInt(v.year, true);
      out.byte(v.month);
      return out.byte(v.day);
    case 'Timestamp':
      out.reference({});
      return out.varLong(v.millis, true);
  }
}

/** BigInteger.toByteArray: minimal big-endian two's complement. */
function twosComplement(v: bigint): Uint8Array {
  const out: number[] = [];
  let x = v;
  for (;;) {
    const b = Number(BigInt.asUintN(8, x));
    out.unshift(b);
    x >>= 8n;
    if ((x === 0n && (b & 0x80) === 0) || (x === -1n && (b & 0x80) !== 0)) break;
  }
  return new Uint8Array(out);
}

/** The Kryo graph `SerializationUtils.serialize` writes for the records (no version/length prefix). */
export function encodeKryoDeleteRecords(records: readonly KryoDeleteInput[], options: KryoEncodeOptions = {}): Uint8Array {
  const version = options.version ?? 2;
  const share = options.shareEqualStrings ?? true;
  const out = new KryoOutput();
  const element = `${MODEL}${version === 1 ? 'HoodieKey' : 'DeleteRecord'}`;
  out.writeClass(`[L${element};`);
  out.reference({});
  out.varInt(records.length + 1, true);
  for (const r of records) {
    out.writeClass(element);
    out.reference({});
    if (version === 2) {
      out.writeClass(`${MODEL}HoodieKey`); // field hoodieKey: declared HoodieKey, not final
      out.reference({});
    }
    writeStringField(out, r.partitionPath, share); // HoodieKey fields, alphabetical
    writeStringField(out, r.recordKey, share);
    if (version === 2) writeOrderingValue(out, r.orderingVal, share); // field orderingVal: declared Comparable
  }
  return out.result();
}

/** DELETE block content of version 1 or 2: int32 version, int32 length, the Kryo graph. */
export function kryoDeleteBlockContent(records: readonly KryoDeleteInput[], options: KryoEncodeOptions = {}): Uint8Array {
  const graph = encodeKryoDeleteRecords(records, options);
  const content = new Uint8Array(8 + graph.length);
  const view = new DataView(content.buffer);
  view.setInt32(0, options.version ?? 2);
  view.setInt32(4, graph.length);
  content.set(graph, 8);
  return content;
}
