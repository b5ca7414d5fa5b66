// The record index's key hash against tables: a new index records xxh64-utf8; an index whose manifest names the
// older FNV hash keeps it through lookups, upserts, catch-up and rebuilds; an unknown hash is CORRUPT_FILE naming
// it (the next write rebuilds); the write's `kernels: 'auto'` and `'js'` shard a large batch alike.
import { beforeAll, describe, expect, test } from 'vitest';
import { mainThreadKernels } from '../../src/engine/kernels.js';
import { TableState } from '../../src/engine/table-state.js';
import { ensureCurrent, lookupLocations, readAllEntries, readRecordIndexManifest, sliceKeyReader } from '../../src/engine/write/record-index.js';
import { writeIndex } from '../../src/engine/write/record-index-write.js';
import {
  buildShards, FNV_SHARD_HASH, parseManifest, serializeManifest, shardOf, SHARD_HASH_KERNEL_MIN_KEYS, XXH64_SHARD_HASH,
  type RecordIndexHash, type RecordIndexManifest,
} from '../../src/index/record-index-format.js';
import { RECORD_INDEX_MANIFEST } from '../../src/layout.js';
import { createTable, memoryStorage, type Storage, type Table } from '../../src/index.js';
import { useNodeWorkers } from '../../src/node/worker-pool-node.js';

// As `lakelet/node` does: the main thread's 'auto' kernels load the WASM bytes through the Node worker factory.
beforeAll(() => useNodeWorkers());

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'rih',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }],
};
const PARTS = ['a', 'b', 'c'];
const row = (id: string, part: string, ts: number) => ({ id, part, ts });

async function newTable(storage: Storage = memoryStorage()): Promise<Table> {
  return createTable(storage, {
    name: 'rih', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, index: 'RECORD_INDEX',
    bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false },
  });
}

/** key → `partition/fileId` of every latest slice holding it. */
async function fullScan(storage: Storage): Promise<Map<string, string[]>> {
  const state = await TableState.load(storage);
  const readKeys = await sliceKeyReader(state);
  const out = new Map<string, string[]>();
  for (const s of (await state.fileSystemView()).latestSlices()) for (const k of await readKeys(s)) out.set(k, [...(out.get(k) ?? []), `${s.partitionPath}/${s.fileId}`].sort());
  return out;
}

/** The index equals a full scan, every key sits in the shard its manifest's hash names, and lookups find every key. */
async function checkIndex(storage: Storage, hash: RecordIndexHash, label: string): Promise<string> {
  const snap = await ensureCurrent(await TableState.load(storage), { heartbeatTimeoutMs: 0 });
  expect(snap.manifest.hash, `${label}: hash`).toBe(hash);
  const scan = await fullScan(storage);
  const entries = await readAllEntries(storage, snap.manifest);
  expect(new Map([...entries].map(([k, v]) => [k, v.map((l) => `${l.partitionPath}/${l.fileId}`).sort()])), `${label}: entries`).toEqual(scan);
  for (let i = 0; i < snap.manifest.shardCount; i++) {
    const name = snap.manifest.shards[i];
    if (!name) continue;
    for (const k of (await readAllEntries(storage, { ...snap.manifest, shards: snap.manifest.shards.map((s, j) => (j === i ? s : null)) })).keys()) {
      expect(shardOf(k, snap.manifest.shardCount, hash), `${label}: shard of ${k}`).toBe(i);
    }
  }
  const probe = [...scan.keys(), 'absent-key'];
  const found = await lookupLocations(await TableState.load(storage), probe, { heartbeatTimeoutMs: 0 });
  expect(new Map([...found].map(([k, v]) => [k, v.map((l) => `${l.partitionPath}/${l.fileId}`).sort()])), `${label}: lookups`).toEqual(scan);
  return snap.source;
}

/** Rewrite the table's index as the code before xxh64 wrote it: the same entries, sharded by FNV. */
async function rewriteWithFnv(storage: Storage): Promise<RecordIndexManifest> {
  const manifest = (await readRecordIndexManifest(storage))!;
  const located = [...(await readAllEntries(storage, manifest))].flatMap(([key, locs]) => locs.map((location) => ({ key, location })));
  const shards = buildShards(located, manifest.shardCount, { hash: FNV_SHARD_HASH });
  const written = await writeIndex(storage, manifest, { shardCount: manifest.shardCount, hash: FNV_SHARD_HASH, instant: manifest.instant, pending: manifest.pending },
    manifest.shards.map(() => null), new Map(shards.map((s, i) => [i, s] as const)), manifest.keyCount, new Map());
  expect(written.persisted).toBe(true);
  return written.manifest;
}

describe('the record index key hash', () => {
  test('a new index records xxh64-utf8 and shards by it', async () => {
    const storage = memoryStorage();
    const table = await newTable(storage);
    await table.upsert(PARTS.flatMap((p, i) => Array.from({ length: 20 }, (_, j) => row(`k${i}-${j}`, p, 1))));
    expect((await readRecordIndexManifest(storage))?.hash).toBe(XXH64_SHARD_HASH);
    expect(await checkIndex(storage, XXH64_SHARD_HASH, 'new')).toBe('current');
  });

  test('an index written with the FNV hash keeps it: lookups, an upsert, catch-up and a rebuild', { timeout: 60_000 }, async () => {
    const storage = memoryStorage();
    const table = await newTable(storage);
    const keys = PARTS.flatMap((p, i) => Array.from({ length: 30 }, (_, j) => row(`k${i}-${j}`, p, 1)));
    await table.upsert(keys);
    const fnv = await rewriteWithFnv(storage);
    expect(fnv.hash).toBe(FNV_SHARD_HASH);
    // The two hashes place keys differently, so reading an FNV index by xxh64 would miss keys.
    expect(keys.some((r) => shardOf(r.id, fnv.shardCount, FNV_SHARD_HASH) !== shardOf(r.id, fnv.shardCount, XXH64_SHARD_HASH))).toBe(true);
    expect(await checkIndex(storage, FNV_SHARD_HASH, 'as written')).toBe('current');

    // An upsert through the index: an update in place, a partition move, a new key, a delete.
    await table.upsert([row('k0-1', 'a', 2), row('k1-2', 'c', 2), row('fresh', 'b', 1)], { index: 'RECORD_INDEX' });
    await table.delete(['k2-3'], { index: 'RECORD_INDEX' });
    const rows: string[] = [];
    for await (const r of table.rows({ columns: ['id', 'part'] })) rows.push(`${r.id}@${r.part}`);
    expect(rows).toContain('k1-2@c');
    expect(rows).not.toContain('k1-2@b');
    expect(rows).not.toContain('k2-3@c');
    expect(rows.length).toBe(keys.length);
    expect(await checkIndex(storage, FNV_SHARD_HASH, 'after upsert')).toBe('current');

    // Commits the index does not hear about are replayed into the FNV shards.
    await table.upsert([row('bloom-1', 'a', 1), row('bloom-2', 'c', 1)], { index: 'BLOOM' });
    expect(await checkIndex(storage, FNV_SHARD_HASH, 'catch-up')).toBe('replayed');

    // A rebuild (the manifest's instant rolled back) keeps the hash too.
    const manifest = (await readRecordIndexManifest(storage))!;
    await storage.write(RECORD_INDEX_MANIFEST, serializeManifest({ ...manifest, instant: '20000101000000000' }));
    expect(await checkIndex(storage, FNV_SHARD_HASH, 'rebuilt')).toBe('rebuilt');
  });

  test('a manifest naming an unknown hash is CORRUPT_FILE naming it; the next write rebuilds with xxh64', async () => {
    const storage = memoryStorage();
    const table = await newTable(storage);
    await table.upsert(PARTS.map((p, i) => row(`k${i}`, p, 1)));
    const manifest = (await readRecordIndexManifest(storage))!;
    const bytes = new TextEncoder().encode(JSON.stringify({ ...manifest, hash: 'blake3-utf8' }));
    await storage.write(RECORD_INDEX_MANIFEST, bytes);
    expect(() => parseManifest(bytes, RECORD_INDEX_MANIFEST)).toThrow(expect.objectContaining({ code: 'CORRUPT_FILE', message: expect.stringContaining('blake3-utf8') }));
    await table.upsert([row('k0', 'b', 2)]);
    expect(await checkIndex(storage, XXH64_SHARD_HASH, 'after unknown hash')).toBe('current');
    const rows: string[] = [];
    for await (const r of table.rows({ columns: ['id', 'part'] })) rows.push(`${r.id}@${r.part}`);
    expect(rows.sort()).toEqual(['k0@b', 'k1@b', 'k2@c']);
  });

  test("kernels 'auto' and 'js' shard a batch above the kernel threshold alike", { timeout: 120_000 }, async () => {
    const n = SHARD_HASH_KERNEL_MIN_KEYS + 500;
    const batch = Array.from({ length: n }, (_, i) => row(i % 7 === 0 ? `ключ-${i}-日本` : `uuid-${(i * 2654435761) % 1e9}-${i}`, PARTS[i % 3]!, 1));
    const indexes: (string | null)[][] = [];
    for (const kernels of ['auto', 'js'] as const) {
      const storage = memoryStorage();
      const table = await newTable(storage);
      await table.upsert(batch, { kernels });
      await table.upsert(batch.slice(0, n - 100).map((r) => ({ ...r, ts: 2 })), { kernels });
      const m = (await readRecordIndexManifest(storage))!;
      const shardKeys: (string | null)[] = [];
      for (let i = 0; i < m.shardCount; i++) {
        const one = await readAllEntries(storage, { ...m, shards: m.shards.map((s, j) => (j === i ? s : null)) });
        shardKeys.push(one.size === 0 ? null : [...one.keys()].sort().join(','));
      }
      expect(m.keyCount).toBe(n);
      indexes.push(shardKeys);
      if (kernels === 'auto') expect(await checkIndex(storage, XXH64_SHARD_HASH, 'auto')).toBe('current');
    }
    expect(indexes[0]).toEqual(indexes[1]);
    // 'auto' really ran on WASM here (else the comparison above would be JS against JS).
    expect((await mainThreadKernels('auto')).kind).toBe('wasm');
  });

});
