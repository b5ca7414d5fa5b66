// Hudi's own Avro schemas as the oracle for the timeline files lakelet writes (test-audit finding #7): clean,
// savepoint, restore, rollback, compaction plan and archive files made through the public API on a memory table
// have the vendored writer schema (test/fixtures/hudi-avsc/, compared structurally), decode with an
// independent decoder driven by that schema, and hold the paths, instants and counts of what happened.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, type Storage } from '../../src/index.js';
import { scanLogBlocks } from '../../src/format/log/block.js';
import { zipEntry } from '../helpers/zip-entry.js';
import { fixtureStorage } from '../helpers/fixtures.js';
import { expectedSchema, findRecord, hudiTypes, NS, type Rec } from './hudi-avsc-deltas.js';
import { type Canon, type CanonField, canonical, decodeAll, namedTypes, parseAvsc, readContainer, schemaDiff } from './hudi-avsc-oracle.js';

/** The embedded schema of `bytes` checked against Hudi's `root`, then every record decoded with the expected one. */
function decodeTimelineFile(bytes: Uint8Array, root: string, holes: string[] = []): Record<string, unknown>[] {
  const { meta, blocks } = readContainer(bytes);
  expect(meta['avro.codec'] ?? 'null').toBe('null');
  const actual = canonical(parseAvsc(meta['avro.schema'] as string), namedTypes([parseAvsc(meta['avro.schema'] as string)]));
  const { schema, filled } = expectedSchema(root, actual);
  expect(filled).toEqual(holes);
  expect(schemaDiff(schema, actual)).toEqual([]);
  return blocks.flatMap((b) => decodeAll(schema, b.data, b.count)) as Record<string, unknown>[];
}

/** The compaction plan fields lakelet writes that the vendored HoodieCompactionPlan predates (see DELTAS). */
const COMPACTION_TRAILING = ['strategy', 'preserveHoodieMetadata', 'missingSchedulePartitions'].map((f) => `${NS}.HoodieCompactionPlan.${f} (lakelet's type)`);

const SCHEMA = {
  type: 'record', name: 'row', namespace: 'avsc',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }],
};
const PARTITIONS = ['part=even', 'part=odd'];
const row = (id: number, ts: number) => ({ id: `k${id}`, part: id % 2 === 0 ? 'even' : 'odd', ts, v: ts * 10 });

interface Scenario {
  storage: Storage;
  /** Timeline file name → bytes, as each was right after the operation that wrote it. */
  files: Map<string, Uint8Array>;
  /** Data files present just before the clean. */
  beforeClean: Set<string>;
  cleanInstant: string;
  savepoint: string;
  restore: { instant: string; rolledBack: string[] };
  rollback: { instant: string; rolledBack: string };
  compaction: string;
  /** File slices (partition/fileId → base instant, log names) the compaction planned from. */
  slicesBeforeCompaction: Map<string, { baseInstant: string; logs: string[] }>;
  archived: { requestedTime: string; action: string; state: string }[];
}

async function snapshot(storage: Storage, into: Map<string, Uint8Array>): Promise<void> {
  for (const f of await storage.list('.hoodie')) if (!f.path.slice('.hoodie/'.length).includes('/') && !into.has(f.path)) into.set(f.path, await storage.read(f.path));
}

async function dataFiles(storage: Storage): Promise<Set<string>> {
  const out = new Set<string>();
  for (const part of PARTITIONS) for (const f of await storage.list(part)) if (!f.path.includes('.hoodie_partition_metadata')) out.add(f.path);
  return out;
}

/** One MOR table through compaction, clean, savepoint, restore, rollback and archive, keeping every timeline file. */
async function runScenario(): Promise<Scenario> {
  const storage = memoryStorage();
  const files = new Map<string, Uint8Array>();
  const table = await createTable(storage, {
    name: 'avsc', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA,
    bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false },
  });
  await table.insert([row(1, 1), row(2, 1), row(3, 1)]);
  await table.upsert([row(1, 2), row(2, 2)]);
  await table.upsert([row(3, 3)]);
  const slicesBeforeCompaction = new Map<string, { baseInstant: string; logs: string[] }>();
  for (const s of await table.fileSlices()) slicesBeforeCompaction.set(`${s.partitionPath}/${s.fileId}`, { baseInstant: s.baseInstantTime, logs: s.logFiles.map((l) => l.name) });
  const [compacted] = await table.compact();
  await snapshot(storage, files);
  await table.upsert([row(1, 4), row(4, 4)]);
  await table.compact();
  const beforeClean = await dataFiles(storage);
  const cleaned = await table.clean({ policy: 'KEEP_LATEST_FILE_VERSIONS', retainFileVersions: 1 });
  await snapshot(storage, files);
  await table.upsert([row(2, 5)]);
  const sp = await table.savepoint({ user: 'avsc-test', comments: 'oracle' });
  await snapshot(storage, files);
  await table.upsert([row(5, 6)]);
  await table.upsert([row(6, 7)]);
  const restored = await table.restore(sp.instant);
  await snapshot(storage, files);
  await table.upsert([row(7, 8)]);
  const rolled = await table.rollback();
  await snapshot(storage, files);
  await table.deleteSavepoint(sp.instant);
  const archivedInstants = await table.archive({ keepMinCommits: 2, keepMaxCommits: 3 });
  return {
    storage, files, beforeClean,
    cleanInstant: (cleaned as { instant: string }).instant,
    savepoint: sp.instant,
    restore: { instant: restored.instant, rolledBack: restored.rolledBack.map((i) => i.commitTime) },
    rollback: { instant: rolled.instant, rolledBack: rolled.rolledBack },
    compaction: (compacted as { instant: string }).instant,
    slicesBeforeCompaction,
    archived: archivedInstants.map((i) => ({ requestedTime: i.requestedTime, action: i.action, state: i.state })),
  };
}

const scenario = runScenario();
const file = async (name: string): Promise<Uint8Array> => {
  const bytes = (await scenario).files.get(`.hoodie/${name}`);
  if (bytes === undefined) throw new Error(`lakelet wrote no .hoodie/${name}: ${[...(await scenario).files.keys()].join(', ')}`);
  return bytes;
};

describe('the comparison catches schema drift', () => {
  const partitionMeta = canonical(hudiTypes.get(`${NS}.HoodieCleanPartitionMetadata`)?.json, hudiTypes);
  const mutate = (f: (fields: CanonField[]) => CanonField[]): Canon => ({ ...(partitionMeta as Rec), fields: f([...(partitionMeta as Rec).fields]) });
  test.each([
    ['a renamed field', (fs: CanonField[]) => fs.map((f, i) => (i === 1 ? { ...f, name: 'polcy' } : f))],
    ['a dropped field', (fs: CanonField[]) => fs.filter((f) => f.name !== 'policy')],
    ['reordered fields', (fs: CanonField[]) => [fs[1], fs[0], ...fs.slice(2)] as CanonField[]],
    ['a retyped field', (fs: CanonField[]) => fs.map((f) => (f.name === 'policy' ? { ...f, type: 'bytes' } : f))],
    ['a changed default', (fs: CanonField[]) => fs.map((f) => (f.name === 'isPartitionDeleted' ? { ...f, default: false } : f))],
    ['an added field', (fs: CanonField[]) => [...fs, { name: 'extra', type: 'int', hasDefault: false }]],
  ])('%s', (_what, f) => {
    expect(schemaDiff(partitionMeta, partitionMeta)).toEqual([]);
    expect(schemaDiff(partitionMeta, mutate(f)).length).toBeGreaterThan(0);
  });
});

describe('the deltas are what Hudi-written files say', () => {
  test('the Spark v6 rollback fixture writes logFilesFromFailedCommit after rollbackLogFiles', () => {
    const bytes = zipEntry('sample_table/mor/parquet/v6_nonpartitioned_rollback.zip', '.hoodie/20250126040936578.rollback');
    const schema = parseAvsc(readContainer(bytes).meta['avro.schema'] as string);
    const part = findRecord(canonical(schema, namedTypes([schema])), `${NS}.HoodieRollbackPartitionMetadata`);
    expect(part?.fields.map((f) => f.name)).toEqual(['partitionPath', 'successDeleteFiles', 'failedDeleteFiles', 'rollbackLogFiles', 'logFilesFromFailedCommit']);
  });
  test('the Hudi-written compaction plan ends with strategy, preserveHoodieMetadata, missingSchedulePartitions', async () => {
    const storage = await fixtureStorage('quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip');
    const schema = parseAvsc(readContainer(await storage.read('.hoodie/timeline/20251220210129235.compaction.requested')).meta['avro.schema'] as string);
    const plan = findRecord(canonical(schema, namedTypes([schema])), `${NS}.HoodieCompactionPlan`);
    expect(plan?.fields.map((f) => f.name)).toEqual(['operations', 'extraMetadata', 'version', 'strategy', 'preserveHoodieMetadata', 'missingSchedulePartitions']);
  });
});

describe('timeline files lakelet writes, decoded with Hudi schemas', () => {
  test('compaction plan (.compaction.requested): HoodieCompactionPlan naming the slices it merges', async () => {
    const s = await scenario;
    const records = decodeTimelineFile(await file(`${s.compaction}.compaction.requested`), 'HoodieCompactionPlan', COMPACTION_TRAILING);
    expect(records).toHaveLength(1);
    const ops = (records[0] as { operations: Record<string, unknown>[] }).operations;
    const withLogs = [...s.slicesBeforeCompaction].filter(([, v]) => v.logs.length > 0);
    expect(withLogs.length).toBeGreaterThan(0);
    expect(ops).toHaveLength(withLogs.length);
    for (const op of ops) {
      const slice = s.slicesBeforeCompaction.get(`${op.partitionPath as string}/${op.fileId as string}`);
      expect(slice, JSON.stringify(op)).toBeDefined();
      expect(op.baseInstantTime).toBe(slice?.baseInstant);
      expect(op.deltaFilePaths).toEqual(slice?.logs);
      expect((op.metrics as Record<string, number>).TOTAL_LOG_FILES).toBe(slice?.logs.length);
    }
  });

  test('clean plan (.clean.requested and .clean.inflight): HoodieCleanerPlan listing the files the clean deleted', async () => {
    const s = await scenario;
    for (const name of [`${s.cleanInstant}.clean.requested`, `${s.cleanInstant}.clean.inflight`]) {
      const records = decodeTimelineFile(await file(name), 'HoodieCleanerPlan');
      expect(records).toHaveLength(1);
      const plan = records[0] as { policy: string; version: number; filePathsToBeDeletedPerPartition: Record<string, { filePath: string }[]> };
      expect(plan.policy).toBe('KEEP_LATEST_FILE_VERSIONS');
      expect(plan.version).toBe(2);
      const planned = Object.entries(plan.filePathsToBeDeletedPerPartition).flatMap(([p, fs]) => fs.map((f) => ({ p, path: f.filePath })));
      expect(planned.length).toBeGreaterThan(0);
      for (const { p, path } of planned) {
        const rel = path.slice(path.indexOf(`${p}/`));
        expect(s.beforeClean.has(rel), `${path} existed before the clean`).toBe(true);
        expect(await s.storage.head(rel).then(() => true, () => false), `${rel} is gone`).toBe(false);
      }
    }
  });

  test('clean metadata (.clean): HoodieCleanMetadata whose counts add up', async () => {
    const s = await scenario;
    const records = decodeTimelineFile(await file(`${s.cleanInstant}.clean`), 'HoodieCleanMetadata');
    const meta = records[0] as { startCleanTime: string; totalFilesDeleted: number; partitionMetadata: Record<string, { partitionPath: string; policy: string; successDeleteFiles: string[]; failedDeleteFiles: string[] }> };
    expect(meta.startCleanTime).toBe(s.cleanInstant);
    const parts = Object.entries(meta.partitionMetadata);
    expect(parts.length).toBeGreaterThan(0);
    let deleted = 0;
    for (const [key, pm] of parts) {
      expect(pm.partitionPath).toBe(key);
      expect(pm.policy).toBe('KEEP_LATEST_FILE_VERSIONS');
      expect(pm.failedDeleteFiles).toEqual([]);
      for (const f of pm.successDeleteFiles) expect(s.beforeClean.has(`${key}/${f.slice(f.lastIndexOf('/') + 1)}`), f).toBe(true);
      deleted += pm.successDeleteFiles.length;
    }
    expect(meta.totalFilesDeleted).toBe(deleted);
    expect(deleted).toBeGreaterThan(0);
  });

  test('savepoint (.savepoint): HoodieSavepointMetadata naming files that exist', async () => {
    const s = await scenario;
    const records = decodeTimelineFile(await file(`${s.savepoint}.savepoint`), 'HoodieSavepointMetadata');
    const meta = records[0] as { savepointedBy: string; comments: string; savepointedAt: number; version: number; partitionMetadata: Record<string, { partitionPath: string; savepointDataFile: string[] }> };
    expect([meta.savepointedBy, meta.comments, meta.version]).toEqual(['avsc-test', 'oracle', 1]);
    expect(meta.savepointedAt).toBeGreaterThan(Date.UTC(2020, 0, 1));
    expect(Object.keys(meta.partitionMetadata).sort()).toEqual(PARTITIONS);
    for (const [key, pm] of Object.entries(meta.partitionMetadata)) {
      expect(pm.partitionPath).toBe(key);
      expect(pm.savepointDataFile.length).toBeGreaterThan(0);
      for (const name of pm.savepointDataFile) expect(await s.storage.head(`${key}/${name}`).then(() => true, () => false), `${key}/${name}`).toBe(true);
    }
  });

  test('restore plan and metadata (.restore.requested, .restore): the instants after the savepoint', async () => {
    const s = await scenario;
    const [plan] = decodeTimelineFile(await file(`${s.restore.instant}.restore.requested`), 'HoodieRestorePlan');
    expect(plan).toEqual({ instantsToRollback: s.restore.rolledBack.map((t) => ({ commitTime: t, action: 'deltacommit' })), version: 2, savepointToRestoreTimestamp: s.savepoint });
    expect(s.restore.rolledBack).toHaveLength(2);
    const [meta] = decodeTimelineFile(await file(`${s.restore.instant}.restore`), 'HoodieRestoreMetadata');
    const m = meta as { startRestoreTime: string; instantsToRollback: string[]; hoodieRestoreMetadata: Record<string, { commitsRollback: string[] }[]>; restoreInstantInfo: unknown[] };
    expect(m.startRestoreTime).toBe(s.restore.instant);
    expect(m.instantsToRollback).toEqual(s.restore.rolledBack);
    expect(Object.keys(m.hoodieRestoreMetadata).sort()).toEqual([...s.restore.rolledBack].sort());
    for (const [t, list] of Object.entries(m.hoodieRestoreMetadata)) expect(list.map((r) => r.commitsRollback)).toEqual([[t]]);
    expect(m.restoreInstantInfo).toEqual(s.restore.rolledBack.map((t) => ({ commitTime: t, action: 'deltacommit' })));
  });

  test('rollback plan and metadata (.rollback.requested, .rollback): the rolled-back deltacommit', async () => {
    const s = await scenario;
    const [plan] = decodeTimelineFile(await file(`${s.rollback.instant}.rollback.requested`), 'HoodieRollbackPlan');
    const p = plan as { instantToRollback: unknown; RollbackRequests: { partitionPath: string; filesToBeDeleted: string[]; logBlocksToBeDeleted: Record<string, number> | null }[]; version: number };
    expect(p.instantToRollback).toEqual({ commitTime: s.rollback.rolledBack, action: 'deltacommit' });
    expect(p.version).toBe(1);
    expect(p.RollbackRequests.length).toBeGreaterThan(0);
    const [meta] = decodeTimelineFile(await file(`${s.rollback.instant}.rollback`), 'HoodieRollbackMetadata');
    const m = meta as { startRollbackTime: string; totalFilesDeleted: number; commitsRollback: string[]; instantsRollback: unknown[]; partitionMetadata: Record<string, { partitionPath: string; successDeleteFiles: string[] }> };
    expect(m.startRollbackTime).toBe(s.rollback.instant);
    expect(m.commitsRollback).toEqual([s.rollback.rolledBack]);
    expect(m.instantsRollback).toEqual([{ commitTime: s.rollback.rolledBack, action: 'deltacommit' }]);
    const deleted = Object.entries(m.partitionMetadata).flatMap(([k, pm]) => (expect(pm.partitionPath).toBe(k), pm.successDeleteFiles));
    expect(m.totalFilesDeleted).toBe(deleted.length);
  });

  test('archive file: HoodieArchivedMetaEntry records, one per archived timeline file', async () => {
    const s = await scenario;
    expect(s.archived.length).toBeGreaterThan(0);
    const archives = (await s.storage.list('.hoodie/archived')).filter((f) => f.path.includes('.commits_.archive.'));
    expect(archives).toHaveLength(1);
    const scan = scanLogBlocks(await s.storage.read((archives[0] as { path: string }).path));
    const entries: Record<string, unknown>[] = [];
    for (const block of scan.blocks) {
      expect(block.type).toBe('AVRO_DATA');
      const text = block.header.SCHEMA as string;
      const actual = canonical(parseAvsc(text), namedTypes([parseAvsc(text)]));
      const { schema, filled } = expectedSchema('HoodieArchivedMetaEntry', actual);
      expect([...new Set(filled)].sort()).toEqual([
        `${NS}.HoodieCommitMetadata (not vendored)`, `${NS}.HoodieCompactionMetadata (not vendored)`,
        `${NS}.HoodieCompactionPlan.missingSchedulePartitions (lakelet's type)`, `${NS}.HoodieCompactionPlan.preserveHoodieMetadata (lakelet's type)`,
        `${NS}.HoodieCompactionPlan.strategy (lakelet's type)`,
        `${NS}.HoodieReplaceCommitMetadata (not vendored)`, `${NS}.HoodieRequestedReplaceMetadata (not vendored)`,
      ]);
      expect(schemaDiff(schema, actual)).toEqual([]);
      // AVRO_DATA content (Hudi's HoodieAvroDataBlock): int32 version, int32 count, then int32 length + datum each.
      const view = new DataView(block.content.buffer, block.content.byteOffset, block.content.byteLength);
      const count = view.getInt32(4);
      let at = 8;
      for (let i = 0; i < count; i++) {
        const length = view.getInt32(at);
        entries.push(...(decodeAll(schema, block.content.subarray(at + 4, at + 4 + length), 1) as Record<string, unknown>[]));
        at += 4 + length;
      }
      expect(at).toBe(block.content.length);
    }
    const [activePlan] = decodeTimelineFile(await file(`${s.compaction}.compaction.requested`), 'HoodieCompactionPlan', COMPACTION_TRAILING);
    const archivedPlans = entries.filter((e) => e.commitTime === s.compaction && e.hoodieCompactionPlan !== null);
    expect(archivedPlans.length, `archived plan entries of ${s.compaction}: ${JSON.stringify(entries.map((e) => [e.commitTime, e.actionType, e.actionState]))}`).toBeGreaterThan(0);
    for (const e of archivedPlans) expect(e.hoodieCompactionPlan).toEqual(activePlan);
    const seen = new Set(entries.map((e) => `${e.commitTime as string}|${e.actionType as string}`));
    for (const i of s.archived) expect(seen.has(`${i.requestedTime}|${i.action}`), `${i.requestedTime} ${i.action} archived`).toBe(true);
    for (const e of entries) {
      expect(s.archived.some((i) => i.requestedTime === e.commitTime), String(e.commitTime)).toBe(true);
      expect(['REQUESTED', 'INFLIGHT', 'COMPLETED']).toContain(e.actionState);
      const payload = { commit: e.hoodieCommitMetadata, deltacommit: e.hoodieCommitMetadata, clean: e.hoodieCleanMetadata ?? e.hoodieCleanerPlan, compaction: e.hoodieCompactionPlan }[e.actionType as string];
      if (e.actionState === 'COMPLETED' && e.actionType !== 'compaction') expect(payload, `${e.commitTime as string} ${e.actionType as string} carries its metadata`).not.toBeNull();
    }
  });
});
