// Page decompressors for hyparquet, chosen per file: SNAPPY on the thread's WASM kernels (loaded on first use;
// hyparquet's own JS decoder without them) and GZIP (fflate, already bundled for Avro and zip) are always at hand;
// ZSTD, BROTLI and LZ4 load hyparquet-compressors on first use only.
import { Gunzip, gunzipSync } from 'fflate';
import { snappyUncompress, type Compressors, type FileMetaData } from 'hyparquet';
import { activeThreadKernels } from '../../kernels/thread-kernels.js';
import { loadThreadKernels } from '../../kernels/thread-kernels-load.js';

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

let kernelSnappy: Compressors['SNAPPY'];

/**
 * SNAPPY pages on the thread's WASM kernels; a page the kernel refuses (corrupt, or WASM memory cannot grow) goes
 * to hyparquet's JS decoder, so the bytes and the errors are hyparquet's.
 */
function snappyOnKernels(): Compressors['SNAPPY'] {
  const kernels = activeThreadKernels();
  if (kernels === undefined) return undefined;
  kernelSnappy ??= (input: Uint8Array, length: number): Uint8Array => {
    try {
      return kernels.snappyUncompress(input, length);
    } catch {
      const out = new Uint8Array(length);
      snappyUncompress(input, out);
      return out;
    }
  };
  return kernelSnappy;
}

/** The decompressors for every codec the file's column chunks use (hyparquet-compressors loaded when one needs it). */
export async function compressorsFor(metadata: FileMetaData): Promise<Compressors> {
  const codecs = new Set(metadata.row_groups.flatMap((g) => g.columns.map((c) => c.meta_data?.codec ?? 'UNCOMPRESSED')));
  const snappy = codecs.has('SNAPPY') && (await loadThreadKernels()) ? snappyOnKernels() : undefined;
  let base = BUILT_IN;
  if (![...codecs].every((c) => BUILT_IN_CODECS.has(c))) {
    loaded ??= import('hyparquet-compressors').then((m) => ({ ...m.compressors, GZIP: gunzipPage }));
    base = await loaded;
  }
  return snappy === undefined ? base : { ...base, SNAPPY: snappy };
}
