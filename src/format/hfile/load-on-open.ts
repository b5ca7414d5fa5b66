// The load-on-open section of an HFile: root data index, meta index and file info, back to back between the
// trailer's load-on-open offset and the trailer. Parsed from the trailer and the section's bytes, so a reader
// opens a file with the tail of it only.

import { corruptFile, unsupported } from '../../errors.js';
import { decodeRootIndex, type HFileIndexEntry } from './block-index.js';
import { HFILE_BLOCK_HEADER_SIZE, hfileCodec, parseBlockHeader, readBlock, type HFileBlock, type HFileCodec } from './block.js';
import { decodeFileInfo, type HFileInfo } from './file-info.js';
import type { HFileTrailer } from './trailer.js';

/** What an open HFile knows before reading any data block. */
export interface HFileLoadOnOpen {
  codec: HFileCodec;
  dataIndex: HFileIndexEntry[];
  metaIndex: HFileIndexEntry[];
  fileInfo: HFileInfo;
  /** The three blocks as read (root data index, meta index, file info), payloads unpacked. */
  blocks: HFileBlock[];
}

/**
 * Parse the load-on-open section. `section` holds the file's bytes from `sectionOffset` (at most the trailer's
 * load-on-open offset) up to the trailer. Multi-level data indexes → UNSUPPORTED (no writer in the fixtures
 * uses them; Hudi 1.1 always writes one level).
 */
export function parseLoadOnOpen(section: Uint8Array, sectionOffset: number, trailer: HFileTrailer, path?: string): HFileLoadOnOpen {
  const codec = hfileCodec(trailer.compressionCodec, path);
  if (trailer.numDataIndexLevels > 1) {
    throw unsupported(`hfile: ${trailer.numDataIndexLevels}-level data index is not supported (only 1)`, { path, value: trailer.numDataIndexLevels });
  }
  const blockAt = (fileOffset: number, what: string): number => {
    const at = fileOffset - sectionOffset;
    if (at < 0 || at + HFILE_BLOCK_HEADER_SIZE > section.length) throw corruptFile(`hfile: ${what} offset ${fileOffset} outside the load-on-open section`, path, fileOffset);
    return at;
  };
  const dataOffset = trailer.loadOnOpenDataOffset;
  const dataBlock = readBlock(section, blockAt(dataOffset, 'root data index'), dataOffset, codec, path, 'ROOT_INDEX');
  const metaOffset = dataOffset + HFILE_BLOCK_HEADER_SIZE + dataBlock.header.onDiskSizeWithoutHeader;
  const metaBlock = readBlock(section, blockAt(metaOffset, 'meta index'), metaOffset, codec, path, 'ROOT_INDEX');
  const infoOffset = trailer.fileInfoOffset;
  const infoHeader = parseBlockHeader(section, blockAt(infoOffset, 'file info'), infoOffset, path);
  if (infoHeader.type !== 'FILE_INFO') throw corruptFile(`hfile: expected the FILE_INFO block, found ${infoHeader.type}`, path, infoOffset);
  const infoBlock = readBlock(section, blockAt(infoOffset, 'file info'), infoOffset, codec, path, 'FILE_INFO');
  return {
    codec,
    dataIndex: decodeRootIndex(dataBlock.payload, trailer.dataIndexCount, true, dataOffset, path),
    metaIndex: decodeRootIndex(metaBlock.payload, trailer.metaIndexCount, false, metaOffset, path),
    fileInfo: decodeFileInfo(infoBlock.payload, infoOffset, path),
    blocks: [dataBlock, metaBlock, infoBlock],
  };
}

/** True when the file's entries carry an MVCC VLong (file info KEY_VALUE_VERSION = 1). */
export function includesMvcc(fileInfo: HFileInfo): boolean {
  const v = fileInfo.get('KEY_VALUE_VERSION');
  if (v === undefined || v.length !== 4) return false;
  return new DataView(v.buffer, v.byteOffset, 4).getInt32(0, false) === 1;
}
