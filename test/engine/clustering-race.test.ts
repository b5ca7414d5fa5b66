// Clustering racing writers and services (issue 19), deterministic: each actor has its own pausing wrapper over
// one store, and the clustering is held before its first new file is written (its plan requested, its run
// started). Meanwhile (a) an update of a planned group is refused (UNSUPPORTED, SparkRejectUpdateStrategy) and
// leaves nothing; (b) an insert lands on new groups and both writes' rows survive; (c) a writer that started
// before the plan (its heartbeat counted as expired) and commits to a planned group wins: the clustering fails
// with CONFLICT and changes nothing but its own pending instant — or, if the clustering completes first, the
// writer fails with CONFLICT; (d) a second cluster() from another Table finds nothing to do (the heartbeat);
// (e) a compaction of the same MOR table completes beside it.
import { describe, expect, test } from 'vitest';
import { engineContext } from '../../src/engine/context.js';
import { scheduleCompaction } from '../../src/engine/services/compaction.js';
import { fileGroupKey } from '../../src/file-group/file-slice.js';
import { openTable, validateTable, type Storage, type Table } from '../../src/index.js';
import { pausingStorage, type CallMatch } from '../helpers/pausing-storage.js';
import { row, smallFilesTable, snapshot } from './clustering-helpers.js';

const CLUSTER = { smallFileLimitBytes: 1 << 20 };
const VARIANTS = [['COPY_ON_WRITE', 6], ['MERGE_ON_READ', 9]] as const;

/** A write of a data file (base or log), not of the timeline, markers or heartbeats. */
const dataFileWrite: CallMatch = (c) => c.method === 'write' && !c.path.startsWith('.hoodie/') && (c.path.endsWith('.parquet') || c.path.includes('.log.'));

/** Every file of the store with its bytes (as text), except those `skip` names. */
async function files(storage: Storage, skip: (path: string) => boolean = () => false): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of await storage.list('', { recursive: true })) if (!skip(f.path)) out.set(f.path, Buffer.from(await storage.read(f.path)).toString('base64'));
  return out;
}

/** Instants that are not completed, as `time.action`. */
const pending = (table: Table): string[] => table.timeline.filter((i) => i.state !== 'COMPLETED').map((i) => `${i.requestedTime}.${i.action}`);

/** The file groups of the latest slices. */
async function groups(table: Table): Promise<Set<string>> {
  return new Set((await table.fileSlices()).map((s) => fileGroupKey(s.partitionPath, s.fileId)));
}

/** A cluster() on its own Table over a wrapper, held before its first new file; resolves once held. */
async function heldClustering(raw: Storage, options: Record<string, unknown> = CLUSTER) {
  const storage = pausingStorage(raw, 'clustering');
  const table = await openTable(storage);
  const hold = storage.pauseAt(dataFileWrite);
  const run = table.cluster(options);
  run.catch(() => undefined); // awaited by the test
  const reached = await hold.reached;
  const instant = /_(\d{17})\.parquet$/.exec(reached.path)?.[1];
  expect(instant, `clustering file ${reached.path}`).toBeDefined();
  return { storage, table, hold, run, instant: instant! };
}

describe('clustering beside writers', () => {
  for (const [type, version] of VARIANTS) {
    test(`${type} v${version} (a): an update of a planned group while the clustering runs is UNSUPPORTED and leaves nothing; the clustering completes`, async () => {
      const { storage: raw, table } = await smallFilesTable(type, version, 4, 2);
      const before = await snapshot(table);
      const c = await heldClustering(raw);
      const filesBefore = await files(raw, (p) => p.startsWith('.hoodie/.heartbeat/'));
      const writer = await openTable(raw);
      await expect(writer.upsert([{ ...row(3), ts: 2, s: 'x' }])).rejects.toMatchObject({ code: 'UNSUPPORTED', context: { instant: c.instant } });
      await expect(writer.delete([row(4).id as string])).rejects.toMatchObject({ code: 'UNSUPPORTED', context: { instant: c.instant } });
      expect(await files(raw, (p) => p.startsWith('.hoodie/.heartbeat/')), 'the refused writes left nothing').toEqual(filesBefore);
      c.hold.release();
      const result = await c.run;
      expect(result?.instant).toBe(c.instant);
      await table.refresh();
      expect(await snapshot(table)).toEqual(before);
      expect(pending(table)).toEqual([]);
      expect(await validateTable(raw)).toMatchObject({ ok: true, problems: [] });
    }, 120_000);

    test(`${type} v${version} (b): an insert while the clustering runs lands on a new group; then the clustering completes and both are in the snapshot`, async () => {
      const { storage: raw, table } = await smallFilesTable(type, version, 4, 2);
      const before = await snapshot(table);
      const planned = await groups(table);
      const c = await heldClustering(raw);
      // A generous small-file limit would fill a small file: not one under the plan.
      const inserted = await (await openTable(raw)).insert([row(100), row(101)], { smallFileLimit: 100 << 20 });
      c.hold.release();
      const result = await c.run;
      expect(result).toMatchObject({ instant: c.instant, fileGroupsReplaced: planned.size, recordsWritten: before.length });
      await table.refresh();
      const after = await snapshot(table);
      const added = after.filter((r) => r.includes('"k00100"') || r.includes('"k00101"'));
      expect(added).toHaveLength(2);
      for (const r of added) expect(r).toContain(inserted.instant);
      expect(after).toEqual([...before, ...added].sort());
      const live = await groups(table);
      for (const g of planned) expect(live.has(g), `planned group ${g} was replaced`).toBe(false);
      expect(pending(table)).toEqual([]);
      expect(await validateTable(raw)).toMatchObject({ ok: true, problems: [] });
    }, 120_000);

    test(`${type} v${version} (c): a writer that started before the plan commits to a planned group while the clustering runs — the clustering is CONFLICT and changes nothing but its own pending instant; a re-run keeps the write`, async () => {
      const { storage: raw, table } = await smallFilesTable(type, version, 4, 2);
      const writerStorage = pausingStorage(raw, 'writer');
      const writer = await openTable(writerStorage);
      const held = writerStorage.pauseAt(dataFileWrite);
      const write = writer.upsert([{ ...row(3), ts: 2, s: 'updated' }]);
      await held.reached;
      // The writer's heartbeat counts as expired (timeout 0): the plan is made beside it, its files left out.
      const c = await heldClustering(raw, { ...CLUSTER, heartbeatTimeoutMs: 0 });
      held.release();
      const committed = await write;
      const own = (p: string) => p.includes(c.instant) || p.startsWith('.hoodie/.heartbeat/') || p.startsWith('.hoodie/.temp/');
      const filesBefore = await files(raw, own);
      c.hold.release();
      await expect(c.run).rejects.toMatchObject({ code: 'CONFLICT', context: { instant: c.instant, value: committed.instant } });
      expect(await files(raw, own), 'the clustering changed nothing but its own instant').toEqual(filesBefore);
      expect((await raw.list('', { recursive: true })).map((f) => f.path).filter((p) => p.includes(`.temp/${c.instant}`)), 'its markers are gone').toEqual([]);
      await table.refresh();
      expect(pending(table).map((p) => p.split('.')[0])).toEqual([c.instant]); // the plan stays pending and re-runs
      const rows = await snapshot(table);
      expect(rows.filter((r) => r.includes('"updated"'))).toHaveLength(1);
      const result = await table.cluster({ ...CLUSTER, heartbeatTimeoutMs: 0 });
      expect(result?.instant).toBe(c.instant);
      expect(await snapshot(table)).toEqual(rows);
      expect(await validateTable(raw)).toMatchObject({ ok: true, problems: [] });
    }, 120_000);

    test(`${type} v${version} (c'): if the clustering completes first, the writer that started before the plan is CONFLICT and leaves nothing`, async () => {
      const { storage: raw, table } = await smallFilesTable(type, version, 4, 2);
      const before = await snapshot(table);
      const writerStorage = pausingStorage(raw, 'writer');
      const writer = await openTable(writerStorage);
      const held = writerStorage.pauseAt(dataFileWrite);
      const write = writer.upsert([{ ...row(3), ts: 2, s: 'updated' }]);
      write.catch(() => undefined);
      await held.reached;
      const result = await (await openTable(raw)).cluster({ ...CLUSTER, heartbeatTimeoutMs: 0 });
      expect(result).toBeDefined();
      held.release();
      await expect(write).rejects.toMatchObject({ code: 'CONFLICT', context: { value: result!.instant } });
      await table.refresh();
      expect(await snapshot(table)).toEqual(before);
      expect(pending(table)).toEqual([]);
      const stray = (await raw.list('', { recursive: true })).map((f) => f.path).filter((p) => p.startsWith('.hoodie/.temp/') || p.startsWith('.hoodie/.heartbeat/'));
      expect(stray, 'no markers or heartbeats left').toEqual([]);
      expect(await validateTable(raw)).toMatchObject({ ok: true, problems: [] });
    }, 120_000);
  }
});

describe('clustering beside table services', () => {
  for (const [type, version] of VARIANTS) {
    test(`${type} v${version} (d): a second cluster() from another Table while the first runs finds nothing to do; exactly one run completes the plan`, async () => {
      const { storage: raw, table } = await smallFilesTable(type, version, 4, 2);
      const before = await snapshot(table);
      const c = await heldClustering(raw);
      const second = pausingStorage(raw, 'second');
      let outcome: unknown;
      try {
        outcome = await (await openTable(second)).cluster(CLUSTER);
      } catch (err) {
        outcome = err;
      }
      // Nothing else to plan (every group is under the first plan), and the first plan's heartbeat is live.
      if (outcome !== undefined) expect(outcome).toMatchObject({ code: 'CONFLICT' });
      expect(second.calls.filter(dataFileWrite), 'the second runner wrote no file').toEqual([]);
      // (Its heartbeat create found the first runner's: a writeIfAbsent that wrote nothing.)
      expect(second.calls.filter((x) => x.path.includes(c.instant) && (x.method === 'write' || x.method === 'delete')), 'nor touched the first plan').toEqual([]);
      c.hold.release();
      expect((await c.run)?.instant).toBe(c.instant);
      await table.refresh();
      expect(table.commits.filter((i) => i.action === 'replacecommit').map((i) => i.requestedTime)).toEqual([c.instant]);
      expect(await snapshot(table)).toEqual(before);
      expect(await validateTable(raw)).toMatchObject({ ok: true, problems: [] });
    }, 120_000);
  }

  for (const version of [6, 9] as const) {
    test(`MERGE_ON_READ v${version} (e): a compaction of the same table completes while the clustering runs; the clustering leaves the compaction's group out and completes too`, async () => {
      const { storage: raw, table } = await smallFilesTable('MERGE_ON_READ', version, 4, 2);
      await table.upsert([{ ...row(0), ts: 2, s: 'logged' }], { compaction: { inline: false } }); // a log in row 0's group
      const compacted = (await table.fileSlices()).find((s) => s.logFiles.length > 0)!;
      const g = fileGroupKey(compacted.partitionPath, compacted.fileId);
      expect(await scheduleCompaction(engineContext(raw), { deltaCommits: 1, logBytes: undefined }, true)).toBeDefined();
      await table.refresh();
      const before = await snapshot(table);
      const all = await groups(table);
      const c = await heldClustering(raw);
      const compactions = await (await openTable(raw)).compact();
      expect(compactions).toHaveLength(1);
      c.hold.release();
      const result = await c.run;
      expect(result).toMatchObject({ instant: c.instant, fileGroupsReplaced: all.size - 1 });
      await table.refresh();
      expect(await snapshot(table)).toEqual(before);
      const live = await groups(table);
      expect(live.has(g), 'the compacted group stays').toBe(true);
      expect([...all].filter((x) => live.has(x))).toEqual([g]);
      expect(pending(table)).toEqual([]);
      expect(await validateTable(raw)).toMatchObject({ ok: true, problems: [] });
    }, 120_000);
  }
});
