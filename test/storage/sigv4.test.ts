// SigV4 signer against AWS's published known answers: the Signature Version 4 test suite (AKIDEXAMPLE,
// service `service`) and the four S3 header-auth examples (AKIAIOSFODNN7EXAMPLE, bucket `examplebucket`).
// s3rver never verifies signatures, so these vectors are what proves the signer.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { amzDate, EMPTY_SHA256, sha256Hex, signRequest, uriEncode } from '../../src/storage/sigv4.js';
import { LakeletError } from '../../src/errors.js';

/** The generic suite (aws-sig-v4-test-suite): host example.amazonaws.com, 2015-08-30T12:36:00Z, us-east-1. */
const SUITE = {
  region: 'us-east-1',
  service: 'service',
  credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
  date: new Date('2015-08-30T12:36:00Z'),
};

interface SuiteCase {
  name: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  signedHeaders: string;
  signature: string;
}

const SUITE_CASES: SuiteCase[] = [
  { name: 'get-vanilla', method: 'GET', url: 'https://example.amazonaws.com/', signedHeaders: 'host;x-amz-date', signature: '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31' },
  { name: 'get-vanilla-empty-query-key', method: 'GET', url: 'https://example.amazonaws.com/?Param1=value1', signedHeaders: 'host;x-amz-date', signature: 'a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb' },
  { name: 'get-vanilla-query-order-key-case', method: 'GET', url: 'https://example.amazonaws.com/?Param2=value2&Param1=value1', signedHeaders: 'host;x-amz-date', signature: 'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500' },
  {
    name: 'get-vanilla-query-unreserved', method: 'GET',
    url: 'https://example.amazonaws.com/?-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz=-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
    signedHeaders: 'host;x-amz-date', signature: '9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197',
  },
  { name: 'get-vanilla-utf8-query', method: 'GET', url: 'https://example.amazonaws.com/?\u1234=bar', signedHeaders: 'host;x-amz-date', signature: '2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04' },
  { name: 'get-unreserved', method: 'GET', url: 'https://example.amazonaws.com/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', signedHeaders: 'host;x-amz-date', signature: '07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f' },
  { name: 'get-utf8', method: 'GET', url: 'https://example.amazonaws.com/\u1234', signedHeaders: 'host;x-amz-date', signature: '8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85' },
  {
    name: 'get-header-value-trim', method: 'GET', url: 'https://example.amazonaws.com/', headers: { 'My-Header1': ' value1', 'My-Header2': ' "a   b   c"' },
    signedHeaders: 'host;my-header1;my-header2;x-amz-date', signature: 'acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736',
  },
  {
    name: 'get-header-key-duplicate', method: 'GET', url: 'https://example.amazonaws.com/', headers: { 'My-Header1': 'value2,value2,value1' },
    signedHeaders: 'host;my-header1;x-amz-date', signature: 'c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea',
  },
  { name: 'post-vanilla', method: 'POST', url: 'https://example.amazonaws.com/', signedHeaders: 'host;x-amz-date', signature: '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b' },
  { name: 'post-vanilla-query', method: 'POST', url: 'https://example.amazonaws.com/?Param1=value1', signedHeaders: 'host;x-amz-date', signature: '28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11' },
  {
    name: 'post-header-value-case', method: 'POST', url: 'https://example.amazonaws.com/', headers: { 'My-Header1': 'VALUE1' },
    signedHeaders: 'host;my-header1;x-amz-date', signature: 'cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d',
  },
  {
    name: 'post-x-www-form-urlencoded', method: 'POST', url: 'https://example.amazonaws.com/', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'Param1=value1',
    signedHeaders: 'content-type;host;x-amz-date', signature: 'ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a',
  },
  {
    name: 'post-x-www-form-urlencoded-parameters', method: 'POST', url: 'https://example.amazonaws.com/', headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf8' }, body: 'Param1=value1',
    signedHeaders: 'content-type;host;x-amz-date', signature: '1a72ec8f64bd914b0e42e42607c7fbce7fb2c7465f63e3092b3b0d39fa77a6fe',
  },
];

describe('SigV4: the AWS Signature Version 4 test suite', () => {
  it.each(SUITE_CASES)('$name', async (c) => {
    const request = { method: c.method, url: c.url, headers: c.headers ?? {}, ...(c.body === undefined ? {} : { body: c.body }) };
    const signed = await signRequest(request, { ...SUITE, contentSha256Header: false });
    expect(signed.signature).toBe(c.signature);
    expect(signed.authorization).toBe(`AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=${c.signedHeaders}, Signature=${c.signature}`);
    expect(signed.headers['x-amz-date']).toBe('20150830T123600Z');
    expect(signed.headers).not.toHaveProperty('host'); // fetch sets Host itself (browsers forbid setting it)
  });

  it('get-vanilla: canonical request and string to sign, line by line', async () => {
    const signed = await signRequest({ method: 'GET', url: 'https://example.amazonaws.com/' }, { ...SUITE, contentSha256Header: false });
    expect(signed.canonicalRequest).toBe(['GET', '/', '', 'host:example.amazonaws.com', 'x-amz-date:20150830T123600Z', '', 'host;x-amz-date', EMPTY_SHA256].join('\n'));
    expect(signed.stringToSign).toBe(['AWS4-HMAC-SHA256', '20150830T123600Z', '20150830/us-east-1/service/aws4_request',
      'bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63'].join('\n'));
  });
});

/** S3's documented examples (Amazon S3 API reference, "Signature Calculations for the Authorization Header"). */
const S3 = {
  region: 'us-east-1',
  service: 's3',
  credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  date: new Date('2013-05-24T00:00:00Z'),
};

describe('SigV4: the S3 header-auth examples', () => {
  it('GET Object with a Range', async () => {
    const signed = await signRequest({ method: 'GET', url: 'https://examplebucket.s3.amazonaws.com/test.txt', headers: { Range: 'bytes=0-9' } }, S3);
    expect(signed.canonicalRequest).toBe([
      'GET', '/test.txt', '',
      'host:examplebucket.s3.amazonaws.com', 'range:bytes=0-9', `x-amz-content-sha256:${EMPTY_SHA256}`, 'x-amz-date:20130524T000000Z', '',
      'host;range;x-amz-content-sha256;x-amz-date', EMPTY_SHA256,
    ].join('\n'));
    expect(signed.stringToSign).toBe('AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972');
    expect(signed.signature).toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
    expect(signed.headers['x-amz-content-sha256']).toBe(EMPTY_SHA256);
  });

  it('PUT Object: $ in the key, a Date and a storage-class header, a signed body', async () => {
    const body = 'Welcome to Amazon S3.';
    expect(await sha256Hex(body)).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    const signed = await signRequest({
      method: 'PUT', url: 'https://examplebucket.s3.amazonaws.com/test$file.text', body,
      headers: { Date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' },
    }, S3);
    expect(signed.canonicalRequest.split('\n').slice(0, 2)).toEqual(['PUT', '/test%24file.text']);
    expect(signed.stringToSign.split('\n')[3]).toBe('9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d');
    expect(signed.signature).toBe('98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd');
    expect(signed.authorization).toContain('SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,');
  });

  it('GET Bucket Lifecycle: a valueless query parameter signs as "lifecycle="', async () => {
    const signed = await signRequest({ method: 'GET', url: 'https://examplebucket.s3.amazonaws.com/?lifecycle' }, S3);
    expect(signed.canonicalRequest.split('\n')[2]).toBe('lifecycle=');
    expect(signed.stringToSign.split('\n')[3]).toBe('9766c798316ff2757b517bc739a67f6213b4ab36dd5da2f94eaebf79c77395ca');
    expect(signed.signature).toBe('fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543');
  });

  it('GET Bucket (List Objects) with max-keys and prefix', async () => {
    const signed = await signRequest({ method: 'GET', url: 'https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J' }, S3);
    expect(signed.canonicalRequest.split('\n')[2]).toBe('max-keys=2&prefix=J');
    expect(signed.stringToSign.split('\n')[3]).toBe('df57d21db20da04d7fa30298dd4488ba3a2b47ca3a489c74750e0f1e7df1b9b7');
    expect(signed.signature).toBe('34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7');
  });
});

describe('SigV4: details', () => {
  it('signs a session token as x-amz-security-token', async () => {
    const signed = await signRequest({ method: 'GET', url: 'https://b.s3.amazonaws.com/k' }, { ...S3, credentials: { ...S3.credentials, sessionToken: 'TOKEN+/=' } });
    expect(signed.headers['x-amz-security-token']).toBe('TOKEN+/=');
    expect(signed.authorization).toContain('SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,');
    expect(signed.canonicalRequest).toContain('\nx-amz-security-token:TOKEN+/=\n');
  });

  it('keeps a non-default port in the signed host and encodes keys once', async () => {
    const signed = await signRequest({ method: 'GET', url: `http://127.0.0.1:4568/lake/${uriEncode('city=san francisco/ünï.parquet', true)}` }, S3);
    const lines = signed.canonicalRequest.split('\n');
    expect(lines[1]).toBe('/lake/city%3Dsan%20francisco/%C3%BCn%C3%AF.parquet');
    expect(lines).toContain('host:127.0.0.1:4568');
  });

  it('sorts query parameters by encoded name, then value; encodes continuation tokens strictly', async () => {
    const signed = await signRequest({ method: 'GET', url: 'https://h/b?prefix=a%2Fb%2F&list-type=2&continuation-token=x%2By%3D&delimiter=%2F' }, S3);
    expect(signed.canonicalRequest.split('\n')[2]).toBe('continuation-token=x%2By%3D&delimiter=%2F&list-type=2&prefix=a%2Fb%2F');
  });

  it('formats x-amz-date and accepts UNSIGNED-PAYLOAD', async () => {
    expect(amzDate(new Date('2024-02-29T23:59:58.123Z'))).toBe('20240229T235958Z');
    const signed = await signRequest({ method: 'GET', url: 'https://h/k', payloadHash: 'UNSIGNED-PAYLOAD' }, S3);
    expect(signed.headers['x-amz-content-sha256']).toBe('UNSIGNED-PAYLOAD');
    expect(signed.canonicalRequest.endsWith('\nUNSIGNED-PAYLOAD')).toBe(true);
  });
});

describe('sigv4 without WebCrypto', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('raises UNSUPPORTED naming what crypto.subtle was', async () => {
    vi.stubGlobal('crypto', {});
    const err: unknown = await sha256Hex('x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LakeletError);
    expect(err).toMatchObject({
      code: 'UNSUPPORTED',
      message: 'sigv4: crypto.subtle is not available (a secure context or Node 20+ is needed)',
      context: { value: 'undefined' },
    });
  });
});
