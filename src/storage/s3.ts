// s3Storage: a Storage over an S3-compatible bucket (AWS S3, R2, MinIO, s3rver…) using only `fetch` and
// `crypto.subtle`, so it runs in browsers (with a CORS-enabled bucket), edge runtimes and Node alike.
// writeIfAbsent is `PUT` with `If-None-Match: *`, the only atomic create S3 offers.
import { LakeletError, notFound } from '../errors.js';
import { resolveFetch, withRetries, type FetchLike, type RetryOptions } from './http-retry.js';
import { listS3Objects } from './s3-listing.js';
import { CREATE_TOKEN_HEADER, multipartUpload, type S3Requests, type SendOptions } from './s3-multipart.js';
import { listQuery, parseS3Error } from './s3-xml.js';
import { EMPTY_SHA256, sha256Hex, signRequest, uriEncode, type SigV4Credentials, type SigV4Scope } from './sigv4.js';
import { checkRange, joinPath, normalizePath, type ByteRange, type FileInfo, type ListOptions, type Storage } from './storage.js';

/** Options of {@link s3Storage}. */
export interface S3StorageOptions {
  /** Service endpoint, e.g. `https://s3.eu-west-1.amazonaws.com`, `https://<account>.r2.cloudflarestorage.com`, `http://127.0.0.1:4568`. */
  endpoint: string;
  /** Bucket name. */
  bucket: string;
  /** Key prefix the store is rooted at (e.g. `tables/trips`); default the bucket root. */
  prefix?: string;
  /** Signing region, e.g. `us-east-1` (R2: `auto`). */
  region: string;
  /** Access key, secret and optional session token. */
  credentials: SigV4Credentials;
  /** Address the bucket as `endpoint/bucket/key` (default: true, except for `*.amazonaws.com` endpoints, which get `bucket.endpoint/key`). */
  forcePathStyle?: boolean;
  /** The fetch to use (default the global one). */
  fetch?: FetchLike;
  /** Files larger than this many bytes are written with a multipart upload (default 16 MiB). */
  multipartThreshold?: number;
  /** Part size of multipart uploads in bytes (default 8 MiB; S3 requires at least 5 MiB for all but the last part). */
  partSize?: number;
  /** Extra attempts after a network error, 5xx or 429 (default 3), with exponential backoff. */
  retries?: number;
  /** First backoff delay in ms (default 100). */
  retryDelayMs?: number;
  /** Keys per ListObjectsV2 page (`max-keys`; default: the server's, 1000 on S3). */
  listPageSize?: number;
  /** Label used in messages (default `s3://bucket/prefix`). */
  label?: string;
}

const MiB = 1024 * 1024;

/**
 * A Storage over an S3-compatible bucket, signed with SigV4. Reads use explicit byte ranges
 * (`bytes=a-b`, never suffix ranges), listings use ListObjectsV2 (with a `/` delimiter for non-recursive
 * ones, following continuation tokens), big writes use multipart uploads, and `writeIfAbsent` sends
 * `If-None-Match: *` (412 → false). Missing keys → `NOT_FOUND`; denied or failed requests → `STORAGE`
 * naming the key and the S3 error code. Network errors, 5xx and 429 are retried with backoff. A retried
 * `writeIfAbsent` answered 412 reads the object back: it is ours (true) when it carries the create token the
 * call sent as `x-amz-meta-lakelet-create` (browsers: the bucket CORS rule must expose that header, as ETag).
 */
export function s3Storage(options: S3StorageOptions): Storage {
  return new S3Storage(options);
}

function arrayBufferView(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

class S3Storage implements Storage, S3Requests {
  readonly label: string;
  readonly readOnly = false;
  private readonly fetch: FetchLike;
  private readonly bucketUrl: string;
  private readonly root: string;
  private readonly scope: SigV4Scope;
  private readonly threshold: number;
  readonly partSize: number;
  private readonly retry: RetryOptions;
  private readonly pageSize: number | undefined;

  constructor(o: S3StorageOptions) {
    const endpoint = new URL(o.endpoint);
    if (!/^[a-z0-9][a-z0-9.\-_]*$/i.test(o.bucket)) throw new LakeletError('INVALID_ARGUMENT', `storage(s3): invalid bucket name ${JSON.stringify(o.bucket)}`, { value: o.bucket });
    const pathStyle = o.forcePathStyle ?? !endpoint.hostname.endsWith('amazonaws.com');
    const base = endpoint.pathname.replace(/\/+$/, '');
    this.bucketUrl = pathStyle
      ? `${endpoint.protocol}//${endpoint.host}${base}/${o.bucket}`
      : `${endpoint.protocol}//${o.bucket}.${endpoint.host}${base}`;
    this.root = normalizePath(o.prefix ?? '');
    this.label = o.label ?? `s3://${joinPath(o.bucket, this.root)}`;
    this.fetch = resolveFetch(o.fetch);
    this.scope = { region: o.region, service: 's3', credentials: o.credentials };
    this.partSize = Math.max(1, Math.floor(o.partSize ?? 8 * MiB));
    this.threshold = Math.max(0, Math.floor(o.multipartThreshold ?? 16 * MiB));
    this.retry = { retries: o.retries ?? 3, baseDelayMs: o.retryDelayMs ?? 100 };
    this.pageSize = o.listPageSize;
  }

  private key(path: string): string {
    return joinPath(this.root, path);
  }

  objectUrl(key: string, query = ''): string {
    return `${this.bucketUrl}/${uriEncode(key, true)}${query === '' ? '' : `?${query}`}`;
  }

  /** Sign and send one request, retrying network errors, 5xx and 429; a final network error → STORAGE. */
  async send(method: string, url: string, o: SendOptions): Promise<Response> {
    const body = o.body === undefined ? undefined : arrayBufferView(o.body);
    const payloadHash = body === undefined ? EMPTY_SHA256 : await sha256Hex(body);
    try {
      return await withRetries(async () => {
        o.onAttempt?.();
        const signed = await signRequest({ method, url, headers: o.headers ?? {}, payloadHash }, this.scope);
        const init: RequestInit = { method, headers: signed.headers };
        if (body !== undefined) init.body = body;
        return this.fetch(url, init);
      }, this.retry, o.retryOn);
    } catch (err) {
      if (err instanceof LakeletError) throw err;
      throw new LakeletError('STORAGE', `storage(${this.label}): ${method} ${JSON.stringify(o.key)} failed: ${(err as Error)?.message ?? String(err)}`, { path: o.key }, { cause: err });
    }
  }

  /** The error for a failed answer: 404 → NOT_FOUND (when `missingIsNotFound`), anything else → STORAGE with the S3 code. */
  async failure(res: Response, what: string, path: string, key: string, missingIsNotFound = true): Promise<LakeletError> {
    let code = '';
    let message = '';
    try {
      const text = await res.text();
      ({ code, message } = parseS3Error(text));
    } catch {
      // no readable body (HEAD, aborted): the status says enough
    }
    if (res.status === 404 && missingIsNotFound) return notFound(this.label, path);
    const detail = [code, message].filter((s) => s !== '').join(': ');
    const reason = res.status === 403 ? 'access denied' : `HTTP ${res.status}`;
    return new LakeletError('STORAGE', `storage(${this.label}): ${what} key ${JSON.stringify(key)}: ${reason}${detail === '' ? '' : ` (${detail})`}`,
      { path, key, status: res.status, ...(code === '' ? {} : { s3Code: code }) });
  }

  async head(path: string): Promise<FileInfo> {
    const p = normalizePath(path);
    const key = this.key(p);
    if (p === '') throw notFound(this.label, p);
    const res = await this.send('HEAD', this.objectUrl(key), { key });
    if (!res.ok) throw await this.failure(res, 'cannot HEAD', p, key);
    await res.body?.cancel().catch(() => undefined);
    const size = Number(res.headers.get('content-length'));
    if (!Number.isFinite(size)) throw new LakeletError('STORAGE', `storage(${this.label}): HEAD of key ${JSON.stringify(key)} gave no Content-Length`, { path: p, key });
    const info: FileInfo = { path: p, size, kind: 'file' };
    const modified = Date.parse(res.headers.get('last-modified') ?? '');
    if (!Number.isNaN(modified)) info.lastModified = modified;
    return info;
  }

  async read(path: string, range?: ByteRange): Promise<Uint8Array> {
    const p = normalizePath(path);
    const key = this.key(p);
    const r = range === undefined ? undefined : checkRange(this.label, p, Number.MAX_SAFE_INTEGER, range);
    if (p === '') throw notFound(this.label, p);
    if (r !== undefined && r.start === r.end) {
      await this.head(p); // NOT_FOUND when missing; S3 cannot express an empty range
      return new Uint8Array(0);
    }
    const headers: Record<string, string> = r === undefined ? {} : { range: `bytes=${r.start}-${r.end - 1}` };
    const res = await this.send('GET', this.objectUrl(key), { key, headers });
    if (res.status === 416 && r !== undefined) {
      await res.body?.cancel().catch(() => undefined);
      return new Uint8Array(0); // the range starts at or past the end (a missing key would be 404)
    }
    if (!res.ok) throw await this.failure(res, 'cannot GET', p, key);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      throw new LakeletError('STORAGE', `storage(${this.label}): reading key ${JSON.stringify(key)} failed: ${(err as Error).message}`, { path: p, key }, { cause: err });
    }
    // A 200 to a ranged request means the server ignored the range: cut it out here.
    if (r !== undefined && res.status === 200) return bytes.slice(Math.min(r.start, bytes.length), Math.min(r.end, bytes.length));
    return bytes;
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    const p = normalizePath(path);
    if (p === '') throw new LakeletError('INVALID_ARGUMENT', `storage(${this.label}): cannot write the root`, { path: p });
    const key = this.key(p);
    if (bytes.length > this.threshold) {
      await multipartUpload(this, p, key, bytes, false);
      return;
    }
    const res = await this.send('PUT', this.objectUrl(key), { key, body: bytes });
    if (!res.ok) throw await this.failure(res, 'cannot PUT', p, key, false);
    await res.body?.cancel().catch(() => undefined);
  }

  async writeIfAbsent(path: string, bytes: Uint8Array): Promise<boolean> {
    const p = normalizePath(path);
    if (p === '') throw new LakeletError('INVALID_ARGUMENT', `storage(${this.label}): cannot write the root`, { path: p });
    const key = this.key(p);
    if (bytes.length > this.threshold) return multipartUpload(this, p, key, bytes, true);
    // 409 ConditionalRequestConflict: a concurrent write to the key was in flight; S3 asks to retry, and
    // the retry settles it (200 if that write failed, 412 if it won).
    const token = crypto.randomUUID();
    let attempts = 0;
    const res = await this.send('PUT', this.objectUrl(key), {
      key, body: bytes, headers: { 'if-none-match': '*', [CREATE_TOKEN_HEADER]: token }, retryOn: (r) => r.status === 409, onAttempt: () => void attempts++,
    });
    if (res.status === 412 || res.status === 409) {
      await res.body?.cancel().catch(() => undefined);
      // After a retry, the object may be our own earlier attempt whose answer was lost.
      return attempts > 1 ? this.createdByUs(p, key, bytes, token) : false;
    }
    if (!res.ok) throw await this.failure(res, 'cannot PUT (If-None-Match)', p, key, false);
    await res.body?.cancel().catch(() => undefined);
    return true;
  }

  /**
   * Whether the object at `key`, which refused a retried conditional create, is the one an earlier attempt of
   * ours created (S3 applied it, its answer was lost): its create token is ours. Another writer's object — even
   * with equal bytes, such as an empty requested instant — is not. Without a readable token (a store that drops
   * user metadata; a browser whose bucket CORS rule does not expose the header) different bytes still prove it
   * is not ours; equal bytes cannot be told apart and fail with `STORAGE` rather than guess.
   */
  async createdByUs(p: string, key: string, bytes: Uint8Array, token: string): Promise<boolean> {
    const res = await this.send('GET', this.objectUrl(key), { key });
    if (res.status === 404) {
      await res.body?.cancel().catch(() => undefined);
      return false; // gone again: not a file this call created
    }
    if (!res.ok) throw await this.failure(res, 'cannot GET (to check a retried conditional create of)', p, key);
    const theirs = res.headers.get(CREATE_TOKEN_HEADER);
    const stored = new Uint8Array(await res.arrayBuffer());
    if (theirs !== null) return theirs === token;
    if (stored.length !== bytes.length || stored.some((b, i) => b !== bytes[i])) return false;
    throw new LakeletError('STORAGE', `storage(${this.label}): cannot tell whether the retried conditional create of key ${JSON.stringify(key)} landed: the object has our bytes but no readable ${CREATE_TOKEN_HEADER} (a bucket CORS rule must expose it)`, { path: p, key });
  }

  async list(prefix: string, options: ListOptions = {}): Promise<FileInfo[]> {
    const dir = normalizePath(prefix);
    const full = joinPath(this.root, dir);
    const keyPrefix = full === '' ? '' : `${full}/`;
    const recursive = options.recursive === true;
    return listS3Objects({
      label: this.label, dir, keyPrefix, rootPrefix: this.root === '' ? '' : `${this.root}/`,
      page: async (token) => {
        const res = await this.send('GET', `${this.bucketUrl}?${listQuery(keyPrefix, !recursive, token, this.pageSize)}`, { key: keyPrefix });
        if (!res.ok) throw await this.failure(res, 'cannot list', dir, keyPrefix, false);
        return res.text();
      },
    });
  }

  async delete(path: string): Promise<void> {
    const p = normalizePath(path);
    if (p === '') throw new LakeletError('INVALID_ARGUMENT', `storage(${this.label}): cannot delete the root`, { path: p });
    const key = this.key(p);
    const res = await this.send('DELETE', this.objectUrl(key), { key });
    if (!res.ok && res.status !== 404) throw await this.failure(res, 'cannot DELETE', p, key, false);
    await res.body?.cancel().catch(() => undefined);
  }
}
