// Compaction through the worker pool: with a pool, each planned slice is merged and encoded by a compactFileSlice
// task on it (it gets the base and log bytes, not merged rows), and the table reads the same and holds the same
// bytes as after an inline run.
import { describe, expect, test } from 'vitest';
import { engineContext } from '../../src/engine/context.js';
import { scheduleCompaction, type CompactionRunOptions } from '../../src/engine/services/compaction.js';
import { runCompaction } from '../../src/engine/services/compaction-run.js';
import { createTable, memoryStorage, openTable, type Storage } from '../../src/index.js';
import type { WorkerPool } from '../../src/worker/pool.js';
import type { CompactFileSliceRequest, WorkerApi, WorkerMethod } from '../../src/worker/worker-api.js';
import { createWorkerApi } from '../../src/worker/worker-impl.js';

/** A pool of size 2 that runs every task on one in-process WorkerApi, structured-cloning requests as a worker would. */
function countingPool(): { pool: WorkerPool; tasks: WorkerMethod[]; requests: unknown[] } {
  const api = createWorkerApi({ kernels: 'js' });
  const tasks: WorkerMethod[] = [];
  const requests: unknown[] = [];
  const pool: WorkerPool = {
    size: 2,
    warm() {},
    async run(method, request) {
      tasks.push(method);
      requests.push(request);
      const call = api[method] as (r: unknown) => ReturnType<WorkerApi[typeof method]>;
      return call(structuredClone(request)) as never;
    },
    async close() {},
  };
  return { pool, tasks, requests };
}

async function copyOf(storage: Storage): Promise<Storage> {
  const copy = memoryStorage();
  for (const f of await storage.list('', { recursive: true })) await copy.write(f.path, await storage.read(f.path));
  return copy;
}

async function contents(storage: Storage): Promise<string[]> {
  const table = await openTable(storage);
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['_hoodie_commit_time', '_hoodie_commit_seqno', 'id', 'v', 'at'] })) out.push(JSON.stringify(r, (_k, x) => (typeof x === 'bigint' ? String(x) : x)));
  return out.sort();
}

describe('compaction with a worker pool', () => {
  test('runs one compactFileSlice task per planned slice, given the base and log bytes; the table reads and stores the same as inline', async () => {
    const storage = memoryStorage();
    const table = await createTable(storage, { name: 'm', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], bloomFilter: { numEntries: 100 } });
    const at = (us: bigint) => new Date(Number(us / 1000n));
    await table.upsert([{ id: 'a', ts: 1, p: 'x', v: 'a1', at: at(1_700_000_000_000_001n) }, { id: 'b', ts: 1, p: 'x', v: 'b1', at: at(1_700_000_000_000_000n) }, { id: 'c', ts: 1, p: 'y', v: 'c1', at: at(1_700_000_000_000_000n) }]);
    await table.upsert([{ id: 'a', ts: 2, p: 'x', v: 'a2', at: at(1_700_000_000_000_000n) }, { id: 'c', ts: 0, p: 'y', v: 'c-old', at: at(1_700_000_000_000_000n) }]);
    await table.delete(['b']);
    await table.upsert([{ id: 'd', ts: 1, p: 'y', v: 'd1', at: at(1_700_000_000_000_000n) }, { id: 'c', ts: 3, p: 'y', v: 'c3', at: at(1_700_000_000_000_000n) }]);
    const before = await contents(storage);
    const instant = await scheduleCompaction(engineContext(storage), { deltaCommits: 1, logBytes: undefined }, true);
    expect(instant).toBeDefined();
    const inlineStorage = await copyOf(storage);
    const run: CompactionRunOptions = { codec: 'UNCOMPRESSED', rowGroupRows: 2, bloomFilter: { numEntries: 100 } };

    const { pool, tasks, requests } = countingPool();
    const logBytes = new Map<string, number>();
    for (const f of await storage.list('', { recursive: true })) if (f.path.includes('.log.')) logBytes.set(f.path, f.size);
    const pooled = await runCompaction(engineContext(storage), instant as string, { ...run, pool });
    expect(pooled.fileGroups).toBe(2);
    expect(tasks).toEqual(['compactFileSlice', 'compactFileSlice']);
    // The merge runs in the worker: it gets every log's bytes (and the base file's), never merged rows.
    const sent = requests as CompactFileSliceRequest[];
    expect(sent.map((r) => r.mergedRows)).toEqual([undefined, undefined]);
    const seen = sent.flatMap((r) => r.logs.map((l) => [l.path, l.bytes.byteLength] as const));
    expect(new Map(seen)).toEqual(logBytes);
    expect(seen.length).toBe(pooled.logFilesCompacted);
    expect(sent.filter((r) => r.base && r.base.byteLength > 0)).toHaveLength(2);
    expect(await contents(storage)).toEqual(before);

    const inline = await runCompaction(engineContext(inlineStorage), instant as string, run);
    expect(inline).toEqual(pooled);
    // Same new base files, byte for byte.
    const baseFiles = async (s: Storage) => (await s.list('', { recursive: true })).filter((f) => f.path.endsWith('.parquet') && f.path.includes(instant as string)).map((f) => f.path);
    const names = await baseFiles(storage);
    expect(names).toHaveLength(2);
    expect(await baseFiles(inlineStorage)).toEqual(names);
    for (const p of names) expect(await inlineStorage.read(p)).toEqual(await storage.read(p));
  });
});
