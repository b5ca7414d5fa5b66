// Hudi `#HUDI#` log-file framing (hudi-format.md §7.1): scanning a log file's bytes into blocks (type, header,
// content, footer) with Hudi's corruption semantics, and encoding one block. Block contents: log-block-content.ts.

import { LakeletError } from '../../errors.js';
import { AvroWriter } from '../avro/writer.js';

/** Block types by Java ordinal (index = the int32 written in the block). */
export const LOG_BLOCK_TYPES = ['COMMAND', 'DELETE', 'CORRUPT', 'AVRO_DATA', 'HFILE_DATA', 'PARQUET_DATA', 'CDC_DATA'] as const;

/** A log block type name (`HoodieLogBlockType`). */
export type LogBlockType = (typeof LOG_BLOCK_TYPES)[number];

/** Header/footer keys by Java ordinal (index = the int32 key written in the map). */
export const LOG_BLOCK_HEADER_KEYS = [
  'INSTANT_TIME',
  'TARGET_INSTANT_TIME',
  'SCHEMA',
  'COMMAND_BLOCK_TYPE',
  'COMPACTED_BLOCK_TIMES',
  'RECORD_POSITIONS',
  'BLOCK_IDENTIFIER',
  'IS_PARTIAL',
  'BASE_FILE_INSTANT_TIME_OF_RECORD_POSITIONS',
] as const;

/** A header/footer key name (`HeaderMetadataType`). */
export type LogBlockHeaderKey = (typeof LOG_BLOCK_HEADER_KEYS)[number];

/** A block's header or footer: values are the UTF-8 strings Hudi wrote, keyed by key name. */
export type LogBlockHeader = Partial<Record<LogBlockHeaderKey, string>>;

/** One well-formed block of a log file. */
export interface LogBlock {
  type: Exclude<LogBlockType, 'CORRUPT'>;
  /** Byte offset of the block's `#HUDI#` magic in the file. */
  offset: number;
  /** Total bytes the block occupies on disk (magic through trailing size). */
  length: number;
  /** Log format version (always 1 for blocks lakelet accepts). */
  formatVersion: number;
  header: LogBlockHeader;
  footer: LogBlockHeader;
  /** Header/footer entries with key ordinals lakelet does not know (from newer writers), keyed by ordinal. */
  unknownHeader?: Record<number, string>;
  /** The block content: a view into the scanned bytes (not a copy). */
  content: Uint8Array;
  /** Byte offset of the content in the file. */
  contentOffset: number;
}

/** A region Hudi would read as a CORRUPT block: it is skipped, and a reader may report it. */
export interface CorruptLogRegion {
  /** Byte offset where the region starts. */
  offset: number;
  /** Region length in bytes (up to the next `#HUDI#` magic or EOF). */
  length: number;
  /** Why the region is not a valid block. */
  reason: string;
}

/** Result of {@link scanLogBlocks}. */
export interface LogBlockScan {
  blocks: LogBlock[];
  corrupt: CorruptLogRegion[];
}

const MAGIC = [0x23, 0x48, 0x55, 0x44, 0x49, 0x23]; // "#HUDI#"
const MAGIC_LEN = 6;
/** Smallest block length: version + type + header count + content length + footer count + trailing size. */
const MIN_BLOCK_LENGTH = 4 + 4 + 4 + 8 + 4 + 8;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function magicAt(bytes: Uint8Array, at: number): boolean {
  if (at + MAGIC_LEN > bytes.length) return false;
  for (let i = 0; i < MAGIC_LEN; i++) if (bytes[at + i] !== MAGIC[i]) return false;
  return true;
}

/** Offset of the next `#HUDI#` at or after `from`, or the file length when there is none. */
function nextMagic(bytes: Uint8Array, from: number): number {
  for (let at = bytes.indexOf(0x23, from); at >= 0; at = bytes.indexOf(0x23, at + 1)) {
    if (magicAt(bytes, at)) return at;
  }
  return bytes.length;
}

/** Big-endian int64 at `at` as a number, or -1 when it is negative or beyond 2^53. */
function int64At(view: DataView, at: number): number {
  const hi = view.getInt32(at, false);
  const lo = view.getUint32(at + 4, false);
  if (hi < 0 || hi > 0x1fffff) return -1;
  return hi * 4294967296 + lo;
}

class BlockError extends Error {}

/**
 * Scan a log file into blocks. Never throws on bad bytes: any region that is not a well-formed block (bad
 * magic, impossible or mismatching lengths, truncation, unknown type or version, malformed header) is
 * reported in `corrupt` and scanning resumes at the next `#HUDI#` magic, as Hudi's reader does. A
 * truncated last block is a corrupt region. `_path` names the file for callers' symmetry with other decoders.
 */
export function scanLogBlocks(bytes: Uint8Array, _path?: string): LogBlockScan {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const blocks: LogBlock[] = [];
  const corrupt: CorruptLogRegion[] = [];
  const skipTo = (start: number, searchFrom: number, reason: string): number => {
    const end = nextMagic(bytes, searchFrom);
    corrupt.push({ offset: start, length: end - start, reason });
    return end;
  };
  let pos = 0;
  while (pos < bytes.length) {
    if (!magicAt(bytes, pos)) {
      pos = skipTo(pos, pos + 1, 'no #HUDI# magic at block start');
      continue;
    }
    if (pos + MAGIC_LEN + 8 > bytes.length) {
      pos = skipTo(pos, pos + MAGIC_LEN, 'truncated block length');
      continue;
    }
    const blockLength = int64At(view, pos + MAGIC_LEN);
    const end = pos + MAGIC_LEN + 8 + blockLength;
    if (blockLength < MIN_BLOCK_LENGTH || end > bytes.length) {
      pos = skipTo(pos, pos + MAGIC_LEN, blockLength < 0 ? 'invalid block length' : end > bytes.length ? 'block extends past the end of the file (truncated)' : 'block length too small');
      continue;
    }
    if (int64At(view, end - 8) !== blockLength + MAGIC_LEN) {
      pos = skipTo(pos, pos + MAGIC_LEN, 'trailing block size does not match the block length');
      continue;
    }
    try {
      blocks.push(parseBlock(bytes, view, pos, end));
    } catch (err) {
      if (!(err instanceof BlockError)) throw err;
      corrupt.push({ offset: pos, length: end - pos, reason: err.message });
    }
    pos = end;
  }
  return { blocks, corrupt };
}

/** Parse a block whose framing (magic, length, trailer) already checked out; malformed insides → BlockError. */
function parseBlock(bytes: Uint8Array, view: DataView, start: number, end: number): LogBlock {
  const limit = end - 8; // start of the trailing size
  let p = start + MAGIC_LEN + 8;
  const int32 = (): number => {
    if (p + 4 > limit) throw new BlockError('block fields run past the block end');
    const v = view.getInt32(p, false);
    p += 4;
    return v;
  };
  const formatVersion = int32();
  if (formatVersion !== 1) throw new BlockError(`unsupported log format version ${formatVersion}`);
  const typeOrdinal = int32();
  const type = LOG_BLOCK_TYPES[typeOrdinal];
  if (type === undefined || type === 'CORRUPT') throw new BlockError(`block type ordinal ${typeOrdinal} is not a readable block type`);
  const unknown: Record<number, string> = {};
  let sawUnknown = false;
  const readMap = (): LogBlockHeader => {
    const out: LogBlockHeader = {};
    const count = int32();
    if (count < 0 || count * 8 > limit - p) throw new BlockError(`invalid header entry count ${count}`);
    for (let i = 0; i < count; i++) {
      const key = int32();
      const len = int32();
      if (len < 0 || len > limit - p) throw new BlockError(`invalid header value length ${len}`);
      let value: string;
      try {
        value = utf8.decode(bytes.subarray(p, p + len));
      } catch {
        throw new BlockError('header value is not valid UTF-8');
      }
      p += len;
      const name = LOG_BLOCK_HEADER_KEYS[key];
      if (name !== undefined) out[name] = value;
      else {
        unknown[key] = value;
        sawUnknown = true;
      }
    }
    return out;
  };
  const header = readMap();
  if (p + 8 > limit) throw new BlockError('block fields run past the block end');
  const contentLength = int64At(view, p);
  p += 8;
  if (contentLength < 0 || contentLength > limit - p) throw new BlockError(`invalid content length ${contentLength}`);
  const contentOffset = p;
  p += contentLength;
  const footer = readMap();
  if (p !== limit) throw new BlockError(`${limit - p} unexpected bytes before the trailing block size`);
  const block: LogBlock = {
    type,
    offset: start,
    length: end - start,
    formatVersion,
    header,
    footer,
    content: bytes.subarray(contentOffset, contentOffset + contentLength),
    contentOffset,
  };
  if (sawUnknown) block.unknownHeader = unknown;
  return block;
}

const utf8Encoder = new TextEncoder();

/**
 * Encode one block (format version 1). Header and footer entries are written in the objects' key order
 * (Hudi's own order is not fixed; pass keys in the order you want on disk). Byte-exact with Hudi's writer.
 */
export function encodeLogBlock(type: LogBlockType, header: LogBlockHeader, content: Uint8Array = new Uint8Array(0), footer: LogBlockHeader = {}): Uint8Array {
  const ordinal = LOG_BLOCK_TYPES.indexOf(type);
  if (ordinal < 0 || type === 'CORRUPT') throw new LakeletError('INVALID_ARGUMENT', `log block: cannot encode block type "${type}"`, { value: type });
  const w = new AvroWriter(64 + content.length);
  w.writeFixed(Uint8Array.from(MAGIC));
  const lengthAt = w.pos;
  w.writeInt64BE(0); // patched below
  const bodyStart = w.pos;
  w.writeInt32BE(1);
  w.writeInt32BE(ordinal);
  writeMap(w, header);
  w.writeInt64BE(content.length);
  w.writeFixed(content);
  writeMap(w, footer);
  const blockLength = w.pos - bodyStart + 8;
  w.writeInt64BE(blockLength + MAGIC_LEN);
  const out = w.finish();
  new DataView(out.buffer, out.byteOffset, out.byteLength).setBigInt64(lengthAt, BigInt(blockLength), false);
  return out;
}

function writeMap(w: AvroWriter, map: LogBlockHeader): void {
  const entries = Object.entries(map).filter((e): e is [string, string] => e[1] !== undefined);
  w.writeInt32BE(entries.length);
  for (const [key, value] of entries) {
    const ordinal = (LOG_BLOCK_HEADER_KEYS as readonly string[]).indexOf(key);
    if (ordinal < 0) throw new LakeletError('INVALID_ARGUMENT', `log block: unknown header key "${key}"`, { field: key });
    if (typeof value !== 'string') throw new LakeletError('INVALID_ARGUMENT', `log block: header ${key} must be a string`, { field: key, value });
    const bytes = utf8Encoder.encode(value);
    w.writeInt32BE(ordinal);
    w.writeInt32BE(bytes.length);
    w.writeFixed(bytes);
  }
}
