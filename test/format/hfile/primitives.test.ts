// The small codecs under the HFile format, against values worked out by hand from their definitions:
// Hadoop VLong, protobuf varints, CRC32C, Java's String.hashCode and HashMap order, trailer and file info.
import { describe, expect, it } from 'vitest';
import { crc32c } from '../../../src/format/hfile/crc32c.js';
import { decodeFileInfo, encodeFileInfo } from '../../../src/format/hfile/file-info.js';
import { javaHashMapOrder, javaStringHash } from '../../../src/format/hfile/java-hash-order.js';
import { decodeTrailer, encodeTrailer, HOODIE_KV_COMPARATOR } from '../../../src/format/hfile/trailer.js';
import { encodeVarint, readVarint } from '../../../src/format/hfile/varint.js';
import { encodeVLong, readVLong } from '../../../src/format/hfile/vlong.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('Hadoop VLong', () => {
  it('encodes as WritableUtils.writeVLong', () => {
    // -112..127 in one byte; beyond, a length byte (-113 - n positive, -121 - n negative) and big-endian bytes
    // of the value (of its one's complement when negative).
    const cases: [number, string][] = [
      [0, '00'],
      [127, '7f'],
      [-112, '90'],
      [-1, 'ff'],
      [128, '8f80'],
      [255, '8fff'],
      [256, '8e0100'],
      [-113, '8770'],
      [-257, '860100'],
      [2 ** 40, '8a010000000000'],
    ];
    for (const [v, h] of cases) {
      expect(hex(encodeVLong(v)), String(v)).toBe(h);
      expect(readVLong(Buffer.from(h, 'hex'), 0)).toEqual({ value: v, next: h.length / 2 });
    }
  });

  it('a truncated VLong → CORRUPT_FILE', () => {
    expect(() => readVLong(Uint8Array.of(0x8e, 0x01), 0)).toThrow(/truncated VLong/);
  });
});

describe('protobuf varint', () => {
  it('encodes 7 bits a byte, low groups first; -1 as ten bytes', () => {
    expect(hex(encodeVarint(0))).toBe('00');
    expect(hex(encodeVarint(300))).toBe('ac02');
    expect(hex(encodeVarint(-1))).toBe('ffffffffffffffffff01');
    for (const v of [1, 127, 128, 16383, 16384, 2 ** 31, 2 ** 53 - 1, -1]) expect(readVarint(encodeVarint(v), 0).value).toBe(v);
  });

  it('a varint past the end → CORRUPT_FILE', () => {
    expect(() => readVarint(Uint8Array.of(0x80, 0x80), 0)).toThrow(/truncated/);
  });
});

describe('CRC32C', () => {
  it('has the Castagnoli check value', () => {
    expect(crc32c(new TextEncoder().encode('123456789'))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
  });
});

describe('Java HashMap order', () => {
  it('String.hashCode and bucket order', () => {
    expect(javaStringHash('hello')).toBe(99162322);
    expect(javaStringHash('')).toBe(0);
    // 'b' = 98 → bucket 2, 'a' = 97 → bucket 1, 'q' = 113 → bucket 1 after 'a' (113 & 15 = 1).
    expect(javaHashMapOrder(['b', 'q', 'a'])).toEqual(['q', 'a', 'b']);
  });
});

describe('trailer and file info', () => {
  it('the trailer round trips, -1 first data block offset included, version 3 in the last byte', () => {
    const t = {
      fileInfoOffset: 555, loadOnOpenDataOffset: 396, uncompressedDataIndexSize: 0, dataIndexCount: 0, metaIndexCount: 0, entryCount: 0,
      numDataIndexLevels: 1, firstDataBlockOffset: -1, lastDataBlockOffset: 0, comparatorClassName: HOODIE_KV_COMPARATOR, compressionCodec: 1,
    };
    const bytes = encodeTrailer(t);
    expect(bytes.length).toBe(4096);
    expect(hex(bytes.subarray(0, 8))).toBe(hex(new TextEncoder().encode('TRABLK"$')));
    expect(hex(bytes.subarray(4092))).toBe('00000003');
    expect(decodeTrailer(bytes, 4096)).toMatchObject({ ...t, majorVersion: 3, minorVersion: 0, fields: [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12] });
  });

  it('file info is PBUF, a varint length and BytesBytesPairs', () => {
    const bytes = encodeFileInfo(new Map([['a', Uint8Array.of(1, 2)]]));
    // PBUF, length 9, field 1 (len 7) { field 1 "a", field 2 [1, 2] }
    expect(hex(bytes)).toBe('5042554609' + '0a07' + '0a0161' + '12020102');
    expect([...decodeFileInfo(bytes, 0)].map(([k, v]) => [k, hex(v)])).toEqual([['a', '0102']]);
    expect(() => decodeFileInfo(bytes.subarray(1), 0)).toThrow(/PBUF/);
  });
});
