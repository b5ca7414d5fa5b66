// Page decompressors chosen per file: GZIP pages (one or several gzip members) through fflate, SNAPPY left to
// hyparquet, and hyparquet-compressors loaded only for a file that uses another codec (ZSTD, BROTLI, LZ4).
import { describe, expect, test } from 'vitest';
import { gzipSync } from 'fflate';
import type { FileMetaData } from 'hyparquet';
import { compressorsFor, gunzipPage } from '../../../src/format/parquet/decompress.js';

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * seed + (i >> 4)) & 0xff);
const fileWith = (...codecs: string[]) => ({ row_groups: [{ columns: codecs.map((codec) => ({ meta_data: { codec } })) }] }) as unknown as FileMetaData;

describe('gunzipPage', () => {
  test('one member decodes to the page', () => {
    const page = bytes(70_000, 7);
    expect(gunzipPage(gzipSync(page), page.length)).toEqual(page);
  });

  test('several concatenated members decode to their concatenation', () => {
    const a = bytes(5000, 3);
    const b = bytes(9000, 11);
    const ga = gzipSync(a);
    const gb = gzipSync(b);
    const input = new Uint8Array(ga.length + gb.length);
    input.set(ga);
    input.set(gb, ga.length);
    const out = gunzipPage(input, a.length + b.length);
    expect(out.subarray(0, a.length)).toEqual(a);
    expect(out.subarray(a.length)).toEqual(b);
  });
});

describe('compressorsFor', () => {
  test('UNCOMPRESSED, SNAPPY and GZIP files need nothing loaded (GZIP through fflate)', async () => {
    const c = await compressorsFor(fileWith('UNCOMPRESSED', 'SNAPPY', 'GZIP'));
    expect(Object.keys(c)).toEqual(['GZIP']);
    expect(c.GZIP).toBe(gunzipPage);
  });

  test('a ZSTD column loads hyparquet-compressors (every codec, GZIP still through fflate)', async () => {
    const c = await compressorsFor(fileWith('GZIP', 'ZSTD'));
    expect(Object.keys(c).sort()).toEqual(['BROTLI', 'GZIP', 'LZ4', 'LZ4_RAW', 'SNAPPY', 'ZSTD']);
    expect(c.GZIP).toBe(gunzipPage);
  });
});
