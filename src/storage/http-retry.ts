// Bounded retries with exponential backoff for the remote stores (S3, HTTP): a network error, a 5xx or a
// 429 answer is tried again a few times; everything else is returned to the caller as it came.
import { unsupported } from '../errors.js';

/** A `fetch`-compatible function (the global one, a wrapper that counts bytes, a test double). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** How often and how patiently to retry. */
export interface RetryOptions {
  /** Extra attempts after the first (default 3). */
  retries?: number;
  /** Delay before the first retry in ms, doubled each time, with jitter (default 100). */
  baseDelayMs?: number;
  /** Upper bound of one delay in ms (default 5000). */
  maxDelayMs?: number;
}

/** True for answers worth another try: 5xx (server trouble) and 429 (slow down). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The fetch to use: the given one, or the global one bound to globalThis (some runtimes need the binding);
 * `UNSUPPORTED` when neither exists.
 */
export function resolveFetch(f: FetchLike | undefined): FetchLike {
  if (f) return f;
  if (typeof globalThis.fetch !== 'function') throw unsupported('storage: no global fetch; pass options.fetch', { value: typeof globalThis.fetch });
  return (input, init) => globalThis.fetch(input, init);
}

/**
 * Run `attempt` (which builds and sends one request; called again for each retry, so it can re-sign) until
 * it gives a non-retryable answer or the retries run out. Returns the last Response; rethrows the last
 * network error when every attempt failed to connect. `retryOn` may mark further answers as retryable.
 */
export async function withRetries(attempt: () => Promise<Response>, options: RetryOptions = {}, retryOn?: (res: Response) => boolean): Promise<Response> {
  const retries = Math.max(0, options.retries ?? 3);
  const base = options.baseDelayMs ?? 100;
  const cap = options.maxDelayMs ?? 5000;
  for (let i = 0; ; i++) {
    let res: Response | undefined;
    let error: unknown;
    try {
      res = await attempt();
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') throw err;
      error = err;
    }
    const retryable = res === undefined || isRetryableStatus(res.status) || (retryOn?.(res) ?? false);
    if (!retryable || i >= retries) {
      if (res === undefined) throw error;
      return res;
    }
    let delay = Math.min(cap, base * 2 ** i);
    const after = res?.headers.get('retry-after');
    if (after !== null && after !== undefined && /^\d+$/.test(after)) delay = Math.min(cap, Math.max(delay, Number(after) * 1000));
    await res?.body?.cancel().catch(() => undefined);
    await sleep(delay / 2 + Math.random() * (delay / 2));
  }
}
