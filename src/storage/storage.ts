// The Storage contract: a byte-oriented file store addressed by `/`-separated paths relative to the
// table root. Every adapter (memory, node-fs, zip, OPFS, IndexedDB, S3, HTTP) implements it.
import { LakeletError } from '../errors.js';

/** What `head` and `list` report about one entry. */
export interface FileInfo {
  /** Path relative to the storage root, `/`-separated, no leading slash. */
  path: string;
  /** Size in bytes (0 for directories). */
  size: number;
  /** `file`, or `directory` (only from non-recursive listings). */
  kind: 'file' | 'directory';
  /** Last modification time in epoch milliseconds, when the store knows it. */
  lastModified?: number;
}

/** A byte range, `end` exclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Options of {@link Storage.list}. */
export interface ListOptions {
  /** List every file below the prefix (files only) instead of its direct children (files and directories). */
  recursive?: boolean;
  /**
   * Also list the temp files of unfinished writes (`<name>.lakelet-tmp-*`, kept by node-fs and OPFS), which
   * listings hide by default: for housekeeping that removes those a crash left behind.
   */
  includeTemporary?: boolean;
}

/** Marks the temp files adapters write before publishing a file under its name (`<name>.lakelet-tmp-<random>`). */
export const TEMP_FILE_MARKER = '.lakelet-tmp-';

/**
 * A byte store. Paths are relative to the store's root, `/`-separated, without `..`.
 * Missing files raise `LakeletError` code `NOT_FOUND`; writes into a read-only store raise `UNSUPPORTED`.
 */
export interface Storage {
  /** A short description for messages, e.g. `memory` or `fs:/data/trips`. */
  readonly label: string;
  /** True when writes raise `UNSUPPORTED`. */
  readonly readOnly: boolean;
  /** Size and kind of a file; `NOT_FOUND` when absent. */
  head(path: string): Promise<FileInfo>;
  /** The file's bytes, or the `[start, end)` slice of them; `NOT_FOUND` when absent. */
  read(path: string, range?: ByteRange): Promise<Uint8Array>;
  /** Create or replace a file. The store may read `bytes` until the promise settles: do not change them before. */
  write(path: string, bytes: Uint8Array): Promise<void>;
  /** Create a file only if it does not exist; exactly one concurrent caller gets `true`. */
  writeIfAbsent(path: string, bytes: Uint8Array): Promise<boolean>;
  /** Entries below a directory prefix (`''` = root), sorted by path. A missing directory lists as empty. */
  list(prefix: string, options?: ListOptions): Promise<FileInfo[]>;
  /** Remove a file; removing a missing file is not an error. */
  delete(path: string): Promise<void>;
}

/**
 * Normalise and validate a storage path: `/`-separated, no leading or trailing slash, no empty,
 * `.` or `..` segments. Throws `INVALID_ARGUMENT` naming the path otherwise.
 */
export function normalizePath(path: string): string {
  const trimmed = path.replace(/^\/+/, '').replace(/\/+$/, '');
  if (trimmed === '') return '';
  const parts = trimmed.split('/');
  for (const part of parts) {
    if (part === '' || part === '.' || part === '..' || part.includes('\0')) {
      throw new LakeletError('INVALID_ARGUMENT', `storage: invalid path ${JSON.stringify(path)}`, { path });
    }
  }
  return parts.join('/');
}

/** Join path segments with `/`, skipping empty ones. */
export function joinPath(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('/');
}

/** Check a range against a file size and return the clamped `[start, end)`; `INVALID_ARGUMENT` when malformed. */
export function checkRange(label: string, path: string, size: number, range: ByteRange | undefined): ByteRange {
  if (range === undefined) return { start: 0, end: size };
  const { start, end } = range;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start) {
    throw new LakeletError('INVALID_ARGUMENT', `storage(${label}): invalid range [${start}, ${end}) for ${JSON.stringify(path)}`, { path, value: range });
  }
  return { start: Math.min(start, size), end: Math.min(end, size) };
}
