// s3Storage from Node: the shared Storage contract against s3rver 3.7.1 on loopback (except writeIfAbsent,
// which s3rver cannot honour: it ignores If-None-Match), the same full contract against an in-memory S3 fake
// that implements If-None-Match, and S3 specifics: multipart, paging, explicit ranges, retries, errors.
import { describe, expect, inject, it } from 'vitest';
import { openTable, type LakeletError } from '../../src/index.js';
import { s3Storage, type S3StorageOptions } from '../../src/storage/s3.js';
import type { FetchLike } from '../../src/storage/http-retry.js';
import { fixtureStorage } from '../helpers/fixtures.js';
import { tableReads } from '../helpers/table-reads.js';
import { S3RVER_CREDENTIALS } from '../servers/s3rver.js';
import { defineStorageContract, firstDifference, lakeletError, patternBytes } from './contract.js';
import { S3Fake } from './s3-fake.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const MiB = 1024 * 1024;
let run = 0;
const unique = (what: string) => `${what}/${Date.now().toString(36)}-${run++}`;

/** A store on the test s3rver, under a fresh key prefix. */
function s3rver(prefix: string, extra: Partial<S3StorageOptions> = {}) {
  return s3Storage({ endpoint: inject('S3_URL'), bucket: 'lake', prefix, region: 'us-east-1', credentials: S3RVER_CREDENTIALS, retryDelayMs: 5, ...extra });
}

/** A fetch that records method, URL and Range of every request. */
function recording(): { fetch: FetchLike; log: { method: string; url: string; range: string | undefined }[] } {
  const log: { method: string; url: string; range: string | undefined }[] = [];
  return {
    log,
    fetch: (url, init = {}) => {
      const headers = (init.headers ?? {}) as Record<string, string>;
      log.push({ method: init.method ?? 'GET', url, range: headers.range });
      return fetch(url, init);
    },
  };
}

// s3rver 3.7.1 ignores `If-None-Match: *` on PUT (it overwrites and answers 200), so the contract's
// writeIfAbsent checks cannot pass against it; they run below against the fake, which implements it.
defineStorageContract('s3Storage on s3rver', async () => ({ storage: s3rver(unique('contract'), { multipartThreshold: 1 * MiB, partSize: 5 * MiB }) }),
  { writeIfAbsent: 's3rver 3.7.1 ignores If-None-Match: * and overwrites; covered by the in-memory S3 fake below' });

defineStorageContract('s3Storage on the in-memory S3 fake (If-None-Match honoured)', async () => {
  const fake = new S3Fake();
  return {
    storage: s3Storage({ endpoint: 'http://fake-s3.test', bucket: 'lake', prefix: 'root/t', region: 'us-east-1', credentials: { accessKeyId: 'AKIDFAKE', secretAccessKey: 'fake-secret' }, fetch: fake.fetch, multipartThreshold: MiB, partSize: MiB, retryDelayMs: 1 }),
    cleanup: async () => {
      expect(fake.badSignatures).toEqual([]);
    },
  };
});

describe('s3Storage on s3rver', () => {
  it('s3rver really ignores If-None-Match (the gap the fake covers)', async () => {
    const s = s3rver(unique('gap'));
    expect(await s.writeIfAbsent('x', enc('first'))).toBe(true);
    // Against real S3 this second call returns false; s3rver answers 200 and overwrites.
    expect(await s.writeIfAbsent('x', enc('second'))).toBe(true);
    expect(dec(await s.read('x'))).toBe('second');
  });

  it('writes a 12 MiB file as a 3-part multipart upload and reads it back', async () => {
    const rec = recording();
    const s = s3rver(unique('multipart'), { fetch: rec.fetch, multipartThreshold: 8 * MiB, partSize: 5 * MiB });
    const big = patternBytes(12 * MiB, 3);
    await s.write('big.bin', big);
    const parts = rec.log.filter((r) => r.method === 'PUT' && r.url.includes('partNumber='));
    expect(parts).toHaveLength(3);
    expect(rec.log.filter((r) => r.method === 'POST')).toHaveLength(2); // create + complete
    expect((await s.head('big.bin')).size).toBe(big.length);
    expect(firstDifference(await s.read('big.bin'), big)).toBe(-1);
  });

  it('pages through ListObjectsV2 with continuation tokens (recursive and delimited)', async () => {
    const rec = recording();
    const s = s3rver(unique('paging'), { fetch: rec.fetch, listPageSize: 3 });
    const names = Array.from({ length: 10 }, (_, i) => `d/f${String(i).padStart(2, '0')}`);
    for (const n of [...names, 'd/sub1/x', 'd/sub2/y', 'e/z']) await s.write(n, enc(n));
    expect((await s.list('d', { recursive: true })).map((f) => f.path)).toEqual([...names, 'd/sub1/x', 'd/sub2/y']);
    const lists = rec.log.filter((r) => r.url.includes('list-type=2'));
    expect(lists.length).toBeGreaterThanOrEqual(4);
    expect(lists.some((r) => r.url.includes('continuation-token='))).toBe(true);
    expect((await s.list('d')).map((f) => [f.path, f.kind])).toEqual([...names.map((n) => [n, 'file']), ['d/sub1', 'directory'], ['d/sub2', 'directory']]);
  });

  it('reads with explicit byte ranges, never suffix ranges', async () => {
    const rec = recording();
    const s = s3rver(unique('ranges'), { fetch: rec.fetch });
    await s.write('r.bin', patternBytes(1000, 5));
    expect(await s.read('r.bin', { start: 990, end: 1000 })).toEqual(patternBytes(1000, 5).subarray(990));
    expect(await s.read('r.bin', { start: 995, end: 5000 })).toEqual(patternBytes(1000, 5).subarray(995));
    const ranges = rec.log.map((r) => r.range).filter((r): r is string => r !== undefined);
    expect(ranges).toEqual(['bytes=990-999', 'bytes=995-4999']);
    expect(ranges.every((r) => /^bytes=\d+-\d+$/.test(r))).toBe(true);
  });

  it('an unknown access key → STORAGE naming the key and the S3 error code', async () => {
    const s = s3rver(unique('denied'), { credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'x' } });
    const err = await lakeletError(s.read('some/file.parquet'));
    expect(err.code).toBe('STORAGE');
    expect(err.context.status).toBe(403);
    expect(err.message).toContain('some/file.parquet');
    expect(err.message).toContain('InvalidAccessKeyId');
  });

  it('a missing bucket → STORAGE (not an empty listing)', async () => {
    const s = s3Storage({ endpoint: inject('S3_URL'), bucket: 'no-such-bucket', region: 'us-east-1', credentials: S3RVER_CREDENTIALS });
    expect((await lakeletError(s.list(''))).code).toBe('STORAGE');
    expect((await lakeletError(s.head('x'))).code).toBe('NOT_FOUND');
  });

  it('opens a Hudi table uploaded to the bucket: the same rows as the zip', async () => {
    const source = await fixtureStorage('sample_table/mor/parquet/v6_nonpartitioned.zip');
    const s = s3rver(unique('tables/mor-v6'));
    for (const f of await source.list('', { recursive: true })) await s.write(f.path, await source.read(f.path));
    expect(await tableReads(await openTable(s))).toEqual(await tableReads(await openTable(source)));
  });

  it('a network error on an unreachable endpoint → STORAGE after bounded retries', async () => {
    const s = s3Storage({ endpoint: 'http://127.0.0.1:9', bucket: 'lake', region: 'us-east-1', credentials: S3RVER_CREDENTIALS, retries: 2, retryDelayMs: 1 });
    const err = await lakeletError(s.head('x'));
    expect(err.code).toBe('STORAGE');
    expect(err.message).toContain('"x"');
  });
});

describe('s3Storage on the S3 fake: what s3rver cannot show', () => {
  const creds = { accessKeyId: 'AKIDFAKE', secretAccessKey: 'fake-secret' };
  const make = (fake: S3Fake, extra: Partial<S3StorageOptions> = {}) =>
    s3Storage({ endpoint: 'http://fake-s3.test', bucket: 'lake', region: 'us-east-1', credentials: creds, fetch: fake.fetch, retryDelayMs: 1, ...extra });

  it('writeIfAbsent sends If-None-Match: * and maps 412 to false', async () => {
    const fake = new S3Fake();
    const s = make(fake);
    expect(await s.writeIfAbsent('.hoodie/1.commit', enc('a'))).toBe(true);
    expect(await s.writeIfAbsent('.hoodie/1.commit', enc('b'))).toBe(false);
    expect(fake.requests.filter((r) => r.method === 'PUT').map((r) => r.headers['if-none-match'])).toEqual(['*', '*']);
    expect(dec(fake.objects.get('.hoodie/1.commit') as Uint8Array)).toBe('a');
    expect(fake.badSignatures).toEqual([]);
  });

  it('a big writeIfAbsent completes its multipart upload with If-None-Match and aborts it on 412', async () => {
    const fake = new S3Fake();
    const s = make(fake, { multipartThreshold: 100, partSize: 64 });
    expect(await s.writeIfAbsent('big', patternBytes(300))).toBe(true);
    expect(await s.writeIfAbsent('big', patternBytes(300, 9))).toBe(false);
    expect(fake.objects.get('big')).toEqual(patternBytes(300));
    const completes = fake.requests.filter((r) => r.method === 'POST' && r.url.includes('uploadId='));
    expect(completes.map((r) => r.headers['if-none-match'])).toEqual(['*', '*']);
    expect(fake.requests.at(-1)?.method).toBe('DELETE'); // the losing upload is aborted
  });

  it('409 ConditionalRequestConflict is retried and then settled by 412', async () => {
    const fake = new S3Fake();
    const s = make(fake);
    fake.objects.set('k', enc('winner'));
    fake.faults = [{ status: 409 }];
    expect(await s.writeIfAbsent('k', enc('loser'))).toBe(false);
    expect(fake.requests.filter((r) => r.method === 'PUT')).toHaveLength(2);
  });

  // A conditional create whose request S3 applied but whose answer was lost: the retry sees our own object (412).
  for (const lostAck of ['network', 503] as const) {
    it(`writeIfAbsent whose applied PUT lost its answer (${lostAck}) reports true for our own object`, async () => {
      const fake = new S3Fake();
      const s = make(fake);
      fake.faults = [{ lostAck }];
      expect(await s.writeIfAbsent('.hoodie/1.commit.requested', new Uint8Array(0))).toBe(true);
      expect(fake.requests.filter((r) => r.method === 'PUT')).toHaveLength(2);
      expect(fake.objects.get('.hoodie/1.commit.requested')).toEqual(new Uint8Array(0));
      // A later create of the same key by anyone (same bytes too) is refused.
      expect(await s.writeIfAbsent('.hoodie/1.commit.requested', new Uint8Array(0))).toBe(false);
      expect(fake.badSignatures).toEqual([]);
    });

    it(`a big writeIfAbsent whose applied completion lost its answer (${lostAck}) reports true`, async () => {
      const fake = new S3Fake();
      const s = make(fake, { multipartThreshold: 100, partSize: 64 });
      fake.faultFilter = (method, url) => method === 'POST' && url.searchParams.has('uploadId');
      fake.faults = [{ lostAck }];
      expect(await s.writeIfAbsent('big', patternBytes(300))).toBe(true);
      expect(fake.objects.get('big')).toEqual(patternBytes(300));
      expect(await s.writeIfAbsent('big', patternBytes(300))).toBe(false);
    });
  }

  it('writeIfAbsent whose PUT failed while another writer created the key (same bytes) reports false', async () => {
    const fake = new S3Fake();
    const other = make(fake);
    // Our first attempt is not applied (503); the other writer's create of the key with equal bytes runs to
    // completion before our retry is sent (the retry waits for it), so the retry's 412 is for their object.
    let raced: Promise<boolean> | undefined;
    let puts = 0;
    const fetch: FetchLike = async (input, init) => {
      if (init?.method === 'PUT' && puts++ === 1) await raced;
      return fake.fetch(input, init);
    };
    const s = make(fake, { fetch });
    fake.faults = [{ status: 503 }];
    fake.faultFilter = (method) => {
      if (method === 'PUT' && raced === undefined) raced = other.writeIfAbsent('.hoodie/2.commit.requested', new Uint8Array(0));
      return method === 'PUT' && puts === 1;
    };
    expect(await s.writeIfAbsent('.hoodie/2.commit.requested', new Uint8Array(0))).toBe(false);
    expect(await raced).toBe(true);
    const tokens = fake.requests.filter((r) => r.method === 'PUT').map((r) => r.headers['x-amz-meta-lakelet-create']);
    expect(tokens).toHaveLength(3); // ours (503), theirs (200), our retry (412)
    expect(tokens[2]).toBe(tokens[0]);
    expect(fake.metadata.get('.hoodie/2.commit.requested')?.['x-amz-meta-lakelet-create']).toBe(tokens[1]);
  });

  it('a retried create refused by an object without a readable token: different bytes → false, equal bytes → STORAGE', async () => {
    for (const [theirs, outcome] of [[enc('other'), false], [enc('mine'), 'STORAGE']] as const) {
      const fake = new S3Fake();
      const s = make(fake);
      fake.faults = [{ status: 503 }];
      fake.faultFilter = (method) => {
        if (method === 'PUT') fake.objects.set('k', theirs); // a store that keeps no user metadata
        return method === 'PUT';
      };
      const got = await s.writeIfAbsent('k', enc('mine')).then((v) => v, (e: unknown) => (e as LakeletError).code);
      expect(got).toBe(outcome);
    }
  });

  it('retries 503, 429 (with Retry-After) and network errors, re-signing each attempt', async () => {
    const fake = new S3Fake();
    const s = make(fake);
    await s.write('f', enc('data'));
    fake.faults = [{ status: 503 }, { status: 429, retryAfter: '0' }, 'network'];
    expect(dec(await s.read('f'))).toBe('data');
    expect(fake.requests.filter((r) => r.method === 'GET')).toHaveLength(4);
    expect(fake.badSignatures).toEqual([]);
  });

  it('gives up after the configured retries with STORAGE naming the key and status', async () => {
    const fake = new S3Fake();
    const s = make(fake, { retries: 2 });
    fake.faults = [{ status: 500 }, { status: 502 }, { status: 503 }, { status: 503 }];
    const err = await lakeletError(s.head('tables/t/x.parquet'));
    expect(err.code).toBe('STORAGE');
    expect(err.context.status).toBe(503);
    expect(err.message).toContain('tables/t/x.parquet');
    expect(fake.requests).toHaveLength(3);
    fake.faults = ['network', 'network', 'network'];
    expect((await lakeletError(s.read('x'))).code).toBe('STORAGE');
  });

  it('does not retry 4xx answers; 403 → STORAGE "access denied" naming the key', async () => {
    const fake = new S3Fake();
    const s = make(fake, { prefix: 'p' });
    fake.denied.add('p/secret.bin');
    const err = await lakeletError(s.read('secret.bin'));
    expect(err.code).toBe('STORAGE');
    expect(err.message).toMatch(/access denied.*AccessDenied/);
    expect(err.context).toMatchObject({ path: 'secret.bin', key: 'p/secret.bin', status: 403, s3Code: 'AccessDenied' });
    expect(fake.requests).toHaveLength(1);
  });

  it('lists across many small pages in order', async () => {
    const fake = new S3Fake();
    fake.maxKeys = 2;
    const s = make(fake, { prefix: 'root' });
    const names = ['a/1', 'a/2', 'a/b/3', 'a/c/4', 'a/c/5', 'a/d', 'b/6'];
    for (const n of names) await s.write(n, enc(n));
    expect((await s.list('a', { recursive: true })).map((f) => f.path)).toEqual(['a/1', 'a/2', 'a/b/3', 'a/c/4', 'a/c/5', 'a/d']);
    expect((await s.list('a')).map((f) => f.path)).toEqual(['a/1', 'a/2', 'a/b', 'a/c', 'a/d']);
    expect((await s.list('')).map((f) => f.path)).toEqual(['a', 'b']);
  });

  it('addresses AWS endpoints virtual-hosted and others path-style', async () => {
    const seen: string[] = [];
    const spy: FetchLike = async (url) => {
      seen.push(url);
      return new Response(null, { status: 404 });
    };
    const base = { bucket: 'lake', region: 'eu-west-1', credentials: creds, fetch: spy, retries: 0 };
    await lakeletError(s3Storage({ ...base, endpoint: 'https://s3.eu-west-1.amazonaws.com' }).head('a b/c'));
    await lakeletError(s3Storage({ ...base, endpoint: 'https://minio.example:9000/', prefix: 't' }).head('a b/c'));
    expect(seen).toEqual(['https://lake.s3.eu-west-1.amazonaws.com/a%20b/c', 'https://minio.example:9000/lake/t/a%20b/c']);
  });
});
