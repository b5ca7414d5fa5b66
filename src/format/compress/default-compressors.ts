// The page compressors base files get by default: GZIP through fflate (level 1, pure JS) and SNAPPY through
// lakelet's own compressor (snappy.ts: the WASM kernel once loaded, else JS), unless the platform registered
// faster ones. Node registers node:zlib's gzip (and zstd where that Node has zstdCompressSync) from
// src/node/compressors-node.ts, called by Node's entries (`lakelet` and `lakelet/node`) and the Node worker
// entry, so node:zlib never reaches the browser bundle. Browsers keep fflate: CompressionStream is asynchronous and the page writer is
// synchronous (a page is compressed while its column chunk is being laid out).

import { gzipSync } from 'fflate';
import { snappyCompress } from './snappy.js';

/** A page compressor: raw bytes in, codec-framed bytes out (synchronous). */
export type PageCompressor = (input: Uint8Array) => Uint8Array;

/** Codecs a page compressor can be registered for. */
export type PageCodec = 'GZIP' | 'SNAPPY' | 'ZSTD';

const registered: Partial<Record<PageCodec, PageCompressor>> = {};

/** GZIP in pure JS: fflate at level 1 with a zero mtime (the same bytes for the same input). */
export const gzipFflate: PageCompressor = (input) => gzipSync(input, { level: 1, mtime: 0 });

/**
 * Registers this thread's platform compressors (e.g. node:zlib in Node); they replace the built-in ones in
 * {@link defaultPageCompressors}. A codec given `undefined` goes back to the built-in one (or to none).
 */
export function registerPageCompressors(compressors: Partial<Record<PageCodec, PageCompressor | undefined>>): void {
  for (const codec of ['GZIP', 'SNAPPY', 'ZSTD'] as const) {
    if (!(codec in compressors)) continue;
    const c = compressors[codec];
    if (c === undefined) delete registered[codec];
    else registered[codec] = c;
  }
}

/**
 * The page compressors a base file writer uses when its options name none: the platform's registered ones,
 * else GZIP = fflate level 1 and SNAPPY = {@link snappyCompress}; ZSTD only when the platform registered one.
 * A fresh object on every call.
 */
export function defaultPageCompressors(): Partial<Record<PageCodec, PageCompressor>> {
  return { GZIP: gzipFflate, SNAPPY: snappyCompress, ...registered };
}
