// withRetries and resolveFetch: 5xx/429 answers and network errors are retried (honouring Retry-After),
// other answers returned at once; a runtime without a global fetch is UNSUPPORTED, not a plain Error.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isRetryableStatus, resolveFetch, withRetries } from '../../src/storage/http-retry.js';
import { LakeletError } from '../../src/errors.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('resolveFetch', () => {
  it('returns the given fetch unchanged', () => {
    const f = async () => new Response('x');
    expect(resolveFetch(f)).toBe(f);
  });

  it('raises UNSUPPORTED naming the missing global fetch', () => {
    vi.stubGlobal('fetch', undefined);
    expect(() => resolveFetch(undefined)).toThrow(LakeletError);
    expect(() => resolveFetch(undefined)).toThrow(expect.objectContaining({
      code: 'UNSUPPORTED',
      message: 'storage: no global fetch; pass options.fetch',
      context: { value: 'undefined' },
    }));
  });
});

describe('withRetries', () => {
  it('retries 5xx and 429 answers, then returns the first other answer', async () => {
    const statuses = [503, 429, 404];
    let calls = 0;
    const res = await withRetries(async () => new Response(null, { status: statuses[calls++] }), { baseDelayMs: 1 });
    expect(res.status).toBe(404);
    expect(calls).toBe(3);
    expect([500, 599, 429].every(isRetryableStatus)).toBe(true);
    expect([200, 404, 412].some(isRetryableStatus)).toBe(false);
  });

  it('returns the last retryable answer when the retries run out, and rethrows a network error that never clears', async () => {
    let calls = 0;
    const res = await withRetries(async () => {
      calls++;
      return new Response(null, { status: 500 });
    }, { retries: 2, baseDelayMs: 1 });
    expect(res.status).toBe(500);
    expect(calls).toBe(3);
    const down = new TypeError('connection refused');
    await expect(withRetries(async () => { throw down; }, { retries: 1, baseDelayMs: 1 })).rejects.toBe(down);
  });
});
