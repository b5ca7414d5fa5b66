// Simple, complex and non-partitioned key generators: Hudi's key strings, null/empty rules, partition paths
// (hive style, plain, urlencode) and the safety escaping that keeps hostile values inside the table root.
import { describe, expect, test } from 'vitest';
import { LakeletError } from '../../src/errors.js';
import { parseAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import { hudiValueString, javaBigDecimalToString, javaDoubleToString, javaFloatToString } from '../../src/keygen/field-value.js';
import {
  createKeyGenerator, loadKeyGenerator, keyGeneratorClassName, keyGeneratorOptionsFromConfig, parseKeyGeneratorType, type KeyGeneratorOptions,
} from '../../src/keygen/key-generator.js';
import { DEFAULT_PARTITION_PATH, escapePathName, isSafePartitionPath, unescapePathName } from '../../src/keygen/partition-path.js';
import { parseTableConfig } from '../../src/config/table-config.js';
import { thrown } from '../helpers/expect-error.js';

const base = { hiveStylePartitioning: false, urlEncodePartitioning: false } as const;
const simple = (over: Partial<KeyGeneratorOptions> = {}) =>
  createKeyGenerator({ type: 'SIMPLE', recordKeyFields: ['id'], partitionFields: ['p'], ...base, ...over });

const schema = parseAvroSchema({
  type: 'record', name: 'r', fields: [
    { name: 'i', type: 'int' },
    { name: 'l', type: 'long' },
    { name: 'f', type: 'float' },
    { name: 'd', type: 'double' },
    { name: 'dec', type: { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 7 } },
    { name: 'day', type: { type: 'int', logicalType: 'date' } },
    { name: 'tsm', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'tsu', type: ['null', { type: 'long', logicalType: 'timestamp-micros' }] },
    { name: 'nested', type: { type: 'record', name: 'n', fields: [{ name: 'x', type: 'string' }] } },
  ],
}) as AvroRecordSchema;

describe('Java toString of values', () => {
  test('doubles print like Double.toString', () => {
    expect(javaDoubleToString(1)).toBe('1.0');
    expect(javaDoubleToString(-2.5)).toBe('-2.5');
    expect(javaDoubleToString(3.14159)).toBe('3.14159');
    expect(javaDoubleToString(1e7)).toBe('1.0E7');
    expect(javaDoubleToString(12345678.9)).toBe('1.23456789E7');
    expect(javaDoubleToString(9999999)).toBe('9999999.0');
    expect(javaDoubleToString(0.001)).toBe('0.001');
    expect(javaDoubleToString(0.0001)).toBe('1.0E-4');
    expect(javaDoubleToString(1.5e-10)).toBe('1.5E-10');
    expect(javaDoubleToString(0)).toBe('0.0');
    expect(javaDoubleToString(-0)).toBe('-0.0');
    expect(javaDoubleToString(NaN)).toBe('NaN');
    expect(javaDoubleToString(-Infinity)).toBe('-Infinity');
  });

  test('floats print their shortest float32 digits', () => {
    expect(javaFloatToString(Math.fround(1.1))).toBe('1.1');
    expect(javaFloatToString(1)).toBe('1.0');
    expect(javaFloatToString(Math.fround(0.1))).toBe('0.1');
    expect(javaFloatToString(Math.fround(3e10))).toBe('3.0E10');
  });

  test('BigDecimal.toString switches to scientific notation below 1E-6', () => {
    expect(javaBigDecimalToString(1234567890n, 5)).toBe('12345.67890');
    expect(javaBigDecimalToString(-5n, 2)).toBe('-0.05');
    expect(javaBigDecimalToString(1n, 6)).toBe('0.000001');
    expect(javaBigDecimalToString(1n, 7)).toBe('1E-7');
    expect(javaBigDecimalToString(12n, 9)).toBe('1.2E-8');
    expect(javaBigDecimalToString(42n, 0)).toBe('42');
  });

  test('typed values follow the schema', () => {
    const t = (name: string) => schema.fields.find((f) => f.name === name)!.type;
    expect(hudiValueString(1, t('i'), 'i')).toBe('1');
    expect(hudiValueString(123n, t('l'), 'l')).toBe('123');
    expect(hudiValueString(1, t('d'), 'd')).toBe('1.0');
    expect(hudiValueString(Math.fround(2.2), t('f'), 'f')).toBe('2.2');
    expect(hudiValueString('0.0000001', t('dec'), 'dec')).toBe('1E-7');
    expect(hudiValueString('12.5000000', t('dec'), 'dec')).toBe('12.5000000');
    expect(hudiValueString(new Date('2024-01-15T00:00:00Z'), t('day'), 'day')).toBe('2024-01-15');
    expect(hudiValueString(new Date('2024-01-15T10:30:00Z'), t('tsm'), 'tsm')).toBe('1705314600000');
    expect(hudiValueString(new Date('2024-01-15T10:30:00Z'), t('tsu'), 'tsu')).toBe('1705314600000000');
    expect(hudiValueString(true, undefined, 'b')).toBe('true');
    expect(hudiValueString(null, undefined, 'b')).toBeNull();
  });

  test('untyped numbers: integers as digits, fractions as Java doubles; Dates as epoch micros', () => {
    expect(hudiValueString(7, undefined, 'x')).toBe('7');
    expect(hudiValueString(7.25, undefined, 'x')).toBe('7.25');
    expect(hudiValueString(new Date(1000), undefined, 'x')).toBe('1000000');
  });

  test('bytes, arrays and records cannot be keys', () => {
    for (const v of [new Uint8Array([1]), [1, 2], { a: 1 }]) {
      const err = thrown(() => hudiValueString(v, undefined, 'k'));
      expect(err.code).toBe('INVALID_ARGUMENT');
      expect(err.context.field).toBe('k');
    }
  });
});

describe('record keys', () => {
  test('simple key is the value as a string', () => {
    const kg = simple();
    expect(kg.recordKey({ id: 5, p: 'a' })).toBe('5');
    expect(kg.recordKey({ id: 'TXN-001', p: 'a' })).toBe('TXN-001');
    expect(kg.recordKey({ id: 9007199254740993n, p: 'a' })).toBe('9007199254740993');
    expect(kg.recordKey({ id: 1.0, p: 'a' })).toBe('1');
    const typed = createKeyGenerator({ type: 'SIMPLE', recordKeyFields: ['d'], partitionFields: [], ...base, schema });
    expect(typed.recordKey({ d: 1.0 })).toBe('1.0');
  });

  test('simple key null or empty is an error naming the field', () => {
    const kg = simple();
    for (const id of [null, undefined, '']) {
      const err = thrown(() => kg.recordKey({ id, p: 'a' }));
      expect(err.code).toBe('INVALID_ARGUMENT');
      expect(err.context.field).toBe('id');
      expect(err.message).toContain("'id'");
    }
  });

  test('complex key is f1:v1,f2:v2 with __null__ and __empty__ placeholders', () => {
    const kg = createKeyGenerator({ type: 'COMPLEX', recordKeyFields: ['id', 'name'], partitionFields: ['a', 'b'], ...base });
    expect(kg.recordKey({ id: 1, name: 'Alice' })).toBe('id:1,name:Alice');
    expect(kg.recordKey({ id: 1, name: null })).toBe('id:1,name:__null__');
    expect(kg.recordKey({ id: 1, name: '' })).toBe('id:1,name:__empty__');
    expect(kg.recordKey({ name: 'x' })).toBe('id:__null__,name:x');
  });

  test('complex key with a single field still names it (Hudi 0.14 / table v9 encoding)', () => {
    const kg = createKeyGenerator({ type: 'COMPLEX', recordKeyFields: ['id'], partitionFields: [], ...base });
    expect(kg.recordKey({ id: 3 })).toBe('id:3');
  });

  test('complex key whose parts are all null or empty is an error', () => {
    const kg = createKeyGenerator({ type: 'COMPLEX', recordKeyFields: ['id', 'name'], partitionFields: [], ...base });
    const err = thrown(() => kg.recordKey({ id: null, name: '' }));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.context.field).toBe('id,name');
  });

  test('non-partitioned: one field → simple key, several → complex key, empty path', () => {
    const one = createKeyGenerator({ type: 'NON_PARTITION', recordKeyFields: ['id'], partitionFields: [], ...base });
    expect(one.recordKey({ id: 2 })).toBe('2');
    expect(one.partitionPath({ id: 2 })).toBe('');
    const two = createKeyGenerator({ type: 'NON_PARTITION', recordKeyFields: ['id', 'k'], partitionFields: [], ...base });
    expect(two.recordKey({ id: 2, k: 'x' })).toBe('id:2,k:x');
  });

  test('nested fields are reached with dots', () => {
    const kg = createKeyGenerator({ type: 'SIMPLE', recordKeyFields: ['nested.x'], partitionFields: ['nested.x'], hiveStylePartitioning: true, urlEncodePartitioning: false, schema });
    expect(kg.recordKey({ nested: { x: 'deep' } })).toBe('deep');
    expect(kg.partitionPath({ nested: { x: 'deep' } })).toBe('nested.x=deep');
    expect(kg.partitionPath({ nested: null })).toBe(`nested.x=${DEFAULT_PARTITION_PATH}`);
  });

  test('invalid configurations are refused', () => {
    expect(() => createKeyGenerator({ type: 'SIMPLE', recordKeyFields: ['a', 'b'], partitionFields: [], ...base })).toThrow(/exactly 1 record key/);
    expect(() => createKeyGenerator({ type: 'SIMPLE', recordKeyFields: ['a'], partitionFields: ['x', 'y'], ...base })).toThrow(/partition/);
    expect(() => createKeyGenerator({ type: 'NON_PARTITION', recordKeyFields: ['a'], partitionFields: ['x'], ...base })).toThrow(/partition/);
    expect(() => createKeyGenerator({ type: 'COMPLEX', recordKeyFields: [], partitionFields: [], ...base })).toThrow(/record key/);
    expect(() => createKeyGenerator({ type: 'TIMESTAMP', recordKeyFields: ['a'], partitionFields: ['t'], ...base })).toThrow(/timestamp options/);
    const missing = thrown(() => createKeyGenerator({ type: 'SIMPLE', recordKeyFields: ['nope'], partitionFields: [], ...base, schema }));
    expect(missing.context.field).toBe('nope');
    expect(() => createKeyGenerator({ type: 'SIMPLE', recordKeyFields: ['id'], partitionFields: ['../x'], ...base })).toThrow(/cannot be used/);
  });
});

describe('partition paths', () => {
  test('hive style joins field=value with /', () => {
    const kg = createKeyGenerator({ type: 'COMPLEX', recordKeyFields: ['id'], partitionFields: ['byteField', 'shortField'], hiveStylePartitioning: true, urlEncodePartitioning: false });
    expect(kg.partitionPath({ id: 1, byteField: 10, shortField: 300 })).toBe('byteField=10/shortField=300');
  });

  test('plain style joins values', () => {
    const kg = createKeyGenerator({ type: 'COMPLEX', recordKeyFields: ['id'], partitionFields: ['y', 'm'], ...base });
    expect(kg.partitionPath({ id: 1, y: 2024, m: 'jan' })).toBe('2024/jan');
  });

  test('null or empty values become __HIVE_DEFAULT_PARTITION__', () => {
    const plain = simple();
    expect(plain.partitionPath({ id: 1, p: null })).toBe(DEFAULT_PARTITION_PATH);
    expect(plain.partitionPath({ id: 1, p: '' })).toBe(DEFAULT_PARTITION_PATH);
    const hive = simple({ hiveStylePartitioning: true });
    expect(hive.partitionPath({ id: 1 })).toBe(`p=${DEFAULT_PARTITION_PATH}`);
    const complex = createKeyGenerator({ type: 'COMPLEX', recordKeyFields: ['id'], partitionFields: ['a', 'b'], hiveStylePartitioning: true, urlEncodePartitioning: true });
    expect(complex.partitionPath({ id: 1, a: '', b: 'x' })).toBe(`a=${DEFAULT_PARTITION_PATH}/b=x`);
  });

  test('urlencode escapes like Hive escapePathName', () => {
    expect(escapePathName('a b:c=d/e%f#g?h*i"j\'k[l]m{n^o\\p\u0001q\u007f')).toBe('a b%3Ac%3Dd%2Fe%25f%23g%3Fh%2Ai%22j%27k%5Bl%5Dm%7Bn%5Eo%5Cp%01q%7F');
    expect(escapePathName('héllo~!')).toBe('héllo~!');
    expect(unescapePathName(escapePathName('a/b:c%'))).toBe('a/b:c%');
    const kg = simple({ urlEncodePartitioning: true, hiveStylePartitioning: true });
    expect(kg.partitionPath({ id: 1, p: '2024-01-15 10:30:00' })).toBe('p=2024-01-15 10%3A30%3A00');
  });

  test('without urlencode, ordinary values are written raw as Hudi does', () => {
    const kg = simple();
    expect(kg.partitionPath({ id: 1, p: 'san francisco:ca=1' })).toBe('san francisco:ca=1');
    expect(kg.partitionPath({ id: 1, p: 'a.b..c' })).toBe('a.b..c');
  });

  const HOSTILE = ['../../etc', '..', '.', 'a/b', '/abs', 'a/../../b', '.hoodie', '..\\..\\x', '\u0000', 'x\u0000y', 'new\nline', '%2F', '%2e%2e', './', 'a//b', '\\', '.\u0001'];

  function checkSegments(path: string): void {
    expect(isSafePartitionPath(path)).toBe(true);
    for (const segment of path.split('/')) {
      expect(segment).not.toBe('');
      expect(segment).not.toBe('.');
      expect(segment).not.toBe('..');
      expect(segment.startsWith('.')).toBe(false);
      expect(segment).not.toMatch(/[\u0000-\u001f\u007f\\]/);
    }
  }

  for (const hive of [false, true]) {
    for (const urlEncode of [false, true]) {
      test(`hostile values stay one safe segment (hive=${hive}, urlencode=${urlEncode})`, () => {
        const kg = simple({ hiveStylePartitioning: hive, urlEncodePartitioning: urlEncode });
        const seen = new Set<string>();
        for (const value of HOSTILE) {
          const path = kg.partitionPath({ id: 1, p: value });
          checkSegments(path);
          expect(path.split('/')).toHaveLength(1);
          expect(path).not.toContain('/');
          if (hive) expect(path.startsWith('p=')).toBe(true);
          expect(seen.has(path)).toBe(false); // distinct values stay distinct
          seen.add(path);
        }
        // A value that looks like an escape is itself escaped, so it never decodes to a slash.
        const pct = kg.partitionPath({ id: 1, p: '%2F' });
        expect(unescapePathName(pct.replace(/^p=/, ''))).toBe('%2F');
      });
    }
  }

  test('hostile values in a two-level path keep exactly two segments', () => {
    const kg = createKeyGenerator({ type: 'COMPLEX', recordKeyFields: ['id'], partitionFields: ['a', 'b'], ...base });
    for (const a of HOSTILE) {
      for (const b of ['..', 'x/y', '.hidden']) {
        const path = kg.partitionPath({ id: 1, a, b });
        checkSegments(path);
        expect(path.split('/')).toHaveLength(2);
      }
    }
  });

  test('the specific safety encodings', () => {
    const kg = simple();
    expect(kg.partitionPath({ id: 1, p: '../../etc' })).toBe('%2E.%2F..%2Fetc');
    expect(kg.partitionPath({ id: 1, p: '.hoodie' })).toBe('%2Ehoodie');
    expect(kg.partitionPath({ id: 1, p: 'a/b' })).toBe('a%2Fb');
    expect(kg.partitionPath({ id: 1, p: '%2F' })).toBe('%252F');
    expect(kg.partitionPath({ id: 1, p: '\u0000' })).toBe('%00');
    const hive = simple({ hiveStylePartitioning: true });
    expect(hive.partitionPath({ id: 1, p: '.hoodie' })).toBe('p=.hoodie');
    expect(hive.partitionPath({ id: 1, p: '..' })).toBe('p=..');
  });
});

describe('key generator names', () => {
  test('v6 class names', () => {
    expect(keyGeneratorClassName('SIMPLE')).toBe('org.apache.hudi.keygen.SimpleKeyGenerator');
    expect(keyGeneratorClassName('COMPLEX')).toBe('org.apache.hudi.keygen.ComplexKeyGenerator');
    expect(keyGeneratorClassName('NON_PARTITION')).toBe('org.apache.hudi.keygen.NonpartitionedKeyGenerator');
    expect(keyGeneratorClassName('TIMESTAMP')).toBe('org.apache.hudi.keygen.TimestampBasedKeyGenerator');
  });

  test('parse class names, enum names and the absent case', () => {
    for (const t of ['SIMPLE', 'COMPLEX', 'NON_PARTITION', 'TIMESTAMP'] as const) {
      expect(parseKeyGeneratorType(keyGeneratorClassName(t))).toBe(t);
      expect(parseKeyGeneratorType(t)).toBe(t);
    }
    expect(parseKeyGeneratorType('org.apache.hudi.keygen.ComplexAvroKeyGenerator')).toBe('COMPLEX');
    expect(parseKeyGeneratorType('org.apache.hudi.keygen.NonpartitionedAvroKeyGenerator')).toBe('NON_PARTITION');
    expect(parseKeyGeneratorType(undefined, ['id'], [])).toBe('NON_PARTITION');
    expect(parseKeyGeneratorType(undefined, ['id'], ['p'])).toBe('SIMPLE');
    expect(parseKeyGeneratorType('', ['id', 'k'], ['p'])).toBe('COMPLEX');
    expect(thrown(() => parseKeyGeneratorType('org.apache.hudi.keygen.CustomKeyGenerator')).code).toBe('UNSUPPORTED');
    expect(thrown(() => parseKeyGeneratorType('com.example.MyKeyGen')).code).toBe('UNSUPPORTED');
  });

  test('options from a table config include the timestamp settings', async () => {
    const config = parseTableConfig([
      'hoodie.table.name=t', 'hoodie.table.type=COPY_ON_WRITE', 'hoodie.table.version=6',
      'hoodie.table.recordkey.fields=id', 'hoodie.table.partition.fields=ts',
      'hoodie.table.keygenerator.class=org.apache.hudi.keygen.TimestampBasedKeyGenerator',
      'hoodie.keygen.timebased.timestamp.type=EPOCHMILLISECONDS', 'hoodie.keygen.timebased.output.dateformat=yyyy/MM/dd',
      'hoodie.datasource.write.hive_style_partitioning=true',
    ].join('\n'));
    const options = keyGeneratorOptionsFromConfig(config);
    expect(options).toMatchObject({ type: 'TIMESTAMP', recordKeyFields: ['id'], partitionFields: ['ts'], hiveStylePartitioning: true, urlEncodePartitioning: false });
    expect(options.timestamp).toEqual({ timestampType: 'EPOCHMILLISECONDS', outputDateFormat: 'yyyy/MM/dd' });
    const kg = await loadKeyGenerator(options);
    expect(kg.partitionPath({ id: 'a', ts: 1705314600000 })).toBe('ts=2024/01/15');
  });
});

describe('lone surrogates in keys and partition values (D7)', () => {
  test('are refused with INVALID_ARGUMENT naming the field (UTF-8 would turn them into U+FFFD)', () => {
    const kg = createKeyGenerator({ ...base, type: 'COMPLEX', recordKeyFields: ['a', 'b'], partitionFields: ['p'] });
    expect(kg.recordKey({ a: 'x', b: '😀' })).toBe('a:x,b:😀');
    expect(thrown(() => kg.recordKey({ a: 'x', b: 'y\ud800' }))).toMatchObject({ code: 'INVALID_ARGUMENT', context: { field: 'b' } });
    expect(thrown(() => kg.partitionPath({ p: '\udc00' }))).toMatchObject({ code: 'INVALID_ARGUMENT', context: { field: 'p' } });
    const one = simple();
    expect(thrown(() => one.recordKey({ id: 'k\ud800' })).message).toMatch(/lone UTF-16 surrogate/);
  });
});

describe('complex keys that would collide (D10)', () => {
  test('a value holding ",<key field>:" is refused; other commas and colons are kept', () => {
    const kg = createKeyGenerator({ ...base, type: 'COMPLEX', recordKeyFields: ['a', 'b'], partitionFields: [] });
    // 'a:x,b:y,b:z' could be a = 'x,b:y', b = 'z' or a = 'x', b = 'y,b:z': both refused.
    expect(thrown(() => kg.recordKey({ a: 'x,b:y', b: 'z' }))).toMatchObject({ code: 'INVALID_ARGUMENT', context: { field: 'a' } });
    expect(thrown(() => kg.recordKey({ a: 'x', b: 'y,b:z' }))).toMatchObject({ code: 'INVALID_ARGUMENT', context: { field: 'b' } });
    expect(thrown(() => kg.recordKey({ a: 'x', b: 'y,a:z' })).message).toMatch(/','.*'a:'.*ambiguous/);
    expect(kg.recordKey({ a: 'x,y', b: '10:30' })).toBe('a:x,y,b:10:30');
    // The null/empty placeholders as values would read back as null/empty parts.
    expect(thrown(() => kg.recordKey({ a: '__null__', b: 'z' })).context).toMatchObject({ field: 'a' });
    expect(thrown(() => kg.recordKey({ a: 'x', b: '__empty__' })).context).toMatchObject({ field: 'b' });
    // One field cannot collide.
    expect(createKeyGenerator({ ...base, type: 'COMPLEX', recordKeyFields: ['a'], partitionFields: [] }).recordKey({ a: 'x,a:y' })).toBe('a:x,a:y');
  });
});
