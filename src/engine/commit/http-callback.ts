// Hudi's HTTP commit callback (HoodieWriteCommitHttpCallback, hudi-post-commit.md §6): after a write commits,
// POST the commit message as JSON to a URL with the `HUDI-CALLBACK-KEY` header. A failing, slow or unreachable
// endpoint never fails the write: each attempt is aborted at the callback's deadline, failures are retried a
// few times (back-off on the write's clock) and what still fails comes back as a warning.
import type { Clock } from '../clock.js';
import type { CommitEvent } from './commit-event.js';
import type { ResolvedCommitCallback } from './commit-callback-options.js';

/** The first back-off (ms) between attempts; it doubles per attempt. */
const BACKOFF_MS = 100;

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
