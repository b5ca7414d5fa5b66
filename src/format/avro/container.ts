// Avro Object Container Files (Hudi timeline metadata, v8+ commit files): reading with the null and deflate
// codecs, and writing. Header = magic `Obj\x01`, metadata map, 16-byte sync; then (count, size, data, sync) blocks.

import { deflateSync, inflateSync } from 'fflate';
import { LakeletError, corruptFile } from '../../errors.js';
import { AvroReader, compileAvroReader } from './decoder.js';
import { AvroWriter, compileAvroWriter } from './encoder.js';
import { type AvroSchema, avroSchemaJson, parseAvroSchema } from './schema.js';
import { decodeUtf8 } from './reader.js';

/** Compression codecs lakelet reads and writes in container files. */
export type AvroCodec = 'null' | 'deflate';

/** A decoded container file. */
export interface AvroContainer {
  /** The writer schema (from `avro.schema`). */
  schema: AvroSchema;
  /** Header metadata, values decoded as UTF-8 (`avro.schema`, `avro.codec`, …). */
  metadata: Record<string, string>;
  /** All records of all blocks, in the lakelet value model. */
  records: unknown[];
}

/** Options for {@link writeAvroContainer}. */
export interface WriteAvroContainerOptions {
  /** Block compression; default `'null'` (then no `avro.codec` entry is written, like Hudi's files). */
  codec?: AvroCodec;
  /** Extra header metadata (string values). */
  metadata?: Record<string, string>;
  /** The 16-byte sync marker; default random. */
  syncMarker?: Uint8Array;
  /** Records per block; default 1000 (no records → no blocks, just the header). */
  blockSize?: number;
}

const MAGIC = [0x4f, 0x62, 0x6a, 0x01];
const SYNC_SIZE = 16;

/**
 * Read an Avro Object Container File. Corrupt or truncated data → `CORRUPT_FILE` with `path` and byte offset;
 * an unknown codec → `UNSUPPORTED`.
 */
export function readAvroContainer(bytes: Uint8Array, path?: string): AvroContainer {
  const r = new AvroReader(bytes, path);
  if (bytes.length < 4 || MAGIC.some((b, i) => bytes[i] !== b)) throw corruptFile('avro container: missing magic "Obj\\x01"', path, 0);
  r.pos = 4;
  const metadata: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let count = readCount(r); count !== 0; count = readCount(r)) {
    for (let i = 0; i < count; i++) {
      const key = r.readString();
      const start = r.pos;
      const value = r.readBytesView();
      metadata[key] = decodeUtf8(value, 0, value.length, r, start);
    }
  }
  const sync = r.readFixedView(SYNC_SIZE);
  const schemaText = metadata['avro.schema'];
  if (schemaText === undefined) throw corruptFile('avro container: no avro.schema in header', path, 4);
  const schema = parseAvroSchema(schemaText, path === undefined ? { path: '<avro container>' } : { path });
  const codec = metadata['avro.codec'] ?? 'null';
  if (codec !== 'null' && codec !== 'deflate') {
    throw new LakeletError('UNSUPPORTED', `avro container: codec "${codec}" is not supported`, path === undefined ? { value: codec } : { path, value: codec });
  }
  const read = compileAvroReader(schema);
  const records: unknown[] = [];
  while (r.pos < r.end) {
    const blockStart = r.pos;
    const count = r.readLength(false);
    const size = r.readLength();
    const dataStart = r.pos;
    r.skip(size);
    const marker = r.readFixedView(SYNC_SIZE);
    if (!sameBytes(marker, sync)) throw corruptFile('avro container: sync marker mismatch', path, r.pos - SYNC_SIZE);
    let block: AvroReader;
    if (codec === 'deflate') {
      let data: Uint8Array;
      try {
        data = inflateSync(bytes.subarray(dataStart, dataStart + size));
      } catch (err) {
        throw corruptFile('avro container: deflate data does not inflate', path, dataStart, err);
      }
      block = new AvroReader(data, path === undefined ? undefined : `${path} (inflated block at ${blockStart})`);
    } else {
      block = new AvroReader(bytes, path, dataStart, dataStart + size);
    }
    if (count > block.remaining && count > 10_000_000) throw corruptFile(`avro container: implausible record count ${count}`, path, blockStart);
    for (let i = 0; i < count; i++) records.push(read(block));
    if (block.pos !== block.end) throw corruptFile(`avro container: ${block.end - block.pos} stray bytes after block records`, path, blockStart);
  }
  return { schema, metadata: { ...metadata }, records };
}

function readCount(r: AvroReader): number {
  let count = r.readLongNumber();
  if (count < 0) {
    count = -count;
    r.readLength();
  }
  if (count * 2 > r.remaining) throw r.error(`map block count ${count} exceeds the remaining data`);
  return count;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Write records as an Avro Object Container File. `schema` may be JSON text, a JSON object or a parsed
 * schema; the header's `avro.schema` keeps the original JSON text when known.
 */
export function writeAvroContainer(schema: AvroSchema | string | object, records: readonly unknown[], options: WriteAvroContainerOptions = {}): Uint8Array {
  const parsed = parseAvroSchema(schema);
  const codec = options.codec ?? 'null';
  if (codec !== 'null' && codec !== 'deflate') throw new LakeletError('INVALID_ARGUMENT', `avro container: unknown codec "${String(codec)}"`, { value: codec });
  const sync = options.syncMarker ?? globalThis.crypto.getRandomValues(new Uint8Array(SYNC_SIZE));
  if (sync.length !== SYNC_SIZE) throw new LakeletError('INVALID_ARGUMENT', `avro container: sync marker must be 16 bytes, got ${sync.length}`, { value: sync.length });
  const blockSize = Math.max(1, Math.floor(options.blockSize ?? 1000));
  const meta: [string, string][] = [['avro.schema', avroSchemaJson(parsed)]];
  if (codec !== 'null') meta.push(['avro.codec', codec]);
  for (const [k, v] of Object.entries(options.metadata ?? {})) {
    if (k === 'avro.schema' || k === 'avro.codec') continue;
    meta.push([k, v]);
  }
  const out = new AvroWriter(4096);
  out.writeFixed(Uint8Array.from(MAGIC));
  out.writeLong(meta.length);
  const enc = new TextEncoder();
  for (const [k, v] of meta) {
    out.writeString(k);
    out.writeBytes(enc.encode(v));
  }
  out.writeByte(0);
  out.writeFixed(sync);
  const write = compileAvroWriter(parsed);
  for (let start = 0; start < records.length; start += blockSize) {
    const chunk = records.slice(start, start + blockSize);
    const body = new AvroWriter(1024);
    for (const rec of chunk) write(body, rec);
    let data = body.finish();
    if (codec === 'deflate') data = deflateSync(data);
    out.writeLong(chunk.length);
    out.writeLong(data.length);
    out.writeFixed(data);
    out.writeFixed(sync);
  }
  return out.finish();
}
