// Page decompressors chosen per file: GZIP pages (one or several gzip members) through fflate, SNAPPY left to
// hyparquet until the thread's WASM kernels are installed (then on them, corrupt pages still hyparquet's error),
// and hyparquet-compressors loaded only for a file that uses another codec (ZSTD, BROTLI, LZ4).
import { describe, expect, test } from 'vitest';
import { gzipSync } from 'fflate';
import { snappyUncompress as snappyUncompressJs, type FileMetaData } from 'hyparquet';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { snappyCompressJs } from '../../../src/format/compress/snappy-js.js';
import { compressorsFor, gunzipPage } from '../../../src/format/parquet/decompress.js';
import { activeThreadKernels } from '../../../src/kernels/thread-kernels.js';
import { instantiateKernels } from '../../../src/kernels/wasm-kernels.js';

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

describe('SNAPPY on the thread kernels', () => {
  test('once WASM kernels are installed, SNAPPY pages decode on them; a corrupt page gets hyparquet\'s error', async () => {
    expect(activeThreadKernels()).toBeUndefined();
    expect(Object.keys(await compressorsFor(fileWith('SNAPPY')))).toEqual(['GZIP']); // no loader in this process: JS
    const wasm = await instantiateKernels(readFileSync(fileURLToPath(new URL('../../../src/kernels/generated/kernels.wasm', import.meta.url))));
    expect(activeThreadKernels()).toBe(wasm);
    let calls = 0;
    const snappyUncompress = wasm.snappyUncompress;
    wasm.snappyUncompress = (input, length) => (calls++, snappyUncompress(input, length));
    const c = await compressorsFor(fileWith('GZIP', 'SNAPPY'));
    expect(Object.keys(c).sort()).toEqual(['GZIP', 'SNAPPY']);
    const page = bytes(100_000, 13);
    expect(c.SNAPPY?.(snappyCompressJs(page), page.length)).toEqual(page);
    expect(calls).toBe(1);
    const cut = snappyCompressJs(page).subarray(0, 500);
    const hyparquetError = (() => {
      try {
        snappyUncompressJs(cut, new Uint8Array(page.length));
      } catch (err) {
        return (err as Error).message;
      }
      return 'no error';
    })();
    expect(() => c.SNAPPY?.(cut, page.length)).toThrow(hyparquetError);
    expect(calls).toBe(2); // the kernel refused it first
    expect(Object.keys(await compressorsFor(fileWith('GZIP')))).toEqual(['GZIP']); // no SNAPPY column: nothing added
  });
});

