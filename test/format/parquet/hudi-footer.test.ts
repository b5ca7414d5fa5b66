// Hudi's footer keys: the reader finds the schema, key range and bloom filter, falls back to the legacy bloom
// key as Hudi does, prefers the current key when both are present, and can skip parsing the filter.
import { expect, test } from 'vitest';
import { createBloomFilter } from '../../../src/format/bloom-filter.js';
import {
  AVRO_SCHEMA_FOOTER_KEY, BLOOM_FILTER_FOOTER_KEY, BLOOM_FILTER_TYPE_FOOTER_KEY, LEGACY_BLOOM_FILTER_FOOTER_KEY,
  MAX_RECORD_KEY_FOOTER_KEY, MIN_RECORD_KEY_FOOTER_KEY, readHudiFooter,
} from '../../../src/format/parquet/hudi-footer.js';
import { isLakeletError } from '../../../src/errors.js';

function filter(keys: string[], type: 'SIMPLE' | 'DYNAMIC_V0'): string {
  const f = createBloomFilter({ numEntries: 100, type });
  for (const k of keys) f.add(k);
  return f.serialize();
}

test('the keys are the ones Hudi writes', () => {
  expect([AVRO_SCHEMA_FOOTER_KEY, BLOOM_FILTER_FOOTER_KEY, BLOOM_FILTER_TYPE_FOOTER_KEY, LEGACY_BLOOM_FILTER_FOOTER_KEY, MIN_RECORD_KEY_FOOTER_KEY, MAX_RECORD_KEY_FOOTER_KEY])
    .toEqual(['parquet.avro.schema', 'org.apache.hudi.bloomfilter', 'hoodie_bloom_filter_type_code', 'com.uber.hoodie.bloomfilter', 'hoodie_min_record_key', 'hoodie_max_record_key']);
});

test('schema, key range and a DYNAMIC_V0 filter under the current key', () => {
  const f = readHudiFooter({
    'parquet.avro.schema': '{"type":"record"}', hoodie_min_record_key: 'a', hoodie_max_record_key: 'z',
    hoodie_bloom_filter_type_code: 'DYNAMIC_V0', 'org.apache.hudi.bloomfilter': filter(['a', 'q', 'z'], 'DYNAMIC_V0'),
  });
  expect([f.avroSchema, f.minKey, f.maxKey]).toEqual(['{"type":"record"}', 'a', 'z']);
  expect(f.bloom?.type).toBe('DYNAMIC_V0');
  expect(['a', 'q', 'z'].map((k) => f.bloom?.mightContain(k))).toEqual([true, true, true]);
});

test('a filter under the legacy key only is read (SIMPLE without a type code, as old writers left it)', () => {
  const f = readHudiFooter({ 'com.uber.hoodie.bloomfilter': filter(['k1', 'k2'], 'SIMPLE') });
  expect(f.bloom?.type).toBe('SIMPLE');
  expect(f.bloom?.mightContain('k1')).toBe(true);
  expect(f.bloom?.mightContain('k3')).toBe(false);
  expect([f.avroSchema, f.minKey, f.maxKey]).toEqual([undefined, undefined, undefined]);
});

test('the current key wins over the legacy one', () => {
  const f = readHudiFooter({ 'org.apache.hudi.bloomfilter': filter(['new'], 'SIMPLE'), 'com.uber.hoodie.bloomfilter': filter(['old'], 'SIMPLE') });
  expect(f.bloom?.mightContain('new')).toBe(true);
  expect(f.bloom?.mightContain('old')).toBe(false);
});

test('bloom: false skips the filter (a corrupt one then does not throw); a corrupt one otherwise names the file', () => {
  const kv = { 'parquet.avro.schema': '{}', 'org.apache.hudi.bloomfilter': '###' };
  expect(readHudiFooter(kv, { bloom: false })).toEqual({ avroSchema: '{}', minKey: undefined, maxKey: undefined, bloom: undefined });
  let err: unknown;
  try {
    readHudiFooter(kv, { path: 'p/f.parquet' });
  } catch (e) {
    err = e;
  }
  expect(isLakeletError(err, 'CORRUPT_FILE')).toBe(true);
  expect((err as { context: Record<string, unknown> }).context.path).toBe('p/f.parquet');
});

test('no Hudi keys: everything undefined', () => {
  expect(readHudiFooter({ 'writer.model.name': 'avro' })).toEqual({ avroSchema: undefined, minKey: undefined, maxKey: undefined, bloom: undefined });
});
