// The parts of a parquet file a reader of some columns touches, and a buffer holding only those parts: what a
// worker needs to probe a base file's bloom filter and read its record keys, without the whole file crossing.
import type { AsyncBuffer } from 'hyparquet';
import { LakeletError } from '../../errors.js';
import { FOOTER_FETCH_BYTES, type ParquetFooter } from './read.js';

/** A byte range `[start, end)` of a file. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The ranges a footer read and a read of the top-level `columns` (every row group) fetch from a file of `size`
 * bytes, in file order and joined where they meet: the tail {@link readParquetFooter} asks for (at least the
 * footer), and each row group's column chunks as hyparquet plans them (from the dictionary page, else the first
 * data page, for the chunk's compressed size).
 */
export function readRanges(footer: ParquetFooter, size: number, columns: readonly string[]): ByteRange[] {
  const footerStart = size - 8 - footer.metadata.metadata_length;
  const ranges: ByteRange[] = [{ start: Math.max(0, Math.min(footerStart, size - FOOTER_FETCH_BYTES)), end: size }];
  for (const group of footer.metadata.row_groups) {
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      if (!meta || !columns.includes(meta.path_in_schema[0] as string)) continue;
      const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
      ranges.push({ start, end: start + Number(meta.total_compressed_size) });
    }
  }
  return merged(ranges);
}

/** Ranges sorted, overlapping or touching ones joined (a small file's tail covers its chunks). */
function merged(ranges: ByteRange[]): ByteRange[] {
  const out: ByteRange[] = [];
  for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/** Parts of a file: `bytes` holds `ranges` back to back. */
export interface FileParts {
  /** The whole file's size. */
  size: number;
  ranges: ByteRange[];
  bytes: Uint8Array;
}

/** Read `ranges` of `file` into one {@link FileParts}. */
export async function readFileParts(file: AsyncBuffer, ranges: readonly ByteRange[]): Promise<FileParts> {
  const parts = await Promise.all(ranges.map((r) => file.slice(r.start, r.end)));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(new Uint8Array(p), at);
    at += p.byteLength;
  }
  return { size: file.byteLength, ranges: [...ranges], bytes };
}

/**
 * An AsyncBuffer over {@link FileParts}: a slice inside one part is served from it; any other slice is refused
 * (`UNSUPPORTED` naming the file and range: the reader asked for bytes the parts were not cut for).
 */
export function partsBuffer(parts: FileParts, path: string): AsyncBuffer {
  const starts: number[] = [];
  let at = 0;
  for (const r of parts.ranges) {
    starts.push(at);
    at += r.end - r.start;
  }
  return {
    byteLength: parts.size,
    slice(start: number, end: number = parts.size): ArrayBuffer {
      const i = parts.ranges.findIndex((r) => r.start <= start && end <= r.end);
      if (i < 0) throw new LakeletError('UNSUPPORTED', `parquet: bytes ${start}-${end} of ${path} were not sent with its parts`, { path, offset: start });
      const from = (starts[i] as number) + start - (parts.ranges[i] as ByteRange).start;
      return parts.bytes.slice(from, from + end - start).buffer as ArrayBuffer;
    },
  };
}
