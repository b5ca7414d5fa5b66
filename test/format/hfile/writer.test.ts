// The writer on inputs of our own: several blocks cut at the block size as Hudi cuts them, round trips
// through both readers, ranged reads that touch only the blocks a lookup needs, the empty file, bad input,
// and the hudi-rs short-read window (blocks built to land in it come out of the writer outside it).
import { gunzipSync as nodeGunzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { isLakeletError } from '../../../src/errors.js';
import { compressPayload } from '../../../src/format/hfile/block.js';
import { decodeHFile } from '../../../src/format/hfile/decode.js';
import { writeHudiBaseHFile } from '../../../src/format/hfile/hudi-hfile.js';
import { encodedEntrySize, writeEntry } from '../../../src/format/hfile/key-value.js';
import { HFileReader, type HFileSource } from '../../../src/format/hfile/reader.js';
import { indexRow, inHudiRsShortReadWindow, writeHFile, type HFileWriteEntry } from '../../../src/format/hfile/writer.js';

const encoder = new TextEncoder();

/** Deterministic pseudo-random bytes (xorshift32). */
function noise(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed | 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

function entries(n: number, valueLength: (i: number) => number): HFileWriteEntry[] {
  return Array.from({ length: n }, (_, i) => ({ key: `k${String(i).padStart(4, '0')}`, value: noise(valueLength(i), i + 1) }));
}

/** The uncompressed data-block payload of `input` (one block), built entry by entry. */
function dataPayload(input: readonly HFileWriteEntry[]): Uint8Array {
  const keys = input.map((e) => encoder.encode(e.key as string));
  const out = new Uint8Array(input.reduce((n, e, i) => n + encodedEntrySize((keys[i] as Uint8Array).length, e.value.length), 0));
  let at = 0;
  input.forEach((e, i) => (at = writeEntry(out, at, keys[i] as Uint8Array, e.value)));
  return out;
}

function counting(bytes: Uint8Array): HFileSource & { reads: [number, number][] } {
  const reads: [number, number][] = [];
  return {
    reads,
    byteLength: bytes.length,
    read: async (offset, length) => {
      reads.push([offset, length]);
      return bytes.slice(offset, offset + length);
    },
  };
}

function throwsCode(fn: () => unknown, code: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(isLakeletError(caught) ? caught.code : caught).toBe(code);
}

describe('data blocks', () => {
  it('cuts blocks as Hudi does: a block takes entries while its payload stays within the block size', () => {
    // Each entry: 8 (lengths) + 12 (row length, family, timestamp, type) + 5 (key) + 100 (value) + 1 (MVCC) = 126
    // bytes; 4,096 holds 32 of them (4,032), so 100 entries make blocks of 32, 32, 32 and 4.
    const input = entries(100, () => 100);
    const h = decodeHFile(writeHFile(input, { blockSize: 4096 }));
    const data = h.blocks.filter((b) => b.header.type === 'DATA');
    expect(data.map((b) => b.payload.length)).toEqual([4032, 4032, 4032, 504]);
    expect(h.dataIndex.map((e) => new TextDecoder().decode(e.key.subarray(2)))).toEqual(['k0000', 'k0032', 'k0064', 'k0096']);
    expect(h.trailer.uncompressedDataIndexSize).toBe(12600);
    expect(h.trailer.entryCount).toBe(100);
    expect(h.trailer.lastDataBlockOffset).toBe(h.dataIndex[3]?.offset);
    expect(h.entries.map((e) => e.key)).toEqual(input.map((e) => e.key));
    expect(h.entries.every((e, i) => Buffer.from(e.value).equals(Buffer.from((input[i] as HFileWriteEntry).value)))).toBe(true);
  });

  it('is deterministic: the same input gives the same bytes (creation time 0 unless given)', () => {
    const input = entries(300, (i) => i % 50);
    expect(Buffer.from(writeHFile(input)).equals(Buffer.from(writeHFile(input)))).toBe(true);
    const info = decodeHFile(writeHFile(input, { createTime: 1775241000000 })).fileInfo.get('hfile.CREATE_TIME_TS') ?? new Uint8Array(8);
    expect(new DataView(info.buffer, info.byteOffset, 8).getBigInt64(0, false)).toBe(1775241000000n);
  });

  it('an entry larger than the block size gets a block of its own', () => {
    const h = decodeHFile(writeHFile(entries(3, (i) => (i === 1 ? 5000 : 10)), { blockSize: 4096 }));
    expect(h.blocks.filter((b) => b.header.type === 'DATA').map((b) => b.payload.length)).toEqual([36, 5026, 36]);
  });

  it('round trips through the ranged reader: scan, lookups, prefixes, many keys', async () => {
    const input = entries(1000, (i) => i % 37);
    const bytes = writeHFile(input, { blockSize: 2048, codec: 'NONE' });
    const reader = await HFileReader.open(bytes);
    expect(reader.dataIndex.length).toBeGreaterThan(10);
    const scanned = [];
    for await (const e of reader.entries()) scanned.push(e.key);
    expect(scanned).toEqual(input.map((e) => e.key));
    for (const e of input) expect(Buffer.from((await reader.get(e.key))?.value ?? [0xff]).equals(Buffer.from(e.value))).toBe(true);
    expect(await reader.get('k00000')).toBeUndefined();
    expect(await reader.get('k1000')).toBeUndefined();
    expect((await reader.getPrefix('k012')).map((e) => e.key)).toEqual(Array.from({ length: 10 }, (_, i) => `k012${i}`));
    expect((await reader.getPrefix('k')).length).toBe(1000);
    const many = await reader.getMany(['k0999', 'k0500', 'nope', 'k0000']);
    expect([...many.keys()].sort()).toEqual(['k0000', 'k0500', 'k0999']);
  });

  it('over a ranged source, opening reads the tail once and a lookup reads only its data block', async () => {
    const bytes = writeHFile(entries(2000, () => 120), { blockSize: 4096 });
    const source = counting(bytes);
    const reader = await HFileReader.open(source, { tailSize: 16384 });
    expect(source.reads).toEqual([[bytes.length - 16384, 16384]]);
    const h = decodeHFile(bytes);
    source.reads.length = 0;
    expect((await reader.get('k1234'))?.key).toBe('k1234');
    const block = h.dataIndex.findLast((e) => new TextDecoder().decode(e.key.subarray(2)) <= 'k1234');
    expect(source.reads).toEqual([[block?.offset, block?.size]]);
    expect((await reader.get('k1233'))?.key).toBe('k1233');
    expect(source.reads.length).toBe(1); // same block, decoded once
    source.reads.length = 0;
    const prefixed = await reader.getPrefix('k19');
    expect(prefixed.length).toBe(100);
    const spanned = h.dataIndex.filter((e, i) => {
      const first = new TextDecoder().decode(e.key.subarray(2));
      const next = h.dataIndex[i + 1];
      const nextFirst = next === undefined ? '\u{10ffff}' : new TextDecoder().decode(next.key.subarray(2));
      return first < 'k1a' && nextFirst > 'k19';
    });
    expect(source.reads).toEqual(spanned.map((e) => [e.offset, e.size]));
  });

  it('a small tail read falls back to a second read of the load-on-open section', async () => {
    const bytes = writeHFile(entries(50, () => 10), { fileInfo: [['schema', noise(20000, 3)]] });
    const source = counting(bytes);
    const reader = await HFileReader.open(source, { tailSize: 4096 });
    expect(source.reads.length).toBe(2);
    expect(source.reads[1]?.[0]).toBe(reader.trailer.loadOnOpenDataOffset);
    expect(reader.fileInfo.get('schema')?.length).toBe(20000);
  });
});

describe('index keys both index-length readings agree on', () => {
  const bytes = (s: string): Uint8Array => encoder.encode(s);
  const text = (b: Uint8Array): string => new TextDecoder().decode(b);

  it('a first key of up to 125 bytes is the index row as is', () => {
    const k = 'x'.repeat(125);
    expect(text(indexRow(bytes(k), bytes('a')))).toBe(k);
  });

  it('a longer first key becomes its shortest prefix sorting after the previous block’s last key', () => {
    expect(text(indexRow(bytes(`b${'x'.repeat(200)}`), bytes('azzz')))).toBe('b');
    expect(text(indexRow(bytes(`abc${'x'.repeat(200)}`), bytes('abb')))).toBe('abc');
    expect(text(indexRow(bytes(`ab${'x'.repeat(200)}`), bytes('ab')))).toBe('abx'); // the previous key is a prefix
    expect(indexRow(bytes('q'.repeat(300)), undefined).length).toBe(300); // the first block's key stays whole
    // No prefix short enough: the full key stays (its length then a VLong, as Java reads it).
    const long = `${'p'.repeat(130)}b`;
    expect(text(indexRow(bytes(long), bytes(`${'p'.repeat(130)}a`)))).toBe(long);
  });

  it('long keys: every index key after the first block is under 128 bytes, and lookups still find every key', async () => {
    const input = Array.from({ length: 200 }, (_, i) => ({ key: `${String(i).padStart(3, '0')}/${'k'.repeat(300)}`, value: noise(40, i + 1) }));
    const bytes = writeHFile(input, { blockSize: 4096 });
    const h = decodeHFile(bytes);
    expect(h.dataIndex.length).toBeGreaterThan(10);
    expect(text(h.dataIndex[0]?.key.subarray(2) ?? new Uint8Array())).toBe(input[0]?.key);
    for (const e of h.dataIndex.slice(1)) expect(e.key.length).toBeLessThan(128);
    const idx = h.blocks.find((b) => b.header.type === 'ROOT_INDEX')?.payload ?? new Uint8Array();
    // The first entry: a 306-byte key (int16 + 304-byte row), its length the VLong 8e 01 32. Past it, read the
    // index as hudi-rs does (varint lengths): the same entries.
    expect([...idx.subarray(12, 15)]).toEqual([0x8e, 0x01, 0x32]);
    let p = 12 + 3 + 306;
    for (const e of h.dataIndex.slice(1)) {
      expect(new DataView(idx.buffer, idx.byteOffset).getInt32(p + 8, false)).toBe(e.size);
      const length = idx[p + 12] as number;
      expect(length).toBe(e.key.length);
      p += 13 + length;
    }
    expect(p).toBe(idx.length);
    const reader = await HFileReader.open(bytes);
    for (const e of input) expect((await reader.get(e.key))?.key).toBe(e.key);
    expect(await reader.get('000/')).toBeUndefined();
    expect((await reader.getPrefix('01')).length).toBe(10);
    expect(h.entries.map((e) => e.key)).toEqual(input.map((e) => e.key));
  });
});

describe('the empty file', () => {
  it('has no data block, first data block offset -1, an empty last key, and reads as empty', async () => {
    const h = decodeHFile(writeHFile([], { createTime: 1 }));
    expect(h.blocks.map((b) => b.header.type)).toEqual(['ROOT_INDEX', 'ROOT_INDEX', 'FILE_INFO']);
    expect(h.trailer).toMatchObject({ entryCount: 0, dataIndexCount: 0, metaIndexCount: 0, firstDataBlockOffset: -1, lastDataBlockOffset: 0, loadOnOpenDataOffset: 0 });
    expect(h.fileInfo.get('hfile.LASTKEY')?.length).toBe(0);
    expect([...(h.fileInfo.get('hfile.AVG_KEY_LEN') ?? [])]).toEqual([0, 0, 0, 0]);
    const reader = await HFileReader.open(writeHFile([]));
    expect(await reader.get('x')).toBeUndefined();
    expect(await reader.getPrefix('')).toEqual([]);
    for await (const _ of reader.entries()) expect.unreachable();
  });

  it('an empty base file keeps its bloom meta block and has no min/max keys', () => {
    const h = decodeHFile(writeHudiBaseHFile({ entries: [], schema: '{}', bloomFilter: 'AAAA' }));
    expect(h.blocks.map((b) => b.header.type)).toEqual(['META', 'ROOT_INDEX', 'ROOT_INDEX', 'FILE_INFO']);
    expect([...h.metaBlocks.keys()]).toEqual(['bloomFilter']);
    expect(h.fileInfo.has('minRecordKey') || h.fileInfo.has('maxRecordKey')).toBe(false);
  });
});

describe('bad input', () => {
  it('duplicate keys and keys out of byte order are INVALID_ARGUMENT', () => {
    const v = new Uint8Array(1);
    throwsCode(() => writeHFile([{ key: 'a', value: v }, { key: 'a', value: v }]), 'INVALID_ARGUMENT');
    throwsCode(() => writeHFile([{ key: 'b', value: v }, { key: 'a', value: v }]), 'INVALID_ARGUMENT');
    // UTF-8 byte order, not UTF-16 order: U+FF61 (EF BD A1) sorts before U+1F600 (F0 9F 98 80).
    throwsCode(() => writeHFile([{ key: '\u{1F600}', value: v }, { key: '\uFF61', value: v }]), 'INVALID_ARGUMENT');
    expect(decodeHFile(writeHFile([{ key: '\uFF61', value: v }, { key: '\u{1F600}', value: v }])).entries.length).toBe(2);
    throwsCode(() => writeHFile([], { blockSize: 0 }), 'INVALID_ARGUMENT');
  });
});

describe('the hudi-rs short-read window', () => {
  it('is header + payload in the last 4 bytes of a 16 KiB chunk', () => {
    expect([16347, 16348, 16351, 16352].map(inHudiRsShortReadWindow)).toEqual([false, true, true, false]);
    // Two chunks: 8 checksum bytes; 33 + payload in (32,760, 32,768].
    expect([32727, 32728, 32735, 32736].map(inHudiRsShortReadWindow)).toEqual([false, true, true, false]);
  });

  it('an incompressible block that gzip would put in the window is written outside it, and still decodes', () => {
    // Find a value length whose one-entry data block compresses (level 6) into the window.
    let hit: Uint8Array | undefined;
    for (let n = 16200; n < 16400 && hit === undefined; n++) {
      const value = noise(n, 7);
      const payload = dataPayload([{ key: 'k', value }]);
      if (inHudiRsShortReadWindow(compressPayload(payload, 'GZ').length)) hit = value;
    }
    expect(hit).toBeDefined();
    const bytes = writeHFile([{ key: 'k', value: hit ?? new Uint8Array() }]);
    const h = decodeHFile(bytes);
    for (const b of h.blocks) expect(inHudiRsShortReadWindow(b.header.onDiskDataSizeWithHeader - 33), `${b.header.type}@${b.offset}`).toBe(false);
    const data = h.blocks[0];
    const stored = bytes.subarray(33, data?.header.onDiskDataSizeWithHeader);
    expect(Buffer.from(nodeGunzip(stored)).equals(Buffer.from(data?.payload ?? []))).toBe(true); // an independent gunzip agrees
    expect(Buffer.from(h.entries[0]?.value ?? []).equals(Buffer.from(hit ?? []))).toBe(true);
  });

  it('uncompressed, a data block that would land in the window ends an entry early', () => {
    // Two entries whose one-block payload is 16,350 bytes (in the window): 36 + (26 + 16,288 value bytes).
    const input = [{ key: 'k0000', value: noise(10, 1) }, { key: 'k0001', value: noise(16350 - 36 - 26, 2) }];
    expect(inHudiRsShortReadWindow(dataPayload(input).length)).toBe(true);
    const h = decodeHFile(writeHFile(input, { codec: 'NONE' }));
    expect(h.blocks.filter((b) => b.header.type === 'DATA').map((b) => b.payload.length)).toEqual([36, 16314]);
    expect(h.entries.map((e) => e.key)).toEqual(['k0000', 'k0001']);
  });

  it('a compressible block that would land in the window is written at another level, without a gzip name', () => {
    // Decimal digits compress to a little under half; home in on a length whose block lands in the window.
    const digits = (n: number): Uint8Array => noise(n, 11).map((b) => 48 + (b % 10));
    const sizeAt = (n: number): number => compressPayload(dataPayload([{ key: 'a', value: digits(n) }]), 'GZ').length;
    let n = 30000;
    for (let i = 0; i < 8; i++) n = Math.round(n + (16349 - sizeAt(n)) / 0.42);
    let hit: HFileWriteEntry[] | undefined;
    for (let d = 0; d < 400 && hit === undefined; d++) {
      for (const m of [n + d, n - d]) if (hit === undefined && inHudiRsShortReadWindow(sizeAt(m))) hit = [{ key: 'a', value: digits(m) }];
    }
    expect(hit).toBeDefined();
    const bytes = writeHFile(hit ?? []);
    const h = decodeHFile(bytes);
    expect(h.blocks[0]?.header.type).toBe('DATA');
    expect(inHudiRsShortReadWindow((h.blocks[0]?.header.onDiskDataSizeWithHeader ?? 0) - 33)).toBe(false);
    expect(bytes[33 + 3]).toBe(0); // gzip FLG: no FNAME, the level alone moved it
    expect(h.entries.map((e) => e.key)).toEqual(['a']);
    expect(Buffer.from(nodeGunzip(bytes.subarray(33, h.blocks[0]?.header.onDiskDataSizeWithHeader))).equals(Buffer.from(h.blocks[0]?.payload ?? []))).toBe(true);
  });
});
