// CRC32 (zlib polynomial) and `hoodie.table.checksum` = crc32("<database>.<table>"), checked against the
// standard CRC32 test vectors and the values stored in fixture tables (hudi-format.md §2).
import { describe, expect, it } from 'vitest';
import { crc32, tableChecksum } from '../../src/config/checksum.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('crc32', () => {
  it('matches the standard check values', () => {
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(enc('123456789'))).toBe(0xcbf43926);
    expect(crc32(enc('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
    expect(crc32(new Uint8Array([0]))).toBe(0xd202ef8d);
  });
  it('returns an unsigned 32-bit value', () => {
    const v = crc32(enc('default.v9_txns_cow_simple_meta'));
    expect(v).toBeGreaterThan(0x7fffffff);
    expect(Number.isInteger(v)).toBe(true);
  });
  it('hashes the UTF-8 bytes of non-ASCII text', () => {
    expect(crc32(enc('é'))).toBe(crc32(new Uint8Array([0xc3, 0xa9])));
    expect(crc32(enc('é'))).not.toBe(crc32(new Uint8Array([0xe9])));
  });
});

describe('tableChecksum', () => {
  it.each([
    ['default', 'v6_nonpartitioned', 1363530505],
    ['default', 'v8_trips_8i3u1d', 1197752875],
    ['default', 'v9_txns_cow_simple_meta', 2985977913],
    [undefined, 'v8_trips_8i3u1d_metadata', 380169000],
  ])('crc32("%s.%s") = %i', (db, table, expected) => {
    expect(tableChecksum(db, table)).toBe(expected);
  });
  it('a missing database counts as the empty string', () => {
    expect(tableChecksum(undefined, 't')).toBe(crc32(enc('.t')));
    expect(tableChecksum('', 't')).toBe(tableChecksum(undefined, 't'));
    expect(tableChecksum('default', 't')).not.toBe(tableChecksum(undefined, 't'));
  });
});
