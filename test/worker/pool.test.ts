// The worker pool in Node: worker_threads through comlink's Node adapter (the worker entry bundled from
// source with rolldown), compared with inline runs; error transfer; size 0; forced WASM failure → JS twins.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LakeletError } from '../../src/errors.js';
import { useNodeCompressors } from '../../src/node/compressors-node.js';
import { nodeWorkerFactory } from '../../src/node/worker-pool-node.js';
import { deserializeLakeletError, serializeLakeletError } from '../../src/worker/error-transfer.js';
import { createWorkerPool, defaultWorkerCount, registerWorkerFactory, type WorkerPool } from '../../src/worker/pool.js';
import { POOL_INLINE_BELOW, resolveWriteOptions } from '../../src/engine/write/write-options.js';
import { expectCompactMatches, expectErrorTransfer, expectMergeMatches, expectPooledWritesMatch, expectTaggingMatches, mergeOnce, row, sampleTable, tagOneFile } from './worker-cases.js';

const root = join(import.meta.dirname, '../..');
let dir: string;
let workerUrl: URL;
const pools: WorkerPool[] = [];
const pool = (options: Parameters<typeof createWorkerPool>[0]) => {
  const p = createWorkerPool({ workerUrl, ...options });
  pools.push(p);
  return p;
};

beforeAll(async () => {
  // Node 20 cannot run the .ts worker entry: bundle it (what `npm run build` emits as dist/node/worker-entry-node.js).
  dir = mkdtempSync(join(tmpdir(), 'lakelet-worker-'));
  await build({
    input: join(root, 'src/node/worker-entry-node.ts'),
    platform: 'node',
    logLevel: 'silent',
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    output: { dir, format: 'esm', entryFileNames: 'worker-entry-node.mjs' },
  });
  workerUrl = pathToFileURL(join(dir, 'worker-entry-node.mjs'));
  // What importing 'lakelet/node' does.
  registerWorkerFactory(nodeWorkerFactory);
  useNodeCompressors();
}, 60_000);

afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  registerWorkerFactory(undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe('worker pool (Node worker_threads)', () => {
  it('sizes itself to the cores (at most 4) in Node with the built lakelet/node, large tasks only, and validates sizes', async () => {
    const cores = Math.min(availableParallelism(), 4);
    // The built module (what dist/node/ holds, with worker-entry-node.js beside it) sizes the default pool to the cores…
    await build({
      input: join(root, 'src/node/worker-pool-node.ts'),
      platform: 'node',
      logLevel: 'silent',
      resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
      output: { dir: join(dir, 'factory'), format: 'esm', entryFileNames: 'worker-pool-node.mjs' },
    });
    const built = (await import(pathToFileURL(join(dir, 'factory', 'worker-pool-node.mjs')).href)) as { nodeWorkerFactory: typeof nodeWorkerFactory };
    expect(built.nodeWorkerFactory.defaultSize?.()).toBe(cores);
    // …run from the TypeScript source (no built worker entry to start) there is no default pool: writes stay inline.
    expect(defaultWorkerCount()).toBe(0);
    expect(createWorkerPool({ size: 0 }).size).toBe(0);
    expect(() => createWorkerPool({ size: -1 })).toThrow(LakeletError);
    registerWorkerFactory({ ...nodeWorkerFactory, defaultSize: built.nodeWorkerFactory.defaultSize! });
    expect(defaultWorkerCount()).toBe(cores);
    expect(resolveWriteOptions({})).toMatchObject({ workers: cores, poolInlineBelow: POOL_INLINE_BELOW });
    expect(resolveWriteOptions({}).pool).toBeUndefined();
    registerWorkerFactory(undefined);
    expect(defaultWorkerCount()).toBe(0);
    registerWorkerFactory(nodeWorkerFactory);
    expect(() => resolveWriteOptions({ workers: 1.5 })).toThrow(/workers/);
  });

  it('loads the WASM kernels in workers (bytes from the Node factory)', async () => {
    const info = await pool({ size: 1 }).run('kernelsInfo', undefined);
    expect(info.kind).toBe('wasm');
  });

  it("a worker's first merge already runs on its WASM kernels (SNAPPY pages, bloom adds); kernels 'js' stays on JS", async () => {
    const first = await mergeOnce(pool({ size: 1 }));
    expect(first.kernels).toBe('wasm');
    expect((await mergeOnce(pool({ size: 1, kernels: 'js' }))).kernels).toBe('js');
  });

  it('tags like the inline path, for every file-based index', async () => {
    await expectTaggingMatches(pool({ size: 2 }));
  });

  it('merges and compacts file groups byte-identically to inline', async () => {
    const inline = pool({ size: 0 });
    expect(inline.size).toBe(0);
    await expectCompactMatches(pool({ size: 2 }), inline);
    await expectMergeMatches(pool({ size: 2 }), inline);
  });

  it('keeps LakeletError code, context and cause across the boundary', async () => {
    await expectErrorTransfer(pool({ size: 1 }));
    await expectErrorTransfer(pool({ size: 0 }));
  });

  it('serialises contexts that cannot be cloned', () => {
    const err = new LakeletError('INVALID_ARGUMENT', 'x: bad', { field: 'f', value: () => 1, offset: 3, big: 5n }, { cause: new LakeletError('NOT_FOUND', 'inner') });
    const back = deserializeLakeletError(structuredClone(serializeLakeletError(err)));
    expect(back).toBeInstanceOf(LakeletError);
    expect(back.code).toBe('INVALID_ARGUMENT');
    expect(back.context).toEqual({ field: 'f', value: '() => 1', offset: 3, big: 5n });
    expect(back.cause).toBeInstanceOf(LakeletError);
    expect((back.cause as LakeletError).code).toBe('NOT_FOUND');
  });

  it('runs the JS twins when WASM fails to load, with identical results', async () => {
    const table = await sampleTable();
    const wasm = pool({ size: 1 });
    const broken = pool({ size: 1, kernels: new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]).buffer });
    const forced = pool({ size: 1, kernels: 'js' });
    expect((await wasm.run('kernelsInfo', undefined)).kind).toBe('wasm');
    const info = await broken.run('kernelsInfo', undefined);
    expect(info.kind).toBe('js');
    expect(info.fallbackReason).toBeTruthy();
    expect((await forced.run('kernelsInfo', undefined)).kind).toBe('js');
    const a = await tagOneFile(wasm, table);
    const b = await tagOneFile(broken, table);
    const c = await tagOneFile(pool({ size: 0, kernels: 'js' }), table);
    expect(a.matched.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    await expectTaggingMatches(forced);
  });

  it('fails tasks with ABORTED once closed, and spreads tasks over workers', async () => {
    const p = createWorkerPool({ size: 2, workerUrl });
    const table = await sampleTable();
    const runs = await Promise.all(Array.from({ length: 6 }, () => tagOneFile(p, table)));
    for (const r of runs) expect(r).toEqual(runs[0]);
    await p.close();
    await expect(p.run('kernelsInfo', undefined)).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('tags a key repeated in one request at each of its places, in a worker as inline', async () => {
    const table = await sampleTable();
    const all = await tagOneFile(pool({ size: 0 }), table);
    const present = row(all.matched[0] as number * 2).id;
    const keys = [present, 'no-such-key', present, row(all.matched[1] as number * 2).id, present];
    const inline = await tagOneFile(pool({ size: 0 }), table, keys);
    expect(inline.matched).toEqual([0, 2, 3, 4]);
    expect(await tagOneFile(pool({ size: 1 }), table, keys)).toEqual(inline);
  });

  it('warm() starts every worker before the first task; a no-op with size 0 and once closed', async () => {
    let created = 0;
    const factory = { create: (url: URL | string | undefined) => (created++, nodeWorkerFactory.create(url ?? workerUrl)), defaultKernels: nodeWorkerFactory.defaultKernels! };
    const table = await sampleTable();
    const expected = await tagOneFile(pool({ size: 0 }), table);
    // Without warm(), one task starts one worker.
    const cold = pool({ size: 3, factory });
    expect(await tagOneFile(cold, table)).toEqual(expected);
    expect(created).toBe(1);
    // With it, all three start, and the task runs on one of them.
    created = 0;
    const warmed = pool({ size: 3, factory });
    warmed.warm();
    expect(await tagOneFile(warmed, table)).toEqual(expected);
    expect(created).toBe(3);
    warmed.warm(); // every worker started already
    expect(await tagOneFile(warmed, table)).toEqual(expected);
    expect(created).toBe(3);
    // Size 0 runs inline and starts nothing; a closed pool starts nothing.
    created = 0;
    const inline = pool({ size: 0, factory });
    inline.warm();
    expect(await tagOneFile(inline, table)).toEqual(expected);
    const closed = pool({ size: 2, factory });
    await closed.close();
    closed.warm();
    expect(created).toBe(0);
  });

  it('writes the same table with workers on (Table owns and closes its pool)', async () => {
    let started = 0;
    registerWorkerFactory({ create: (url) => (started++, nodeWorkerFactory.create(url ?? workerUrl)), defaultKernels: nodeWorkerFactory.defaultKernels! });
    try {
      await expectPooledWritesMatch(2);
      expect(started).toBeGreaterThan(0);
    } finally {
      registerWorkerFactory(nodeWorkerFactory);
    }
  });
});
