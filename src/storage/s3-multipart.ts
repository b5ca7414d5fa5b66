// S3 multipart uploads of big files: start, parts sent a few at a time, a completion that may be conditional
// (`If-None-Match: *`), and the retried-completion cases (our earlier completion landed; the upload vanished).
import { LakeletError } from '../errors.js';
import { parseS3Error, xmlText } from './s3-xml.js';

/** How many parts of one multipart upload are sent at once. */
const PART_CONCURRENCY = 4;
/**
 * User metadata every conditional create carries: a fresh token, so that a retried create answered 412 can
 * tell our own object (an earlier attempt landed, its answer was lost) from another writer's.
 */
export const CREATE_TOKEN_HEADER = 'x-amz-meta-lakelet-create';

/** One signed request's options. */
export interface SendOptions {
  headers?: Record<string, string>;
  body?: Uint8Array;
  /** Key (or listing prefix) named in errors. */
  key: string;
  /** Further statuses to retry (besides network errors, 5xx and 429). */
  retryOn?: (res: Response) => boolean;
  /** Called before each attempt (the first and every retry). */
  onAttempt?: () => void;
}

/** What an upload needs of the S3 store: signed requests, error mapping, object URLs and the part size. */
export interface S3Requests {
  readonly label: string;
  readonly partSize: number;
  objectUrl(key: string, query?: string): string;
  send(method: string, url: string, o: SendOptions): Promise<Response>;
  failure(res: Response, what: string, path: string, key: string, missingIsNotFound?: boolean): Promise<LakeletError>;
  /** Whether the object at `key` is the one an earlier attempt of ours created (its create token is ours). */
  createdByUs(p: string, key: string, bytes: Uint8Array, token: string): Promise<boolean>;
}

/** A multipart upload; with `ifAbsent` the completion carries `If-None-Match: *` (412 → false). */
export async function multipartUpload(s: S3Requests, p: string, key: string, bytes: Uint8Array, ifAbsent: boolean): Promise<boolean> {
  const token = crypto.randomUUID();
  const start = await s.send('POST', s.objectUrl(key, 'uploads'), { key, headers: { [CREATE_TOKEN_HEADER]: token } });
  if (!start.ok) throw await s.failure(start, 'cannot start a multipart upload of', p, key, false);
  const uploadId = xmlText(await start.text(), 'UploadId');
  if (uploadId === undefined || uploadId === '') throw new LakeletError('STORAGE', `storage(${s.label}): no UploadId in the answer to a multipart upload of key ${JSON.stringify(key)}`, { path: p, key });
  const idQuery = `uploadId=${encodeURIComponent(uploadId)}`;
  try {
    const count = Math.max(1, Math.ceil(bytes.length / s.partSize));
    const etags: string[] = new Array<string>(count);
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const i = next++;
        const part = bytes.subarray(i * s.partSize, Math.min(bytes.length, (i + 1) * s.partSize));
        const res = await s.send('PUT', s.objectUrl(key, `partNumber=${i + 1}&${idQuery}`), { key, body: part });
        if (!res.ok) throw await s.failure(res, `cannot upload part ${i + 1} of`, p, key, false);
        await res.body?.cancel().catch(() => undefined);
        const etag = res.headers.get('etag');
        if (etag === null) throw new LakeletError('STORAGE', `storage(${s.label}): part ${i + 1} of key ${JSON.stringify(key)} came back without an ETag (a bucket CORS rule must expose ETag)`, { path: p, key });
        etags[i] = etag;
      }
    };
    await Promise.all(Array.from({ length: Math.min(PART_CONCURRENCY, count) }, worker));
    const xml = `<CompleteMultipartUpload>${etags.map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${e.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
    const headers: Record<string, string> = { 'content-type': 'application/xml' };
    if (ifAbsent) headers['if-none-match'] = '*';
    let attempts = 0;
    const done = await s.send('POST', s.objectUrl(key, idQuery), { key, body: new TextEncoder().encode(xml), headers, onAttempt: () => void attempts++ });
    if (ifAbsent && (done.status === 412 || done.status === 409)) {
      await done.body?.cancel().catch(() => undefined);
      if (attempts > 1 && (await s.createdByUs(p, key, bytes, token))) return true; // an earlier completion landed
      await abort(s, key, idQuery);
      return false;
    }
    // A retried completion whose earlier attempt landed finds the upload gone.
    if (done.status === 404 && attempts > 1) {
      await done.body?.cancel().catch(() => undefined);
      if (await s.createdByUs(p, key, bytes, token)) return true;
      throw new LakeletError('STORAGE', `storage(${s.label}): the multipart upload of key ${JSON.stringify(key)} vanished before its retried completion`, { path: p, key });
    }
    if (!done.ok) throw await s.failure(done, 'cannot complete the multipart upload of', p, key, false);
    // S3 may answer 200 and still report an error in the body.
    const text = await done.text();
    if (/<Error[\s>]/.test(text)) {
      const { code, message } = parseS3Error(text);
      if (ifAbsent && code === 'PreconditionFailed') return attempts > 1 && (await s.createdByUs(p, key, bytes, token));
      throw new LakeletError('STORAGE', `storage(${s.label}): completing the multipart upload of key ${JSON.stringify(key)} failed (${code}: ${message})`, { path: p, key, s3Code: code });
    }
    return true;
  } catch (err) {
    await abort(s, key, idQuery);
    throw err;
  }
}


/** Abort a multipart upload, best effort. */
async function abort(s: S3Requests, key: string, idQuery: string): Promise<void> {
  try {
    const res = await s.send('DELETE', s.objectUrl(key, idQuery), { key });
    await res.body?.cancel().catch(() => undefined);
  } catch {
    // best effort: a lifecycle rule cleans up what is left
  }
}
