// Hudi's HTTP commit callback (HoodieWriteCommitHttpCallback, hudi-post-commit.md §6): after a write commits,
// POST the commit message as JSON to a URL with the `HUDI-CALLBACK-KEY` header. A failing, slow or unreachable
// endpoint never fails the write: each attempt is aborted at the callback's deadline, failures are retried a
// few times (back-off on the write's clock) and what still fails comes back as a warning.
import { LakeletError } from '../../errors.js';
import type { Clock } from '../clock.js';
import type { CommitEvent } from './notifications.js';

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
/** The first back-off (ms); it doubles per attempt. */
const BACKOFF_MS = 100;

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

/** The JSON body Hudi posts: HoodieWriteCommitCallbackMessage's fields (plain values for the `Option` ones). */
export function callbackBody(event: CommitEvent): string {
  const { commitTime, tableName, basePath, hoodieWriteStat, commitActionType, extraMetadata } = event;
  return JSON.stringify({ commitTime, tableName, basePath, hoodieWriteStat, commitActionType, extraMetadata });
}

/** Why the callback failed, or undefined when the endpoint answered 2xx. */
export type CallbackFailure = string | undefined;

/**
 * POST `event` to the callback's endpoint: attempts until one answers 2xx, one answers a status not worth
 * retrying (3xx, 4xx but 429), the retries are spent or the deadline (`timeoutMs`, all attempts) passes — the
 * request in flight is then aborted. Back-offs wait on `clock`. Resolves with the failure, never rejects.
 */
export async function postCommitCallback(event: CommitEvent, callback: ResolvedCommitCallback, clock: Clock, fetchImpl: typeof fetch = globalThis.fetch): Promise<CallbackFailure> {
  if (typeof fetchImpl !== 'function') return 'fetch is not available in this runtime';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), callback.timeoutMs);
  const aborted = new Promise<'aborted'>((resolve) => controller.signal.addEventListener('abort', () => resolve('aborted'), { once: true }));
  const headers = { 'Content-Type': 'application/json', 'HUDI-CALLBACK-KEY': callback.apiKey, ...callback.headers };
  const body = callbackBody(event);
  let failure = '';
  try {
    for (let attempt = 0; attempt <= callback.retries; attempt++) {
      if (attempt > 0) {
        const waited = await Promise.race([clock.sleep(BACKOFF_MS * 2 ** (attempt - 1)), aborted]);
        if (waited === 'aborted') return `${failure}; no retry left within the ${callback.timeoutMs} ms deadline (${attempt} attempt${attempt === 1 ? '' : 's'})`;
      }
      const outcome = await Promise.race([
        fetchImpl(callback.url, { method: 'POST', headers, body, signal: controller.signal }).then(
          async (res) => {
            await res.body?.cancel().catch(() => undefined);
            return res.status;
          },
          (err: unknown) => (controller.signal.aborted ? ('aborted' as const) : err),
        ),
        aborted,
      ]);
      if (outcome === 'aborted') {
        failure = `no answer within ${callback.timeoutMs} ms (the request was aborted)`;
        return `${failure}${attempt > 0 ? ` after ${attempt + 1} attempts` : ''}`;
      }
      if (typeof outcome === 'number') {
        if (outcome >= 200 && outcome < 300) return undefined;
        failure = `status ${outcome}`;
        if (outcome !== 429 && outcome < 500) return failure;
      } else {
        failure = outcome instanceof Error ? `${outcome.message}${causeOf(outcome)}` : String(outcome);
      }
    }
    return `${failure} (${callback.retries + 1} attempt${callback.retries === 0 ? '' : 's'})`;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** A fetch error's cause (`ECONNREFUSED`…), when it has one. */
function causeOf(err: Error): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const text = cause?.code ?? cause?.message;
  return text ? ` (${text})` : '';
}
