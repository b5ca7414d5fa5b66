// Decoding and encoding the content of Hudi log blocks (hudi-format.md §7.2): AVRO_DATA records, embedded
// PARQUET_DATA files and COMMAND (rollback) blocks. DELETE records are delete-block.ts's (loaded only where a
// DELETE block is read or written); block-content.ts decodes a block of any type.

import { LakeletError, corruptFile } from '../../errors.js';
import { AvroReader } from '../avro/reader.js';
import { AvroWriter } from '../avro/writer.js';
import { compileAvroReader } from '../avro/decoder.js';
import { compileAvroWriter } from '../avro/encoder.js';
import { type AvroSchema, parseAvroSchema } from '../avro/schema.js';
import type { LogBlock } from './block.js';

/** Records of an AVRO_DATA block with the writer schema they were decoded with. */
export interface AvroDataBlockContent {
  schema: AvroSchema;
  records: Record<string, unknown>[];
}

/** A COMMAND block: the only command Hudi writes is a rollback of `targetInstant`'s blocks. */
export interface CommandBlockContent {
  commandType: 'ROLLBACK';
  targetInstant: string;
}

const SCHEMA_CACHE_SIZE = 32;
const schemaCache = new Map<string, AvroSchema>();

/** Parse a SCHEMA header, reusing recent parses (every block of a file group usually carries the same text). */
function cachedSchema(text: string, path: string | undefined): AvroSchema {
  const hit = schemaCache.get(text);
  if (hit !== undefined) return hit;
  const schema = parseAvroSchema(text, { path: path ?? '<log block>' });
  if (schemaCache.size >= SCHEMA_CACHE_SIZE) {
    const oldest = schemaCache.keys().next();
    if (oldest.done !== true) schemaCache.delete(oldest.value);
  }
  schemaCache.set(text, schema);
  return schema;
}

/**
 * The writer schema of a data block: its SCHEMA header, parsed (recent parses are reused). A block without one →
 * `CORRUPT_FILE` naming the file and offset. For a partial block (IS_PARTIAL) this is the partial schema: the
 * fields its records carry.
 */
export function dataBlockSchema(block: LogBlock, path?: string): AvroSchema {
  const text = block.header.SCHEMA;
  if (text === undefined) throw corruptFile(`log block: ${block.type} block has no SCHEMA header`, path, block.offset);
  return cachedSchema(text, path);
}

/**
 * Decode an AVRO_DATA block: int32 content version (2 or 3), int32 record count, then per record an int32
 * length and one Avro datum written with the block's SCHEMA header (or `schema` when given).
 */
export function decodeAvroDataBlock(block: LogBlock, path?: string, schema?: AvroSchema): AvroDataBlockContent {
  if (block.type !== 'AVRO_DATA') throw new LakeletError('INVALID_ARGUMENT', `log block: expected an AVRO_DATA block, got ${block.type}`, { value: block.type });
  const writerSchema = schema ?? dataBlockSchema(block, path);
  const read = compileAvroReader(writerSchema);
  const content = block.content;
  const r = new AvroReader(content, path, 0, content.length, block.contentOffset);
  const version = r.readInt32BE();
  if (version !== 2 && version !== 3) {
    throw new LakeletError('UNSUPPORTED', `log block: avro data block content version ${version} is not supported`, { ...(path === undefined ? {} : { path }), offset: block.contentOffset, value: version });
  }
  const countAt = r.pos;
  const count = r.readInt32BE();
  if (count < 0 || count * 4 > r.remaining) throw r.error(`record count ${count} does not fit the block`, countAt);
  const records: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const lengthAt = r.pos;
    const length = r.readInt32BE();
    if (length < 0 || length > r.remaining) throw r.error(`record length ${length} exceeds the block`, lengthAt);
    const record = new AvroReader(content, path, r.pos, r.pos + length, block.contentOffset);
    const value = read(record);
    if (record.pos !== record.end) throw record.error(`record ${i} has ${record.end - record.pos} bytes beyond its datum`);
    if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array || value instanceof Date) {
      throw r.error('SCHEMA header is not a record schema', lengthAt);
    }
    records.push(value as Record<string, unknown>);
    r.pos += length;
  }
  if (r.pos !== r.end) throw r.error(`${r.end - r.pos} stray bytes after the last record`);
  return { schema: writerSchema, records };
}

/** Encode AVRO_DATA block content (version 3). Put the schema's JSON in the block's SCHEMA header. */
export function encodeAvroDataBlockContent(schema: AvroSchema | string | object, records: readonly unknown[]): Uint8Array {
  const write = compileAvroWriter(parseAvroSchema(schema));
  const w = new AvroWriter(1024);
  w.writeInt32BE(3);
  w.writeInt32BE(records.length);
  for (const rec of records) {
    const lengthAt = w.pos;
    w.writeInt32BE(0);
    write(w, rec);
    w.patchInt32BE(lengthAt, w.pos - lengthAt - 4);
  }
  return w.finish();
}

/**
 * The parquet file embedded in a PARQUET_DATA block (a view into the log bytes, no copy); parse it with
 * hyparquet. Content that is not a parquet file (`PAR1` at both ends) → `CORRUPT_FILE`.
 */
export function parquetDataBlockBytes(block: LogBlock, path?: string): Uint8Array {
  if (block.type !== 'PARQUET_DATA') throw new LakeletError('INVALID_ARGUMENT', `log block: expected a PARQUET_DATA block, got ${block.type}`, { value: block.type });
  const c = block.content;
  const par1 = (at: number): boolean => c[at] === 0x50 && c[at + 1] === 0x41 && c[at + 2] === 0x52 && c[at + 3] === 0x31;
  if (c.length < 12 || !par1(0) || !par1(c.length - 4)) throw corruptFile('log block: parquet data block content is not a parquet file', path, block.contentOffset);
  return c;
}

/** Decode a COMMAND block (`COMMAND_BLOCK_TYPE` "0" = rollback of `TARGET_INSTANT_TIME`). */
export function decodeCommandBlock(block: LogBlock, path?: string): CommandBlockContent {
  if (block.type !== 'COMMAND') throw new LakeletError('INVALID_ARGUMENT', `log block: expected a COMMAND block, got ${block.type}`, { value: block.type });
  const kind = block.header.COMMAND_BLOCK_TYPE;
  const target = block.header.TARGET_INSTANT_TIME;
  if (kind === undefined || target === undefined) throw corruptFile('log block: command block lacks COMMAND_BLOCK_TYPE or TARGET_INSTANT_TIME', path, block.offset);
  if (kind !== '0') throw new LakeletError('UNSUPPORTED', `log block: command block type "${kind}" is not supported`, { ...(path === undefined ? {} : { path }), offset: block.offset, value: kind });
  return { commandType: 'ROLLBACK', targetInstant: target };
}
