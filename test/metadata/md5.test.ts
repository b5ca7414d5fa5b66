// MD5 against the RFC 1321 appendix A.5 test suite, plus padding edges (55/56/64-byte inputs).
import { describe, expect, it } from 'vitest';
import { md5 } from '../../src/metadata/md5.js';

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

describe('md5', () => {
  it('matches the RFC 1321 test suite', () => {
    expect(hex(md5(''))).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(hex(md5('a'))).toBe('0cc175b9c0f1b6a831c399e269772661');
    expect(hex(md5('abc'))).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(hex(md5('message digest'))).toBe('f96b697d7cb7938d525a2f31aaf161d0');
    expect(hex(md5('abcdefghijklmnopqrstuvwxyz'))).toBe('c3fcd3d76192e4007dfb496cca67e13b');
    expect(hex(md5('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'))).toBe('d174ab98d277d9f5a5611c2c9f419d9f');
    expect(hex(md5('12345678901234567890123456789012345678901234567890123456789012345678901234567890'))).toBe('57edf4a22be3c955ac49da2e2107b67a');
  });

  it('pads inputs near the 56-byte boundary and hashes bytes and UTF-8 alike', () => {
    // Well-known digests of 55, 56 and 64 'a's (padding into one vs two blocks).
    expect(hex(md5('a'.repeat(55)))).toBe('ef1772b6dff9a122358552954ad0df65');
    expect(hex(md5('a'.repeat(56)))).toBe('3b0c8ac703f828b04c6c197006d17218');
    expect(hex(md5('a'.repeat(64)))).toBe('014842d480b571495a4a0363793f7367');
    expect(md5(new TextEncoder().encode('é'))).toEqual(md5('é'));
  });
});
