// The base-file writer against the golden files written by its hyparquet-writer-based predecessor: same rows
// (our reader and hyparquet's parquetReadObjects), footer key/values, schema elements, statistics, row groups.
import { readFileSync } from 'node:fs';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import type { FileMetaData } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { gunzipPage } from '../../../src/format/parquet/decompress.js';
import { bufferFromBytes, readParquetFooter, readParquetRows } from '../../../src/format/parquet/read.js';
import { writeBaseFile } from '../../../src/format/parquet/write.js';
import { GOLDEN_CASES } from './golden/cases.js';

const golden = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`./golden/${name}.parquet`, import.meta.url)));
const toArrayBuffer = (b: Uint8Array): ArrayBuffer => b.slice().buffer as ArrayBuffer;

async function ourRows(bytes: Uint8Array): Promise<Record<string, unknown>[]> {
  const file = bufferFromBytes(bytes);
  return readParquetRows(file, await readParquetFooter(file, 'golden.parquet'), 'golden.parquet');
}

/** What must match between two files: everything in the footer but byte offsets, sizes and encodings. */
function footerFacts(meta: FileMetaData): unknown {
  return {
    version: meta.version,
    schema: meta.schema,
    num_rows: meta.num_rows,
    key_value_metadata: meta.key_value_metadata,
    row_groups: meta.row_groups.map((g) => ({
      num_rows: g.num_rows,
      columns: g.columns.map((c) => ({
        type: c.meta_data?.type,
        path: c.meta_data?.path_in_schema,
        codec: c.meta_data?.codec,
        num_values: c.meta_data?.num_values,
        statistics: c.meta_data?.statistics,
      })),
    })),
  };
}

describe('base files match the golden files of the hyparquet-writer-based writer', () => {
  for (const c of GOLDEN_CASES) {
    it(`${c.name}: same rows, footer keys, schema, statistics and row groups`, async () => {
      const old = golden(c.name);
      const now = writeBaseFile(c.rows, c.options);
      expect(await ourRows(now)).toEqual(await ourRows(old));
      const [a, b] = [parquetMetadata(toArrayBuffer(now)), parquetMetadata(toArrayBuffer(old))];
      expect(footerFacts(a)).toEqual(footerFacts(b));
      expect(a.created_by).toMatch(/^lakelet version /);
      const objects = async (bytes: Uint8Array): Promise<unknown[]> => parquetReadObjects({ file: toArrayBuffer(bytes), compressors: { GZIP: gunzipPage } });
      expect(await objects(now)).toEqual(await objects(old));
    });
  }
});
