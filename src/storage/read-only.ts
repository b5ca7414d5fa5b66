// The write half of a read-only Storage (HTTP, picked files): `write`, `writeIfAbsent` and `delete` all raise
// UNSUPPORTED naming the store and the path.
import { readOnly } from '../errors.js';
import { normalizePath, type ByteRange, type FileInfo, type ListOptions, type Storage } from './storage.js';

/**
 * Base of the stores that only read: subclasses implement `head`, `read` and `list`; every write raises
 * `UNSUPPORTED` (an invalid path still raises `INVALID_ARGUMENT` first, as in writable stores).
 */
export abstract class ReadOnlyStorage implements Storage {
  abstract readonly label: string;
  /** Always true: writes raise `UNSUPPORTED`. */
  readonly readOnly = true;

  abstract head(path: string): Promise<FileInfo>;
  abstract read(path: string, range?: ByteRange): Promise<Uint8Array>;
  abstract list(prefix: string, options?: ListOptions): Promise<FileInfo[]>;

  /** Raises `UNSUPPORTED`. */
  async write(path: string, _bytes?: Uint8Array): Promise<void> {
    throw readOnly(this.label, normalizePath(path));
  }

  /** Raises `UNSUPPORTED`. */
  async writeIfAbsent(path: string, _bytes?: Uint8Array): Promise<boolean> {
    throw readOnly(this.label, normalizePath(path));
  }

  /** Raises `UNSUPPORTED`. */
  async delete(path: string): Promise<void> {
    throw readOnly(this.label, normalizePath(path));
  }
}
