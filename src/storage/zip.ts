// zipStorage: a read-only Storage over the files of a .zip archive, unpacked in memory with fflate.
// macOS junk (`__MACOSX/`) is left out; everything else keeps its path inside the archive.
import { unzipSync } from 'fflate';
import { LakeletError } from '../errors.js';
import { memoryStorage } from './memory.js';
import type { Storage } from './storage.js';

/** Options of {@link zipStorage}. */
export interface ZipStorageOptions {
  /** Label used in messages (default `zip`). */
  label?: string;
}

/**
 * A read-only Storage over a .zip archive's files (unpacked once, in memory). Directory entries and
 * `__MACOSX/` resource forks are skipped. Use {@link findTableRoot} and {@link prefixedStorage} to open a
 * table stored in a folder of the archive. Bytes that are not a zip → `CORRUPT_FILE`.
 */
export function zipStorage(bytes: Uint8Array | ArrayBuffer, options: ZipStorageOptions = {}): Storage {
  const label = options.label ?? 'zip';
  const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(data, { filter: (f) => !f.name.endsWith('/') && !f.name.startsWith('__MACOSX/') });
  } catch (err) {
    throw new LakeletError('CORRUPT_FILE', `zip: cannot unpack ${label}: ${(err as Error).message}`, { path: label }, { cause: err });
  }
  const files: [string, Uint8Array][] = [];
  for (const [name, content] of Object.entries(entries)) {
    const path = name.replace(/^\/+/, '');
    if (path.split('/').some((p) => p === '..' || p === '.' || p === '')) continue;
    files.push([path, content]);
  }
  return memoryStorage({ files, readOnly: true, label });
}
