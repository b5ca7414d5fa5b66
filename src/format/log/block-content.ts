// The content of a log block of any type lakelet reads, decoded by its type's module (content.ts for data and
// command blocks, delete-block.ts for DELETE blocks).
import { LakeletError } from '../../errors.js';
import type { AvroSchema } from '../avro/schema.js';
import type { LogBlock } from './block.js';
import { decodeAvroDataBlock, decodeCommandBlock, parquetDataBlockBytes, type CommandBlockContent } from './content.js';
import { decodeDeleteBlock, type DeleteRecord } from './delete-block.js';

/** Decoded content of any block type lakelet reads. */
export type LogBlockContent =
  | { type: 'AVRO_DATA'; schema: AvroSchema; records: Record<string, unknown>[] }
  | { type: 'DELETE'; records: DeleteRecord[] }
  | { type: 'PARQUET_DATA'; parquet: Uint8Array }
  | { type: 'COMMAND'; command: CommandBlockContent };

/** Decode any readable block's content. HFILE_DATA and CDC_DATA → `UNSUPPORTED`. */
export function decodeLogBlockContent(block: LogBlock, path?: string): LogBlockContent {
  switch (block.type) {
    case 'AVRO_DATA':
      return { type: 'AVRO_DATA', ...decodeAvroDataBlock(block, path) };
    case 'DELETE':
      return { type: 'DELETE', records: decodeDeleteBlock(block, path) };
    case 'PARQUET_DATA':
      return { type: 'PARQUET_DATA', parquet: parquetDataBlockBytes(block, path) };
    case 'COMMAND':
      return { type: 'COMMAND', command: decodeCommandBlock(block, path) };
    default:
      throw new LakeletError('UNSUPPORTED', `log block: ${block.type} blocks are not supported`, { ...(path === undefined ? {} : { path }), offset: block.offset, value: block.type });
  }
}
