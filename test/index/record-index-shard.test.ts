// The record index's shard file codec: round trips (unicode keys, shared prefixes, several locations), a
// deterministic encoding, corruption always CORRUPT_FILE with the path, and a million keys.
import { describe, expect, test } from 'vitest';
import { buildShards, RECORD_INDEX_HASH, type ShardEntries } from '../../src/index/record-index-format.js';
import { decodeShard, encodeShard } from '../../src/index/record-index-shard.js';
import { isLakeletError } from '../../src/index.js';

const loc = (p: string, f: string) => ({ partitionPath: p, fileId: f });

describe('shard codec', () => {
  test('round trip: unicode keys, shared prefixes, several locations, empty shard', () => {
    const entries: ShardEntries = new Map([
      ['b', [loc('p=1', 'f1')]],
      ['a', [loc('p=1', 'f1'), loc('p=2', 'f2')]],
      ['abc', [loc('', 'f3')]],
      ['日本', [loc('p=ü', 'f1')]],
      ['😀', [loc('p=2', 'f2')]],
      ['', [loc('p=1', 'f1')]],
    ]);
    const back = decodeShard(encodeShard(entries), 's');
    expect([...back.keys()]).toEqual([...entries.keys()].sort());
    expect(new Map([...back].sort())).toEqual(new Map([...entries].sort()));
    expect(decodeShard(encodeShard(new Map()), 's').size).toBe(0);
  });

  test('encoding is deterministic (insertion order does not matter)', () => {
    const a: ShardEntries = new Map([['x', [loc('p', 'f')]], ['y', [loc('q', 'g')]]]);
    const b: ShardEntries = new Map([['y', [loc('q', 'g')]], ['x', [loc('p', 'f')]]]);
    expect(encodeShard(a)).toEqual(encodeShard(b));
  });

  test('corrupt bytes raise CORRUPT_FILE with the path, never a TypeError', () => {
    const good = encodeShard(new Map([['key1', [loc('p', 'f')]], ['key2', [loc('p', 'g')]]]));
    const cases = [new Uint8Array(0), good.slice(0, 8), good.slice(0, good.length - 1), Uint8Array.from(good, (b, i) => (i === 0 ? 0 : b))];
    for (let i = 5; i < good.length; i++) {
      const bad = good.slice();
      bad[i] = bad[i]! ^ 0x5a;
      cases.push(bad);
    }
    for (const bytes of cases) {
      let err: unknown;
      try {
        decodeShard(bytes, 'shard.rix');
      } catch (e) {
        err = e;
      }
      expect(isLakeletError(err, 'CORRUPT_FILE')).toBe(true);
      expect((err as { context: { path?: string } }).context.path).toBe('shard.rix');
    }
  });

  test('a million keys encode and decode (compactly)', { timeout: 60_000 }, () => {
    const locs = Array.from({ length: 200 }, (_, i) => loc(`date=2024-01-${String(1 + (i % 28)).padStart(2, '0')}`, `${i.toString(16).padStart(8, '0')}-aaaa-bbbb-cccc-0123456789ab-0`));
    const located = Array.from({ length: 1_000_000 }, (_, i) => ({ key: `user-${String(i).padStart(9, '0')}`, location: locs[i % locs.length]! }));
    const shards = buildShards(located, 64, { hash: RECORD_INDEX_HASH });
    expect(shards.reduce((a, s) => a + s.size, 0)).toBe(1_000_000);
    let bytes = 0;
    let decoded = 0;
    for (const s of shards) {
      const enc = encodeShard(s);
      bytes += enc.length;
      const back = decodeShard(enc, 's');
      decoded += back.size;
      const [k, v] = back.entries().next().value!;
      expect(v).toEqual(s.get(k));
    }
    expect(decoded).toBe(1_000_000);
    expect(bytes / 1_000_000).toBeLessThan(12);
  });
});
