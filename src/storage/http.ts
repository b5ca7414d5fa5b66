// httpStorage: a read-only Storage over plain HTTP(S) static hosting (nginx, a CDN, a public bucket): HEAD
// and ranged GETs for bytes; listings from nginx's JSON autoindex, an S3 ListObjectsV2 answer, or the
// listing manifest `.hoodie/.aux/lakelet/listing.json` that `lakelet publish` writes for hosts that list nothing.
import { LakeletError, notFound } from '../errors.js';
import { LISTING_MANIFEST_PATH } from '../layout.js';
import { parseListingManifest } from './listing-manifest.js';
import { resolveFetch, withRetries, type FetchLike } from './http-retry.js';
import { listS3Objects } from './s3-listing.js';
import { listQuery } from './s3-xml.js';
import { uriEncode } from './sigv4.js';
import { byPath, listFlat } from './listing.js';
import { ReadOnlyStorage } from './read-only.js';
import { checkRange, joinPath, normalizePath, type ByteRange, type FileInfo, type ListOptions, type Storage } from './storage.js';

/** How {@link httpStorage} lists directories. */
export type HttpListing = 'auto' | 'nginx-json' | 's3' | 'manifest';

/** Options of {@link httpStorage}. */
export interface HttpStorageOptions {
  /** The fetch to use (default the global one). */
  fetch?: FetchLike;
  /**
   * How to list: `nginx-json` (GET `dir/` of an `autoindex_format json` server), `s3` (ListObjectsV2 on a
   * public bucket), `manifest` (the file {@link LISTING_MANIFEST_PATH}), or `auto` (default): the manifest
   * when there is one, else nginx JSON, else S3, decided by the first listing. Note that nginx's autoindex
   * never lists names starting with `.`: merge-on-read log files (`.<fileId>_<instant>.log.<n>_…`) are
   * invisible to `nginx-json`, so publish a manifest for MOR tables (copy-on-write tables read fine).
   */
  listing?: HttpListing;
  /**
   * For `s3` listings: the bucket URL the ListObjectsV2 request goes to. Default: the base URL's origin
   * plus its first path segment (path-style, `http://host/bucket`), or the origin alone when the host
   * looks virtual-hosted (`bucket.s3….amazonaws.com`).
   */
  bucketUrl?: string;
  /** Extra headers sent with every request (e.g. an `Authorization` for a private host). */
  headers?: Record<string, string>;
  /** Extra attempts after a network error, 5xx or 429 (default 3). */
  retries?: number;
  /** Label used in messages (default the base URL). */
  label?: string;
}

/**
 * A read-only Storage over files served at `baseUrl` (the table root). Reads are HEAD plus explicit
 * `Range: bytes=a-b` GETs, so a query fetches parquet footers and the row groups it needs, not whole files.
 * Writes raise `UNSUPPORTED`; missing files `NOT_FOUND`; other failures `STORAGE` naming the URL.
 * Cross-origin use needs CORS on the server (allowing `Range`, exposing `Content-Range`/`Content-Length`).
 */
export function httpStorage(baseUrl: string | URL, options: HttpStorageOptions = {}): Storage {
  return new HttpStorage(String(baseUrl), options);
}

interface NginxEntry {
  name?: unknown;
  type?: unknown;
  size?: unknown;
  mtime?: unknown;
}

/** How long a fetched manifest is reused, in ms (a table open lists a handful of times in a row). */
const MANIFEST_TTL_MS = 1000;

class HttpStorage extends ReadOnlyStorage {
  readonly label: string;
  private readonly base: string;
  private readonly fetch: FetchLike;
  private readonly headers: Record<string, string>;
  private readonly retries: number;
  private mode: Promise<Exclude<HttpListing, 'auto'>> | undefined;
  private manifest: { at: number; files: Promise<FileInfo[]> } | undefined;
  private readonly bucketUrl: string;

  constructor(baseUrl: string, private readonly options: HttpStorageOptions) {
    super();
    const url = new URL(baseUrl);
    url.search = '';
    url.hash = '';
    this.base = url.href.replace(/\/+$/, '');
    this.label = options.label ?? this.base;
    this.fetch = resolveFetch(options.fetch);
    this.headers = options.headers ?? {};
    this.retries = options.retries ?? 3;
    if (options.listing !== undefined && options.listing !== 'auto') this.mode = Promise.resolve(options.listing);
    this.bucketUrl = (options.bucketUrl ?? defaultBucketUrl(url)).replace(/\/+$/, '');
  }

  private url(path: string, trailingSlash = false): string {
    const p = path === '' ? '' : `/${uriEncode(path, true)}`;
    return `${this.base}${p}${trailingSlash ? '/' : ''}`;
  }

  private async get(url: string, path: string, init: RequestInit = {}): Promise<Response> {
    const headers = { ...this.headers, ...(init.headers as Record<string, string> | undefined) };
    try {
      return await withRetries(() => this.fetch(url, { ...init, headers }), { retries: this.retries });
    } catch (err) {
      throw new LakeletError('STORAGE', `storage(${this.label}): ${init.method ?? 'GET'} ${url} failed: ${(err as Error)?.message ?? String(err)}`, { path, url }, { cause: err });
    }
  }

  private failure(res: Response, path: string, what: string): LakeletError {
    void res.body?.cancel().catch(() => undefined);
    if (res.status === 404 || res.status === 410) return notFound(this.label, path);
    return new LakeletError('STORAGE', `storage(${this.label}): ${what} ${JSON.stringify(path)}: HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`, { path, status: res.status });
  }

  /** True when a redirect landed on a directory (nginx sends `dir` → `dir/`): that is not a file. */
  private landedOnDirectory(res: Response, path: string): boolean {
    return path !== '' && res.url !== '' && res.url.endsWith('/') && res.redirected;
  }

  async head(path: string): Promise<FileInfo> {
    const p = normalizePath(path);
    if (p === '') throw notFound(this.label, p);
    const res = await this.get(this.url(p), p, { method: 'HEAD' });
    if (!res.ok || this.landedOnDirectory(res, p)) throw this.failure(res.ok ? new Response(null, { status: 404 }) : res, p, 'cannot HEAD');
    let size = Number(res.headers.get('content-length') ?? Number.NaN);
    if (!Number.isFinite(size)) size = await this.sizeByRange(p);
    const info: FileInfo = { path: p, size, kind: 'file' };
    const modified = Date.parse(res.headers.get('last-modified') ?? '');
    if (!Number.isNaN(modified)) info.lastModified = modified;
    return info;
  }

  /** The size from `Content-Range: bytes 0-0/N`, for servers whose HEAD has no Content-Length (compressed, chunked). */
  private async sizeByRange(p: string): Promise<number> {
    const res = await this.get(this.url(p), p, { headers: { range: 'bytes=0-0' } });
    if (res.status === 416) return 0;
    if (!res.ok) throw this.failure(res, p, 'cannot size');
    const total = /\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '')?.[1];
    if (total !== undefined) {
      void res.body?.cancel().catch(() => undefined);
      return Number(total);
    }
    return (await res.arrayBuffer()).byteLength; // no ranges: the body is the whole file
  }

  async read(path: string, range?: ByteRange): Promise<Uint8Array> {
    const p = normalizePath(path);
    if (p === '') throw notFound(this.label, p);
    const r = range === undefined ? undefined : checkRange(this.label, p, Number.MAX_SAFE_INTEGER, range);
    if (r !== undefined && r.start === r.end) {
      await this.head(p);
      return new Uint8Array(0);
    }
    const init: RequestInit = r === undefined ? {} : { headers: { range: `bytes=${r.start}-${r.end - 1}` } };
    const res = await this.get(this.url(p), p, init);
    if (res.status === 416 && r !== undefined) {
      void res.body?.cancel().catch(() => undefined);
      return new Uint8Array(0); // starts past the end (a missing file is 404)
    }
    if (!res.ok || this.landedOnDirectory(res, p)) throw this.failure(res.ok ? new Response(null, { status: 404 }) : res, p, 'cannot GET');
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      throw new LakeletError('STORAGE', `storage(${this.label}): reading ${JSON.stringify(p)} failed: ${(err as Error).message}`, { path: p }, { cause: err });
    }
    if (r !== undefined && res.status === 200) return bytes.slice(Math.min(r.start, bytes.length), Math.min(r.end, bytes.length));
    return bytes;
  }

  async list(prefix: string, options: ListOptions = {}): Promise<FileInfo[]> {
    const dir = normalizePath(prefix);
    const recursive = options.recursive === true;
    const mode = await (this.mode ??= this.detect());
    if (mode === 'manifest') return listFlat(dir, (await this.manifestFiles()).map((f) => [f.path, f] as const), recursive, (_, f) => ({ ...f }));
    if (mode === 's3') return this.listS3(dir, recursive);
    return this.listNginx(dir, recursive);
  }

  /** `auto`: the manifest when the table has one, else nginx JSON autoindex, else an S3 listing. */
  private async detect(): Promise<Exclude<HttpListing, 'auto'>> {
    try {
      await this.manifestFiles();
      return 'manifest';
    } catch (err) {
      if (!(err instanceof LakeletError && err.code === 'NOT_FOUND')) throw err;
      this.manifest = undefined;
    }
    const res = await this.get(this.url('', true), '');
    if (res.ok && (res.headers.get('content-type') ?? '').includes('json')) {
      void res.body?.cancel().catch(() => undefined);
      return 'nginx-json';
    }
    void res.body?.cancel().catch(() => undefined);
    const s3 = await this.get(`${this.bucketUrl}?${listQuery(this.keyPrefix(''), true, undefined, 1)}`, '');
    const text = s3.ok ? await s3.text() : '';
    if (/<ListBucketResult[\s>]/.test(text)) return 's3';
    void s3.body?.cancel().catch(() => undefined);
    throw new LakeletError('UNSUPPORTED', `storage(${this.label}): cannot list: no ${LISTING_MANIFEST_PATH}, no JSON directory index and no S3 listing at this URL (publish the table with \`lakelet publish <dir>\`)`, { path: LISTING_MANIFEST_PATH });
  }

  private manifestFiles(): Promise<FileInfo[]> {
    const now = Date.now();
    if (this.manifest && now - this.manifest.at < MANIFEST_TTL_MS) return this.manifest.files;
    const files = this.loadManifest();
    this.manifest = { at: now, files };
    files.catch(() => {
      if (this.manifest?.files === files) this.manifest = undefined;
    });
    return files;
  }

  private async loadManifest(): Promise<FileInfo[]> {
    return parseListingManifest(await this.read(LISTING_MANIFEST_PATH), this.label);
  }

  /** One directory of an nginx `autoindex_format json` server; a missing directory lists as empty. */
  private async nginxDir(dir: string): Promise<FileInfo[]> {
    const res = await this.get(this.url(dir, true), dir);
    if (res.status === 404 || res.status === 403) {
      void res.body?.cancel().catch(() => undefined);
      return [];
    }
    if (!res.ok) throw this.failure(res, dir, 'cannot list');
    let entries: NginxEntry[];
    try {
      entries = (await res.json()) as NginxEntry[];
      if (!Array.isArray(entries)) throw new Error('not a JSON array');
    } catch (err) {
      throw new LakeletError('STORAGE', `storage(${this.label}): listing of ${JSON.stringify(dir)} is not an nginx JSON index: ${(err as Error).message}`, { path: dir }, { cause: err });
    }
    const out: FileInfo[] = [];
    for (const e of entries) {
      if (typeof e.name !== 'string' || e.name === '' || e.name === '.' || e.name === '..') continue;
      const path = joinPath(dir, e.name);
      if (e.type === 'directory') out.push({ path, size: 0, kind: 'directory' });
      else if (e.type === 'file') {
        const info: FileInfo = { path, size: typeof e.size === 'number' ? e.size : 0, kind: 'file' };
        const modified = typeof e.mtime === 'string' ? Date.parse(e.mtime) : Number.NaN;
        if (!Number.isNaN(modified)) info.lastModified = modified;
        out.push(info);
      }
    }
    return out;
  }

  private async listNginx(dir: string, recursive: boolean): Promise<FileInfo[]> {
    if (!recursive) return (await this.nginxDir(dir)).sort(byPath);
    const files: FileInfo[] = [];
    let level = [dir];
    while (level.length > 0) {
      const listed = await Promise.all(level.map((d) => this.nginxDir(d)));
      level = [];
      for (const entries of listed) {
        for (const e of entries) {
          if (e.kind === 'directory') level.push(e.path);
          else files.push(e);
        }
      }
    }
    return files.sort(byPath);
  }

  /** The S3 key prefix of a directory under the base URL. */
  private keyPrefix(dir: string): string {
    const rootPath = decodeURIComponent(this.base.slice(this.bucketUrl.length).replace(/^\/+/, ''));
    const full = joinPath(rootPath, dir);
    return full === '' ? '' : `${full}/`;
  }

  private listS3(dir: string, recursive: boolean): Promise<FileInfo[]> {
    const keyPrefix = this.keyPrefix(dir);
    return listS3Objects({
      label: this.label, dir, keyPrefix, rootPrefix: this.keyPrefix(''),
      page: async (token) => {
        const res = await this.get(`${this.bucketUrl}?${listQuery(keyPrefix, !recursive, token)}`, dir);
        if (!res.ok) throw this.failure(res.status === 404 ? new Response(null, { status: 500, statusText: 'no such bucket' }) : res, dir, 'cannot list');
        return res.text();
      },
    });
  }
}

/** Bucket URL of a base URL: virtual-hosted hosts (`bucket.s3.…`) → origin; otherwise origin + first segment. */
function defaultBucketUrl(url: URL): string {
  if (/^[^.]+\.s3[.-]/.test(url.hostname)) return url.origin;
  const first = url.pathname.split('/').filter((s) => s !== '')[0];
  return first === undefined ? url.origin : `${url.origin}/${first}`;
}

