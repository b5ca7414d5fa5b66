// Every HFile of the three metadata-table fixtures decodes (base files and HFILE_DATA log blocks), with the
// facts of hudi-v9-write.md §5: flavour per writer (Hudi 1.1 vs HBase), the reference dump offsets, the
// comparator, codec and versions, sorted unique keys, counts matching the trailer, bloom meta blocks in base
// files only; and the ranged reader's lookups agree with a full scan.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseBloomFilter } from '../../../src/format/bloom-filter-parse.js';
import { decodeHFile, type HFileContents } from '../../../src/format/hfile/decode.js';
import { compareKeyBytes } from '../../../src/format/hfile/key-value.js';
import { HFileReader } from '../../../src/format/hfile/reader.js';
import { fixtureHFiles, MDT_FIXTURES, type FixtureHFile } from './mdt-hfiles.js';

const decoder = new TextDecoder();
const text = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : decoder.decode(b));

const all = new Map<string, FixtureHFile[]>();
beforeAll(async () => {
  for (const zip of Object.values(MDT_FIXTURES)) all.set(zip, await fixtureHFiles(zip));
});
const filesOf = (zip: string): FixtureHFile[] => all.get(zip) ?? [];

describe.each(Object.entries(MDT_FIXTURES))('%s', (name, zip) => {
  const hudi11 = name.startsWith('v9');

  it('has base HFiles and HFILE_DATA log blocks', () => {
    const files = filesOf(zip);
    expect(files.filter((f) => f.kind === 'base').length).toBeGreaterThan(0);
    expect(files.filter((f) => f.kind === 'log-block').length).toBeGreaterThan(0);
  });

  it('every HFile decodes: v3, one index level, GZIP, the Hudi comparator, keys sorted and unique, counts as the trailer', () => {
    for (const f of filesOf(zip)) {
      const h = decodeHFile(f.bytes, f.label);
      const t = h.trailer;
      expect(t.majorVersion, f.label).toBe(3);
      expect(t.minorVersion, f.label).toBe(hudi11 ? 0 : 3);
      expect(t.numDataIndexLevels, f.label).toBe(1);
      expect(t.compressionCodec, f.label).toBe(1);
      expect(h.codec).toBe('GZ');
      expect(t.comparatorClassName, f.label).toBe('org.apache.hudi.io.storage.HoodieHBaseKVComparator');
      expect(h.entries.length, f.label).toBe(t.entryCount);
      expect(h.dataIndex.length, f.label).toBe(t.dataIndexCount);
      expect(h.metaIndex.length, f.label).toBe(t.metaIndexCount);
      for (let i = 1; i < h.entries.length; i++) {
        expect(compareKeyBytes((h.entries[i - 1] as (typeof h.entries)[0]).keyBytes, (h.entries[i] as (typeof h.entries)[0]).keyBytes), f.label).toBeLessThan(0);
      }
      if (h.entries.length > 0) {
        expect(t.firstDataBlockOffset, f.label).toBe(0);
        expect(h.dataIndex[h.dataIndex.length - 1]?.offset, f.label).toBe(t.lastDataBlockOffset);
      } else {
        expect([t.firstDataBlockOffset, t.dataIndexCount, h.blocks.some((b) => b.header.type === 'DATA')], f.label).toEqual([-1, 0, false]);
      }
      // The blocks tile the file up to the trailer.
      const last = h.blocks[h.blocks.length - 1];
      expect(last?.header.type).toBe('FILE_INFO');
      expect((last?.offset ?? 0) + 33 + (last?.header.onDiskSizeWithoutHeader ?? 0), f.label).toBe(f.bytes.length - 4096);
      if (hudi11) expect(text(h.fileInfo.get('hfile.LASTKEY')?.subarray(2)), f.label).toBe(h.entries[h.entries.length - 1]?.key);
    }
  });

  it(hudi11 ? 'has no empty HFile' : 'has empty base HFiles (every key of the file group deleted): no data block, first data block offset -1', () => {
    const empty = filesOf(zip).filter((f) => decodeHFile(f.bytes, f.label).entries.length === 0);
    expect(empty.length > 0).toBe(!hudi11);
    for (const f of empty) expect(f.kind).toBe('base');
  });

  it(hudi11 ? 'Hudi 1.1 flavour: NULL checksums with zeroed bytes, previous offsets -1, index keys = int16 length + row' : 'HBase flavour: CRC32C checksums, index keys = the whole KeyValue key', () => {
    for (const f of filesOf(zip)) {
      const h = decodeHFile(f.bytes, f.label);
      for (const b of h.blocks) {
        expect(b.header.checksumType, `${f.label}@${b.offset}`).toBe(hudi11 ? 'NULL' : 'CRC32C');
        expect(b.header.bytesPerChecksum).toBe(16384);
        const checksumLength = 33 + b.header.onDiskSizeWithoutHeader - b.header.onDiskDataSizeWithHeader;
        expect(checksumLength, `${f.label}@${b.offset}`).toBe(4 * Math.ceil(b.header.onDiskDataSizeWithHeader / 16384));
        if (hudi11) {
          expect(b.header.prevBlockOffset).toBe(-1);
          const sums = f.bytes.subarray(b.offset + b.header.onDiskDataSizeWithHeader, b.offset + 33 + b.header.onDiskSizeWithoutHeader);
          expect([...sums].every((x) => x === 0), `${f.label}@${b.offset}`).toBe(true);
        }
      }
      for (const [i, e] of h.dataIndex.entries()) {
        const row = h.entries.find((x) => x.keyBytes.length + (hudi11 ? 2 : 12) === e.key.length && decoder.decode(e.key.subarray(2, 2 + x.keyBytes.length)) === x.key);
        expect(row, `${f.label} index entry ${i}`).toBeDefined();
      }
      expect(h.trailer.fields.includes(4), f.label).toBe(!hudi11);
      if (h.entries.length > 0) expect(h.trailer.uncompressedDataIndexSize === h.blocks.filter((b) => b.header.type === 'DATA').reduce((n, b) => n + b.payload.length, 0), f.label).toBe(hudi11);
    }
  });

  it('base files carry schema, min/max record keys and a DYNAMIC_V0 bloom meta block holding every key; log blocks none of that', () => {
    for (const f of filesOf(zip)) {
      const h: HFileContents = decodeHFile(f.bytes, f.label);
      expect(text(h.fileInfo.get('schema'))?.startsWith('{"type":"record","name":"HoodieMetadataRecord"'), f.label).toBe(true);
      expect(text(h.fileInfo.get('KEY_VALUE_VERSION') && Uint8Array.of(48 + (h.fileInfo.get('KEY_VALUE_VERSION')?.[3] ?? 0)))).toBe('1');
      if (f.kind === 'log-block') {
        // The HFile's schema is the log block's SCHEMA header, string for string.
        expect(text(h.fileInfo.get('schema')), f.label).toBe(f.header?.SCHEMA);
        expect(h.metaBlocks.size, f.label).toBe(0);
        for (const k of ['bloomFilterTypeCode', 'minRecordKey', 'maxRecordKey']) expect(h.fileInfo.has(k), `${f.label} ${k}`).toBe(false);
        continue;
      }
      expect(text(h.fileInfo.get('bloomFilterTypeCode')), f.label).toBe('DYNAMIC_V0');
      expect(text(h.fileInfo.get('minRecordKey')), f.label).toBe(h.entries[0]?.key ?? '');
      expect(text(h.fileInfo.get('maxRecordKey')), f.label).toBe(h.entries[h.entries.length - 1]?.key ?? '');
      expect([...h.metaBlocks.keys()]).toEqual(['bloomFilter']);
      const bloom = parseBloomFilter(text(h.metaBlocks.get('bloomFilter')) ?? '', 'DYNAMIC_V0', { path: f.label });
      expect(bloom.rowCapacity, f.label).toBe(hudi11 ? 10000 : 60000);
      for (const e of h.entries) expect(bloom.mightContain(e.keyBytes), `${f.label} ${e.key}`).toBe(true);
    }
  });

  it('the ranged reader agrees with the full decode: scan, point lookups, prefix lookups, bloom bytes', async () => {
    for (const f of filesOf(zip)) {
      const h = decodeHFile(f.bytes, f.label);
      const reader = await HFileReader.open(f.bytes, { path: f.label });
      expect(reader.entryCount).toBe(h.entries.length);
      expect([...reader.fileInfo.keys()]).toEqual([...h.fileInfo.keys()]);
      const scanned = [];
      for await (const e of reader.entries()) scanned.push(e);
      expect(scanned.map((e) => [e.key, [...e.value]])).toEqual(h.entries.map((e) => [e.key, [...e.value]]));
      for (const e of h.entries) expect((await reader.get(e.key))?.value, `${f.label} ${e.key}`).toEqual(e.value);
      if (h.entries[0] !== undefined) expect(await reader.get(`${h.entries[0].key}\u0000`)).toBeUndefined();
      expect(await reader.get('')).toBeUndefined();
      expect(await reader.get('\u{10ffff}')).toBeUndefined();
      const prefixes = new Set<string>(['', 'zzzz', '\u0000']);
      for (const e of h.entries) for (const n of [1, 4, 12, 13, e.key.length]) prefixes.add(e.key.slice(0, n));
      for (const p of prefixes) {
        const expected = h.entries.filter((e) => e.key.startsWith(p)).map((e) => e.key);
        expect((await reader.getPrefix(p)).map((e) => e.key), `${f.label} prefix ${JSON.stringify(p)}`).toEqual(expected);
      }
      const many = await reader.getMany([...h.entries.map((e) => e.key).reverse(), 'absent-key']);
      expect([...many.keys()].sort()).toEqual(h.entries.map((e) => e.key).sort());
      const bloom = await reader.bloomFilterBytes();
      expect(bloom === undefined ? undefined : Buffer.from(bloom).equals(Buffer.from(h.metaBlocks.get('bloomFilter') ?? [])), f.label).toBe(f.kind === 'base' ? true : undefined);
    }
  });
});

describe('reference dump (hudi-v9-write.md §5)', () => {
  it('files/files-0000-0_0-5-4_00000000000000000.hfile of v9_timebasedkeygen_nonhivestyle', () => {
    const f = filesOf(MDT_FIXTURES.v9Cow).find((x) => x.path.endsWith('files/files-0000-0_0-5-4_00000000000000000.hfile'));
    expect(f).toBeDefined();
    const h = decodeHFile(f?.bytes ?? new Uint8Array(), f?.label);
    expect(h.blocks.map((b) => [b.offset, b.header.type])).toEqual([
      [0, 'DATA'],
      [96, 'META'],
      [396, 'ROOT_INDEX'],
      [478, 'ROOT_INDEX'],
      [555, 'FILE_INFO'],
    ]);
    expect(f?.bytes.length).toBe(2676 + 4096);
    expect(h.trailer.loadOnOpenDataOffset).toBe(396);
    expect(h.trailer.fileInfoOffset).toBe(555);
    expect(h.entries.map((e) => e.key)).toEqual(['__all_partitions__']);
    expect(h.metaIndex.map((e) => [e.offset, e.size, decoder.decode(e.key)])).toEqual([[96, 300, 'bloomFilter']]);
    expect(h.dataIndex.map((e) => [e.offset, e.size])).toEqual([[0, 96]]);
  });
});
