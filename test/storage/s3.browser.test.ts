// s3Storage in headless Chromium against s3rver on loopback, cross-origin through the bucket's CORS rule:
// the shared contract (minus writeIfAbsent: s3rver ignores If-None-Match), multipart with ETags read through
// CORS, and the If-None-Match path on the in-memory S3 fake (which honours it), all with WebCrypto signing.
import { describe, expect, inject, it } from 'vitest';
import { s3Storage, type S3StorageOptions } from '../../src/storage/s3.js';
import { defineStorageContract, firstDifference, patternBytes } from './contract.js';
import { S3Fake } from './s3-fake.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const MiB = 1024 * 1024;
let run = 0;
const unique = (what: string) => `browser/${what}/${Date.now().toString(36)}-${run++}`;
// s3rver checks the access key id only (test/servers/s3rver.ts); these are its defaults.
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const s3rver = (prefix: string, extra: Partial<S3StorageOptions> = {}) =>
  s3Storage({ endpoint: inject('S3_URL'), bucket: 'lake', prefix, region: 'us-east-1', credentials, retryDelayMs: 5, ...extra });

defineStorageContract('s3Storage on s3rver (browser, CORS)', async () => ({ storage: s3rver(unique('contract'), { multipartThreshold: MiB, partSize: 5 * MiB }) }),
  { writeIfAbsent: 's3rver 3.7.1 ignores If-None-Match: * and overwrites; covered by the S3 fake below' });

describe('s3Storage in the browser', () => {
  it('the page is cross-origin to s3rver', () => {
    expect(new URL(inject('S3_URL')).origin).not.toBe(location.origin);
  });

  it('writes, lists, reads ranges and deletes', async () => {
    const s = s3rver(unique('rw'));
    await s.write('t/.hoodie/hoodie.properties', enc('hoodie.table.name=t'));
    await s.write('t/p=1/a.parquet', patternBytes(1000, 2));
    await s.write('t/p=2/b.parquet', enc('b'));
    expect((await s.list('t')).map((e) => [e.path, e.kind])).toEqual([['t/.hoodie', 'directory'], ['t/p=1', 'directory'], ['t/p=2', 'directory']]);
    expect((await s.list('t', { recursive: true })).map((e) => e.path)).toEqual(['t/.hoodie/hoodie.properties', 't/p=1/a.parquet', 't/p=2/b.parquet']);
    expect(await s.read('t/p=1/a.parquet', { start: 996, end: 1000 })).toEqual(patternBytes(1000, 2).subarray(996));
    expect((await s.head('t/p=1/a.parquet')).size).toBe(1000);
    await s.delete('t/p=2/b.parquet');
    expect((await s.list('t/p=2'))).toEqual([]);
  });

  it('a multipart upload reads part ETags through CORS', async () => {
    const s = s3rver(unique('multipart'), { multipartThreshold: MiB, partSize: 5 * MiB });
    const big = patternBytes(6 * MiB, 4);
    await s.write('big.bin', big);
    expect(firstDifference(await s.read('big.bin'), big)).toBe(-1);
  });

  it('writeIfAbsent on the S3 fake: exactly one of 20 concurrent creators wins', async () => {
    const fake = new S3Fake();
    const s = s3Storage({ endpoint: 'http://fake-s3.test', bucket: 'lake', region: 'us-east-1', credentials: { accessKeyId: 'AKIDFAKE', secretAccessKey: 'fake-secret' }, fetch: fake.fetch });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => s.writeIfAbsent('.hoodie/1.commit', enc(`writer ${i}`))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(dec(await s.read('.hoodie/1.commit'))).toBe(`writer ${results.indexOf(true)}`);
    expect(fake.badSignatures).toEqual([]);
  });
});
