// Decoding a whole HFile held in memory in one synchronous pass (an MDT log block's HFILE_DATA content, a
// base file already read): trailer, load-on-open section, every block in file order, entries and meta blocks.

import { corruptFile } from '../../errors.js';
import type { HFileIndexEntry } from './block-index.js';
import { HFILE_BLOCK_HEADER_SIZE, readBlock, type HFileBlock, type HFileCodec } from './block.js';
import type { HFileInfo } from './file-info.js';
import { decodeDataBlockEntries, type HFileEntry } from './key-value.js';
import { includesMvcc, parseLoadOnOpen } from './load-on-open.js';
import { decodeTrailer, HFILE_TRAILER_SIZE, type HFileTrailer } from './trailer.js';

/** A fully decoded HFile. */
export interface HFileContents {
  trailer: HFileTrailer;
  codec: HFileCodec;
  fileInfo: HFileInfo;
  dataIndex: HFileIndexEntry[];
  metaIndex: HFileIndexEntry[];
  /** Every block from offset 0 to the trailer, in file order, payloads unpacked. */
  blocks: HFileBlock[];
  /** All entries in key order. */
  entries: HFileEntry[];
  /** Meta block values by name (e.g. `bloomFilter`). */
  metaBlocks: Map<string, Uint8Array>;
}

const utf8 = new TextDecoder('utf-8');

/**
 * Decode an HFile from its bytes. Every block between offset 0 and the trailer is read (checksums verified),
 * so a block the indexes do not reference is still checked. Inconsistencies (a data block the index does not
 * name, an entry count differing from the trailer's) → CORRUPT_FILE.
 */
export function decodeHFile(bytes: Uint8Array, path?: string): HFileContents {
  if (bytes.length < HFILE_TRAILER_SIZE) throw corruptFile(`hfile: file of ${bytes.length} bytes is shorter than the ${HFILE_TRAILER_SIZE}-byte trailer`, path, 0);
  const trailerAt = bytes.length - HFILE_TRAILER_SIZE;
  const trailer = decodeTrailer(bytes.subarray(trailerAt), bytes.length, path);
  const section = parseLoadOnOpen(bytes.subarray(0, trailerAt), 0, trailer, path);
  const mvcc = includesMvcc(section.fileInfo);
  const blocks: HFileBlock[] = [];
  for (let at = 0; at < trailer.loadOnOpenDataOffset; ) {
    const block = readBlock(bytes.subarray(0, trailer.loadOnOpenDataOffset), at, at, section.codec, path);
    blocks.push(block);
    at += HFILE_BLOCK_HEADER_SIZE + block.header.onDiskSizeWithoutHeader;
  }
  blocks.push(...section.blocks);
  const byOffset = new Map(blocks.map((b) => [b.offset, b]));
  const entries: HFileEntry[] = [];
  for (const e of section.dataIndex) {
    const block = byOffset.get(e.offset);
    if (block?.header.type !== 'DATA') throw corruptFile('hfile: data index names no data block', path, e.offset);
    entries.push(...decodeDataBlockEntries(block.payload, e.offset, mvcc, path));
  }
  const dataBlocks = blocks.filter((b) => b.header.type === 'DATA').length;
  if (dataBlocks !== section.dataIndex.length) throw corruptFile(`hfile: ${dataBlocks} data blocks but ${section.dataIndex.length} index entries`, path, trailer.loadOnOpenDataOffset);
  if (entries.length !== trailer.entryCount) throw corruptFile(`hfile: ${entries.length} entries but the trailer says ${trailer.entryCount}`, path, trailerAt);
  const metaBlocks = new Map<string, Uint8Array>();
  for (const e of section.metaIndex) {
    const block = byOffset.get(e.offset);
    if (block?.header.type !== 'META') throw corruptFile('hfile: meta index names no meta block', path, e.offset);
    metaBlocks.set(utf8.decode(e.key), block.payload);
  }
  return { trailer, codec: section.codec, fileInfo: section.fileInfo, dataIndex: section.dataIndex, metaIndex: section.metaIndex, blocks, entries, metaBlocks };
}
