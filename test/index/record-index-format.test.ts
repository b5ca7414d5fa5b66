// The record index's pure model: stable key hashing and shard assignment (FNV for old indexes, XXH64 for new
// ones, the hashKeys64 kernel and the JS twin assigning alike), the manifest format, and merging a commit's
// changes into shards (the shard file codec: record-index-shard.test.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  applyChanges, buildShards, changesByShard, dropGroups, FNV_SHARD_HASH, hashRecordKey, parseManifest,
  RECORD_INDEX_HASH, serializeManifest, shardFileName, shardOf, shardsOf, XXH64_SHARD_HASH, type RecordIndexHash, type RecordIndexManifest, type ShardEntries,
} from '../../src/index/record-index-format.js';
import type { Kernels } from '../../src/kernels/kernels.js';
import { jsKernels } from '../../src/kernels/js-kernels.js';
import { instantiateKernels } from '../../src/kernels/wasm-kernels.js';
import { Random } from '../helpers/random.js';

const generated = fileURLToPath(new URL('../../src/kernels/generated/', import.meta.url));
let wasm: Kernels;
beforeAll(async () => {
  wasm = await instantiateKernels(readFileSync(`${generated}kernels.wasm`), 'simd');
});

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

  test('the FNV hash is pinned (files written by older code must be found by today’s)', () => {
    expect(FNV_SHARD_HASH).toBe('fnv1a32-utf8-fmix32');
    expect([hashRecordKey(''), hashRecordKey('a'), hashRecordKey('uuid-1234')]).toEqual([referenceHash(''), referenceHash('a'), referenceHash('uuid-1234')]);
    expect(shardOf('a', 64, FNV_SHARD_HASH)).toBe(referenceHash('a') % 64);
    expect([...shardsOf(['', 'a', 'uuid-1234'], 64, FNV_SHARD_HASH, wasm, 0)]).toEqual(['', 'a', 'uuid-1234'].map((k) => referenceHash(k) % 64));
  });

  test('new indexes use XXH64, pinned to the reference values (low 32 bits mod the shard count)', () => {
    expect(RECORD_INDEX_HASH).toBe('xxh64-utf8');
    expect(RECORD_INDEX_HASH).toBe(XXH64_SHARD_HASH);
    // XXH64 seed 0 reference values: '' → ef46db3751d8e999, 'a' → d24ec4f1a98c6e5b, 'abc' → 44bc2cf5ad770999.
    expect(shardOf('', 1 << 30, XXH64_SHARD_HASH)).toBe(0x51d8e999 % (1 << 30));
    expect(shardOf('a', 1000, XXH64_SHARD_HASH)).toBe(0xa98c6e5b % 1000);
    expect(shardOf('abc', 64, XXH64_SHARD_HASH)).toBe(0xad770999 % 64);
    for (const k of [wasm, jsKernels]) expect([...shardsOf(['', 'a', 'abc'], 1000, XXH64_SHARD_HASH, k, 0)]).toEqual([0x51d8e999 % 1000, 0xa98c6e5b % 1000, 0xad770999 % 1000]);
  });

  test('the kernel and JS paths assign every key alike (random keys, non-ASCII, lone surrogates)', () => {
    const rnd = new Random(17);
    const keys = ['', 'a', '\ud800', 'a\udc00b', '?', 'a?b', '\ud83d\ude00', '\ude00\ud83d', '日本語', 'x'.repeat(300)];
    for (let i = 0; i < 5000; i++) {
      const kind = rnd.int(3);
      const len = rnd.int(40);
      keys.push(kind === 0 ? `uuid-${rnd.int(1e9)}-${i}` : String.fromCharCode(...Array.from({ length: len }, () => (kind === 1 ? 0xd7f0 + rnd.int(0x220) : rnd.int(0x10000)))));
    }
    for (const shardCount of [1, 7, 64, 65536]) {
      const viaWasm = shardsOf(keys, shardCount, XXH64_SHARD_HASH, wasm, 0);
      const viaTwin = shardsOf(keys, shardCount, XXH64_SHARD_HASH, jsKernels, 0);
      const viaJs = shardsOf(keys, shardCount, XXH64_SHARD_HASH);
      expect([...viaWasm]).toEqual([...viaJs]);
      expect([...viaTwin]).toEqual([...viaJs]);
      keys.forEach((k, i) => {
        if (i % 97 === 0) expect(shardOf(k, shardCount, XXH64_SHARD_HASH), JSON.stringify(k)).toBe(viaJs[i]);
      });
    }
    // encodeKey's rule: an unpaired surrogate hashes as '?', on both paths.
    expect(shardOf('a\ud800b', 1 << 30, XXH64_SHARD_HASH)).toBe(shardOf('a?b', 1 << 30, XXH64_SHARD_HASH));
    expect(shardsOf(['a\ud800b', 'a?b'], 1 << 30, XXH64_SHARD_HASH, wasm, 0)[0]).toBe(shardOf('a?b', 1 << 30, XXH64_SHARD_HASH));
  });

  test('the default threshold picks the kernel for large batches only', () => {
    let calls = 0;
    const counting = { hashKeys64: (k: Parameters<Kernels['hashKeys64']>[0]) => (calls++, wasm.hashKeys64(k)) };
    shardsOf(['a', 'b'], 64, XXH64_SHARD_HASH, counting);
    expect(calls).toBe(0);
    const big = Array.from({ length: 20_000 }, (_, i) => `key-${i}`);
    expect([...shardsOf(big, 64, XXH64_SHARD_HASH, counting)]).toEqual([...shardsOf(big, 64, XXH64_SHARD_HASH)]);
    expect(calls).toBe(1);
    shardsOf(big, 64, FNV_SHARD_HASH, counting);
    expect(calls).toBe(1);
  });

  test('sequential keys spread evenly over 64 shards, under either hash', () => {
    for (const hash of [FNV_SHARD_HASH, XXH64_SHARD_HASH] as RecordIndexHash[]) {
      const counts = new Array<number>(64).fill(0);
      for (let i = 0; i < 64_000; i++) counts[shardOf(`key${i}`, 64, hash)]!++;
      for (const c of counts) expect(c).toBeGreaterThan(800), expect(c).toBeLessThan(1200);
    }
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
      serializeManifest({ ...m, hash: 'md5' as RecordIndexHash }),
      serializeManifest({ ...m, hash: 7 as unknown as RecordIndexHash }),
      serializeManifest({ ...m, shards: [null] }),
      serializeManifest({ ...m, shards: ['../escape', null, null, null] }),
      serializeManifest({ ...m, shardCount: 0, shards: [] }),
    ];
    for (const bytes of bad) expect(() => parseManifest(bytes, 'm')).toThrow(expect.objectContaining({ code: 'CORRUPT_FILE' }));
  });

  test('both known hashes parse; an unknown one is CORRUPT_FILE naming it', () => {
    expect(parseManifest(serializeManifest({ ...m, hash: FNV_SHARD_HASH }), 'm').hash).toBe(FNV_SHARD_HASH);
    expect(parseManifest(serializeManifest({ ...m, hash: XXH64_SHARD_HASH }), 'm').hash).toBe(XXH64_SHARD_HASH);
    expect(() => parseManifest(serializeManifest({ ...m, hash: 'murmur3-x' as RecordIndexHash }), 'm')).toThrow(expect.objectContaining({ code: 'CORRUPT_FILE', message: expect.stringContaining('"murmur3-x"') }));
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
    for (const [hash, kernels] of [[FNV_SHARD_HASH, undefined], [XXH64_SHARD_HASH, undefined], [XXH64_SHARD_HASH, wasm]] as const) {
      const rnd = new Random(11);
      const added = Array.from({ length: 3000 }, (_, i) => ({ key: `k${i}`, location: loc(`p${rnd.int(3)}`, `f${rnd.int(5)}`) }));
      const removed = Array.from({ length: 500 }, (_, i) => ({ key: `k${i * 3}`, location: loc('p0', 'f0') }));
      const byShard = changesByShard({ removed, added }, 16, { hash, kernels });
      const built = buildShards(added, 16, { hash, kernels });
      expect([...byShard.values()].reduce((n, c) => n + c.removed.length, 0)).toBe(500);
      for (let s = 0; s < 16; s++) {
        const e: ShardEntries = new Map();
        applyChanges(e, { removed: [], added: byShard.get(s)?.added ?? [] });
        expect(e).toEqual(built[s]);
        for (const k of e.keys()) expect(shardOf(k, 16, hash)).toBe(s);
        for (const r of byShard.get(s)?.removed ?? []) expect(shardOf(r.key, 16, hash)).toBe(s);
      }
    }
  });

  test('dropGroups removes every location in the given groups', () => {
    const e: ShardEntries = new Map([['a', [loc('p1', 'f1')]], ['b', [loc('p1', 'f1'), loc('p2', 'f2')]], ['c', [loc('p2', 'f2')]]]);
    expect(dropGroups(e, new Set(['p1\u0000f1']))).toBe(true);
    expect(e).toEqual(new Map([['b', [loc('p2', 'f2')]], ['c', [loc('p2', 'f2')]]]));
    expect(dropGroups(e, new Set(['p9\u0000f9']))).toBe(false);
  });
});
