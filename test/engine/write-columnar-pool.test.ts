// Node's default worker pool (issue 13): with lakelet/node's factory registered and no `workers` option, a write
// gets a pool of the factory's default size whose large tasks (a file group of at least 1 MiB or 10,000 records)
// go to workers and small ones run inline; an explicit `workers` sends every task to a worker. Spied through the
// factory (workers started, tasks served), never timed; the merged bytes equal the inline merge's.
import { afterEach, describe, expect, it } from 'vitest';
import { createTable, memoryStorage } from '../../src/index.js';
import { mergeFileGroup } from '../../src/engine/write/merge-handle.js';
import { POOL_INLINE_BELOW, resolveWriteOptions } from '../../src/engine/write/write-options.js';
import { parseAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import type { HoodieRecord } from '../../src/merge/hoodie-record.js';
import type { MergeFileGroupSpec } from '../../src/merge/cow-merge.js';
import { createWorkerPool, defaultWorkerCount, registerWorkerFactory, taskSize, type WorkerFactory } from '../../src/worker/pool.js';
import { inProcessWorkers, type InProcessWorkers } from '../helpers/in-process-workers.js';
import { mergeSpecToWire } from '../../src/worker/record-wire.js';

let workers: InProcessWorkers | undefined;
afterEach(() => {
  registerWorkerFactory(undefined);
  workers?.close();
  workers = undefined;
});

/** lakelet/node's factory as the pool sees it (default size 2), its workers serving on this thread. */
function registerNodeLikeFactory(): InProcessWorkers {
  workers = inProcessWorkers('js');
  const factory: WorkerFactory = { ...workers.factory, defaultSize: () => 2 };
  registerWorkerFactory(factory);
  return workers;
}

const rows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ id: `k${from + i}`, ts: 1, p: 'a', v: `value-${from + i}` }));

describe("Node's default worker pool", () => {
  it('defaults to the factory size and the inline threshold only when `workers` is not given', () => {
    expect(defaultWorkerCount()).toBe(0);
    expect(resolveWriteOptions({}).poolInlineBelow).toBeUndefined();
    registerNodeLikeFactory();
    expect(defaultWorkerCount()).toBe(2);
    expect(resolveWriteOptions({})).toMatchObject({ workers: 2, poolInlineBelow: POOL_INLINE_BELOW });
    expect(resolveWriteOptions({ workers: 2 }).poolInlineBelow).toBeUndefined();
    expect(resolveWriteOptions({ workers: 0 }).poolInlineBelow).toBeUndefined();
  });

  it('a pool with inlineBelow runs small tasks inline (no worker started) and large ones on a worker', async () => {
    const w = inProcessWorkers('js');
    workers = w;
    const pool = createWorkerPool({ size: 2, factory: w.factory, inlineBelow: { bytes: 100, records: 10 } });
    const small = new ArrayBuffer(50);
    expect(taskSize({ updates: new Map([['a', 1]]), inserts: [1, 2] }, [small])).toEqual({ bytes: 50, records: 3 });
    const info = await pool.run('kernelsInfo', undefined);
    expect(info).toBeDefined();
    expect(w.log.started).toBe(0);
    const spec = mergeSpec(schema, [], insertRecords(20));
    await pool.run('mergeFileGroup', await mergeSpecToWire(spec));
    expect(w.log.started).toBe(1);
    await pool.close();
  });

  it('a large write with default options merges on the workers; a small one starts none', async () => {
    const w = registerNodeLikeFactory();
    const small = await createTable(memoryStorage(), { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'] });
    await small.upsert(rows(50));
    await small.upsert(rows(20));
    expect(w.log.started).toBe(0);
    const large = await createTable(memoryStorage(), { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], codec: 'UNCOMPRESSED' });
    await large.bulkInsert(rows(POOL_INLINE_BELOW.records));
    expect(w.log.started).toBeGreaterThan(0);
    let count = 0;
    for await (const _ of large.rows({ columns: ['id'] })) count++;
    expect(count).toBe(POOL_INLINE_BELOW.records);
    await small.close();
    await large.close();
  });

  it('the merge on a worker of the default pool writes the same bytes as inline', async () => {
    const w = registerNodeLikeFactory();
    const pool = createWorkerPool({ size: 2, inlineBelow: POOL_INLINE_BELOW });
    const storage = memoryStorage();
    const spec = mergeSpec(schema, [], insertRecords(POOL_INLINE_BELOW.records + 5));
    const inline = await mergeFileGroup(storage, spec, undefined, undefined);
    const pooled = await mergeFileGroup(storage, spec, undefined, pool);
    expect(w.log.started).toBe(1);
    expect(Buffer.from(pooled.bytes).equals(Buffer.from(inline.bytes))).toBe(true);
    expect({ ...pooled, bytes: undefined }).toEqual({ ...inline, bytes: undefined });
    await pool.close();
  });
});

const schema = parseAvroSchema({
  type: 'record', name: 't_record', namespace: 'hoodie.t', fields: [
    ...['_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name'].map((name) => ({ name, type: ['null', 'string'], default: null })),
    { name: 'id', type: 'string' }, { name: 'v', type: ['null', 'string'], default: null },
  ],
}) as AvroRecordSchema;

function insertRecords(n: number): HoodieRecord[] {
  return Array.from({ length: n }, (_, index) => ({ recordKey: `k${index}`, partitionPath: 'a', data: { id: `k${index}`, v: `v${index}` }, ordering: [], isDelete: false, index }));
}

function mergeSpec(s: AvroRecordSchema, updates: HoodieRecord[], inserts: HoodieRecord[]): MergeFileGroupSpec {
  return {
    instantTime: '20240101000000000', taskId: 0, partitionPath: 'a', fileName: 'f1_0-0-0_20240101000000000.parquet',
    updates: new Map(updates.map((r) => [r.recordKey, r])), inserts, schema: s, mergeMode: 'COMMIT_TIME_ORDERING',
    orderingFields: [], orderingKinds: [], writer: { codec: 'UNCOMPRESSED', bloomFilter: { numEntries: 100 } }, collectKeys: false,
  };
}
