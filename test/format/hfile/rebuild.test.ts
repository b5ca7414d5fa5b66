// Rebuilding every Hudi 1.1 (v9 fixture) HFile from its decoded entries, file info and meta blocks with our
// writer gives the same decompressed block payloads, index entries, file-info pairs (order included) and
// trailer fields as Hudi's own file; the gzip bytes may differ, the offsets follow our blocks.
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeRootIndex } from '../../../src/format/hfile/block-index.js';
import { decodeHFile, type HFileContents } from '../../../src/format/hfile/decode.js';
import { writeHudiBaseHFile, writeHudiLogBlockHFile } from '../../../src/format/hfile/hudi-hfile.js';
import { encodeLogBlock, scanLogBlocks } from '../../../src/format/log/block.js';
import { fixtureHFiles, MDT_FIXTURES, type FixtureHFile } from './mdt-hfiles.js';

const decoder = new TextDecoder();
const hex = (b: Uint8Array | undefined): string => Buffer.from(b ?? []).toString('hex');

function rebuild(f: FixtureHFile, h: HFileContents): Uint8Array {
  const entries = h.entries.map((e) => ({ key: e.key, value: e.value }));
  const schema = decoder.decode(h.fileInfo.get('schema'));
  const created = h.fileInfo.get('hfile.CREATE_TIME_TS') ?? new Uint8Array(8);
  const createTime = Number(new DataView(created.buffer, created.byteOffset, 8).getBigInt64(0, false));
  if (f.kind === 'log-block') return writeHudiLogBlockHFile({ entries, schema, createTime });
  return writeHudiBaseHFile({ entries, schema, bloomFilter: decoder.decode(h.metaBlocks.get('bloomFilter')), createTime });
}

const files: FixtureHFile[] = [];
beforeAll(async () => {
  files.push(...(await fixtureHFiles(MDT_FIXTURES.v9Cow)), ...(await fixtureHFiles(MDT_FIXTURES.v9Mor)));
});

describe('rebuilding the v9 fixtures’ HFiles', () => {
  it('covers base files and log blocks', () => {
    expect(files.filter((f) => f.kind === 'base').length).toBeGreaterThan(0);
    expect(files.filter((f) => f.kind === 'log-block').length).toBeGreaterThan(5);
  });

  it('same block sequence and decompressed payloads (data, meta, both root indexes, file info)', () => {
    for (const f of files) {
      const theirs = decodeHFile(f.bytes, f.label);
      const ours = decodeHFile(rebuild(f, theirs), `rebuilt ${f.label}`);
      expect(ours.blocks.map((b) => b.header.type), f.label).toEqual(theirs.blocks.map((b) => b.header.type));
      for (const [i, b] of ours.blocks.entries()) {
        const t = theirs.blocks[i];
        if (b.header.type === 'ROOT_INDEX') continue; // offsets inside follow our compressed sizes: compared below
        expect(hex(b.payload), `${f.label} block ${i} ${b.header.type}`).toBe(hex(t?.payload));
        expect([b.header.checksumType, b.header.prevBlockOffset, b.header.bytesPerChecksum]).toEqual([t?.header.checksumType, t?.header.prevBlockOffset, t?.header.bytesPerChecksum]);
      }
    }
  });

  it('same index entries: keys as stored, offsets and sizes naming our own blocks', () => {
    for (const f of files) {
      const theirs = decodeHFile(f.bytes, f.label);
      const bytes = rebuild(f, theirs);
      const ours = decodeHFile(bytes, `rebuilt ${f.label}`);
      expect(ours.dataIndex.map((e) => hex(e.key)), f.label).toEqual(theirs.dataIndex.map((e) => hex(e.key)));
      expect(ours.metaIndex.map((e) => decoder.decode(e.key)), f.label).toEqual(theirs.metaIndex.map((e) => decoder.decode(e.key)));
      for (const e of [...ours.dataIndex, ...ours.metaIndex]) {
        const block = ours.blocks.find((b) => b.offset === e.offset);
        expect(block === undefined ? undefined : 33 + block.header.onDiskSizeWithoutHeader, f.label).toBe(e.size);
      }
      // The index payload is Hudi's byte for byte once their offsets are swapped for ours.
      const idx = ours.blocks.filter((b) => b.header.type === 'ROOT_INDEX');
      const theirIdx = theirs.blocks.filter((b) => b.header.type === 'ROOT_INDEX');
      expect(idx.map((b) => b.payload.length), f.label).toEqual(theirIdx.map((b) => b.payload.length));
      expect(hex(encodeRootIndex(theirs.dataIndex)), f.label).toBe(hex(theirIdx[0]?.payload));
      expect(hex(encodeRootIndex(theirs.metaIndex)), f.label).toBe(hex(theirIdx[1]?.payload));
    }
  });

  it('same file-info pairs in the same order, and the same trailer fields', () => {
    for (const f of files) {
      const theirs = decodeHFile(f.bytes, f.label);
      const ours = decodeHFile(rebuild(f, theirs), `rebuilt ${f.label}`);
      expect([...ours.fileInfo].map(([k, v]) => [k, hex(v)]), f.label).toEqual([...theirs.fileInfo].map(([k, v]) => [k, hex(v)]));
      const { fields, fileInfoOffset, loadOnOpenDataOffset, ...rest } = ours.trailer;
      const { fields: theirFields, fileInfoOffset: theirInfo, loadOnOpenDataOffset: theirLoad, ...theirRest } = theirs.trailer;
      expect(rest, f.label).toEqual(theirRest);
      expect(fields, f.label).toEqual(theirFields);
      expect(fileInfoOffset).toBe(ours.blocks.find((b) => b.header.type === 'FILE_INFO')?.offset);
      expect(loadOnOpenDataOffset).toBe(ours.blocks.find((b) => b.header.type === 'ROOT_INDEX')?.offset);
      expect([theirInfo, theirLoad].every((n) => n > 0)).toBe(true);
    }
  });

  it('a rebuilt log-block HFile framed as an HFILE_DATA block with the fixture block’s header scans back to the same HFile', () => {
    const logs = files.filter((f) => f.kind === 'log-block');
    for (const f of logs) {
      expect(f.header?.INSTANT_TIME, f.label).toMatch(/^\d{17}$/);
      const theirs = decodeHFile(f.bytes, f.label);
      const content = rebuild(f, theirs);
      const scanned = scanLogBlocks(encodeLogBlock('HFILE_DATA', f.header ?? {}, content), 'rebuilt.log').blocks;
      expect(scanned.map((b) => [b.type, b.header])).toEqual([['HFILE_DATA', f.header]]);
      expect(decodeHFile(scanned[0]?.content ?? new Uint8Array()).entries.map((e) => [e.key, hex(e.value)])).toEqual(theirs.entries.map((e) => [e.key, hex(e.value)]));
    }
  });
});
