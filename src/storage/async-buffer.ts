// An hyparquet AsyncBuffer over a Storage file: ranged reads on demand, so a query fetches footers and
// the row groups it needs instead of whole files.
import type { AsyncBuffer } from 'hyparquet';
import type { Storage } from './storage.js';

/** Open a file of `storage` as an AsyncBuffer of known size (one `head` when `size` is not given). */
export async function storageBuffer(storage: Storage, path: string, size?: number): Promise<AsyncBuffer> {
  const byteLength = size ?? (await storage.head(path)).size;
  const cache = new Map<string, Promise<ArrayBuffer>>();
  return {
    byteLength,
    slice(start: number, end?: number): Promise<ArrayBuffer> {
      const stop = end ?? byteLength;
      const key = `${start}:${stop}`;
      let hit = cache.get(key);
      if (!hit) {
        hit = storage.read(path, { start, end: stop }).then((b) => (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? (b.buffer as ArrayBuffer) : (b.slice().buffer as ArrayBuffer)));
        // Keep only the footer-sized reads: hyparquet asks for the tail twice (metadata, then schema).
        if (stop === byteLength) cache.set(key, hit);
      }
      return hit;
    },
  };
}
