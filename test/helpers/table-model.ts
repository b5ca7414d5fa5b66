// Model-based sequences, shared by the model-based tests (Node, memory) and the browser write tests (OPFS,
// IndexedDB): seeded random sequences of upsert / insert / delete / insert-overwrite / rollback and the table
// services (compaction, clean, archive, savepoint, restore) on copy-on-write and merge-on-read tables, checked
// after every operation against the Map model (table-model-sequence.ts): the snapshot, time travel to every
// commit (equal to the model, or NOT_FOUND once a clean removed its files — never other rows), a reopened
// table, the meta columns, the read-optimized view, incremental reads and the write stats (table-model-checks.ts).
// With `metadataTable` (v9) and `validateEachStep`, validateTable must report nothing after every operation;
// rollbacks and restores an MDT compaction made impossible must be refused (table-model-mdt.ts).
// With `clustering`, `cluster()` is one more operation, which leaves the model as it is (table-model-clustering.ts).
import { expect } from 'vitest';
import { createTable, isLakeletError, memoryStorage, openTable, validateTable, type IndexType, type Storage, type TableType, type WriteResult } from '../../src/index.js';
import { Random } from './random.js';
import { parseProperties } from '../../src/config/properties.js';
import { metadataCompactedAfter, metadataCompactions } from './table-model-mdt.js';
import { HOSTILE_KEYS, HOSTILE_PARTS, baseFilesInWindow, canonWithMeta, expectedIncremental, expectedWindowMerge, partitionPathOf, rowsWithMeta } from './table-model-checks.js';
import { evolutionPath, FIRST_STAGE, stageSchema, withStage } from './table-model-schema.js';
import { INDEXES, PARTS, SCHEMA, Sequence, type Row, type WriteCounts } from './table-model-sequence.js';
import { pickValidator } from './table-model-validators.js';
import { CLUSTER_CHANCE, clusterStep } from './table-model-clustering.js';
import type { SequenceOptions, SequenceStats } from './table-model-options.js';

export { INDEXES, PARTS, SCHEMA, Sequence, canon, snapshot, type Model, type Row, type WriteCounts } from './table-model-sequence.js';
export { seededClock, type SequenceOptions, type SequenceStats } from './table-model-options.js';

/**
 * A savepoint the model knows: its instant (the latest completed commit when it was taken — a compaction's,
 * possibly) and the history entry whose rows it preserves.
 */
interface ModelSavepoint { instant: string; entry: number }

/** `LAKELET_MODEL_TRACE=1` (Node) prints which operation each step drew; browsers have no `process`. */
const TRACE = typeof process !== 'undefined' && Boolean(process.env.LAKELET_MODEL_TRACE);

/**
 * Run one seeded sequence against a new table, checking the table against the model after every
 * operation. Returns what the sequence exercised.
 */

export async function runSequence(seed: number, options: SequenceOptions): Promise<SequenceStats> {
  const rnd = new Random(seed);
  // A table with a metadata table keeps Hudi's record index (one location per record key, across partitions):
  // its sequences use the global twin of a partition-local index, so a key lives in one partition.
  const picked = rnd.pick(INDEXES);
  const index: IndexType = options.metadataTable ? ({ BLOOM: 'GLOBAL_BLOOM', SIMPLE: 'GLOBAL_SIMPLE' } as Partial<Record<IndexType, IndexType>>)[picked] ?? picked : picked;
  const drawn: TableType = rnd.chance(0.5) ? 'COPY_ON_WRITE' : 'MERGE_ON_READ';
  const type: TableType = options.type ?? drawn;
  const services = options.services ?? true;
  const global = index === 'GLOBAL_BLOOM' || index === 'GLOBAL_SIMPLE' || index === 'IN_MEMORY' || index === 'RECORD_INDEX';
  const storage: Storage = options.storage ?? memoryStorage();
  const table = await createTable(storage, {
    name: `model_${seed}`, type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: options.schemaEvolution ? stageSchema(FIRST_STAGE) : SCHEMA,
    index, bloomFilter: { numEntries: 200 }, rowGroupRows: 1 + rnd.int(8), maxFileSize: 4 * 1024 * 1024, smallFileLimit: rnd.chance(0.5) ? 1 : 2 * 1024 * 1024,
    compaction: { inline: rnd.chance(0.5), deltaCommits: 2 + rnd.int(3) },
    clean: { automatic: false },
    archive: { automatic: false },
    ...(options.workers === undefined ? {} : { workers: options.workers }),
    ...(options.tableVersion === undefined ? {} : { tableVersion: options.tableVersion }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    metadataTable: options.metadataTable ?? false,
  });
  const validate = async (label: string): Promise<void> => {
    if (options.validateEachStep) expect((await validateTable(storage)).problems, `${label}: validateTable`).toEqual([]);
  };
  await validate(`seed ${seed}: the created table`);
  const hostile = options.hostile ?? true;
  const parts = hostile ? HOSTILE_PARTS : PARTS;
  const keys = hostile ? HOSTILE_KEYS : Array.from({ length: 40 }, (_, i) => `k${String(i).padStart(2, '0')}`);
  const seq = new Sequence(rnd, global, type === 'MERGE_ON_READ', parts);
  const stages = options.schemaEvolution ? evolutionPath(rnd) : [];
  if (options.schemaEvolution) seq.startStage(FIRST_STAGE);
  /** A random row for the current schema stage (or the one given). */
  const makeRow = (id: string, part?: string, stage = seq.stage): Row => (stage === undefined ? seq.row(id, part) : withStage(seq.row(id, part), stage, rnd));
  const expectCounts = (r: WriteResult, expected: WriteCounts, label: string): void => {
    expect({ inserted: r.stats.inserted, updated: r.stats.updated, deleted: r.stats.deleted }, `${label}: write stats`).toEqual(expected);
  };
  const stats: SequenceStats = { type, compactions: 0, cleans: 0, archived: 0, restores: 0, refusedByMetadataCompaction: 0, metadataCompactions: 0, metadataPartitions: [], evolutions: 0, validated: 0, rejected: 0, clusterings: 0 };
  let savepoints: ModelSavepoint[] = [];
  /**
   * Cleans keep the snapshots of the latest N completed commits (compactions count): instants older than
   * the oldest of those may become unreadable. The model tracks that boundary from the commit list.
   */
  let retainedFrom: string | undefined;
  const key = () => rnd.pick(keys);
  /** Instants of the clusterings: table-service commits, never in the model's history. */
  const clusterings = new Set<string>();
  for (let step = 0; step < options.operations; step++) {
    const what = rnd.next();
    const label = `seed ${seed} (${type}, ${index}) step ${step}`;
    if (TRACE) console.log(label, what.toFixed(3)); // which operation a failing step drew
    // A rollback undoes the latest data write and the compactions after it: refused if any is savepointed.
    const latestSavepointed = savepoints.some((s) => s.instant >= (seq.history.at(-1)?.instant ?? '~'));
    if (options.clustering && rnd.chance(CLUSTER_CHANCE)) {
      const done = await clusterStep(table, rnd, seq, label);
      if (done) {
        clusterings.add(done);
        stats.clusterings++;
      }
    } else if (what < 0.3) {
      // Schema-evolving sequences: the next stage's schema comes with the write that first uses it.
      const current = seq.stage === undefined ? -1 : stages.indexOf(seq.stage);
      const next = options.schemaEvolution && current < stages.length - 1 && rnd.chance(0.35) ? stages[current + 1] : undefined;
      const batch = Array.from({ length: 1 + rnd.int(8) }, () => makeRow(key(), undefined, next ?? seq.stage));
      const check = !next && options.validators && rnd.chance(0.4) ? pickValidator(rnd, seq, batch) : undefined;
      if (check?.rejects) {
        // Rejected: ABORTED, and the checks below find the table as it was (no commit, nothing pending).
        await expect(table.upsert(batch, { validators: [check.validator] }), `${label}: upsert rejected by ${check.name}`).rejects.toMatchObject({ code: 'ABORTED' });
        expect(table.timeline.filter((i) => i.state !== 'COMPLETED'), `${label}: pending after a rejected write`).toEqual([]);
        stats.rejected++;
      } else {
        const r = await table.upsert(batch, { ...(next && { schema: stageSchema(next) }), ...(check && { validators: [check.validator] }) });
        expectCounts(r, seq.upsert(batch, r.instant), label);
        if (next) seq.stage = next;
        seq.record(r.instant);
        if (next) stats.evolutions++;
        if (check) stats.validated++;
      }
    } else if (what < 0.4) {
      const batch = Array.from({ length: 1 + rnd.int(5) }, () => makeRow(seq.freshId()));
      // Duplicate keys (fresh ones): a non-deduplicating insert writes every copy, also across partitions.
      // A copy of a key of this batch, or of an earlier insert's key (never upserted or deleted by key).
      const inserted = [...seq.model.values()].filter((r) => r.id.startsWith('f'));
      // (Not on a table with a metadata table: its record index holds one location per key, and Java's writer
      // refuses two inserts of one key into it — HoodieTableMetadataUtil.reduceByKeys.)
      if (hostile && !options.metadataTable && rnd.chance(0.4)) {
        const twin = inserted.length > 0 && rnd.chance(0.5) ? rnd.pick(inserted) : rnd.pick(batch);
        batch.push(rnd.chance(0.7) ? makeRow(twin.id, twin.part) : makeRow(twin.id));
      }
      const r = await table.insert(batch);
      expectCounts(r, seq.insert(batch, r.instant), label);
      seq.record(r.instant);
    } else if (what < 0.5) {
      const ids = Array.from({ length: 1 + rnd.int(4) }, key);
      const r = await table.delete(ids);
      expectCounts(r, seq.deleteKeys(ids, r.instant), label);
      seq.record(r.instant);
    } else if (what < 0.6) {
      const whole = rnd.chance(0.2);
      const partitions = whole ? undefined : [...new Set([rnd.pick(parts), rnd.pick(parts)])];
      const batch = Array.from({ length: rnd.int(4) }, () => makeRow(seq.freshId(), partitions ? rnd.pick(partitions) : rnd.pick(parts)));
      const r = whole ? await table.insertOverwriteTable(batch) : await table.insertOverwrite(batch, { partitions: partitions!.map(partitionPathOf) });
      seq.overwrite(batch, partitions, r.instant);
      expect(r.stats.inserted, `${label}: overwrite inserted`).toBe(batch.length);
      seq.record(r.instant);
    } else if (what < 0.68 || !services) {
      if (seq.history.length === 0) continue;
      // Rolling back to a commit older than a clean's retained commits needs file versions the clean may have
      // deleted (Hudi's cleaner keeps only what the retained commits read, and its rollback does not check): the
      // table would lose rows, so the sequence does not ask for it (seed 9185 did, 30 operations, v6 and v9).
      const previous = seq.history.at(-2)?.instant;
      if (previous !== undefined && retainedFrom !== undefined && previous < retainedFrom && !savepoints.some((s) => s.instant === previous)) continue;
      if (latestSavepointed) {
        await expect(table.rollback(), `${label}: rollback of a savepointed commit`).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      } else if (options.metadataTable && (await metadataCompactedAfter(storage, seq.history.at(-1)!.instant))) {
        // An MDT compaction folded the commit in: refused (Java's validateRollback), nothing written.
        await expect(table.rollback(), `${label}: rollback of a commit the MDT compacted`).rejects.toMatchObject({ code: 'UNSUPPORTED' });
        stats.refusedByMetadataCompaction++;
      } else {
        const undone = seq.history.at(-1)!;
        const r = await table.rollback();
        expect(r.rolledBack, label).toBe(undone.instant);
        seq.backTo(seq.history.length - 2);
      }
    } else if (what < 0.75) {
      if (type === 'MERGE_ON_READ') stats.compactions += (await table.compact()).length;
    } else if (what < 0.83) {
      const retain = 1 + rnd.int(3);
      const commits = table.commits.map((c) => c.requestedTime);
      const r = await table.clean({ retainCommits: retain });
      if (r) {
        stats.cleans++;
        const boundary = commits[commits.length - retain];
        if (boundary !== undefined && (retainedFrom === undefined || boundary > retainedFrom)) retainedFrom = boundary;
      }
    } else if (what < 0.88) {
      const min = 2 + rnd.int(3);
      stats.archived += (await table.archive({ keepMinCommits: min, keepMaxCommits: min + 1 + rnd.int(3) })).length;
    } else if (what < 0.94) {
      if (seq.history.length === 0 || savepoints.some((s) => s.instant === table.commits.at(-1)?.requestedTime)) continue;
      const r = await table.savepoint();
      savepoints.push({ instant: r.instant, entry: seq.history.length - 1 });
    } else {
      const sp = savepoints.length > 0 ? rnd.pick(savepoints) : undefined;
      if (!sp) continue;
      if (options.metadataTable && (await metadataCompactedAfter(storage, sp.instant))) {
        await expect(table.restore(sp.instant), `${label}: restore past an MDT compaction`).rejects.toMatchObject({ code: 'UNSUPPORTED' });
        stats.refusedByMetadataCompaction++;
        continue;
      }
      await table.restore(sp.instant);
      stats.restores++;
      seq.backTo(sp.entry);
      savepoints = savepoints.filter((s) => s.entry <= sp.entry);
    }
    // Every row with its meta columns: latest, read-optimized (copy-on-write: the snapshot), every instant.
    const expected = canonWithMeta(seq.model, seq.commits, undefined, seq.stage);
    expect(await rowsWithMeta(table, {}, seq.stage), `${label}: snapshot`).toEqual(expected);
    if (type === 'COPY_ON_WRITE') expect(await rowsWithMeta(table, { readOptimized: true }, seq.stage), `${label}: read-optimized`).toEqual(expected);
    const isProtected = (instant: string) => retainedFrom === undefined || instant >= retainedFrom || savepoints.some((s) => s.instant === instant);
    for (const h of seq.history) {
      try {
        expect(await rowsWithMeta(table, { asOf: h.instant }, h.stage), `${label}: as of ${h.instant}`).toEqual(canonWithMeta(h.model, h.commits, undefined, h.stage));
      } catch (err) {
        // Time travel past a clean may be refused — never answered with other rows.
        if (!isLakeletError(err, 'NOT_FOUND') || isProtected(h.instant)) throw err;
      }
    }
    // One incremental read (c_i, c_j] per step: the latest version of each record written in the range.
    if (seq.history.length >= 2) {
      const j = 1 + rnd.int(seq.history.length - 1);
      const i = rnd.int(j);
      const [from, to] = [seq.history[i]!, seq.history[j]!];
      try {
        // Merge-on-read merges only the window's files (table-model-checks.ts expectedWindowMerge); copy-on-write
        // reads each written group's latest file: the table as of `to` restricted to the window's commits.
        const want = type === 'MERGE_ON_READ'
          ? expectedWindowMerge(seq.events, to.model, to.commits, from.instant, to.instant, await baseFilesInWindow(table, from.instant, to.instant), to.stage)
          : expectedIncremental(to.model, to.commits, from.instant, to.instant, to.stage);
        expect(await rowsWithMeta(table, { from: from.instant, to: to.instant }, to.stage), `${label}: incremental (${from.instant}, ${to.instant}]`).toEqual(want);
      } catch (err) {
        if (!isLakeletError(err, 'NOT_FOUND') || (isProtected(from.instant) && isProtected(to.instant))) throw err;
      }
    }
    await validate(label);
    const reopened = await openTable(options.reopen ? options.reopen() : storage);
    expect(await rowsWithMeta(reopened, {}, seq.stage), `${label}: reopened`).toEqual(expected);
    // Active data commits (compactions excluded) are the newest entries of the model's history.
    const dataCommits = reopened.commits.filter((c) => !clusterings.has(c.requestedTime) && (type === 'COPY_ON_WRITE' || c.action !== 'commit')).map((c) => c.requestedTime);
    expect(dataCommits, `${label}: commits`).toEqual(seq.history.slice(seq.history.length - dataCommits.length).map((h) => h.instant));
    if (dataCommits.length < seq.history.length) stats.archived = Math.max(stats.archived, 1);
    stats.compactions = Math.max(stats.compactions, reopened.commits.filter((c) => !clusterings.has(c.requestedTime)).length - dataCommits.length);
  }
  if (options.metadataTable) stats.metadataCompactions = (await metadataCompactions(storage)).length;
  if (options.metadataTable) stats.metadataPartitions = (parseProperties(new TextDecoder().decode(await storage.read('.hoodie/hoodie.properties'))).get('hoodie.table.metadata.partitions') ?? '').split(',').filter(Boolean);
  return stats;
}
