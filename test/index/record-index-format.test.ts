// The record index's pure model: stable key hashing and shard assignment, the manifest format, and merging a
// commit's changes into shards (the shard file codec: record-index-shard.test.ts).
import { describe, expect, test } from 'vitest';
import {
  applyChanges, buildShards, changesByShard, dropGroups, hashRecordKey, parseManifest,
  RECORD_INDEX_HASH, serializeManifest, shardFileName, shardOf, type RecordIndexManifest, type ShardEntries,
} from '../../src/index/record-index-format.js';
import { Random } from '../helpers/random.js';

/** The reference: FNV-1a over TextEncoder's bytes, then fmix32. */
function referenceHash(key: string): number {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(key)) h = Math.imul(h ^ b, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const loc = (p: string, f: string) => ({ partitionPath: p, fileId: f });

describe('key hashing and shards', () => {
  test('the hash is FNV-1a over UTF-8 bytes (surrogates, lone surrogates, all planes)', () => {
    const rnd = new Random(3);
    const samples = ['', 'a', 'key-000001', 'ü', '€', '日本語', '😀x', '\ud800', 'a\udc00b', 'x'.repeat(300)];
    for (let i = 0; i < 500; i++) samples.push(String.fromCharCode(...Array.from({ length: 1 + rnd.int(12) }, () => rnd.int(0x10000))));
    for (const k of samples) expect(hashRecordKey(k), JSON.stringify(k)).toBe(referenceHash(k));
  });

  test('the hash is pinned (files written today must be found by tomorrow’s code)', () => {
    expect(RECORD_INDEX_HASH).toBe('fnv1a32-utf8-fmix32');
    expect([hashRecordKey(''), hashRecordKey('a'), hashRecordKey('uuid-1234')]).toEqual([referenceHash(''), referenceHash('a'), referenceHash('uuid-1234')]);
    expect(shardOf('a', 64)).toBe(referenceHash('a') % 64);
  });

  test('sequential keys spread evenly over 64 shards', () => {
    const counts = new Array<number>(64).fill(0);
    for (let i = 0; i < 64_000; i++) counts[shardOf(`key${i}`, 64)]!++;
    for (const c of counts) expect(c).toBeGreaterThan(800), expect(c).toBeLessThan(1200);
  });

  test('shard file names carry the shard, the instant and a token', () => {
    expect(shardFileName(7, '20240101000000000', 'ab12cd34')).toBe('shard-0007_20240101000000000_ab12cd34.rix');
    expect(shardFileName(7, null, 'x')).toBe('shard-0007_init_x.rix');
  });
});

describe('manifest', () => {
  const m: RecordIndexManifest = { version: 1, shardCount: 4, hash: RECORD_INDEX_HASH, instant: '20240101000000000', pending: ['20231231000000000'], keyCount: 3, shards: ['shard-0000_20240101000000000_ab.rix', null, null, 'shard-0003_20240101000000000_ab.rix'] };

  test('round trip', () => {
    expect(parseManifest(serializeManifest(m), 'm')).toEqual(m);
    expect(parseManifest(serializeManifest({ ...m, instant: null, pending: [] }), 'm').instant).toBeNull();
  });

  test('invalid manifests raise CORRUPT_FILE', () => {
    const bad = [
      new TextEncoder().encode('{'),
      new TextEncoder().encode('null'),
      serializeManifest({ ...m, version: 2 }),
      serializeManifest({ ...m, hash: 'md5' }),
      serializeManifest({ ...m, shards: [null] }),
      serializeManifest({ ...m, shards: ['../escape', null, null, null] }),
      serializeManifest({ ...m, shardCount: 0, shards: [] }),
    ];
    for (const bytes of bad) expect(() => parseManifest(bytes, 'm')).toThrow(expect.objectContaining({ code: 'CORRUPT_FILE' }));
  });
});

describe('merging changes', () => {
  test('removals apply before additions; moves, deletes, duplicates', () => {
    const e: ShardEntries = new Map([['a', [loc('p1', 'f1')]], ['b', [loc('p1', 'f1')]], ['c', [loc('p1', 'f1'), loc('p2', 'f2')]]]);
    applyChanges(e, {
      removed: [{ key: 'a', location: loc('p1', 'f1') }, { key: 'b', location: loc('p1', 'f1') }, { key: 'c', location: loc('p2', 'f2') }, { key: 'zz', location: loc('p1', 'f1') }],
      added: [{ key: 'a', location: loc('p2', 'f3') }, { key: 'd', location: loc('p1', 'f1') }, { key: 'd', location: loc('p1', 'f1') }, { key: 'c', location: loc('p3', 'f4') }],
    });
    expect(e).toEqual(new Map([['a', [loc('p2', 'f3')]], ['c', [loc('p1', 'f1'), loc('p3', 'f4')]], ['d', [loc('p1', 'f1')]]]));
  });

  test('changes split by shard, and shards built from located keys agree with applying them', () => {
    const rnd = new Random(11);
    const added = Array.from({ length: 2000 }, (_, i) => ({ key: `k${i}`, location: loc(`p${rnd.int(3)}`, `f${rnd.int(5)}`) }));
    const byShard = changesByShard({ removed: [], added }, 16);
    const built = buildShards(added, 16);
    for (let s = 0; s < 16; s++) {
      const e: ShardEntries = new Map();
      applyChanges(e, byShard.get(s) ?? { removed: [], added: [] });
      expect(e).toEqual(built[s]);
      for (const k of e.keys()) expect(shardOf(k, 16)).toBe(s);
    }
  });

  test('dropGroups removes every location in the given groups', () => {
    const e: ShardEntries = new Map([['a', [loc('p1', 'f1')]], ['b', [loc('p1', 'f1'), loc('p2', 'f2')]], ['c', [loc('p2', 'f2')]]]);
    expect(dropGroups(e, new Set(['p1\u0000f1']))).toBe(true);
    expect(e).toEqual(new Map([['b', [loc('p2', 'f2')]], ['c', [loc('p2', 'f2')]]]));
    expect(dropGroups(e, new Set(['p9\u0000f9']))).toBe(false);
  });
});
