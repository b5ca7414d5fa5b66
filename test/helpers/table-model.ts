// The Map model of table writes, shared by the model-based tests (Node, memory) and the browser write
// tests (OPFS, IndexedDB): seeded random sequences of upsert / insert / delete / insert-overwrite /
// rollback and the table services (compaction, clean, archive, savepoint, restore) on copy-on-write and
// merge-on-read tables, checked after every operation: the snapshot, time travel to every commit (equal to
// the model, or NOT_FOUND once a clean removed its files — never other rows), and a reopened table.
import { expect } from 'vitest';
import { createTable, isLakeletError, memoryStorage, openTable, type IndexType, type Storage, type Table, type TableType } from '../../src/index.js';
import { Random } from './random.js';

export const PARTS = ['p0', 'p1', 'p2', 'p3'];
export const INDEXES: IndexType[] = ['BLOOM', 'GLOBAL_BLOOM', 'SIMPLE', 'GLOBAL_SIMPLE', 'IN_MEMORY', 'RECORD_INDEX'];
export const SCHEMA = {
  type: 'record', name: 'trip', namespace: 'model',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'part', type: 'string' },
    { name: 'ts', type: 'long' },
    { name: 'val', type: ['null', 'double'], default: null },
    { name: 'name', type: ['null', 'string'], default: null },
  ],
};

/** One row of the model table. */
export interface Row { id: string; part: string; ts: bigint; val: number | null; name: string | null }
/** The expected table: record key → row. */
export type Model = Map<string, Row>;

/** Rows as sorted strings, for comparing a table with the model. */
export const canon = (rows: Iterable<Row>): string[] => [...rows].map((r) => `${r.part}|${r.id}|${r.ts}|${r.val}|${r.name}`).sort();

/** The table's rows (as of an instant) in canonical form. */
export async function snapshot(table: Table, asOf?: string): Promise<string[]> {
  const out: Row[] = [];
  for await (const r of table.rows({ columns: ['id', 'part', 'ts', 'val', 'name'], ...(asOf ? { asOf } : {}) })) out.push(r as unknown as Row);
  return canon(out);
}

/** The model side of one sequence: what each operation should do to the table. */
export class Sequence {
  private fresh = 0;
  readonly history: { instant: string; model: Model }[] = [];
  model: Model = new Map();
  constructor(readonly rnd: Random, readonly global: boolean) {}

  key(r: Row): string {
    return this.global ? r.id : `${r.part}|${r.id}`;
  }
  row(id: string, part = this.rnd.pick(PARTS)): Row {
    return { id, part, ts: BigInt(this.rnd.int(6)), val: this.rnd.chance(0.2) ? null : this.rnd.int(1000) / 4, name: this.rnd.chance(0.2) ? null : `n${this.rnd.int(50)}` };
  }
  freshId(): string {
    return `f${String(this.fresh++).padStart(4, '0')}`;
  }

  upsert(batch: Row[]): void {
    const deduped = new Map<string, Row>();
    for (const r of batch) {
      const cur = deduped.get(this.key(r));
      if (!cur || r.ts >= cur.ts) deduped.set(this.key(r), r);
    }
    for (const r of deduped.values()) {
      const existing = this.model.get(this.key(r));
      // Hudi merges first, also across partitions: a stored record with a greater ordering value stays put.
      if (!existing || r.ts >= existing.ts) this.model.set(this.key(r), r);
    }
  }
  insert(batch: Row[]): void {
    for (const r of batch) this.model.set(this.key(r), r);
  }
  deleteKeys(ids: string[]): void {
    for (const [k, r] of this.model) if (ids.includes(r.id)) this.model.delete(k);
  }
  overwrite(batch: Row[], partitions: string[] | undefined): void {
    for (const [k, r] of this.model) if (!partitions || partitions.includes(r.part)) this.model.delete(k);
    for (const r of batch) this.model.set(this.key(r), r);
  }
}

/** Options of {@link runSequence}. */
export interface SequenceOptions {
  /** Operations per sequence. */
  operations: number;
  /** The (empty) store the table is created in (default: a new memoryStorage()). */
  storage?: Storage;
  /** The store to reopen the table from after each operation (default: the same object). */
  reopen?: () => Storage;
  /** Include the table services (compact, clean, archive, savepoint, restore) in the sequence (default true). */
  services?: boolean;
  /** Worker pool size of the table's writes (default: the runtime's default, 0 in Node). */
  workers?: number;
}

/** What one sequence did, for assertions across sequences. */
export interface SequenceStats {
  type: TableType;
  compactions: number;
  cleans: number;
  archived: number;
  restores: number;
}

/**
 * A savepoint the model knows: its instant (the latest completed commit when it was taken — a compaction's,
 * possibly) and the history entry whose rows it preserves.
 */
interface ModelSavepoint { instant: string; entry: number }

/**
 * Run one seeded sequence against a new table, checking the table against the model after every
 * operation. Returns what the sequence exercised.
 */
export async function runSequence(seed: number, options: SequenceOptions): Promise<SequenceStats> {
  const rnd = new Random(seed);
  const index = rnd.pick(INDEXES);
  const type: TableType = rnd.chance(0.5) ? 'COPY_ON_WRITE' : 'MERGE_ON_READ';
  const services = options.services ?? true;
  const global = index === 'GLOBAL_BLOOM' || index === 'GLOBAL_SIMPLE' || index === 'IN_MEMORY' || index === 'RECORD_INDEX';
  const storage: Storage = options.storage ?? memoryStorage();
  const table = await createTable(storage, {
    name: `model_${seed}`, type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA,
    index, bloomFilter: { numEntries: 200 }, rowGroupRows: 1 + rnd.int(8), maxFileSize: 4 * 1024 * 1024, smallFileLimit: rnd.chance(0.5) ? 1 : 2 * 1024 * 1024,
    compaction: { inline: rnd.chance(0.5), deltaCommits: 2 + rnd.int(3) },
    clean: { automatic: false },
    archive: { automatic: false },
    ...(options.workers === undefined ? {} : { workers: options.workers }),
  });
  const seq = new Sequence(rnd, global);
  const stats: SequenceStats = { type, compactions: 0, cleans: 0, archived: 0, restores: 0 };
  let savepoints: ModelSavepoint[] = [];
  /**
   * Cleans keep the snapshots of the latest N completed commits (compactions count): instants older than
   * the oldest of those may become unreadable. The model tracks that boundary from the commit list.
   */
  let retainedFrom: string | undefined;
  const key = () => `k${String(rnd.int(40)).padStart(2, '0')}`;
  for (let step = 0; step < options.operations; step++) {
    const what = rnd.next();
    const label = `seed ${seed} (${type}, ${index}) step ${step}`;
    // A rollback undoes the latest data write and the compactions after it: refused if any is savepointed.
    const latestSavepointed = savepoints.some((s) => s.instant >= (seq.history.at(-1)?.instant ?? '~'));
    if (what < 0.3) {
      const batch = Array.from({ length: 1 + rnd.int(8) }, () => seq.row(key()));
      const r = await table.upsert(batch);
      seq.upsert(batch);
      seq.history.push({ instant: r.instant, model: new Map(seq.model) });
    } else if (what < 0.4) {
      const batch = Array.from({ length: 1 + rnd.int(5) }, () => seq.row(seq.freshId()));
      const r = await table.insert(batch);
      seq.insert(batch);
      seq.history.push({ instant: r.instant, model: new Map(seq.model) });
    } else if (what < 0.5) {
      const ids = Array.from({ length: 1 + rnd.int(4) }, key);
      const r = await table.delete(ids);
      seq.deleteKeys(ids);
      seq.history.push({ instant: r.instant, model: new Map(seq.model) });
    } else if (what < 0.6) {
      const whole = rnd.chance(0.2);
      const partitions = whole ? undefined : [...new Set([rnd.pick(PARTS), rnd.pick(PARTS)])];
      const batch = Array.from({ length: rnd.int(4) }, () => seq.row(seq.freshId(), partitions ? rnd.pick(partitions) : rnd.pick(PARTS)));
      const r = whole ? await table.insertOverwriteTable(batch) : await table.insertOverwrite(batch, { partitions: partitions!.map((p) => `part=${p}`) });
      seq.overwrite(batch, partitions);
      seq.history.push({ instant: r.instant, model: new Map(seq.model) });
    } else if (what < 0.68 || !services) {
      if (seq.history.length === 0) continue;
      if (latestSavepointed) {
        await expect(table.rollback(), `${label}: rollback of a savepointed commit`).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      } else {
        const undone = seq.history.pop()!;
        const r = await table.rollback();
        expect(r.rolledBack, label).toBe(undone.instant);
        seq.model = new Map(seq.history.at(-1)?.model ?? []);
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
      await table.restore(sp.instant);
      stats.restores++;
      seq.history.length = sp.entry + 1;
      seq.model = new Map(seq.history[sp.entry]!.model);
      savepoints = savepoints.filter((s) => s.entry <= sp.entry);
    }
    expect(await snapshot(table), `${label}: snapshot`).toEqual(canon(seq.model.values()));
    for (const [i, h] of seq.history.entries()) {
      const protectedEntry = retainedFrom === undefined || h.instant >= retainedFrom || savepoints.some((s) => s.instant === h.instant);
      try {
        expect(await snapshot(table, h.instant), `${label}: as of ${h.instant}`).toEqual(canon(h.model.values()));
      } catch (err) {
        // Time travel past a clean may be refused — never answered with other rows.
        if (!isLakeletError(err, 'NOT_FOUND') || protectedEntry) throw err;
      }
    }
    const reopened = await openTable(options.reopen ? options.reopen() : storage);
    expect(await snapshot(reopened), `${label}: reopened`).toEqual(canon(seq.model.values()));
    // Active data commits (compactions excluded) are the newest entries of the model's history.
    const dataCommits = reopened.commits.filter((c) => type === 'COPY_ON_WRITE' || c.action !== 'commit').map((c) => c.requestedTime);
    expect(dataCommits, `${label}: commits`).toEqual(seq.history.slice(seq.history.length - dataCommits.length).map((h) => h.instant));
    if (dataCommits.length < seq.history.length) stats.archived = Math.max(stats.archived, 1);
    stats.compactions = Math.max(stats.compactions, reopened.commits.length - dataCommits.length);
  }
  return stats;
}
