// Carries LakeletError across the worker boundary: a comlink "throw" transfer handler that serialises the
// code, message, context, stack and cause, and rebuilds a LakeletError on the receiving side.
import { transferHandlers, type TransferHandler } from 'comlink';
import { LakeletError, type LakeletErrorCode, type LakeletErrorContext } from '../errors.js';

/** A LakeletError as plain data. */
export interface SerializedLakeletError {
  code: LakeletErrorCode;
  message: string;
  context: LakeletErrorContext;
  stack?: string;
  cause?: { name: string; message: string; code?: LakeletErrorCode };
}

const MARK = '__lakeletError';
const INSTALLED = Symbol.for('lakelet.errorTransfer');

/** Context values as structured-clone-safe data: what cannot be cloned becomes its string form. */
function cloneSafe(context: LakeletErrorContext): LakeletErrorContext {
  const out: LakeletErrorContext = {};
  for (const [k, v] of Object.entries(context)) {
    if (v === null || v === undefined || ['string', 'number', 'boolean', 'bigint'].includes(typeof v)) {
      out[k] = v;
      continue;
    }
    try {
      out[k] = structuredClone(v);
    } catch {
      out[k] = String(v);
    }
  }
  return out;
}

/** A LakeletError as plain data (the worker side of the transfer). */
export function serializeLakeletError(err: LakeletError): SerializedLakeletError {
  const out: SerializedLakeletError = { code: err.code, message: err.message, context: cloneSafe(err.context) };
  if (err.stack !== undefined) out.stack = err.stack;
  const cause = err.cause;
  if (cause !== undefined) {
    out.cause = cause instanceof Error
      ? { name: cause.name, message: cause.message, ...(cause instanceof LakeletError ? { code: cause.code } : {}) }
      : { name: typeof cause, message: String(cause) };
  }
  return out;
}

/** Rebuilds a LakeletError from {@link serializeLakeletError}'s data (the main side of the transfer). */
export function deserializeLakeletError(data: SerializedLakeletError): LakeletError {
  let cause: Error | undefined;
  if (data.cause) {
    cause = data.cause.code !== undefined ? new LakeletError(data.cause.code, data.cause.message) : new Error(data.cause.message);
    cause.name = data.cause.name;
  }
  const err = new LakeletError(data.code, data.message, data.context, cause === undefined ? undefined : { cause });
  if (data.stack !== undefined) err.stack = data.stack;
  return err;
}

/**
 * Installs the transfer handler into comlink's `transferHandlers` (idempotent). Both sides need it: the
 * worker entry and the pool install it. Errors other than LakeletError keep comlink's default handling.
 */
export function installErrorTransfer(): void {
  const base = transferHandlers.get('throw') as (TransferHandler<unknown, unknown> & { [INSTALLED]?: true }) | undefined;
  if (!base || base[INSTALLED]) return;
  const handler: TransferHandler<unknown, unknown> & { [INSTALLED]: true } = {
    [INSTALLED]: true,
    canHandle: (value: unknown): value is unknown => base.canHandle(value),
    serialize(thrown: unknown): [unknown, Transferable[]] {
      const value = (thrown as { value?: unknown }).value;
      if (value instanceof LakeletError) return [{ [MARK]: serializeLakeletError(value) }, []];
      return base.serialize(thrown);
    },
    deserialize(serialized: unknown): unknown {
      if (typeof serialized === 'object' && serialized !== null && MARK in serialized) {
        throw deserializeLakeletError((serialized as Record<string, SerializedLakeletError>)[MARK] as SerializedLakeletError);
      }
      return base.deserialize(serialized);
    },
  };
  transferHandlers.set('throw', handler);
}
