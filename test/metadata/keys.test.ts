// The metadata table's keys and placement (hudi-v9-write.md §4.1/§4.3): the file group of a key by Java's
// String.hashCode, the column/partition hash ids and the file-name MD5, with the doc's check values.
import { describe, expect, it } from 'vitest';
import { columnStatsKey, fileIdBase64, hashIdBase64, javaStringHashCode, metadataFileGroupIndex, partitionStatsKey } from '../../src/metadata/keys.js';

describe('metadata keys', () => {
  it('computes Java String.hashCode over UTF-16 units', () => {
    // Java: "".hashCode() = 0, "a" = 97, "abc" = 96354, "polygenelubricants".hashCode() = Integer.MIN_VALUE.
    expect(javaStringHashCode('')).toBe(0);
    expect(javaStringHashCode('a')).toBe(97);
    expect(javaStringHashCode('abc')).toBe(96354);
    expect(javaStringHashCode('polygenelubricants')).toBe(-2147483648);
    // A surrogate pair counts as two units: 31 * 0xD83D + 0xDE00.
    expect(javaStringHashCode('😀')).toBe(31 * 0xd83d + 0xde00);
  });

  it('places TXN-001…TXN-009 in file groups 8…0 of 10 (the v9 fixture record index)', () => {
    const groups = Array.from({ length: 9 }, (_, i) => metadataFileGroupIndex(`TXN-00${i + 1}`, 10));
    expect(groups).toEqual([8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it('keeps Integer.MIN_VALUE in range as Java does (abs, mod, abs)', () => {
    // Math.abs(MIN_VALUE) = MIN_VALUE; MIN_VALUE % 10 = -8; abs → 8.
    expect(metadataFileGroupIndex('polygenelubricants', 10)).toBe(8);
    expect(metadataFileGroupIndex('anything', 1)).toBe(0);
    expect(() => metadataFileGroupIndex('x', 0)).toThrow(/positive integer/);
  });

  it('hashes columns and partitions to the check values of the format doc', () => {
    expect(hashIdBase64('fee_amount')).toBe('5RNSbpYG6oU=');
    expect(hashIdBase64('region=us')).toBe('431THTTwO5Q=');
  });

  it('builds column-stats keys as column id + partition id + MD5 id, and partition-stats keys as the first two', () => {
    // MD5("") = d41d8cd98f00b204e9800998ecf8427e → base64 1B2M2Y8AsgTpgAmY7PhCfg==
    expect(fileIdBase64('')).toBe('1B2M2Y8AsgTpgAmY7PhCfg==');
    const key = columnStatsKey('fee_amount', 'region=us', '');
    expect(key).toBe('5RNSbpYG6oU=431THTTwO5Q=1B2M2Y8AsgTpgAmY7PhCfg==');
    expect(partitionStatsKey('fee_amount', 'region=us')).toBe('5RNSbpYG6oU=431THTTwO5Q=');
    // The non-partitioned partition is hashed as ".".
    expect(partitionStatsKey('fee_amount', '')).toBe(`5RNSbpYG6oU=${hashIdBase64('.')}`);
  });
});
