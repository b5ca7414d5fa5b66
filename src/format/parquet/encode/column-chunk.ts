// One column chunk of a row group: statistics, the dictionary decision, pages cut at row boundaries every ~1 MiB
// of values, and what the footer and the offset index need to know about them.
import type { SchemaElement } from 'hyparquet';
import type { LeafColumn } from '../leaf-column.js';
import { ByteSink } from './byte-sink.js';
import { buildDictionary } from './dictionary.js';
import { ENCODING, writeDataPageV2, writeDictionaryPage, type Compress } from './page.js';
import { writePlain } from './plain.js';
import { bitWidthOf, writeRleHybrid } from './rle.js';
import { chunkStatistics, type EncodedStatistics } from './statistics.js';

/** Target bytes of values per data page. */
export const PAGE_SIZE = 1 << 20;

/** A written column chunk, for the footer. */
export interface EncodedChunk {
  type: string;
  path: string[];
  encodings: number[];
  numValues: number;
  fileOffset: number;
  dataPageOffset: number;
  dictionaryPageOffset: number | undefined;
  totalCompressed: number;
  totalUncompressed: number;
  statistics: EncodedStatistics;
  /** (page type, encoding, count) of the pages written. */
  encodingStats: [number, number, number][];
  /** Page locations when there is more than one data page. */
  pages: { offset: number; size: number; firstRow: number }[] | undefined;
  offsetIndexOffset?: number;
  offsetIndexLength?: number;
}

/** What the chunk encoder knows about its leaf. */
export interface ChunkLeaf {
  /** The footer element (decimal annotations kept, for statistics). */
  element: SchemaElement;
  path: string[];
}

const scratchLevels = new ByteSink(1 << 12);
const scratchValues = new ByteSink(1 << 16);

/** Encode the first `levels` level entries and `count` values of `col` as one chunk appended to `out`. */
export function writeColumnChunk(out: ByteSink, leaf: ChunkLeaf, col: LeafColumn, levels: number, count: number, compress: Compress): EncodedChunk {
  const type = col.type;
  const fileOffset = out.pos;
  col.uniformBinaries(count);
  const statistics = chunkStatistics(leaf.element, col.numbers, col.binaries, 0, count, levels - count);
  const dict = buildDictionary(type, col.numbers, col.binaries, 0, count);
  let uncompressed = 0;
  let dictionaryPageOffset: number | undefined;
  const encodingStats: [number, number, number][] = [];
  const encodings: number[] = [];
  let encoding: number = type === 'BOOLEAN' && levels > 16 ? ENCODING.RLE : ENCODING.PLAIN;
  if (dict !== undefined) {
    dictionaryPageOffset = out.pos;
    scratchValues.reset();
    writePlain(scratchValues, type, dict.numbers, dict.binaries, 0, dict.size);
    uncompressed += writeDictionaryPage(out, dict.size, scratchValues.written(), compress);
    encodings.push(ENCODING.PLAIN);
    encodingStats.push([2, ENCODING.PLAIN, 1]);
    encoding = ENCODING.RLE_DICTIONARY;
  }
  encodings.push(encoding);
  const dataPageOffset = out.pos;
  const pages: { offset: number; size: number; firstRow: number }[] = [];
  const { maxDef, maxRep, defs, reps } = col;
  const width = dict !== undefined ? 4 : type === 'BOOLEAN' ? 0.125 : type === 'INT32' || type === 'FLOAT' ? 4 : type === 'INT64' || type === 'DOUBLE' ? 8 : -1;
  let level = 0;
  let value = 0;
  let row = 0;
  while (level < levels || (levels === 0 && pages.length === 0)) {
    // cut the page: ~PAGE_SIZE bytes of values, ending at a row boundary
    let end = level;
    let v = value;
    let bytes = 0;
    let rows = 0;
    while (end < levels) {
      if (end > level && bytes >= PAGE_SIZE && (maxRep === 0 || reps[end] === 0)) break;
      if (maxRep === 0 || reps[end] === 0) rows++;
      if (maxDef === 0 || defs[end] === maxDef) {
        bytes += width >= 0 ? width : binarySize(col.binaries[v]);
        v++;
      }
      end++;
    }
    const pageOffset = out.pos;
    scratchLevels.reset();
    const repLength = maxRep > 0 ? writeRleHybrid(scratchLevels, reps, level, end, bitWidthOf(maxRep)) : 0;
    const defLength = maxDef > 0 ? writeRleHybrid(scratchLevels, defs, level, end, bitWidthOf(maxDef)) : 0;
    scratchValues.reset();
    if (encoding === ENCODING.RLE_DICTIONARY) {
      const idx = (dict as NonNullable<typeof dict>).indexes;
      let max = 0;
      for (let i = value; i < v; i++) if ((idx[i] as number) > max) max = idx[i] as number;
      const bw = bitWidthOf(max);
      scratchValues.u8(bw);
      writeRleHybrid(scratchValues, idx, value, v, bw);
    } else if (encoding === ENCODING.RLE) {
      scratchValues.u32(0);
      const n = writeRleHybrid(scratchValues, col.numbers as Uint8Array, value, v, 1);
      new DataView(scratchValues.buf.buffer).setUint32(0, n, true);
    } else {
      writePlain(scratchValues, type, col.numbers, col.binaries, value, v);
    }
    const counts = { numValues: end - level, numNulls: end - level - (v - value), numRows: rows, encoding };
    uncompressed += writeDataPageV2(out, counts, scratchLevels.written(), repLength, defLength, scratchValues.written(), compress);
    pages.push({ offset: pageOffset, size: out.pos - pageOffset, firstRow: row });
    row += rows;
    level = end;
    value = v;
  }
  encodingStats.push([3, encoding, pages.length]);
  return {
    type,
    path: leaf.path,
    encodings,
    numValues: levels,
    fileOffset,
    dataPageOffset,
    dictionaryPageOffset,
    totalCompressed: out.pos - fileOffset,
    totalUncompressed: uncompressed,
    statistics,
    encodingStats,
    pages: pages.length > 1 ? pages : undefined,
  };
}

function binarySize(v: unknown): number {
  return typeof v === 'string' ? v.length : (v as Uint8Array).length;
}
