// Hudi bloom filter: byte-exact rebuild of fixture footers (SHA-256 from hudi-format.md §6.2 / EXPECTED.md),
// parsing real footers from the fixture zips, dynamic growth, SIMPLE round trip and corrupt-input errors.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { describe, expect, inject, it } from 'vitest';
import { BLOOM_FILTER_FOOTER_KEY, BLOOM_FILTER_TYPE_FOOTER_KEY, bloomFilterSize, createBloomFilter } from '../../src/format/bloom-filter.js';
import { parseBloomFilter } from '../../src/format/bloom-filter-parse.js';
import { decodeBase64, encodeBase64 } from '../../src/format/base64.js';
import { jsKernels } from '../../src/kernels/js-kernels.js';
import { isLakeletError, type LakeletErrorCode } from '../../src/errors.js';

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

function build(keys: string[]): string {
  const f = createBloomFilter();
  for (const key of keys) f.add(key);
  return f.serialize();
}

interface FixtureFile { name: string; footer: Record<string, string | undefined>; keys: string[] }

/** Every parquet base file in a fixture zip: its footer key/values and its `_hoodie_record_key` column. */
async function fixtureFiles(zip: string): Promise<FixtureFile[]> {
  const entries = unzipSync(readFileSync(`${inject('FIXTURES_DIR')}/${zip}`));
  const files: FixtureFile[] = [];
  for (const [name, bytes] of Object.entries(entries)) {
    if (!name.endsWith('.parquet') || name.startsWith('__MACOSX/')) continue;
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const metadata = parquetMetadata(file);
    const footer = Object.fromEntries((metadata.key_value_metadata ?? []).map((kv) => [kv.key, kv.value]));
    const rows = await parquetReadObjects({ file, columns: ['_hoodie_record_key'], compressors });
    files.push({ name, footer, keys: rows.map((r) => String(r['_hoodie_record_key'])) });
  }
  return files.sort((a, b) => a.name.localeCompare(b.name));
}

function expectError(f: () => unknown, code: LakeletErrorCode): void {
  let caught: unknown;
  try { f(); } catch (err) { caught = err; }
  expect(isLakeletError(caught, code), String(caught)).toBe(true);
}

describe('sizing', () => {
  it('uses Hudi defaults: m=2587966, k=30', () => {
    expect(bloomFilterSize(60000, 1e-9)).toEqual({ numBits: 2587966, numHashes: 30 });
    const f = createBloomFilter();
    expect([f.type, f.numBits, f.numHashes, f.numRows, f.rowCapacity, f.lastRowCount]).toEqual(['DYNAMIC_V0', 2587966, 30, 1, 60000, 0]);
  });
  it('rejects bad options', () => {
    expectError(() => createBloomFilter({ numEntries: 0 }), 'INVALID_ARGUMENT');
    expectError(() => createBloomFilter({ fpp: 1 }), 'INVALID_ARGUMENT');
    expectError(() => createBloomFilter({ numEntries: 1.5 }), 'INVALID_ARGUMENT');
  });
});

describe('byte-exact with Hudi (keys alone)', () => {
  it('v6_nonpartitioned latest file, keys 2,3,1,4', () => {
    const s = build(['2', '3', '1', '4']);
    expect(s.length).toBe(431380);
    expect(s.startsWith('/////wAAAB4BACd9PgAA6mAAAAAEAAAAAf////8AAAAeAQAnfT4AAAAAAAAAAAAA')).toBe(true);
    expect(s.endsWith('AAAAAAA=')).toBe(true);
    expect(sha256(s)).toBe('20a16e582a630b81b8ace9e815c5f8de06dddd22e5a2038797fc47f8337e431b');
    expect(sha256(build(['4', '1', '3', '2']))).toBe(sha256(s)); // insertion order does not matter
  });
  it('v6_nonpartitioned first file, keys 2,3,1', () => {
    expect(sha256(build(['2', '3', '1']))).toBe('80dccc8c01cdaffb6bae2936d62bec60b7a5ca635401f82e711ea70d1450b3e1');
  });
  it('v6_complexkeygen_hivestyle byteField=10/shortField=300 file', () => {
    expect(sha256(build(['id:1,name:Alice', 'id:3,name:Carol']))).toBe('90778104f73b83646629487b29fb25ced461bf257360a128a0fa33ef707e6bdb');
  });
});

describe('real fixture footers', () => {
  it('v6_nonpartitioned: parses each footer, finds its keys, re-serializes to the same string, rebuilds from keys', async () => {
    const files = await fixtureFiles('sample_table/cow/v6_nonpartitioned.zip');
    expect(files.length).toBe(2);
    const latest = files.find((f) => f.name.includes('_0-203-274_'));
    expect(latest?.keys.slice().sort()).toEqual(['1', '2', '3', '4']);
    for (const file of files) {
      const footer = file.footer[BLOOM_FILTER_FOOTER_KEY];
      expect(footer?.length).toBe(431380);
      if (footer === undefined) continue;
      const type = file.footer[BLOOM_FILTER_TYPE_FOOTER_KEY];
      expect(type).toBe('DYNAMIC_V0');
      const filter = parseBloomFilter(footer, type, { path: file.name });
      expect([filter.numBits, filter.numHashes, filter.numRows, filter.rowCapacity, filter.lastRowCount])
        .toEqual([2587966, 30, 1, 60000, file.keys.length]);
      for (const key of file.keys) expect(filter.mightContain(key)).toBe(true);
      for (const absent of ['0', '5', '10', 'id:1,name:Alice', '']) {
        if (absent === '') expectError(() => filter.mightContain(absent), 'INVALID_ARGUMENT');
        else expect(filter.mightContain(absent)).toBe(false);
      }
      expect(filter.serialize()).toBe(footer);
      expect(build(file.keys)).toBe(footer);
      // kernels probe the parsed bits directly
      expect([...jsKernels.bloomProbe(filter.bits, filter.numBits, filter.numHashes, [...file.keys, '99'], filter.numRows)])
        .toEqual([...file.keys.map(() => 1), 0]);
    }
    expect(sha256(latest?.footer[BLOOM_FILTER_FOOTER_KEY] ?? '')).toBe('20a16e582a630b81b8ace9e815c5f8de06dddd22e5a2038797fc47f8337e431b');
  });

  it('v6_complexkeygen_hivestyle: every footer rebuilds byte-for-byte from its record keys', async () => {
    const files = await fixtureFiles('sample_table/cow/v6_complexkeygen_hivestyle.zip');
    expect(files.length).toBe(4);
    for (const file of files) {
      const footer = file.footer[BLOOM_FILTER_FOOTER_KEY];
      expect(build(file.keys)).toBe(footer);
      const filter = parseBloomFilter(footer ?? '', file.footer[BLOOM_FILTER_TYPE_FOOTER_KEY]);
      for (const key of file.keys) expect(filter.mightContain(key)).toBe(true);
    }
  });
});

describe('dynamic growth', () => {
  it('adds a second row after 60000 keys; the string stays parseable and the keys are found', () => {
    const f = createBloomFilter();
    const keys = Array.from({ length: 60_005 }, (_, i) => `key-${i}`);
    for (const key of keys) f.add(key);
    expect(f.numRows).toBe(2);
    expect(f.lastRowCount).toBe(5);
    const s = f.serialize();
    expect(decodeBase64(s).length).toBe(13 + 12 + 2 * (13 + 323_496));
    const back = parseBloomFilter(s, 'DYNAMIC_V0');
    expect([back.numRows, back.lastRowCount, back.rowCapacity]).toEqual([2, 5, 60000]);
    expect(back.serialize()).toBe(s);
    for (let i = 0; i < keys.length; i += 997) expect(back.mightContain(keys[i] ?? '')).toBe(true);
    expect(back.mightContain('key-60004')).toBe(true);
    let falsePositives = 0;
    for (let i = 0; i < 2000; i++) if (back.mightContain(`absent-${i}`)) falsePositives++;
    expect(falsePositives).toBe(0);
  });

  it('follows Hudi row rules: no row past maxEntries, then round-robin over existing rows', () => {
    const f = createBloomFilter({ numEntries: 10, fpp: 0.01, maxEntries: 25 });
    for (let i = 0; i < 30; i++) f.add(`k${i}`);
    // rows start at keys 0, 10, 20; 3 rows * 10 >= 25 so no fourth row
    expect(f.numRows).toBe(3);
    expect(f.lastRowCount).toBe(10);
    f.add('k30');
    expect(f.numRows).toBe(3);
    expect(f.lastRowCount).toBe(11);
    for (let i = 0; i <= 30; i++) expect(f.mightContain(`k${i}`)).toBe(true);
    // a parsed filter (maxEntries 0, as in Hudi) never grows past its rows
    const parsed = parseBloomFilter(f.serialize(), 'DYNAMIC_V0');
    parsed.add('more');
    expect(parsed.numRows).toBe(3);
    expect(parsed.mightContain('more')).toBe(true);
  });
});

describe('SIMPLE filters', () => {
  it('round-trips header + bit array (odd m)', () => {
    const f = createBloomFilter({ type: 'SIMPLE', numEntries: 100, fpp: 0.001 });
    expect(f.numBits % 8).not.toBe(0);
    for (let i = 0; i < 100; i++) f.add(`r${i}`);
    const bytes = f.toBytes();
    expect(bytes.length).toBe(13 + Math.floor((f.numBits + 7) / 8));
    const s = f.serialize();
    const back = parseBloomFilter(s); // absent type code means SIMPLE, as in Hudi
    expect(back.type).toBe('SIMPLE');
    expect(back.serialize()).toBe(s);
    for (let i = 0; i < 100; i++) expect(back.mightContain(`r${i}`)).toBe(true);
    expect(back.mightContain(new TextEncoder().encode('r5'))).toBe(true);
  });
});

describe('corrupt input', () => {
  const good = build(['1', '2']);
  const goodBytes = decodeBase64(good);
  const mutate = (f: (b: Uint8Array, v: DataView) => void): string => {
    const b = goodBytes.slice();
    f(b, new DataView(b.buffer));
    return encodeBase64(b);
  };

  it('throws CORRUPT_FILE for bad Base64, truncation, trailing bytes and bad fields', () => {
    const cases: string[] = [
      '', 'abc$', good.slice(0, 1001), good.slice(0, 100_000), good + 'AAAA', 'AAAA',
      mutate((_, v) => v.setInt32(0, -2)), // version
      mutate((b) => { b[8] = 7; }), // hash type
      mutate((_, v) => v.setInt32(4, 0)), // k
      mutate((_, v) => v.setInt32(9, -5)), // m
      mutate((_, v) => v.setInt32(21, 0)), // matrix length
      mutate((_, v) => v.setInt32(21, 0x7fffffff)), // matrix length past the data
      mutate((_, v) => v.setInt32(13, 0)), // nr
      mutate((_, v) => v.setInt32(17, -1)), // currentNbRecord
      mutate((_, v) => v.setInt32(25 + 9, 12345)), // row header disagrees
    ];
    for (const s of cases) expectError(() => parseBloomFilter(s, 'DYNAMIC_V0', { path: 'x.parquet' }), 'CORRUPT_FILE');
    // a DYNAMIC string read as SIMPLE leaves trailing bytes
    expectError(() => parseBloomFilter(good, 'SIMPLE'), 'CORRUPT_FILE');
  });

  it('names the path and offset', () => {
    let caught: unknown;
    try { parseBloomFilter(good.slice(0, 40), 'DYNAMIC_V0', { path: 'p/f.parquet' }); } catch (err) { caught = err; }
    expect(isLakeletError(caught, 'CORRUPT_FILE')).toBe(true);
    if (isLakeletError(caught)) {
      expect(caught.context.path).toBe('p/f.parquet');
      expect(typeof caught.context.offset).toBe('number');
      expect(caught.message).toMatch(/^bloom filter: /);
    }
  });

  it('throws UNSUPPORTED for Jenkins-hash filters and unknown type codes', () => {
    expectError(() => parseBloomFilter(mutate((b) => { b[8] = 0; }), 'DYNAMIC_V0'), 'UNSUPPORTED');
    expectError(() => parseBloomFilter(mutate((_, v) => v.setInt32(0, 5)), 'DYNAMIC_V0'), 'UNSUPPORTED');
    expectError(() => parseBloomFilter(good, 'DYNAMIC_V1'), 'UNSUPPORTED');
  });

  it('clears stray padding bits beyond m, as Java does on read', () => {
    const f = createBloomFilter({ type: 'SIMPLE', numEntries: 3, fpp: 0.1 });
    f.add('a');
    const bytes = f.toBytes();
    const m = f.numBits;
    expect(m % 8).not.toBe(0);
    const dirty = bytes.slice();
    dirty[dirty.length - 1] = (dirty[dirty.length - 1] ?? 0) | 0x80;
    expect(parseBloomFilter(encodeBase64(dirty)).serialize()).toBe(f.serialize());
  });
});
