// `hiveMetastoreHttp(url)`: a `syncTo` sink that POSTs the statements of a sync as JSON to a service that has a
// metastore (a small proxy in front of HiveServer2, Glue, HMS …), so a web app can sync without a JDBC client.
import { LakeletError } from '../errors.js';
import type { HiveStatementSink } from './catalog-options.js';

/** Options of {@link hiveMetastoreHttp}. */
export interface HiveMetastoreHttpOptions {
  /** Extra request headers (e.g. an authorization header). */
  headers?: Record<string, string>;
  /** Abort a request after this many milliseconds (default 30 000). */
  timeoutMs?: number;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
}

/**
 * A sink POSTing `{"statements": [...]}` (`content-type: application/json`) to `url`, once per sync. A status
 * outside 2xx, a network failure or a timeout → `STORAGE` naming the URL and the status (the catalog step
 * turns it into a warning; the statements are sent again with the next sync).
 */
export function hiveMetastoreHttp(url: string, options: HiveMetastoreHttpOptions = {}): HiveStatementSink {
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new LakeletError('INVALID_ARGUMENT', `hive sync: hiveMetastoreHttp needs an http(s) URL, got ${JSON.stringify(url)}`, { field: 'url', value: url });
  const timeoutMs = options.timeoutMs ?? 30_000;
  return async (statements) => {
    const doFetch = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: JSON.stringify({ statements }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new LakeletError('STORAGE', `hive sync: POST ${url} failed (${err instanceof Error ? err.message : String(err)})`, { path: url }, { cause: err });
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw new LakeletError('STORAGE', `hive sync: POST ${url} answered ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`, { path: url, status: response.status });
    }
  };
}
