// The `commitCallback` write/table option (Hudi's `hoodie.write.commit.callback.http.*` keys) and its
// validation; the callback itself (http-callback.ts) loads only for writes that set it.
import { LakeletError } from '../../errors.js';

/** The `commitCallback` write/table option: where and how to POST each commit (Hudi's `hoodie.write.commit.callback.http.*`). */
export interface CommitCallbackOptions {
  /** The endpoint (`hoodie.write.commit.callback.http.url`): http(s). */
  url: string;
  /** The `HUDI-CALLBACK-KEY` header (`…http.api.key`, default Hudi's `hudi_write_commit_http_callback`). */
  apiKey?: string;
  /** The whole callback's deadline in ms, retries included (`…http.timeout.seconds`, default 3 s as Hudi documents). */
  timeoutMs?: number;
  /** Extra request headers (`…http.custom.headers`). */
  headers?: Record<string, string>;
  /** Attempts after a failed one (network error, 429 or 5xx) while the deadline allows (default 2, at most 5). */
  retries?: number;
}

/** {@link CommitCallbackOptions} with the defaults filled in. */
export interface ResolvedCommitCallback {
  url: string;
  apiKey: string;
  timeoutMs: number;
  headers: Record<string, string>;
  retries: number;
}

/** Hudi's default `hoodie.write.commit.callback.http.api.key`. */
export const DEFAULT_CALLBACK_API_KEY = 'hudi_write_commit_http_callback';
const MAX_RETRIES = 5;

/** Validate a `commitCallback` option (`INVALID_ARGUMENT` naming the field); undefined stays undefined. */
export function resolveCommitCallback(o: CommitCallbackOptions | undefined): ResolvedCommitCallback | undefined {
  if (o === undefined) return undefined;
  const bad = (field: string, value: unknown, why: string) => new LakeletError('INVALID_ARGUMENT', `write: commitCallback.${field} ${why}, got ${JSON.stringify(value)}`, { field: `commitCallback.${field}`, value });
  if (o === null || typeof o !== 'object') throw bad('url', o, 'must be given (an object { url, apiKey?, timeoutMs?, headers?, retries? })');
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    throw bad('url', o.url, 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad('url', o.url, 'must be an http(s) URL');
  const timeoutMs = o.timeoutMs ?? 3000;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) throw bad('timeoutMs', o.timeoutMs, 'must be a positive number');
  const retries = o.retries ?? 2;
  if (!Number.isInteger(retries) || retries < 0 || retries > MAX_RETRIES) throw bad('retries', o.retries, `must be an integer in 0..${MAX_RETRIES}`);
  if (o.apiKey !== undefined && typeof o.apiKey !== 'string') throw bad('apiKey', o.apiKey, 'must be a string');
  const headers = o.headers ?? {};
  for (const [k, v] of Object.entries(headers)) if (typeof v !== 'string') throw bad(`headers.${k}`, v, 'must be a string');
  return { url: url.href, apiKey: o.apiKey ?? DEFAULT_CALLBACK_API_KEY, timeoutMs, headers: { ...headers }, retries };
}
