// The parts of a base file a tagging worker gets (format/parquet/byte-ranges.ts): the footer and the record key
// column's chunks are enough to read the footer, the Hudi footer keys and every record key, as from the whole
// file; any other read is refused by name; small files and several row groups alike.
import { describe, expect, it } from 'vitest';
import { readFileParts, partsBuffer, readRanges } from '../../../src/format/parquet/byte-ranges.js';
import { readHudiFooter } from '../../../src/format/parquet/hudi-footer.js';
import { bufferFromBytes, FOOTER_FETCH_BYTES, readParquetFooter, readParquetRows } from '../../../src/format/parquet/read.js';
import { writeBaseFile } from '../../../src/format/parquet/write.js';
import { isLakeletError } from '../../../src/errors.js';
import { GOLDEN_CASES } from './golden/cases.js';

const KEY = '_hoodie_record_key';

/** Golden rows, or `copies` of them with distinct keys (a file past the footer's 512 KB first fetch). */
function caseRows(name: string, copies = 1): { rows: Record<string, unknown>[]; options: (typeof GOLDEN_CASES)[number]['options'] } {
  const c = GOLDEN_CASES.find((g) => g.name === name) as (typeof GOLDEN_CASES)[number];
  const rows = Array.from({ length: copies }, (_, k) => c.rows.map((r) => ({ ...r, [KEY]: `${String(r[KEY])}-${k}` }))).flat();
  return { rows, options: c.options };
}

describe('base file parts', () => {
  for (const [name, copies] of [['flat-snappy-bloom', 1], ['flat-gzip', 1], ['flat-snappy-bloom', 150]] as const) {
    it(`the footer and key chunks read like the whole file: ${name} x ${copies}`, async () => {
      const c = caseRows(name, copies);
      const bytes = writeBaseFile(c.rows, c.options);
      if (copies > 1) expect(bytes.length).toBeGreaterThan(2 * FOOTER_FETCH_BYTES);
      const whole = bufferFromBytes(bytes);
      const footer = await readParquetFooter(whole, 'p/f.parquet');
      const ranges = readRanges(footer, bytes.length, [KEY]);
      const parts = await readFileParts(whole, ranges);
      if (bytes.length > 2 * FOOTER_FETCH_BYTES) {
        // a large file: the tail and one key chunk per row group, a fraction of the file
        expect(ranges).toHaveLength(1 + footer.rowGroupRows.length);
        expect(parts.bytes.length).toBeLessThan(bytes.length / 2);
      } else {
        // a small one: its tail covers it all, sent once
        expect(ranges).toEqual([{ start: 0, end: bytes.length }]);
      }
      const sparse = partsBuffer(parts, 'p/f.parquet');
      const again = await readParquetFooter(sparse, 'p/f.parquet');
      expect(again.keyValues).toEqual(footer.keyValues);
      expect(readHudiFooter(again.keyValues, { path: 'p/f.parquet' })).toEqual(readHudiFooter(footer.keyValues, { path: 'p/f.parquet' }));
      const keys = await readParquetRows(sparse, again, 'p/f.parquet', { columns: [KEY] });
      expect(keys).toEqual(await readParquetRows(whole, footer, 'p/f.parquet', { columns: [KEY] }));
      expect(keys.map((r) => r[KEY])).toEqual(c.rows.map((r) => r[KEY]));
      if (bytes.length <= 2 * FOOTER_FETCH_BYTES) return;
      // the footer alone (a bloom-only probe) holds no key chunk: reading keys is refused, naming the file
      const footerOnly = partsBuffer(await readFileParts(whole, readRanges(footer, bytes.length, [])), 'p/f.parquet');
      await readParquetFooter(footerOnly, 'p/f.parquet');
      let error: unknown;
      try {
        await readParquetRows(footerOnly, footer, 'p/f.parquet', { columns: [KEY] });
      } catch (err) {
        error = err;
      }
      expect(isLakeletError(error, 'UNSUPPORTED')).toBe(true);
      expect((error as Error).message).toContain('p/f.parquet');
    });
  }
});
