// A tiny in-memory S3 (path-style, one bucket) behind a fetch function, for the paths s3rver cannot test:
// `If-None-Match: *` on PUT and on CompleteMultipartUpload (s3rver ignores it), injected 5xx/429/network
// faults (instead of serving a request, or after serving it: a lost acknowledgement), 403s, user metadata
// (`x-amz-meta-*`) and small ListObjectsV2 pages. It also re-checks every request's SigV4 signature.
import { sha256Hex, signRequest, type SigV4Credentials } from '../../src/storage/sigv4.js';

/** One request the fake saw. */
export interface FakeRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/**
 * What to answer to the next matching request: a status or a network error instead of serving it, or
 * (`lostAck`) serve it — its effect is applied — and then answer that status or fail as a network error.
 */
export type Fault = { status: number; retryAfter?: string } | 'network' | { lostAck: number | 'network' };

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const errorXml = (code: string, message: string) => `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${xml(message)}</Message></Error>`;

/** The `x-amz-meta-*` headers of a request (S3 stores them with the object). */
function userMetadata(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.startsWith('x-amz-meta-')));
}

/** An in-memory S3 bucket served through {@link S3Fake.fetch}. */
export class S3Fake {
  readonly objects = new Map<string, Uint8Array>();
  /** User metadata (`x-amz-meta-*` request headers) of each object, returned on GET and HEAD. */
  readonly metadata = new Map<string, Record<string, string>>();
  readonly requests: FakeRequest[] = [];
  /** Faults answered, in order, to the next requests (matching `faultFilter` when set). */
  faults: Fault[] = [];
  faultFilter: ((method: string, url: URL) => boolean) | undefined;
  /** Page size of ListObjectsV2 answers. */
  maxKeys = 1000;
  /** Keys whose requests are answered 403 AccessDenied. */
  readonly denied = new Set<string>();
  /** Signature mismatches seen (should stay empty). */
  readonly badSignatures: string[] = [];
  private readonly uploads = new Map<string, { key: string; parts: Map<number, Uint8Array>; meta: Record<string, string> }>();
  private nextUpload = 1;

  constructor(readonly bucket = 'lake', private readonly credentials: SigV4Credentials = { accessKeyId: 'AKIDFAKE', secretAccessKey: 'fake-secret' }, private readonly region = 'us-east-1') {}

  /** A fetch implementation serving this bucket at `http://fake-s3.test`. */
  readonly fetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries((init.headers ?? {}) as Record<string, string>)) headers[k.toLowerCase()] = v;
    const body = init.body === undefined || init.body === null ? new Uint8Array(0) : new Uint8Array(await new Response(init.body as BodyInit).arrayBuffer());
    this.requests.push({ method, url: url.href, headers });
    if (this.faults.length > 0 && (this.faultFilter?.(method, url) ?? true)) {
      const fault = this.faults.shift() as Fault;
      if (fault === 'network') throw new TypeError('fetch failed (injected)');
      if ('lostAck' in fault) {
        await this.checkSignature(method, url, headers, body);
        const served = this.serve(method, url, headers, body);
        await served.body?.cancel();
        if (fault.lostAck === 'network') throw new TypeError('fetch failed after the request was applied (injected)');
        return new Response(errorXml('InternalError', 'injected after the request was applied'), { status: fault.lostAck });
      }
      const h: Record<string, string> = fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter };
      return new Response(errorXml('SlowDown', 'injected'), { status: fault.status, headers: h });
    }
    await this.checkSignature(method, url, headers, body);
    return this.serve(method, url, headers, body);
  };

  private async checkSignature(method: string, url: URL, headers: Record<string, string>, body: Uint8Array): Promise<void> {
    const auth = headers.authorization ?? '';
    const m = /SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(auth);
    const date = headers['x-amz-date'];
    if (!m || date === undefined) {
      this.badSignatures.push(`${method} ${url.pathname}: no authorization`);
      return;
    }
    if (headers['x-amz-content-sha256'] !== (await sha256Hex(body))) this.badSignatures.push(`${method} ${url.pathname}: payload hash`);
    const names = (m[1] as string).split(';').filter((n) => n !== 'host');
    const signedHeaders: Record<string, string> = {};
    for (const n of names) signedHeaders[n] = headers[n] ?? '';
    delete signedHeaders['x-amz-date'];
    delete signedHeaders['x-amz-content-sha256'];
    const when = new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`);
    const again = await signRequest({ method, url, headers: signedHeaders, payloadHash: headers['x-amz-content-sha256'] as string },
      { region: this.region, service: 's3', credentials: this.credentials, date: when });
    if (again.signature !== m[2]) this.badSignatures.push(`${method} ${url.pathname}${url.search}: signature`);
  }

  private serve(method: string, url: URL, headers: Record<string, string>, body: Uint8Array): Response {
    const parts = url.pathname.split('/').slice(1);
    if (parts[0] !== this.bucket) return new Response(errorXml('NoSuchBucket', 'no such bucket'), { status: 404 });
    const key = parts.slice(1).map(decodeURIComponent).join('/');
    if (this.denied.has(key)) return new Response(errorXml('AccessDenied', 'Access Denied'), { status: 403 });
    const q = url.searchParams;
    if (key === '' && method === 'GET' && q.get('list-type') === '2') return this.list(q);
    if (method === 'POST' && q.has('uploads')) {
      const id = `upload-${this.nextUpload++}`;
      this.uploads.set(id, { key, parts: new Map(), meta: userMetadata(headers) });
      return new Response(`<InitiateMultipartUploadResult><Bucket>${this.bucket}</Bucket><Key>${xml(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
    }
    const uploadId = q.get('uploadId');
    if (uploadId !== null) {
      const upload = this.uploads.get(uploadId);
      if (!upload) return new Response(errorXml('NoSuchUpload', 'no such upload'), { status: 404 });
      if (method === 'PUT') {
        const n = Number(q.get('partNumber'));
        upload.parts.set(n, body);
        return new Response(null, { status: 200, headers: { etag: `"part-${n}-${body.length}"` } });
      }
      if (method === 'DELETE') {
        this.uploads.delete(uploadId);
        return new Response(null, { status: 204 });
      }
      if (method === 'POST') {
        if (headers['if-none-match'] === '*' && this.objects.has(key)) return new Response(errorXml('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold'), { status: 412 });
        const numbers = [...new TextDecoder().decode(body).matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((x) => Number(x[1]));
        const chunks = numbers.map((n) => upload.parts.get(n) as Uint8Array);
        const total = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
        let at = 0;
        for (const c of chunks) {
          total.set(c, at);
          at += c.length;
        }
        this.objects.set(key, total);
        this.metadata.set(key, upload.meta);
        this.uploads.delete(uploadId);
        return new Response(`<CompleteMultipartUploadResult><Key>${xml(key)}</Key><ETag>"done"</ETag></CompleteMultipartUploadResult>`);
      }
    }
    const obj = this.objects.get(key);
    switch (method) {
      case 'HEAD':
        return obj ? new Response(null, { status: 200, headers: { 'content-length': String(obj.length), 'last-modified': new Date(0).toUTCString(), ...this.metadata.get(key) } }) : new Response(null, { status: 404 });
      case 'GET': {
        if (!obj) return new Response(errorXml('NoSuchKey', 'The specified key does not exist.'), { status: 404 });
        const range = /^bytes=(\d+)-(\d+)$/.exec(headers.range ?? '');
        if (headers.range !== undefined && !range) return new Response(errorXml('InvalidArgument', `unsupported range ${headers.range}`), { status: 400 });
        if (!range) return new Response(obj.slice(), { status: 200, headers: { ...this.metadata.get(key) } });
        const start = Number(range[1]);
        const end = Math.min(Number(range[2]), obj.length - 1);
        if (start >= obj.length) return new Response(errorXml('InvalidRange', 'The requested range is not satisfiable'), { status: 416 });
        return new Response(obj.slice(start, end + 1), { status: 206, headers: { 'content-range': `bytes ${start}-${end}/${obj.length}` } });
      }
      case 'PUT':
        if (headers['if-none-match'] === '*' && this.objects.has(key)) return new Response(errorXml('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold'), { status: 412 });
        this.objects.set(key, body);
        this.metadata.set(key, userMetadata(headers));
        return new Response(null, { status: 200, headers: { etag: '"x"' } });
      case 'DELETE':
        this.objects.delete(key);
        this.metadata.delete(key);
        return new Response(null, { status: 204 });
      default:
        return new Response(errorXml('MethodNotAllowed', method), { status: 405 });
    }
  }

  private list(q: URLSearchParams): Response {
    const prefix = q.get('prefix') ?? '';
    const delimiter = q.get('delimiter');
    const after = q.get('continuation-token') ?? '';
    const max = Math.min(this.maxKeys, Number(q.get('max-keys') ?? 1000));
    const entries: { key?: string; prefix?: string }[] = [];
    const seen = new Set<string>();
    for (const key of [...this.objects.keys()].sort()) {
      if (!key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length);
      const cut = delimiter === null ? -1 : rest.indexOf(delimiter);
      if (cut >= 0) {
        const p = prefix + rest.slice(0, cut + 1);
        if (!seen.has(p)) {
          seen.add(p);
          entries.push({ prefix: p });
        }
      } else entries.push({ key });
    }
    const sortKey = (e: { key?: string; prefix?: string }) => (e.key ?? e.prefix) as string;
    const remaining = entries.filter((e) => sortKey(e) > after);
    const page = remaining.slice(0, max);
    const truncated = remaining.length > page.length;
    const body = page.map((e) => (e.key !== undefined
      ? `<Contents><Key>${xml(e.key)}</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified><Size>${(this.objects.get(e.key) as Uint8Array).length}</Size></Contents>`
      : `<CommonPrefixes><Prefix>${xml(e.prefix as string)}</Prefix></CommonPrefixes>`)).join('');
    const token = truncated ? `<NextContinuationToken>${xml(sortKey(page[page.length - 1] as { key?: string }))}</NextContinuationToken>` : '';
    return new Response(`<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${this.bucket}</Name><Prefix>${xml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><IsTruncated>${truncated}</IsTruncated>${token}${body}</ListBucketResult>`, { headers: { 'content-type': 'application/xml' } });
  }
}
