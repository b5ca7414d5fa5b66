// Mapping the DOMExceptions of the browser's storage APIs (OPFS, IndexedDB) onto LakeletError: missing
// entries become NOT_FOUND, a full quota and every other failure become STORAGE naming the file.
import { LakeletError, notFound } from '../errors.js';

/** The `name` of an Error or DOMException, or `''`. */
export function errorName(err: unknown): string {
  return typeof err === 'object' && err !== null && typeof (err as { name?: unknown }).name === 'string' ? (err as { name: string }).name : '';
}

/** True for the browser's out-of-quota error (`QuotaExceededError`, a DOMException or its subclass). */
export function isQuotaExceeded(err: unknown): boolean {
  return errorName(err) === 'QuotaExceededError';
}

/** True for the errors a missing file or folder (or one of the other kind in its place) raises. */
export function isMissingEntry(err: unknown): boolean {
  const name = errorName(err);
  return name === 'NotFoundError' || name === 'TypeMismatchError';
}

/**
 * Turn a browser storage failure while doing `what` to `path` into a LakeletError: a LakeletError passes
 * through; `NotFoundError`/`TypeMismatchError` → `NOT_FOUND`; `QuotaExceededError` → `STORAGE` saying the
 * quota is full; anything else → `STORAGE`. The original error is kept as `cause`.
 */
export function storageError(label: string, path: string, what: string, err: unknown): LakeletError {
  if (err instanceof LakeletError) return err;
  if (isMissingEntry(err)) return notFound(label, path);
  const detail = err instanceof Error ? err.message : String(err);
  if (isQuotaExceeded(err)) {
    return new LakeletError('STORAGE', `storage(${label}): out of storage quota, cannot ${what} ${JSON.stringify(path)}: ${detail}`, { path, reason: 'QUOTA_EXCEEDED' }, { cause: err });
  }
  const name = errorName(err);
  return new LakeletError('STORAGE', `storage(${label}): cannot ${what} ${JSON.stringify(path)}: ${name ? `${name}: ` : ''}${detail}`, { path }, { cause: err });
}
