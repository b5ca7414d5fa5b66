// The worker pool in headless Chromium: real module Workers started by the pool (Vite bundles the worker
// entry), compared with inline runs; error transfer; forced WASM failure → JS twins; pooled table writes.
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkerPool, defaultWorkerCount, type WorkerPool } from '../../src/worker/pool.js';
import { resolveWriteOptions } from '../../src/engine/write/write-options.js';
import { expectCompactMatches, expectErrorTransfer, expectMergeMatches, expectPooledWritesMatch, expectTaggingMatches, mergeOnce, sampleTable, tagOneFile } from './worker-cases.js';

const pools: WorkerPool[] = [];
const pool = (options: Parameters<typeof createWorkerPool>[0]) => {
  const p = createWorkerPool(options);
  pools.push(p);
  return p;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

describe('worker pool (Chromium module workers)', () => {
  it('sizes itself from hardwareConcurrency, and write options default to it', () => {
    const expected = Math.max(0, Math.min(navigator.hardwareConcurrency - 1, 4));
    expect(defaultWorkerCount()).toBe(expected);
    expect(resolveWriteOptions({}).workers).toBe(expected);
  });

  it('loads the WASM kernels inside workers', async () => {
    expect((await pool({ size: 1 }).run('kernelsInfo', undefined)).kind).toBe('wasm');
  });

  it("a worker's first merge already runs on its WASM kernels (SNAPPY pages, bloom adds); kernels 'js' stays on JS", async () => {
    expect((await mergeOnce(pool({ size: 1 }))).kernels).toBe('wasm');
    expect((await mergeOnce(pool({ size: 1, kernels: 'js' }))).kernels).toBe('js');
  });

  it('tags like the inline path, for every file-based index', async () => {
    await expectTaggingMatches(pool({ size: 2 }));
  });

  it('merges and compacts file groups byte-identically to inline', async () => {
    const inline = pool({ size: 0 });
    await expectCompactMatches(pool({ size: 2 }), inline);
    await expectMergeMatches(pool({ size: 2 }), inline);
  });

  it('keeps LakeletError code, context and cause across the boundary', async () => {
    await expectErrorTransfer(pool({ size: 1 }));
  });

  it('runs the JS twins when WASM fails to load, with identical results', async () => {
    const table = await sampleTable();
    const wasm = pool({ size: 1 });
    const broken = pool({ size: 1, kernels: new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]).buffer });
    const info = await broken.run('kernelsInfo', undefined);
    expect(info.kind).toBe('js');
    expect(info.fallbackReason).toBeTruthy();
    const a = await tagOneFile(wasm, table);
    expect(a.matched.length).toBeGreaterThan(0);
    expect(await tagOneFile(broken, table)).toEqual(a);
    expect(await tagOneFile(pool({ size: 1, kernels: 'js' }), table)).toEqual(a);
  });

  it('writes the same table with workers on (Table owns and closes its pool)', async () => {
    await expectPooledWritesMatch(2);
  });
});
