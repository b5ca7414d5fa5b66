// The base-file indexes: keys packed in chunks (with event-loop turns between them) equal one packKeys call; the
// inline bloom probe on the WASM kernel tags (and reads) as the filter's own check, directly and through a write.
import { beforeAll, describe, expect, test } from 'vitest';
import { mainThreadKernels } from '../../../src/engine/kernels.js';
import { TableState } from '../../../src/engine/table-state.js';
import { tagLocations } from '../../../src/engine/write/base-file-index.js';
import { packKeysInChunks } from '../../../src/engine/pack-keys.js';
import { readBaseFileKeys } from '../../../src/engine/write/tag.js';
import type { FileSlice } from '../../../src/file-group/file-slice.js';
import { BLOOM_KERNEL_MIN_KEYS } from '../../../src/index/bloom-index.js';
import { createTable, memoryStorage, type Storage, type Table } from '../../../src/index.js';
import { packKeys, type Kernels } from '../../../src/kernels/kernels.js';
import { useNodeWorkers } from '../../../src/node/worker-pool-node.js';
import type { WorkerPool } from '../../../src/worker/pool.js';
import { createWorkerApi } from '../../../src/worker/worker-impl.js';

test('packKeysInChunks gives the bytes and offsets of packKeys, across chunk edges and non-ASCII keys', async () => {
  const keys = Array.from({ length: 12_345 }, (_, i) => (i % 7 === 0 ? `ключ-${i}-é` : `key-${i}`));
  const whole = packKeys(keys);
  const chunked = await packKeysInChunks(keys, 1000);
  expect(Array.from(chunked.offsets)).toEqual(Array.from(whole.offsets));
  const used = whole.offsets[keys.length] as number;
  expect(Buffer.from(chunked.bytes.subarray(0, used)).equals(Buffer.from(whole.bytes.subarray(0, used)))).toBe(true);
  expect((await packKeysInChunks(keys.slice(0, 10), 1000)).offsets.length).toBe(11);
});

// The inline bloom probe: with kernels (WASM), files whose key range passes at least BLOOM_KERNEL_MIN_KEYS keys are
// probed by `bloomProbe`; the tags, and the files whose keys are read, are those of the filter's own check.
describe('inline bloom probe with kernels', () => {
  const SCHEMA = { type: 'record', name: 'r', namespace: 'bfi', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }] };
  const PARTS = ['a', 'b', 'c'];
  const n = BLOOM_KERNEL_MIN_KEYS * 3;
  // uuid-like keys spread over three partitions; every key range is wide.
  const key = (i: number) => `${(Math.imul(i, 0x9e3779b1) >>> 0).toString(16).padStart(8, '0')}-${i % 7 === 0 ? 'ключ' : 'k'}-${i}`;
  const rows = (from: number, to: number, ts: number) => Array.from({ length: to - from }, (_, j) => ({ id: key(from + j), part: PARTS[(from + j) % 3]!, ts }));

  async function table(storage: Storage): Promise<Table> {
    const t = await createTable(storage, {
      name: 'bfi', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, index: 'BLOOM',
      bloomFilter: { numEntries: 2000, fpp: 0.001 }, clean: { automatic: false }, archive: { automatic: false }, workers: 0,
    });
    await t.insert(rows(0, n, 1));
    await t.insert(rows(n, 2 * n, 1));
    return t;
  }

  beforeAll(() => useNodeWorkers()); // as lakelet/node: the main thread's 'auto' kernels get the WASM bytes

  test('tagLocations with the WASM kernel tags and prunes as without it', async () => {
    const storage = memoryStorage();
    await table(storage);
    const state = await TableState.load(storage);
    const slices = (await state.fileSystemView()).latestSlices();
    expect(slices.length).toBeGreaterThanOrEqual(3);
    const wasm = await mainThreadKernels('auto');
    expect(wasm.kind).toBe('wasm');
    // Half the probed keys are in the table (both files' worth), half are not.
    const probe = [...Array.from({ length: n }, (_, i) => key(i * 2)), ...Array.from({ length: n }, (_, i) => `absent-${i}`)];
    for (const type of ['BLOOM', 'GLOBAL_BLOOM'] as const) {
      const keys = probe.map((recordKey, i) => ({ recordKey, partitionPath: `part=${i < n ? PARTS[(i * 2) % 3]! : PARTS[i % 3]!}` }));
      const runs: { tags: string[]; reads: string[]; probes: number }[] = [];
      for (const kernels of [undefined, wasm]) {
        const reads: string[] = [];
        const readKeys = async (s: FileSlice) => (reads.push(s.fileId), readBaseFileKeys(storage, s));
        let probes = 0;
        const counting = kernels && { bloomProbe: (...args: Parameters<Kernels['bloomProbe']>) => (probes++, kernels.bloomProbe(...args)) };
        const tags = await tagLocations(storage, slices, keys, type, readKeys, undefined, counting);
        runs.push({ tags: [...tags].map(([k, l]) => `${k}→${l.partitionPath}/${l.fileId}`).sort(), reads: reads.sort(), probes });
      }
      const [js, viaWasm] = runs as [typeof runs[0], typeof runs[0]];
      expect(js.tags.length).toBe(n);
      expect(viaWasm.tags).toEqual(js.tags);
      expect(viaWasm.reads).toEqual(js.reads);
      expect(viaWasm.probes).toBe(slices.length); // every file probed by the kernel (each passes ≥ the threshold)
    }
  });

  test("an upsert through the write tags alike with kernels 'auto' and 'js'", { timeout: 60_000 }, async () => {
    const results: unknown[] = [];
    for (const kernels of ['auto', 'js'] as const) {
      const storage = memoryStorage();
      const t = await table(storage);
      const batch = [...rows(0, 2 * n, 2).filter((_, i) => i % 2 === 0), ...Array.from({ length: n }, (_, i) => ({ id: `new-${i}`, part: PARTS[i % 3]!, ts: 2 }))];
      const r = await t.upsert(batch, { kernels, workers: 0 });
      results.push([r.stats.inserted, r.stats.updated, r.stats.deleted, r.stats.filesWritten]);
      const state = await TableState.load(storage);
      // File ids are random: compare each file's partition and sorted keys.
      const files: string[] = [];
      for (const s of (await state.fileSystemView()).latestSlices()) files.push(`${s.partitionPath}:${(await readBaseFileKeys(storage, s)).sort().join(',')}`);
      results.push(files.sort());
      let count = 0;
      for await (const _ of t.rows({ columns: ['id'] })) count++;
      expect(count).toBe(3 * n); // updates found their rows: nothing written twice
    }
    expect(results[0]).toEqual(results[2]);
    expect(results[1]).toEqual(results[3]);
  });
});

// On a pool, a tagging worker gets the footer and the record key column's chunks of a base file, never the whole
// file (a remote store would otherwise send every candidate file in full), and tags as the inline path does.
describe('tagging on a pool', () => {
  const SCHEMA = { type: 'record', name: 'r', namespace: 'tp', fields: [{ name: 'id', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'payload', type: 'string' }] };
  const key = (i: number) => `k-${(Math.imul(i, 0x9e3779b1) >>> 0).toString(16).padStart(8, '0')}-${i}`;

  test('only the parts it reads cross, with the tags of the inline path', async () => {
    const storage = memoryStorage();
    const t = await createTable(storage, {
      name: 'tp', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', schema: SCHEMA, index: 'BLOOM', codec: 'UNCOMPRESSED',
      clean: { automatic: false }, archive: { automatic: false }, workers: 0,
    });
    await t.insert(Array.from({ length: 20_000 }, (_, i) => ({ id: key(i), ts: 1, payload: `${key(i)}-${'x'.repeat(60)}` })));
    const state = await TableState.load(storage);
    const slices = (await state.fileSystemView()).latestSlices();
    const size = slices[0]?.baseFile?.size ?? 0;
    expect(size).toBeGreaterThan(1 << 20);
    const api = createWorkerApi({ kernels: 'js' });
    const sent: { file: ArrayBuffer; parts?: unknown }[] = [];
    const pool = {
      size: 1,
      run: async (method: string, request: unknown) => {
        if (method === 'tagFile') sent.push(request as { file: ArrayBuffer; parts?: unknown });
        return (api as unknown as Record<string, (r: unknown) => Promise<unknown>>)[method]!(request);
      },
      close: async () => undefined,
    } as unknown as WorkerPool;
    const keys = [...Array.from({ length: 500 }, (_, i) => key(i * 3)), ...Array.from({ length: 500 }, (_, i) => `absent-${i}`)].map((recordKey) => ({ recordKey, partitionPath: '' }));
    const inline = await tagLocations(storage, slices, keys, 'BLOOM');
    const pooled = await tagLocations(storage, slices, keys, 'BLOOM', undefined, pool);
    expect([...pooled].sort()).toEqual([...inline].sort());
    expect(inline.size).toBe(500);
    expect(sent).toHaveLength(slices.length);
    for (const r of sent) {
      expect(r.parts).toBeDefined();
      expect(r.file.byteLength).toBeLessThan(size / 2);
    }
  });
});
