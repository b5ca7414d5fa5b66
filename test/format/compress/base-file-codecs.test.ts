// Base files written with every page compressor lakelet has (GZIP fflate and node:zlib, SNAPPY JS and WASM,
// ZSTD where this Node has zstdCompressSync) read back by our reader and by DuckDB, with the codec in the footer.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseAvroSchema, type AvroRecordSchema } from '../../../src/format/avro/schema.js';
import { defaultPageCompressors, gzipFflate, registerPageCompressors, type PageCompressor } from '../../../src/format/compress/default-compressors.js';
import { snappyCompressJs } from '../../../src/format/compress/snappy-js.js';
import { bufferFromBytes, readParquetFooter, readParquetRows } from '../../../src/format/parquet/read.js';
import { BaseFileWriter, type BaseFileCodec } from '../../../src/format/parquet/write.js';
import type { Kernels } from '../../../src/kernels/kernels.js';
import { instantiateKernels } from '../../../src/kernels/wasm-kernels.js';
import { gzipNodeZlib, zstdNodeZlib } from '../../../src/node/compressors-node.js';
import { withMetaFields } from '../../../src/schema/table-schema.js';

const schema = withMetaFields(parseAvroSchema({ type: 'record', name: 'codecs', fields: [
  { name: 'n', type: 'long' }, { name: 'fare', type: 'double' }, { name: 'city', type: ['null', 'string'] },
  { name: 'note', type: ['null', 'string'] }] }) as AvroRecordSchema);
const N = 12_000;
const CITIES = ['sf', 'nyc', 'la', 'chicago', 'boston'];

function rows(): Record<string, unknown>[] {
  return Array.from({ length: N }, (_, i) => ({
    _hoodie_commit_time: '20240418173551906', _hoodie_commit_seqno: `20240418173551906_0_${i}`,
    _hoodie_record_key: `key-${String(i).padStart(6, '0')}`, _hoodie_partition_path: '', _hoodie_file_name: 'f1_0-1-1_20240418173551906.parquet',
    n: BigInt(i * 7919), fare: (i * 13.37) % 100, city: i % 11 === 0 ? null : CITIES[i % 5], note: i % 3 === 0 ? null : `note ${i} `.repeat(1 + (i % 9)),
  }));
}

let wasm: Kernels | undefined;
const dir = mkdtempSync(join(tmpdir(), 'lakelet-codecs-'));
beforeAll(async () => {
  const generated = fileURLToPath(new URL('../../../src/kernels/generated/', import.meta.url));
  wasm = await instantiateKernels(readFileSync(`${generated}kernels.wasm`), 'simd');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cases: [string, Exclude<BaseFileCodec, 'UNCOMPRESSED'>, () => PageCompressor][] = [
  ['GZIP fflate', 'GZIP', () => gzipFflate],
  ['GZIP node:zlib', 'GZIP', () => gzipNodeZlib],
  ['SNAPPY JS', 'SNAPPY', () => snappyCompressJs],
  ['SNAPPY WASM', 'SNAPPY', () => (b) => wasm!.snappyCompress(b)],
  ...(zstdNodeZlib === undefined ? [] : [['ZSTD node:zlib', 'ZSTD', () => zstdNodeZlib] as [string, 'ZSTD', () => PageCompressor]]),
];

describe('base files with each page compressor', () => {
  const input = rows();
  const written = new Map<string, Uint8Array>();
  for (const [name, codec, compressor] of cases) {
    test(`${name}: our reader and DuckDB read every row back`, async () => {
      const writer = new BaseFileWriter({ schema, codec, compressors: { [codec]: compressor() }, rowGroupRows: 5000 });
      writer.write(input);
      const bytes = writer.finish();
      written.set(name, bytes);
      const footer = await readParquetFooter(bufferFromBytes(bytes), 'f.parquet');
      const codecs = new Set(footer.metadata.row_groups.flatMap((g) => g.columns.map((c) => c.meta_data?.codec)));
      expect([...codecs]).toEqual([codec]);
      const back = await readParquetRows(bufferFromBytes(bytes), footer, 'f.parquet');
      expect(back).toEqual(input);

      const path = join(dir, `${name.replace(/\W/g, '-')}.parquet`);
      writeFileSync(path, bytes);
      const { DuckDBInstance } = await import('@duckdb/node-api');
      const c = await (await DuckDBInstance.create(':memory:')).connect();
      const got = (await c.runAndReadAll(`select count(*)::int as c, sum(n)::varchar as s, count(city)::int as k,
        sum(len(note))::bigint::varchar as l, max(_hoodie_record_key) as mx from read_parquet('${path}')`)).getRowObjectsJson();
      const noteBytes = input.reduce((sum, r) => sum + (typeof r.note === 'string' ? r.note.length : 0), 0);
      expect(got).toEqual([{ c: N, s: String(7919 * (N * (N - 1)) / 2), k: N - Math.ceil(N / 11), l: String(noteBytes), mx: `key-${String(N - 1).padStart(6, '0')}` }]);
      c.closeSync();
    });
  }

  test('SNAPPY through JS and through WASM gives the same file bytes', () => {
    const js = written.get('SNAPPY JS');
    expect(js).toBeDefined();
    expect(Buffer.from(written.get('SNAPPY WASM')!).equals(Buffer.from(js!))).toBe(true);
  });

  test('a ZSTD compressor comes from node:zlib exactly when this Node has zstdCompressSync; none by default here', () => {
    const has = typeof (zlib as unknown as Record<string, unknown>).zstdCompressSync === 'function';
    expect(zstdNodeZlib !== undefined).toBe(has);
    expect(defaultPageCompressors().ZSTD).toBeUndefined();
  });

  test('registered platform compressors replace the built-in ones, and undefined restores them', () => {
    const before = defaultPageCompressors();
    expect(before.GZIP).toBe(gzipFflate);
    registerPageCompressors({ GZIP: gzipNodeZlib });
    expect(defaultPageCompressors().GZIP).toBe(gzipNodeZlib);
    expect(defaultPageCompressors().SNAPPY).toBe(before.SNAPPY);
    registerPageCompressors({ GZIP: undefined });
    expect(defaultPageCompressors().GZIP).toBe(gzipFflate);
  });
});
