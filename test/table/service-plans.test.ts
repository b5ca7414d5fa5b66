// The services' dry runs: `table.compactionPlan()` names exactly the slices the following `compact()` compacts
// (its plan files), `table.cleanPlan()` exactly the files the following `clean()` deletes (the store before and
// after), on merge-on-read tables of versions 6 and 9; neither changes a byte of the store; a compaction already
// planned is reported as pending with its instant.
import { describe, expect, test } from 'vitest';
import { createTable, isLakeletError, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { engineContext } from '../../src/engine/context.js';
import { scheduleCompaction } from '../../src/engine/services/compaction.js';
import { instantFilePath, partitionFilePath } from '../../src/layout.js';
import { parseCompactionPlan } from '../../src/timeline/compaction-plan.js';
import { expectTreeUnchanged, treeSnapshot } from '../helpers/tree-snapshot.js';

const SERVICES_OFF = { bloomFilter: { numEntries: 100 }, compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false } };

async function morTable(version: 6 | 9, type: 'MERGE_ON_READ' | 'COPY_ON_WRITE' = 'MERGE_ON_READ'): Promise<{ storage: Storage; table: Table }> {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 'plans', type, tableVersion: version, recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], ...SERVICES_OFF });
  return { storage, table };
}

/** A slice as `partition|fileId|baseInstant|base|log,log` (base and logs as paths from the table root). */
type SliceKey = string;
const key = (s: { partitionPath: string; fileId: string; baseInstantTime: string; baseFile: string | undefined; logFiles: readonly string[] }): SliceKey =>
  [s.partitionPath, s.fileId, s.baseInstantTime, s.baseFile ?? '-', s.logFiles.join(',')].join('|');

/** The slices the compaction `instant` compacted, read from its plan file. */
async function compactedSlices(table: Table, instant: string): Promise<SliceKey[]> {
  const path = instantFilePath(table.config, instant, 'compaction', 'REQUESTED');
  return parseCompactionPlan(await table.storage.read(path), path).operations.map((op) => key({
    partitionPath: op.partitionPath, fileId: op.fileId, baseInstantTime: op.baseInstantTime,
    baseFile: op.dataFilePath === undefined ? undefined : partitionFilePath(op.partitionPath, op.dataFilePath),
    logFiles: op.deltaFilePaths.map((n) => partitionFilePath(op.partitionPath, n)),
  })).sort();
}

/** Data files (outside .hoodie) of the store. */
async function dataFiles(storage: Storage): Promise<Set<string>> {
  return new Set((await storage.list('', { recursive: true })).map((f) => f.path).filter((p) => !p.startsWith('.hoodie/')));
}

describe.each([6, 9] as const)('service dry runs, merge-on-read v%i', (version) => {
  test('compactionPlan(): exactly the slices the following compact() compacts; the store is unchanged', async () => {
    const { storage, table } = await morTable(version);
    await table.upsert([{ id: 'a', ts: 1, p: 'x', v: 1 }, { id: 'b', ts: 1, p: 'x', v: 1 }, { id: 'c', ts: 1, p: 'y', v: 1 }, { id: 'd', ts: 1, p: 'z', v: 1 }]);
    await table.upsert([{ id: 'a', ts: 2, p: 'x', v: 2 }, { id: 'c', ts: 2, p: 'y', v: 2 }]);
    await table.upsert([{ id: 'b', ts: 3, p: 'x', v: 3 }]);
    const before = await treeSnapshot(storage);
    const plan = await table.compactionPlan();
    await expectTreeUnchanged(storage, before);
    expect(plan.pendingWrites).toEqual([]);
    expect(plan.slices.every((s) => !s.pending && s.instant === undefined)).toBe(true);
    // x and y have logs, z has only its base file: the plan merges x's and y's slices.
    expect(plan.slices.map((s) => s.partitionPath).sort()).toEqual(['p=x', 'p=y']);
    expect(plan.slices.find((s) => s.partitionPath === 'p=x')?.logFiles).toHaveLength(2);
    // Every planned file is one of the latest slices' files.
    const live = new Set((await table.fileSlices()).flatMap((s) => [s.baseFile?.path, ...s.logFiles.map((l) => l.path)]));
    for (const s of plan.slices) for (const f of [s.baseFile, ...s.logFiles]) expect(live.has(f)).toBe(true);

    const results = await table.compact();
    expect(results).toHaveLength(1);
    expect(results[0]!.fileGroups).toBe(plan.slices.length);
    expect(await compactedSlices(table, results[0]!.instant)).toEqual(plan.slices.map(key).sort());
    // Nothing is left to compact: the next plan is empty.
    expect((await table.compactionPlan()).slices).toEqual([]);
  });

  test('compactionPlan(): a pending plan is reported as pending with its instant, next to the plan compact() would add', async () => {
    const { storage, table } = await morTable(version);
    await table.upsert([{ id: 'a', ts: 1, p: 'x', v: 1 }, { id: 'c', ts: 1, p: 'y', v: 1 }]);
    await table.upsert([{ id: 'a', ts: 2, p: 'x', v: 2 }]);
    const planned = await scheduleCompaction(engineContext(storage), { deltaCommits: 1, logBytes: undefined }, true);
    expect(planned).toBeDefined();
    // After the plan: y gets logs (a group outside the plan), x a log on top of the plan (its group is pending).
    await table.upsert([{ id: 'c', ts: 2, p: 'y', v: 2 }, { id: 'a', ts: 3, p: 'x', v: 3 }]);
    const before = await treeSnapshot(storage);
    const plan = await table.compactionPlan();
    await expectTreeUnchanged(storage, before);
    expect(plan.slices.map((s) => [s.partitionPath, s.pending, s.instant])).toEqual([['p=x', true, planned], ['p=y', false, undefined]]);
    // The trigger decides without force: one deltacommit since the last compaction is below 5 → no new plan.
    expect((await table.compactionPlan({ force: false })).slices.map((s) => s.partitionPath)).toEqual(['p=x']);
    expect((await table.compactionPlan({ force: false, compaction: { deltaCommits: 1 } })).slices.map((s) => s.partitionPath)).toEqual(['p=x', 'p=y']);

    const results = await table.compact();
    expect(results.map((r) => r.instant)[0]).toBe(planned);
    expect(results).toHaveLength(2);
    expect(await compactedSlices(table, planned!)).toEqual(plan.slices.filter((s) => s.pending).map(key));
    expect(await compactedSlices(table, results[1]!.instant)).toEqual(plan.slices.filter((s) => !s.pending).map(key));
  });

  test('cleanPlan(): exactly the files the following clean() deletes; the store is unchanged', async () => {
    const { storage, table } = await morTable(version);
    await table.upsert([{ id: 'a', ts: 1, p: 'x', v: 1 }, { id: 'c', ts: 1, p: 'y', v: 1 }]);
    for (let round = 2; round <= 4; round++) {
      await table.upsert([{ id: 'a', ts: round, p: 'x', v: round }, { id: 'c', ts: round, p: 'y', v: round }]);
      await table.compact();
    }
    await table.upsert([{ id: 'a', ts: 9, p: 'x', v: 9 }]);
    const options = { retainCommits: 2 };
    const before = await treeSnapshot(storage);
    const plan = await table.cleanPlan(options);
    await expectTreeUnchanged(storage, before);
    expect(plan.policy).toBe('KEEP_LATEST_COMMITS');
    expect(plan.pendingInstants).toEqual([]);
    expect(plan.fileCount).toBeGreaterThan(0);
    expect(Object.keys(plan.filesToDelete)).toEqual(['p=x', 'p=y']);
    const planned = Object.values(plan.filesToDelete).flat().sort();
    expect(planned).toHaveLength(plan.fileCount);

    const files = await dataFiles(storage);
    const result = await table.clean(options);
    const after = await dataFiles(storage);
    expect(result?.filesDeleted).toBe(plan.fileCount);
    expect(result?.earliestInstantToRetain).toBe(plan.earliestInstantToRetain);
    expect([...files].filter((f) => !after.has(f)).sort()).toEqual(planned);
    // Nothing is left to clean under the same policy.
    expect((await table.cleanPlan(options)).fileCount).toBe(0);
  });

  test('cleanPlan(): an interrupted clean is reported pending and its files counted; clean() finishes it and deletes exactly them', async () => {
    const { storage, table } = await morTable(version);
    await table.upsert([{ id: 'a', ts: 1, p: 'x', v: 1 }]);
    for (let round = 2; round <= 3; round++) {
      await table.upsert([{ id: 'a', ts: round, p: 'x', v: round }]);
      await table.compact();
    }
    // A clean that fails at its first data-file delete: planned (requested, inflight), nothing deleted.
    const failing = new Proxy(storage, {
      get(target, prop) {
        if (prop === 'delete') return async (path: string) => { if (!path.startsWith('.hoodie/')) throw new Error('injected delete failure'); return target.delete(path); };
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const crashed = await (await openTable(failing)).clean({ retainCommits: 1 }).then(() => undefined, (e: unknown) => e);
    expect((crashed as Error).message).toContain('injected');
    const reopened = await openTable(storage);
    const interrupted = reopened.timeline.filter((i) => i.action === 'clean' && i.state !== 'COMPLETED').map((i) => i.requestedTime);
    expect(interrupted).toHaveLength(1);
    const before = await treeSnapshot(storage);
    const plan = await reopened.cleanPlan({ retainCommits: 1 });
    await expectTreeUnchanged(storage, before);
    expect(plan.pendingInstants).toEqual(interrupted);
    expect(plan.fileCount).toBeGreaterThan(0);
    const files = await dataFiles(storage);
    await reopened.clean({ retainCommits: 1 });
    const after = await dataFiles(storage);
    expect([...files].filter((f) => !after.has(f)).sort()).toEqual(Object.values(plan.filesToDelete).flat().sort());
  });

  test('cleanPlan(): the table\'s clean defaults apply, options override them', async () => {
    const storage = memoryStorage();
    const table = await createTable(storage, {
      name: 'plans', type: 'MERGE_ON_READ', tableVersion: version, recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], ...SERVICES_OFF,
      clean: { automatic: false, policy: 'KEEP_LATEST_FILE_VERSIONS', retainFileVersions: 1 },
    });
    await table.upsert([{ id: 'a', ts: 1, p: 'x', v: 1 }]);
    await table.upsert([{ id: 'a', ts: 2, p: 'x', v: 2 }]);
    await table.compact();
    const byDefault = await table.cleanPlan();
    expect(byDefault.policy).toBe('KEEP_LATEST_FILE_VERSIONS');
    expect(byDefault.fileCount).toBe(2); // the first slice: its base file and log
    expect((await table.cleanPlan({ retainFileVersions: 2 })).fileCount).toBe(0);
    const files = await dataFiles(storage);
    expect((await table.clean())?.filesDeleted).toBe(2);
    const after = await dataFiles(storage);
    expect([...files].filter((f) => !after.has(f)).sort()).toEqual(byDefault.filesToDelete['p=x']);
  });
});

test('compactionPlan() on a copy-on-write table is UNSUPPORTED, as compact() is', async () => {
  const { table } = await morTable(6, 'COPY_ON_WRITE');
  await table.upsert([{ id: 'a', ts: 1, p: 'x', v: 1 }]);
  const err = await table.compactionPlan().catch((e: unknown) => e);
  expect(isLakeletError(err, 'UNSUPPORTED')).toBe(true);
  expect(isLakeletError(await table.compact().catch((e: unknown) => e), 'UNSUPPORTED')).toBe(true);
});
