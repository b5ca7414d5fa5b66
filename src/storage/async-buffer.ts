// An hyparquet AsyncBuffer over a Storage file: ranged reads on demand, so a query fetches footers and
// the row groups it needs instead of whole files; and `ownBuffer`, the ArrayBuffer of exactly a view's bytes.
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
        hit = storage.read(path, { start, end: stop }).then(ownBuffer);
        // Keep only the footer-sized reads: hyparquet asks for the tail twice (metadata, then schema).
        if (stop === byteLength) cache.set(key, hit);
      }
      return hit;
    },
  };
}

/**
 * An ArrayBuffer holding exactly the bytes of `bytes`: the view's own buffer when it spans all of it (no copy),
 * else a copy (a view into a larger buffer, or a SharedArrayBuffer, which cannot be transferred or handed out).
 */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  return bytes.slice().buffer as ArrayBuffer;
}
