// HFileReader: an HFile opened over a ranged byte source (whole bytes in memory, or a `read(offset, length)`
// callback the engine backs with storage ranges). Opening reads the tail (trailer + load-on-open, usually one
// read); point, batch and prefix lookups go through the root index and read only the data blocks they need.

import { corruptFile, invalidArgument } from '../../errors.js';
import { indexKeyRow, type HFileIndexEntry } from './block-index.js';
import { readBlock, type HFileCodec } from './block.js';
import type { HFileInfo } from './file-info.js';
import { compareKeyBytes, decodeDataBlockEntries, hasKeyPrefix, type HFileEntry } from './key-value.js';
import { includesMvcc, parseLoadOnOpen } from './load-on-open.js';
import { decodeTrailer, HFILE_TRAILER_SIZE, type HFileTrailer } from './trailer.js';

/**
 * A ranged byte source: `read` returns exactly `length` bytes at `offset` (sync or async). Over a store, e.g.
 * `{ byteLength: size, read: (o, n) => storage.read(path, { start: o, end: o + n }) }`.
 */
export interface HFileSource {
  readonly byteLength: number;
  read(offset: number, length: number): Uint8Array | Promise<Uint8Array>;
}

/** Options of {@link HFileReader.open}. */
export interface HFileOpenOptions {
  /** File name for error messages. */
  path?: string;
  /** Bytes read from the end at open, to get trailer and load-on-open in one read (default 64 KiB). */
  tailSize?: number;
  /** Data blocks kept decoded (default 16). */
  cacheBlocks?: number;
}

/** The name of the meta block holding the bloom filter. */
export const BLOOM_FILTER_META_BLOCK = 'bloomFilter';
/** Largest single read when scanning consecutive data blocks. */
const SCAN_READ_BYTES = 8 * 1024 * 1024;

const encoder = new TextEncoder();
const utf8 = new TextDecoder('utf-8');

/** A source over bytes in memory. */
export function bytesSource(bytes: Uint8Array): HFileSource {
  return { byteLength: bytes.length, read: (offset, length) => bytes.subarray(offset, offset + length) };
}

/** `source.read` checked to return the bytes asked for (a short read → CORRUPT_FILE naming the offset). */
async function readExact(source: HFileSource, offset: number, length: number, path?: string): Promise<Uint8Array> {
  const bytes = await source.read(offset, length);
  if (bytes.length !== length) throw corruptFile(`hfile: read of ${length} bytes returned ${bytes.length}`, path, offset);
  return bytes;
}

function keyBytesOf(key: string | Uint8Array): Uint8Array {
  return typeof key === 'string' ? encoder.encode(key) : key;
}

/** An open HFile. */
export class HFileReader {
  /** The decoded trailer. */
  readonly trailer: HFileTrailer;
  /** File info pairs in stored order. */
  readonly fileInfo: HFileInfo;
  /** Block codec. */
  readonly codec: HFileCodec;
  /** Root data index: one entry per data block, first keys ascending. */
  readonly dataIndex: readonly HFileIndexEntry[];
  /** Meta index: one entry per meta block. */
  readonly metaIndex: readonly HFileIndexEntry[];
  private readonly firstRows: Uint8Array[];
  private readonly mvcc: boolean;
  private readonly cache = new Map<number, HFileEntry[]>();

  private constructor(
    private readonly source: HFileSource,
    private readonly path: string | undefined,
    private readonly cacheBlocks: number,
    trailer: HFileTrailer,
    section: ReturnType<typeof parseLoadOnOpen>,
  ) {
    this.trailer = trailer;
    this.fileInfo = section.fileInfo;
    this.codec = section.codec;
    this.dataIndex = section.dataIndex;
    this.metaIndex = section.metaIndex;
    this.firstRows = section.dataIndex.map((e) => indexKeyRow(e.key));
    this.mvcc = includesMvcc(section.fileInfo);
  }

  /** Open an HFile from its bytes or a ranged source: reads the trailer and the load-on-open section only. */
  static async open(input: Uint8Array | HFileSource, options: HFileOpenOptions = {}): Promise<HFileReader> {
    const source = input instanceof Uint8Array ? bytesSource(input) : input;
    const { path } = options;
    const length = source.byteLength;
    if (length < HFILE_TRAILER_SIZE) throw corruptFile(`hfile: file of ${length} bytes is shorter than the ${HFILE_TRAILER_SIZE}-byte trailer`, path, 0);
    const tailSize = Math.min(length, Math.max(HFILE_TRAILER_SIZE, options.tailSize ?? 65536));
    let tailOffset = length - tailSize;
    let tail = await readExact(source, tailOffset, tailSize, path);
    const trailer = decodeTrailer(tail.subarray(tail.length - HFILE_TRAILER_SIZE), length, path);
    const sectionEnd = length - HFILE_TRAILER_SIZE;
    if (trailer.loadOnOpenDataOffset < 0 || trailer.loadOnOpenDataOffset > sectionEnd) {
      throw corruptFile(`hfile: load-on-open offset ${trailer.loadOnOpenDataOffset} outside the file`, path, length - HFILE_TRAILER_SIZE);
    }
    if (trailer.loadOnOpenDataOffset < tailOffset) {
      tailOffset = trailer.loadOnOpenDataOffset;
      tail = await readExact(source, tailOffset, sectionEnd - tailOffset, path);
    }
    const section = parseLoadOnOpen(tail.subarray(0, sectionEnd - tailOffset), tailOffset, trailer, path);
    return new HFileReader(source, path, options.cacheBlocks ?? 16, trailer, section);
  }

  /** Number of entries (the trailer's entry count). */
  get entryCount(): number {
    return this.trailer.entryCount;
  }

  /** A file-info value as UTF-8 text (e.g. `schema`), or undefined. */
  fileInfoText(name: string): string | undefined {
    const v = this.fileInfo.get(name);
    return v === undefined ? undefined : utf8.decode(v);
  }

  /** The bytes of the meta block named `name` (its stored value), or undefined when the file has none. */
  async metaBlock(name: string): Promise<Uint8Array | undefined> {
    const wanted = encoder.encode(name);
    const entry = this.metaIndex.find((e) => compareKeyBytes(e.key, wanted) === 0);
    if (entry === undefined) return undefined;
    const bytes = await readExact(this.source, entry.offset, entry.size, this.path);
    return readBlock(bytes, 0, entry.offset, this.codec, this.path, 'META').payload;
  }

  /** The `bloomFilter` meta block (Base64 text of Hudi's serialized bloom filter), or undefined. */
  bloomFilterBytes(): Promise<Uint8Array | undefined> {
    return this.metaBlock(BLOOM_FILTER_META_BLOCK);
  }

  /** Every entry in key order, reading consecutive data blocks in large ranged reads. */
  async *entries(): AsyncGenerator<HFileEntry> {
    const index = this.dataIndex;
    for (let i = 0; i < index.length; ) {
      let j = i + 1;
      const start = (index[i] as HFileIndexEntry).offset;
      let end = start + (index[i] as HFileIndexEntry).size;
      while (j < index.length && (index[j] as HFileIndexEntry).offset === end && end - start < SCAN_READ_BYTES) {
        end += (index[j] as HFileIndexEntry).size;
        j++;
      }
      const bytes = await readExact(this.source, start, end - start, this.path);
      for (let b = i; b < j; b++) {
        const e = index[b] as HFileIndexEntry;
        const payload = readBlock(bytes, e.offset - start, e.offset, this.codec, this.path, 'DATA').payload;
        yield* decodeDataBlockEntries(payload, e.offset, this.mvcc, this.path);
      }
      i = j;
    }
  }

  /** The entry whose key equals `key`, or undefined (reads at most one data block). */
  async get(key: string | Uint8Array): Promise<HFileEntry | undefined> {
    const wanted = keyBytesOf(key);
    const block = this.blockFor(wanted);
    if (block < 0) return undefined;
    const entries = await this.blockEntries(block);
    const at = lowerBound(entries, wanted);
    const hit = entries[at];
    return hit !== undefined && compareKeyBytes(hit.keyBytes, wanted) === 0 ? hit : undefined;
  }

  /** The entries of many keys (any order, duplicates allowed): key → entry for the keys present. */
  async getMany(keys: Iterable<string>): Promise<Map<string, HFileEntry>> {
    const sorted = [...new Set(keys)].map((k) => ({ k, b: encoder.encode(k) })).sort((x, y) => compareKeyBytes(x.b, y.b));
    const found = new Map<string, HFileEntry>();
    for (const { k, b } of sorted) {
      const block = this.blockFor(b);
      if (block < 0) continue;
      const entries = await this.blockEntries(block);
      const hit = entries[lowerBound(entries, b)];
      if (hit !== undefined && compareKeyBytes(hit.keyBytes, b) === 0) found.set(k, hit);
    }
    return found;
  }

  /** Every entry whose key starts with `prefix`, in key order (reads only the blocks that can hold them). */
  async getPrefix(prefix: string | Uint8Array): Promise<HFileEntry[]> {
    const wanted = keyBytesOf(prefix);
    const out: HFileEntry[] = [];
    for (let block = Math.max(0, this.blockFor(wanted)); block < this.dataIndex.length; block++) {
      if (block > 0 && compareKeyBytes(this.firstRows[block] as Uint8Array, wanted) > 0 && !hasKeyPrefix(this.firstRows[block] as Uint8Array, wanted)) break;
      const entries = await this.blockEntries(block);
      for (let i = lowerBound(entries, wanted); i < entries.length; i++) {
        const e = entries[i] as HFileEntry;
        if (!hasKeyPrefix(e.keyBytes, wanted)) return out;
        out.push(e);
      }
    }
    return out;
  }

  /** Index of the last data block whose first key ≤ `key`, or -1 when `key` sorts before the first block. */
  private blockFor(key: Uint8Array): number {
    let lo = 0;
    let hi = this.firstRows.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (compareKeyBytes(this.firstRows[mid] as Uint8Array, key) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  private async blockEntries(block: number): Promise<HFileEntry[]> {
    const hit = this.cache.get(block);
    if (hit !== undefined) return hit;
    const e = this.dataIndex[block];
    if (e === undefined) throw invalidArgument(`hfile: no data block ${block}`, { path: this.path, value: block });
    const bytes = await readExact(this.source, e.offset, e.size, this.path);
    const entries = decodeDataBlockEntries(readBlock(bytes, 0, e.offset, this.codec, this.path, 'DATA').payload, e.offset, this.mvcc, this.path);
    if (this.cache.size >= this.cacheBlocks) this.cache.delete(this.cache.keys().next().value as number);
    this.cache.set(block, entries);
    return entries;
  }
}

/** First index in sorted `entries` whose key ≥ `key`. */
function lowerBound(entries: readonly HFileEntry[], key: Uint8Array): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareKeyBytes((entries[mid] as HFileEntry).keyBytes, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
