// replicate(source, target): first copy, catch-up copies only the new instants, reads and validation of the
// target equal the source's, on COW and MOR tables of versions 6 and 9 (with the metadata table).
import { describe, expect, test } from 'vitest';
import { LakeletError, memoryStorage, openTable, validateTable, type Storage } from '../../src/index.js';
import { failure } from '../helpers/expect-error.js';
import { engineContext } from '../../src/engine/context.js';
import { scheduleCompaction } from '../../src/engine/services/compaction.js';
import { runCompaction } from '../../src/engine/services/compaction-run.js';
import { replicate, type ReplicateResult } from '../../src/replication/replicate.js';
import { completedFiles, makeTable, QUIET, replicatedTree, row, snapshotRows, storeRows, treeDifferences, type Shape } from './replicate-helpers.js';

const SHAPES: Shape[] = [
  { type: 'COPY_ON_WRITE', version: 6 },
  { type: 'MERGE_ON_READ', version: 6 },
  { type: 'COPY_ON_WRITE', version: 9 },
  { type: 'MERGE_ON_READ', version: 9 },
];

describe.each(SHAPES)('replicate $type v$version', (shape) => {
  test('a first copy reads, validates and lists like the source', async () => {
    const source = memoryStorage();
    const table = await makeTable(source, shape);
    const target = memoryStorage();
    const result = await replicate(source, target);
    expect(result.published).toEqual(await completedFiles(source));
    expect(await completedFiles(target)).toEqual(await completedFiles(source));
    expect(await storeRows(target)).toEqual(await snapshotRows(table));
    const v = await validateTable(target);
    expect(v.problems).toEqual([]);
    if (shape.version === 9) expect(result.metadataPublished.length).toBeGreaterThan(0);
  });
});

/** Run `op` on the source and replicate after it into `stepwise`. */
async function everyStep(source: Storage, stepwise: Storage, ops: (() => Promise<unknown>)[]): Promise<ReplicateResult[]> {
  const results: ReplicateResult[] = [];
  for (const op of ops) {
    await op();
    results.push(await replicate(source, stepwise));
  }
  return results;
}

describe.each(SHAPES)('replicate $type v$version after writes and services', (shape) => {
  test('each run publishes only the new instants; both replicas end equal to the source, byte for byte', async () => {
    const source = memoryStorage();
    const table = await makeTable(source, shape);
    const stepwise = memoryStorage();
    const once = memoryStorage();
    await replicate(source, stepwise);
    await replicate(source, once);
    const before = await completedFiles(source);
    let savepointAt = '';
    let cleaned = 0;
    let archived = 0;
    const ops: (() => Promise<unknown>)[] = [
      () => table.upsert([row('a', 'x', 5, 50), row('e', 'y', 1, 5)], QUIET),
      () => table.delete(['c'], QUIET),
      async () => { savepointAt = (await table.savepoint()).instant; },
      () => table.upsert([row('f', 'z', 1, 6)], QUIET),
      () => table.restore(savepointAt),
      async () => (shape.type === 'MERGE_ON_READ' ? table.compact({ ...QUIET, force: true }) : undefined),
      () => table.upsert([row('g', 'x', 1, 7), row('b', 'x', 9, 90)], QUIET),
      () => table.upsert([row('h', 'y', 1, 8)], QUIET),
      async () => { cleaned = (await table.clean({ retainCommits: 1, heartbeatTimeoutMs: 0 }))?.filesDeleted ?? 0; },
      async () => { archived = (await table.archive({ keepMinCommits: 2, keepMaxCommits: 3 })).length; },
      () => table.upsert([row('i', 'z', 1, 9)], QUIET),
    ];
    const results = await everyStep(source, stepwise, ops);
    const all = await completedFiles(source);
    // The clean's and the archival's deletions reached the replica with the run after each.
    expect(cleaned).toBeGreaterThan(0);
    expect(archived).toBeGreaterThan(0);
    expect(results[8]?.filesDeleted).toBeGreaterThanOrEqual(cleaned);
    expect(results[9]?.filesDeleted).toBeGreaterThan(0);
    // Each run published exactly what appeared on the source's timeline since the previous one.
    expect(results.flatMap((r) => r.published).filter((f) => all.includes(f))).toEqual(all.filter((f) => !before.includes(f)));
    expect(results.some((r) => r.reverted.length > 0)).toBe(true); // the restore took back the write after the savepoint
    const last = await replicate(source, once);
    expect(last.published).toEqual(all.filter((f) => !before.includes(f)));
    const tree = await replicatedTree(source);
    expect(treeDifferences(tree, await replicatedTree(stepwise))).toEqual([]);
    expect(treeDifferences(tree, await replicatedTree(once))).toEqual([]);
    expect(await storeRows(once)).toEqual(await snapshotRows(await openTable(source)));
    expect((await validateTable(once)).problems).toEqual([]);
    // Nothing left to do: a third run copies, publishes and deletes nothing.
    const again = await replicate(source, once);
    expect({ published: again.published, metadata: again.metadataPublished, copied: again.filesCopied, deleted: again.filesDeleted }).toEqual({ published: [], metadata: [], copied: 0, deleted: 0 });
  });
});

describe('replicate: cancellation and options', () => {
  test('aborted midway (signal) → ABORTED, the target a readable prefix; the next run completes it', async () => {
    const source = memoryStorage();
    const table = await makeTable(source, { type: 'MERGE_ON_READ', version: 9 });
    await table.upsert([row('e', 'y', 1, 5)], QUIET);
    const target = memoryStorage();
    const controller = new AbortController();
    let seen = 0;
    const err = await replicate(source, target, { signal: controller.signal, onProgress: (p) => { if (p.phase === 'publish' && ++seen === 3) controller.abort(); } }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(LakeletError);
    expect((err as LakeletError).code).toBe('ABORTED');
    const done = await completedFiles(target);
    const all = await completedFiles(source);
    expect(done.length).toBeLessThan(all.length);
    expect(done).toEqual(all.slice(0, done.length));
    expect((await storeRows(target)).length).toBeGreaterThanOrEqual(0); // opens and reads
    await replicate(source, target);
    expect(treeDifferences(await replicatedTree(source), await replicatedTree(target))).toEqual([]);
  });

  test('a read-only target or another mode → UNSUPPORTED; a source without a table → INVALID_TABLE', async () => {
    const source = memoryStorage();
    await makeTable(source, { type: 'COPY_ON_WRITE', version: 6 });
    expect((await failure(replicate(source, memoryStorage({ readOnly: true })))).code).toBe('UNSUPPORTED');
    expect((await failure(replicate(source, memoryStorage(), { mode: 'sideways' as 'push' }))).code).toBe('UNSUPPORTED');
    expect((await failure(replicate(memoryStorage(), memoryStorage()))).code).toBe('INVALID_TABLE');
  });
});

describe('replicate: a pending compaction plan', () => {
  test.each([6, 9] as const)('v%i MOR: the plan goes before the writes after it, so log files on its slice read right', async (version) => {
    const source = memoryStorage();
    const table = await makeTable(source, { type: 'MERGE_ON_READ', version });
    await table.upsert([row('a', 'x', 2, 10)], QUIET);
    const planned = await scheduleCompaction(engineContext(source), { deltaCommits: 1, logBytes: undefined }, true);
    expect(planned).toBeDefined();
    await table.upsert([row('a', 'x', 3, 11), row('b', 'x', 3, 21)], QUIET);
    const target = memoryStorage();
    await replicate(source, target);
    const dir = version === 9 ? '.hoodie/timeline' : '.hoodie';
    expect((await target.list(dir)).map((f) => f.path)).toContain(`${dir}/${planned}.compaction.requested`);
    expect(await storeRows(target)).toEqual(await storeRows(source));
    await runCompaction(engineContext(source), planned!, { codec: 'UNCOMPRESSED', rowGroupRows: 1000, bloomFilter: { numEntries: 100 } });
    const after = await replicate(source, target);
    expect(after.published.some((f) => f.startsWith(planned!))).toBe(true);
    expect(treeDifferences(await replicatedTree(source), await replicatedTree(target))).toEqual([]);
    expect(await storeRows(target)).toEqual(await storeRows(source));
  });
});
