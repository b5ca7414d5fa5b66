// DELETE blocks of content versions 1 and 2 (Kryo, Hudi 0.10–0.13): Hudi's own Kryo-written sample, then every
// ordering-value type, nulls, references, content version 1, and the refusals (unknown classes → UNSUPPORTED
// naming them; malformed graphs → CORRUPT_FILE with the offset). Bytes other than the sample come from the
// test encoder in test/helpers/kryo-encode.ts, written from Kryo's writer side.
import { describe, expect, it } from 'vitest';
import { isLakeletError, type LakeletError } from '../../../src/errors.js';
import { decodeDeleteBlock, decodeDeleteBlockContent } from '../../../src/format/log/delete-block.js';
import { encodeLogBlock, scanLogBlocks } from '../../../src/format/log/block.js';
import { decodeKryoDeleteRecords } from '../../../src/format/log/kryo-delete.js';
import { encodeKryoDeleteRecords, kryoDeleteBlockContent, type KryoDeleteInput, type KryoOrderingValue } from '../../helpers/kryo-encode.js';

/**
 * apache/hudi `TestHoodieDeleteBlock.testDeserializeV2DeleteBlock`: a content-version-2 block Hudi wrote with
 * Kryo, expected to hold `DeleteRecord.create("key" + i, "2023-01-01", i * 5873)` for i = 1, 2 (Integer values).
 * Java bytes are signed; they are written here as Java lists them.
 */
const HUDI_SAMPLE = Uint8Array.from([
  0, 0, 0, 2, 0, 0, 0, -88, 1, 0, 91, 76, 111, 114, 103, 46, 97, 112, 97, 99, 104, 101, 46, 104,
  117, 100, 105, 46, 99, 111, 109, 109, 111, 110, 46, 109, 111, 100, 101, 108, 46, 68, 101, 108,
  101, 116, 101, 82, 101, 99, 111, 114, 100, -69, 1, 3, 1, 1, 111, 114, 103, 46, 97, 112, 97, 99,
  104, 101, 46, 104, 117, 100, 105, 46, 99, 111, 109, 109, 111, 110, 46, 109, 111, 100, 101, 108,
  46, 68, 101, 108, 101, 116, 101, 82, 101, 99, 111, 114, -28, 1, 1, 2, 111, 114, 103, 46, 97, 112,
  97, 99, 104, 101, 46, 104, 117, 100, 105, 46, 99, 111, 109, 109, 111, 110, 46, 109, 111, 100,
  101, 108, 46, 72, 111, 111, 100, 105, 101, 75, 101, -7, 1, 1, 50, 48, 50, 51, 45, 48, 49, 45,
  48, -79, 1, 107, 101, 121, -79, 2, -30, 91, 1, 1, 1, 1, 2, 1, 5, 1, 107, 101, 121, -78, 2, -60,
  -73, 1,
].map((b) => b & 0xff));

function errorOf(f: () => unknown): LakeletError {
  try {
    f();
  } catch (err) {
    if (isLakeletError(err)) return err;
    throw err;
  }
  throw new Error('expected an error');
}

const decode = (records: KryoDeleteInput[], options?: Parameters<typeof kryoDeleteBlockContent>[1]) =>
  decodeDeleteBlockContent(kryoDeleteBlockContent(records, options), 'f.log', 100);

const one = (orderingVal: KryoOrderingValue | null) => decode([{ recordKey: 'k', partitionPath: 'p', orderingVal }])[0]!;

describe('Hudi-written Kryo delete block (TestHoodieDeleteBlock sample)', () => {
  it('decodes to the records Hudi expects, Integer ordering values as int', () => {
    expect(new DataView(HUDI_SAMPLE.buffer).getInt32(4)).toBe(HUDI_SAMPLE.length - 8); // 168 bytes of Kryo
    expect(decodeDeleteBlockContent(HUDI_SAMPLE)).toEqual([
      { recordKey: 'key1', partitionPath: '2023-01-01', orderingVal: 5873, orderingValType: 'int', orderingValBranch: 2 },
      { recordKey: 'key2', partitionPath: '2023-01-01', orderingVal: 2 * 5873, orderingValType: 'int', orderingValBranch: 2 },
    ]);
  });

  it('the test encoder writes the sample byte for byte (the second partition path is a back reference)', () => {
    const records = [1, 2].map((i) => ({ recordKey: `key${i}`, partitionPath: '2023-01-01', orderingVal: { type: 'Integer' as const, value: i * 5873 } }));
    expect(kryoDeleteBlockContent(records)).toEqual(HUDI_SAMPLE);
  });

  it('reads through a DELETE log block', () => {
    const bytes = encodeLogBlock('DELETE', { INSTANT_TIME: '20230101000000000' }, HUDI_SAMPLE);
    const [block] = scanLogBlocks(bytes).blocks;
    expect(decodeDeleteBlock(block!).map((r) => r.recordKey)).toEqual(['key1', 'key2']);
  });
});

describe('ordering values of every type Kryo writes there', () => {
  it.each([
    ['Integer min', { type: 'Integer', value: -2147483648 }, -2147483648, 'int'],
    ['Integer max', { type: 'Integer', value: 2147483647 }, 2147483647, 'int'],
    ['Integer 0 (Spark SQL deletes; natural order)', { type: 'Integer', value: 0 }, 0, 'int'],
    ['Long min (9 varint bytes)', { type: 'Long', value: -(2n ** 63n) }, -(2n ** 63n), 'long'],
    ['Long max', { type: 'Long', value: 2n ** 63n - 1n }, 2n ** 63n - 1n, 'long'],
    ['Long negative', { type: 'Long', value: -233498n }, -233498n, 'long'],
    ['Long event time', { type: 'Long', value: 1690766971000n }, 1690766971000n, 'long'],
    ['Short', { type: 'Short', value: -300 }, -300, 'int'],
    ['Byte', { type: 'Byte', value: -5 }, -5, 'int'],
    ['Float', { type: 'Float', value: 0.125 }, 0.125, 'float'],
    ['Double', { type: 'Double', value: 809.25 }, 809.25, 'double'],
    ['Double max', { type: 'Double', value: Number.MAX_VALUE }, Number.MAX_VALUE, 'double'],
    ['Boolean true', { type: 'Boolean', value: true }, true, 'boolean'],
    ['Boolean false', { type: 'Boolean', value: false }, false, 'boolean'],
    ['Character', { type: 'Character', value: 'é' }, 'é', 'string'],
    ['String ASCII', { type: 'String', value: 'val1' }, 'val1', 'string'],
    ['String of one char (UTF-8 form)', { type: 'String', value: 'x' }, 'x', 'string'],
    ['String empty', { type: 'String', value: '' }, '', 'string'],
    ['String non-ASCII (2- and 3-byte chars, a surrogate pair)', { type: 'String', value: 'ü€😀' }, 'ü€😀', 'string'],
    ['String of 100 ASCII chars (UTF-8 form, 2-byte length)', { type: 'String', value: 'a'.repeat(100) }, 'a'.repeat(100), 'string'],
    ['Utf8 (0.13, registered id 27)', { type: 'Utf8', value: '2023-07-01 ü' }, '2023-07-01 ü', 'string'],
    ['BigDecimal', { type: 'BigDecimal', unscaled: 123456789012342948n, scale: 4 }, '12345678901234.2948', 'decimal'],
    ['BigDecimal negative', { type: 'BigDecimal', unscaled: -15n, scale: 1 }, '-1.5', 'decimal'],
    ['LocalDate', { type: 'LocalDate', year: 1980, month: 7, day: 1 }, new Date(Date.UTC(1980, 6, 1)), 'date'],
    ['Timestamp', { type: 'Timestamp', millis: 1672536571000n }, new Date(1672536571000), 'timestamp-micros'],
  ] as [string, KryoOrderingValue, unknown, string][])('%s', (_name, value, expected, type) => {
    const rec = one(value);
    expect(rec.orderingVal).toEqual(expected);
    expect(rec.orderingValType).toBe(type);
    expect(rec).toMatchObject({ recordKey: 'k', partitionPath: 'p' });
  });

  it('a null orderingVal (class id 0) and a null String value', () => {
    expect(one(null)).toMatchObject({ orderingVal: null, orderingValType: 'null', orderingValBranch: 0 });
    expect(one({ type: 'String', value: null })).toMatchObject({ orderingVal: null, orderingValType: 'null' });
  });

  it('null record keys and partition paths (writeObjectOrNull NULL)', () => {
    expect(decode([{ recordKey: null, partitionPath: null, orderingVal: null }, { recordKey: 'k', partitionPath: null, orderingVal: null }]).map((r) => [r.recordKey, r.partitionPath])).toEqual([[null, null], ['k', null]]);
  });
});

describe('references and class names', () => {
  const records: KryoDeleteInput[] = [
    { recordKey: 'a', partitionPath: 'p=1', orderingVal: { type: 'String', value: 'p=1' } },
    { recordKey: 'b', partitionPath: 'p=1', orderingVal: { type: 'String', value: 'a' } },
    { recordKey: 'p=1', partitionPath: 'p=2', orderingVal: { type: 'Long', value: 7n } },
  ];
  const expected = [['a', 'p=1', 'p=1'], ['b', 'p=1', 'a'], ['p=1', 'p=2', 7n]];
  const rows = (bytes: Uint8Array) => decodeDeleteBlockContent(bytes).map((r) => [r.recordKey, r.partitionPath, r.orderingVal]);

  it('shared strings written once and referenced after, or written every time, read alike', () => {
    const shared = kryoDeleteBlockContent(records);
    const unshared = kryoDeleteBlockContent(records, { shareEqualStrings: false });
    expect(shared.length).toBeLessThan(unshared.length);
    expect(rows(shared)).toEqual(expected);
    expect(rows(unshared)).toEqual(expected);
  });

  it('class names are written once: the second DeleteRecord names its class by id only', () => {
    const graph = encodeKryoDeleteRecords(records);
    const text = new TextDecoder('latin1').decode(graph.map((b) => b & 0x7f));
    expect(text.split('org.apache.hudi.common.model.DeleteRecord').length - 1).toBe(2); // the array's and the element's
    expect(text.split('org.apache.hudi.common.model.HoodieKey').length - 1).toBe(1);
  });

  it('a reference past the objects read, or to an object of another class, is CORRUPT_FILE at its offset', () => {
    // Hudi's sample: the second partition path is the back reference 5 (object id 3, "2023-01-01") at byte 166.
    expect(HUDI_SAMPLE[166]).toBe(5);
    const past = HUDI_SAMPLE.slice();
    past[166] = 40;
    const err = errorOf(() => decodeDeleteBlockContent(past, 'f.log', 1000));
    expect(err.code).toBe('CORRUPT_FILE');
    expect(err.context).toMatchObject({ path: 'f.log', offset: 1166 });
    expect(err.message).toContain('object id 38');
    const wrongClass = HUDI_SAMPLE.slice();
    wrongClass[166] = 3; // object id 1: the first DeleteRecord
    expect(errorOf(() => decodeDeleteBlockContent(wrongClass)).message).toMatch(/a org\.apache\.hudi\.common\.model\.DeleteRecord\) where a java\.lang\.String belongs/);
  });
});

describe('content version 1: HoodieKey[]', () => {
  it('reads the keys with ordering value 0, as DeleteRecord.create(HoodieKey) gives', () => {
    const content = kryoDeleteBlockContent([{ recordKey: 'k1', partitionPath: 'p', orderingVal: null }, { recordKey: 'k2', partitionPath: 'p', orderingVal: null }], { version: 1 });
    expect(decodeDeleteBlockContent(content)).toEqual([
      { recordKey: 'k1', partitionPath: 'p', orderingVal: 0, orderingValType: 'int', orderingValBranch: 2 },
      { recordKey: 'k2', partitionPath: 'p', orderingVal: 0, orderingValType: 'int', orderingValBranch: 2 },
    ]);
  });

  it('a version that does not match the array class is CORRUPT_FILE', () => {
    const v1 = kryoDeleteBlockContent([{ recordKey: 'k', partitionPath: 'p', orderingVal: null }], { version: 1 });
    new DataView(v1.buffer).setInt32(0, 2);
    expect(errorOf(() => decodeDeleteBlockContent(v1)).code).toBe('CORRUPT_FILE');
  });
});

describe('refusals', () => {
  it('an ordering value of a class lakelet does not read is UNSUPPORTED naming the class and its offset', () => {
    const bytes = kryoDeleteBlockContent([{ recordKey: 'k', partitionPath: 'p', orderingVal: { type: 'named', className: 'java.util.UUID', body: Uint8Array.of(0) } }]);
    const err = errorOf(() => decodeDeleteBlockContent(bytes, 'f.log', 100));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.context.value).toBe('java.util.UUID');
    expect(err.message).toContain('java.util.UUID');
    // The graph ends with the class tag (1), its name id, the name, the reference marker and the 1-byte body.
    const at = bytes.length - (1 + 1 + 'java.util.UUID'.length + 1 + 1);
    expect(bytes[at]).toBe(1);
    expect(err.context.offset).toBe(100 + at);
  });

  it('Avro Utf8 by name (0.10–0.12, FieldSerializer over fields that differ by Avro release) is UNSUPPORTED naming it', () => {
    for (const className of ['org.apache.avro.util.Utf8', 'org.apache.hudi.org.apache.avro.util.Utf8']) {
      const bytes = kryoDeleteBlockContent([{ recordKey: 'k', partitionPath: 'p', orderingVal: { type: 'named', className, body: Uint8Array.of(1, 3, 0x61, 0x62) } }]);
      const err = errorOf(() => decodeDeleteBlockContent(bytes));
      expect([err.code, err.context.value]).toEqual(['UNSUPPORTED', className]);
    }
  });

  it('a registered class id Hudi does not write there is UNSUPPORTED naming the id', () => {
    // Registered id 12 (HoodieEmptyRecord in 0.13's registrar) in place of the Integer's id 0 in Hudi's sample.
    const bytes = HUDI_SAMPLE.slice();
    expect(bytes[157]).toBe(2);
    bytes[157] = 14;
    const err = errorOf(() => decodeDeleteBlockContent(bytes, 'f.log'));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.context).toMatchObject({ path: 'f.log', offset: 157, value: 12 });
  });

  it('a graph that is not a delete array (a pre-Apache com.uber.hoodie key) is UNSUPPORTED naming its class', () => {
    const graph = encodeKryoDeleteRecords([{ recordKey: 'k', partitionPath: 'p', orderingVal: null }], { version: 1 });
    const renamed = new TextDecoder('latin1').decode(graph).replace('org.apache.hudi.common.model.HoodieKey', 'com.uber.hoodie.common.model.HoodieKey');
    const data = Uint8Array.from(renamed, (c) => c.charCodeAt(0));
    const err = errorOf(() => decodeKryoDeleteRecords(data, 1));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.context.value).toBe('[Lcom.uber.hoodie.common.model.HoodieKey;');
  });

  it('truncated data, stray bytes, null elements and an unknown content version', () => {
    const content = kryoDeleteBlockContent([{ recordKey: 'k', partitionPath: 'p', orderingVal: { type: 'Long', value: 1n } }]);
    const truncated = content.slice(0, content.length - 1);
    new DataView(truncated.buffer).setInt32(4, truncated.length - 8);
    const t = errorOf(() => decodeDeleteBlockContent(truncated, 'f.log', 10));
    expect([t.code, t.context.path]).toEqual(['CORRUPT_FILE', 'f.log']);
    expect(t.context.offset).toBeGreaterThanOrEqual(10 + 8);
    const stray = new Uint8Array(content.length + 1);
    stray.set(content);
    new DataView(stray.buffer).setInt32(4, content.length - 8 + 1);
    expect(errorOf(() => decodeDeleteBlockContent(stray)).message).toContain('1 stray bytes');
    // An array whose one element is null (class tag 0): Hudi would fail on it later; lakelet says so now.
    const nullElement = Uint8Array.of(...encodeKryoDeleteRecords([]).slice(0, -1), 2, 0);
    expect(errorOf(() => decodeKryoDeleteRecords(nullElement, 2)).code).toBe('CORRUPT_FILE');
    const v4 = content.slice();
    new DataView(v4.buffer).setInt32(0, 4);
    expect(errorOf(() => decodeDeleteBlockContent(v4))).toMatchObject({ code: 'UNSUPPORTED', context: { value: 4 } });
  });

  it('any single-byte change or truncation of Hudi\'s sample decodes or throws a LakeletError, never anything else', () => {
    let refused = 0;
    for (let i = 8; i < HUDI_SAMPLE.length; i++) {
      for (const b of [0, 1, 2, 5, 0x7f, 0x80, 0xc1, 0xff]) {
        const bytes = HUDI_SAMPLE.slice();
        bytes[i] = b;
        try {
          decodeDeleteBlockContent(bytes);
        } catch (err) {
          expect(isLakeletError(err, 'CORRUPT_FILE') || isLakeletError(err, 'UNSUPPORTED')).toBe(true);
          refused++;
        }
      }
      const cut = HUDI_SAMPLE.slice(0, i);
      new DataView(cut.buffer).setInt32(4, i - 8);
      expect(isLakeletError(errorOf(() => decodeDeleteBlockContent(cut)), 'CORRUPT_FILE')).toBe(true);
    }
    expect(refused).toBeGreaterThan(0);
  });
});
