// Damaged HFiles fail as CORRUPT_FILE naming the block offset: CRC32C chunks of the HBase-written v8 files are
// verified (a flipped payload or checksum byte is caught), GZIP's CRC32 guards Hudi 1.1's unchecksummed
// blocks, meta blocks are read (and checked) only when asked for; truncation and foreign versions or codecs.
import { beforeAll, describe, expect, it } from 'vitest';
import { isLakeletError } from '../../../src/errors.js';
import { decodeHFile } from '../../../src/format/hfile/decode.js';
import { HFileReader } from '../../../src/format/hfile/reader.js';
import { decodeTrailer, encodeTrailer } from '../../../src/format/hfile/trailer.js';
import { fixtureHFiles, MDT_FIXTURES, type FixtureHFile } from './mdt-hfiles.js';

let v8Base: FixtureHFile;
let v9Base: FixtureHFile;
beforeAll(async () => {
  const isFilesBase = (f: FixtureHFile): boolean => f.kind === 'base' && f.path.includes('/files/') && !f.path.endsWith('00000000000000000.hfile');
  v8Base = (await fixtureHFiles(MDT_FIXTURES.v8Mor)).find(isFilesBase) as FixtureHFile;
  v9Base = (await fixtureHFiles(MDT_FIXTURES.v9Cow)).find((f) => f.kind === 'base' && f.path.includes('/files/')) as FixtureHFile;
});

function flipped(bytes: Uint8Array, at: number): Uint8Array {
  const copy = bytes.slice();
  copy[at] = (copy[at] as number) ^ 0x5a;
  return copy;
}

function failure(fn: () => unknown): { code: string; offset: unknown; message: string } {
  try {
    fn();
  } catch (err) {
    if (isLakeletError(err)) return { code: err.code, offset: err.context.offset, message: err.message };
    throw err;
  }
  throw new Error('expected a failure');
}

async function failureAsync(fn: () => Promise<unknown>): Promise<{ code: string; offset: unknown; message: string }> {
  try {
    await fn();
  } catch (err) {
    if (isLakeletError(err)) return { code: err.code, offset: err.context.offset, message: err.message };
    throw err;
  }
  throw new Error('expected a failure');
}

describe('CRC32C (HBase-written v8 files)', () => {
  it('the intact file verifies: every block carries CRC32C chunks', () => {
    const h = decodeHFile(v8Base.bytes, v8Base.label);
    expect(h.blocks.every((b) => b.header.checksumType === 'CRC32C')).toBe(true);
  });

  it('a flipped byte in a data block payload → CORRUPT_FILE naming offset 0 and the checksum', () => {
    const f = failure(() => decodeHFile(flipped(v8Base.bytes, 40), v8Base.label));
    expect(f).toMatchObject({ code: 'CORRUPT_FILE', offset: 0 });
    expect(f.message).toContain('CRC32C mismatch');
  });

  it('a flipped byte in a stored checksum → CORRUPT_FILE', () => {
    const h = decodeHFile(v8Base.bytes, v8Base.label);
    const data = h.blocks[0];
    const at = data?.header.onDiskDataSizeWithHeader ?? 0; // first checksum byte of block 0
    expect(failure(() => decodeHFile(flipped(v8Base.bytes, at), v8Base.label))).toMatchObject({ code: 'CORRUPT_FILE', offset: 0 });
  });

  it('the ranged reader checks the blocks it reads: file info at open, the meta block when asked', async () => {
    const h = decodeHFile(v8Base.bytes, v8Base.label);
    const info = h.trailer.fileInfoOffset;
    expect(await failureAsync(() => HFileReader.open(flipped(v8Base.bytes, info + 50), { path: v8Base.label }))).toMatchObject({ code: 'CORRUPT_FILE', offset: info });
    const meta = h.metaIndex[0]?.offset ?? -1;
    const reader = await HFileReader.open(flipped(v8Base.bytes, meta + 50), { path: v8Base.label });
    expect((await reader.get(h.entries[0]?.key ?? ''))?.key).toBe(h.entries[0]?.key);
    expect(await failureAsync(() => reader.bloomFilterBytes())).toMatchObject({ code: 'CORRUPT_FILE', offset: meta });
    const dataReader = await HFileReader.open(flipped(v8Base.bytes, 40));
    expect(await failureAsync(() => dataReader.get(h.entries[0]?.key ?? ''))).toMatchObject({ code: 'CORRUPT_FILE', offset: 0 });
  });
});

describe('Hudi 1.1 files (checksum type NULL)', () => {
  it('a flipped byte inside a gzip payload → CORRUPT_FILE naming the block', () => {
    const h = decodeHFile(v9Base.bytes, v9Base.label);
    const meta = h.blocks.find((b) => b.header.type === 'META');
    for (const at of [45, 60, (meta?.offset ?? 0) + 33 + 30]) {
      const block = h.blocks.findLast((b) => b.offset <= at);
      expect(failure(() => decodeHFile(flipped(v9Base.bytes, at), v9Base.label)), `byte ${at}`).toMatchObject({ code: 'CORRUPT_FILE', offset: block?.offset });
    }
  });

  it('a bad block magic or sizes → CORRUPT_FILE', () => {
    expect(failure(() => decodeHFile(flipped(v9Base.bytes, 2), v9Base.label))).toMatchObject({ code: 'CORRUPT_FILE', offset: 0 });
    expect(failure(() => decodeHFile(flipped(v9Base.bytes, 30), v9Base.label))).toMatchObject({ code: 'CORRUPT_FILE', offset: 0 });
  });
});

describe('sources and block kinds', () => {
  it('a source returning fewer bytes than asked → CORRUPT_FILE naming the offset', async () => {
    const bytes = v9Base.bytes;
    const short = { byteLength: bytes.length, read: (o: number, n: number) => bytes.subarray(o, o + n - 1) };
    expect(await failureAsync(() => HFileReader.open(short))).toMatchObject({ code: 'CORRUPT_FILE' });
  });

  it('an encoded data block (DATABLKE) → UNSUPPORTED', () => {
    const encoded = v9Base.bytes.slice();
    encoded[7] = 0x45; // DATABLK* → DATABLKE
    expect(failure(() => decodeHFile(encoded)).code).toBe('UNSUPPORTED');
  });
});

describe('trailer', () => {
  it('a truncated or too short file → CORRUPT_FILE', async () => {
    expect(failure(() => decodeHFile(v9Base.bytes.subarray(0, v9Base.bytes.length - 1)))).toMatchObject({ code: 'CORRUPT_FILE' });
    expect(failure(() => decodeHFile(v9Base.bytes.subarray(0, 4000)))).toMatchObject({ code: 'CORRUPT_FILE', offset: 0 });
    expect(await failureAsync(() => HFileReader.open(v9Base.bytes.subarray(0, 100)))).toMatchObject({ code: 'CORRUPT_FILE' });
  });

  it('another HFile version or codec → UNSUPPORTED naming it', () => {
    const v2 = v9Base.bytes.slice();
    v2[v2.length - 1] = 2;
    const f = failure(() => decodeHFile(v2));
    expect(f.code).toBe('UNSUPPORTED');
    expect(f.message).toContain('version 2');
    const tail = v9Base.bytes.length - 4096;
    const { fields: _fields, majorVersion: _major, minorVersion: _minor, totalUncompressedBytes: _total, ...t } = decodeTrailer(v9Base.bytes.subarray(tail), v9Base.bytes.length);
    const snappy = v9Base.bytes.slice();
    snappy.set(encodeTrailer({ ...t, compressionCodec: 3 }), tail);
    const g = failure(() => decodeHFile(snappy));
    expect(g.code).toBe('UNSUPPORTED');
    expect(g.message).toContain('SNAPPY');
  });

  it('a multi-level data index → UNSUPPORTED', () => {
    const tail = v9Base.bytes.length - 4096;
    const { fields: _fields, majorVersion: _major, minorVersion: _minor, totalUncompressedBytes: _total, ...t } = decodeTrailer(v9Base.bytes.subarray(tail), v9Base.bytes.length);
    const two = v9Base.bytes.slice();
    two.set(encodeTrailer({ ...t, numDataIndexLevels: 2 }), tail);
    expect(failure(() => decodeHFile(two)).code).toBe('UNSUPPORTED');
  });
});
