// LakeletError: the one error class of the library. Every failure carries a code, the subsystem in the
// message, and a context record naming the offending path, instant, offset or value.

/** Machine-readable error codes. */
export type LakeletErrorCode =
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'CONFLICT'
  | 'INVALID_TABLE'
  | 'CORRUPT_FILE'
  | 'INVALID_ARGUMENT'
  | 'UNSUPPORTED'
  | 'STORAGE'
  | 'ABORTED';

/** Extra facts about an error: which file, instant, byte offset, field or value was at fault. */
export interface LakeletErrorContext {
  path?: string;
  instant?: string;
  offset?: number;
  field?: string;
  value?: unknown;
  [key: string]: unknown;
}

/**
 * The error every lakelet API throws. `code` says what kind of failure it is; `context` names the
 * offending path, instant or value; `cause` keeps the underlying error when there is one.
 */
export class LakeletError extends Error {
  readonly code: LakeletErrorCode;
  readonly context: LakeletErrorContext;

  constructor(code: LakeletErrorCode, message: string, context: LakeletErrorContext = {}, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LakeletError';
    this.code = code;
    this.context = context;
  }
}

/** True when `err` is a LakeletError, optionally of the given code. */
export function isLakeletError(err: unknown, code?: LakeletErrorCode): err is LakeletError {
  return err instanceof LakeletError && (code === undefined || err.code === code);
}

/** Shorthand for an INVALID_ARGUMENT error: `message` starts with the subsystem and names the bad value. */
export function invalidArgument(message: string, context: LakeletErrorContext = {}, cause?: unknown): LakeletError {
  return new LakeletError('INVALID_ARGUMENT', message, context, { cause });
}

/** Shorthand for an UNSUPPORTED error: a valid request lakelet does not implement (or a store cannot serve). */
export function unsupported(message: string, context: LakeletErrorContext = {}, cause?: unknown): LakeletError {
  return new LakeletError('UNSUPPORTED', message, context, { cause });
}

/** Shorthand for a CONFLICT error: another writer got there first (an instant, a file group, a lock). */
export function conflict(message: string, context: LakeletErrorContext = {}, cause?: unknown): LakeletError {
  return new LakeletError('CONFLICT', message, context, { cause });
}

/** The NOT_FOUND error a store raises for a missing file: `store` is its label, `path` the normalised path. */
export function notFound(store: string, path: string): LakeletError {
  return new LakeletError('NOT_FOUND', `storage(${store}): no file at ${JSON.stringify(path)}`, { path });
}

/** The UNSUPPORTED error a read-only store raises for a write or delete of `path`. */
export function readOnly(store: string, path: string): LakeletError {
  return new LakeletError('UNSUPPORTED', `storage(${store}): store is read-only, cannot write ${JSON.stringify(path)}`, { path });
}

/** Shorthand for a CORRUPT_FILE error naming the file and the byte offset where decoding failed. */
export function corruptFile(message: string, path: string | undefined, offset?: number, cause?: unknown): LakeletError {
  const context: LakeletErrorContext = {};
  if (path !== undefined) context.path = path;
  if (offset !== undefined) context.offset = offset;
  const where = path === undefined ? '' : ` in ${path}` + (offset === undefined ? '' : ` at byte ${offset}`);
  return new LakeletError('CORRUPT_FILE', `${message}${where}`, context, { cause });
}
