// Page decompressors for hyparquet, chosen per file: SNAPPY (hyparquet's own) and GZIP (fflate, already bundled
// for Avro and zip) are always at hand; ZSTD, BROTLI and LZ4 load hyparquet-compressors on first use only.
import { Gunzip, gunzipSync } from 'fflate';
import type { Compressors, FileMetaData } from 'hyparquet';

/** GZIP pages: one gzip member decoded in place; several members (some writers emit them) through the stream. */
export function gunzipPage(input: Uint8Array, length: number): Uint8Array {
  const out = gunzipSync(input, { out: new Uint8Array(length) });
  if (out.length === length) return out;
  const all = new Uint8Array(length);
  let at = 0;
  new Gunzip((chunk) => {
    all.set(chunk, at);
    at += chunk.length;
  }).push(input, true);
  return at === length ? all : all.subarray(0, at);
}

/** The decompressors needed without loading anything: UNCOMPRESSED and SNAPPY need none from us. */
const BUILT_IN: Compressors = { GZIP: gunzipPage };
const BUILT_IN_CODECS: ReadonlySet<string> = new Set(['UNCOMPRESSED', 'SNAPPY', 'GZIP']);
let loaded: Promise<Compressors> | undefined;

/** The decompressors for every codec the file's column chunks use (hyparquet-compressors loaded when one needs it). */
export async function compressorsFor(metadata: FileMetaData): Promise<Compressors> {
  const builtIn = metadata.row_groups.every((g) => g.columns.every((c) => c.meta_data === undefined || BUILT_IN_CODECS.has(c.meta_data.codec)));
  if (builtIn) return BUILT_IN;
  loaded ??= import('hyparquet-compressors').then((m) => ({ ...m.compressors, GZIP: gunzipPage }));
  return loaded;
}
