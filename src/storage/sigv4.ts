// AWS Signature Version 4 over WebCrypto (`crypto.subtle` HMAC-SHA256 / SHA-256), so the S3 adapter signs
// requests the same way in browsers, edge runtimes (workerd) and Node 20 without any Node built-in.
// Checked against AWS's published known-answer vectors in test/storage/sigv4.test.ts.
import { unsupported } from '../errors.js';

/** Credentials of an AWS (or S3-compatible) account. */
export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** Session token of temporary credentials; sent (and signed) as `x-amz-security-token`. */
  sessionToken?: string;
}

/** One request to sign. */
export interface SigV4Request {
  method: string;
  /** Absolute URL; its host (with a non-default port) is signed as the `host` header. */
  url: string | URL;
  /** Headers to sign and send (any case). `host` may be given; it is always signed, never returned. */
  headers?: Record<string, string>;
  /** Hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`. Default: the hash of `body` (empty when absent). */
  payloadHash?: string;
  /** The body, hashed when `payloadHash` is not given. */
  body?: Uint8Array | string;
}

/** Where and as whom a request is signed. */
export interface SigV4Scope {
  region: string;
  /** Service name, e.g. `s3`. */
  service: string;
  credentials: SigV4Credentials;
  /** Signing time (default now). */
  date?: Date;
  /** Add and sign `x-amz-content-sha256` (S3 requires it; default: true when the service is `s3`). */
  contentSha256Header?: boolean;
}

/** A signed request: the headers to send, and the intermediate strings (useful to debug a mismatch). */
export interface SignedRequest {
  /** Headers to send: the given ones plus `x-amz-date`, `authorization` and, as needed, `x-amz-content-sha256` and `x-amz-security-token` (lower-case names, no `host`). */
  headers: Record<string, string>;
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
  authorization: string;
}

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** SHA-256 of the empty string, the payload hash of every bodiless request. */
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

function toHex(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let out = '';
  for (const b of bytes) out += HEX[b];
  return out;
}

function bytesOf(data: Uint8Array | string): Uint8Array<ArrayBuffer> {
  if (typeof data === 'string') return encoder.encode(data);
  // crypto.subtle wants an ArrayBuffer-backed view; copy views over SharedArrayBuffers and the like.
  return data.buffer instanceof ArrayBuffer ? (data as Uint8Array<ArrayBuffer>) : new Uint8Array(data);
}

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw unsupported('sigv4: crypto.subtle is not available (a secure context or Node 20+ is needed)', { value: typeof s });
  return s;
}

/** Hex SHA-256 of bytes or UTF-8 text. */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  return toHex(await subtle().digest('SHA-256', bytesOf(data)));
}

async function hmac(key: Uint8Array | ArrayBuffer, data: string): Promise<ArrayBuffer> {
  const raw = key instanceof Uint8Array ? bytesOf(key) : key;
  const k = await subtle().importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return subtle().sign('HMAC', k, encoder.encode(data));
}

/**
 * Percent-encode per SigV4 (RFC 3986): everything but `A-Z a-z 0-9 - . _ ~` becomes `%XY` (upper-case hex)
 * of its UTF-8 bytes; `/` too unless `keepSlash`.
 */
export function uriEncode(text: string, keepSlash = false): string {
  let out = '';
  for (const b of encoder.encode(text)) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) out += c;
    else out += `%${(HEX[b] as string).toUpperCase()}`;
  }
  return out;
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The canonical URI: the path with each segment decoded once and re-encoded (S3 style: no `.`/`..` normalisation). */
function canonicalUri(url: URL): string {
  const path = url.pathname === '' ? '/' : url.pathname;
  return path.split('/').map((seg) => uriEncode(decodeComponent(seg))).join('/');
}

/** The canonical query string: parameters decoded, re-encoded strictly, sorted by name then value. */
function canonicalQuery(url: URL): string {
  const search = url.search.startsWith('?') ? url.search.slice(1) : url.search;
  if (search === '') return '';
  const pairs = search.split('&').filter((p) => p !== '').map((p) => {
    const eq = p.indexOf('=');
    const name = eq < 0 ? p : p.slice(0, eq);
    const value = eq < 0 ? '' : p.slice(eq + 1);
    return [uriEncode(decodeComponent(name)), uriEncode(decodeComponent(value))] as const;
  });
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

/** `YYYYMMDDTHHMMSSZ` of a date. */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

const signingKeys = new Map<string, Promise<ArrayBuffer>>();

/** The derived signing key of a secret, day, region and service (cached: it changes once a day). */
function signingKey(secret: string, day: string, region: string, service: string): Promise<ArrayBuffer> {
  const id = `${secret}\n${day}\n${region}\n${service}`;
  let key = signingKeys.get(id);
  if (!key) {
    key = (async () => {
      const kDate = await hmac(encoder.encode(`AWS4${secret}`), day);
      const kRegion = await hmac(kDate, region);
      const kService = await hmac(kRegion, service);
      return hmac(kService, 'aws4_request');
    })();
    if (signingKeys.size > 64) signingKeys.clear();
    signingKeys.set(id, key);
  }
  return key;
}

/**
 * Sign a request with AWS Signature Version 4 (header-based authorization). Every header given is signed;
 * header values are trimmed and inner whitespace runs collapsed, as the algorithm requires.
 */
export async function signRequest(request: SigV4Request, scope: SigV4Scope): Promise<SignedRequest> {
  const url = typeof request.url === 'string' ? new URL(request.url) : request.url;
  const date = scope.date ?? new Date();
  const stamp = amzDate(date);
  const day = stamp.slice(0, 8);
  const payloadHash = request.payloadHash ?? (request.body === undefined ? EMPTY_SHA256 : await sha256Hex(request.body));

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  delete headers.host;
  headers['x-amz-date'] = stamp;
  if (scope.contentSha256Header ?? scope.service === 's3') headers['x-amz-content-sha256'] = payloadHash;
  if (scope.credentials.sessionToken !== undefined) headers['x-amz-security-token'] = scope.credentials.sessionToken;

  const signed: Record<string, string> = { ...headers, host: url.host };
  const names = Object.keys(signed).sort();
  const canonicalHeaders = names.map((n) => `${n}:${(signed[n] as string).trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = [request.method.toUpperCase(), canonicalUri(url), canonicalQuery(url), canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const credentialScope = `${day}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', stamp, credentialScope, await sha256Hex(canonicalRequest)].join('\n');
  const key = await signingKey(scope.credentials.secretAccessKey, day, scope.region, scope.service);
  const signature = toHex(await hmac(key, stringToSign));
  const authorization = `AWS4-HMAC-SHA256 Credential=${scope.credentials.accessKeyId}/${credentialScope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  headers.authorization = authorization;
  return { headers, canonicalRequest, stringToSign, signature, authorization };
}
