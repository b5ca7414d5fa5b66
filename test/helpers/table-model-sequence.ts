// The Map model of table writes (table-model.ts runs it against tables): the rows a sequence's upserts,
// inserts, deletes and insert overwrites leave, with each row's commit time, the history of every commit's
// model and the write events merge-on-read incremental reads merge. Hudi's rules: a global index merges a
// partition move by the ordering value first (HoodieIndexUtils.mergeForPartitionUpdatesIfNeeded), and a
// non-deduplicating insert keeps every copy.
import type { IndexType, Table } from '../../src/index.js';
import type { Random } from './random.js';
import type { SchemaStage } from './table-model-schema.js';
import { partitionPathOf, type WriteEvent } from './table-model-checks.js';

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
export interface Row {
  id: string; part: string; ts: bigint; val: number | null; name: string | null;
  /** Schema-evolving sequences only (table-model-schema.ts): the promoted column, as written. */
  cnt?: number | bigint | null;
  /** Schema-evolving sequences only: the column added mid-sequence. */
  extra?: string | null;
}
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

/** What a write should report in `WriteResult.stats` (inserted / updated / deleted). */
export interface WriteCounts { inserted: number; updated: number; deleted: number }

/** The model key of the `n`-th extra copy of a key (non-deduplicating inserts keep every copy). */
const copyKey = (key: string, n: number): string => `${key}\u0000copy${n}`;

/** The model side of one sequence: what each operation should do to the table. */
export class Sequence {
  private fresh = 0;
  readonly history: { instant: string; model: Model; commits: Map<string, string>; stage: SchemaStage | undefined }[] = [];
  /** Schema-evolving sequences: the table's current schema stage (undefined otherwise), and the one it was created with. */
  stage: SchemaStage | undefined;
  private firstStage: SchemaStage | undefined;
  model: Model = new Map();
  /** Model key → `_hoodie_commit_time` of the row's current version (set when an instant is given). */
  commits = new Map<string, string>();
  /** Every version written and every overwrite, in commit order (when an instant is given): MOR windows merge them. */
  events: WriteEvent[] = [];
  /**
   * `mor`: merge-on-read counts — every tagged update is appended to a log (and counted), also one that
   * loses on ordering; copy-on-write counts only the updates that replace the stored row.
   */
  constructor(readonly rnd: Random, readonly global: boolean, readonly mor = false, readonly parts: readonly string[] = PARTS) {}

  /** Make this a schema-evolving sequence whose table was created with `stage`. */
  startStage(stage: SchemaStage): void {
    this.stage = stage;
    this.firstStage = stage;
  }
  key(r: Row): string {
    return this.global ? r.id : `${r.part}|${r.id}`;
  }
  row(id: string, part = this.rnd.pick(this.parts)): Row {
    return { id, part, ts: BigInt(this.rnd.int(6)), val: this.rnd.chance(0.2) ? null : this.rnd.int(1000) / 4, name: this.rnd.chance(0.2) ? null : `n${this.rnd.int(50)}` };
  }
  freshId(): string {
    return `f${String(this.fresh++).padStart(4, '0')}`;
  }
  private put(k: string, r: Row, instant: string | undefined): void {
    this.model.set(k, r);
    if (instant !== undefined) this.commits.set(k, instant);
  }
  private version(instant: string | undefined, key: string, part: string, row: Row | null): void {
    if (instant !== undefined) this.events.push({ commit: instant, key, path: partitionPathOf(part), row });
  }
  private drop(k: string): void {
    this.model.delete(k);
    this.commits.delete(k);
  }
  /** Record the table after a write at `instant`. */
  record(instant: string): void {
    this.history.push({ instant, model: new Map(this.model), commits: new Map(this.commits), stage: this.stage });
  }
  /** Go back to history entry `entry` (dropping the later ones), or to the empty table for -1. */
  backTo(entry: number): void {
    this.history.length = entry + 1;
    this.model = new Map(this.history[entry]?.model ?? []);
    this.commits = new Map(this.history[entry]?.commits ?? []);
    const last = this.history[entry]?.instant;
    this.stage = entry < 0 ? this.firstStage : this.history[entry]?.stage;
    this.events = last === undefined ? [] : this.events.filter((e) => e.commit <= last);
  }

  /**
   * Upsert (deduplicated by key, the greatest ordering value wins, a tie goes to the later record). A stored
   * record is replaced by a greater-or-equal ordering value; a global index's partition move is merged the
   * same way first, so an older record arriving in another partition leaves the newer one where it is.
   */
  upsert(batch: Row[], instant?: string): WriteCounts {
    const deduped = this.deduped(batch);
    const counts: WriteCounts = { inserted: 0, updated: 0, deleted: 0 };
    for (const [k, r] of deduped) {
      const existing = this.model.get(k);
      if (!existing) {
        counts.inserted++;
        this.put(k, r, instant);
        this.version(instant, k, r.part, r);
      } else if (existing.part !== r.part) {
        // Global index, a move: the incoming record must win the merge, then it is a delete plus an insert;
        // else it is an update of the stored record's group that loses (merge-on-read: logged and counted).
        if (r.ts >= existing.ts) {
          counts.inserted++;
          counts.deleted++;
          this.put(k, r, instant);
          this.version(instant, k, existing.part, null);
          this.version(instant, k, r.part, r);
        } else if (this.mor) {
          counts.updated++;
          this.version(instant, k, existing.part, r);
        }
      } else if (r.ts >= existing.ts) {
        counts.updated++;
        this.put(k, r, instant);
        this.version(instant, k, r.part, r);
      } else if (this.mor) {
        counts.updated++;
        this.version(instant, k, r.part, r);
      }
    }
    return counts;
  }
  /** An upsert batch deduplicated by key as the writer does it: the greatest ordering value, a tie to the later record. */
  deduped(batch: readonly Row[]): Map<string, Row> {
    const deduped = new Map<string, Row>();
    for (const r of batch) {
      const cur = deduped.get(this.key(r));
      if (!cur || r.ts >= cur.ts) deduped.set(this.key(r), r);
    }
    return deduped;
  }
  /** Whether a non-deduplicating insert left two copies of a key in the model. */
  hasCopies(): boolean {
    return [...this.model.keys()].some((k) => k.includes('\u0000copy'));
  }
  /** Non-deduplicating insert: every record is added, a key already present gets one more copy. */
  insert(batch: Row[], instant?: string): WriteCounts {
    for (const r of batch) {
      let k = this.key(r);
      for (let n = 1; this.model.has(k); n++) k = copyKey(this.key(r), n);
      this.put(k, r, instant);
      this.version(instant, k, r.part, r);
    }
    return { inserted: batch.length, updated: 0, deleted: 0 };
  }
  /** Delete by key: every copy of the key, in every partition. */
  deleteKeys(ids: string[], instant?: string): WriteCounts {
    let deleted = 0;
    for (const [k, r] of this.model) {
      if (ids.includes(r.id)) {
        this.drop(k);
        this.version(instant, k, r.part, null);
        deleted++;
      }
    }
    return { inserted: 0, updated: 0, deleted };
  }
  overwrite(batch: Row[], partitions: string[] | undefined, instant?: string): void {
    if (instant !== undefined) this.events.push({ commit: instant, replaced: partitions?.map(partitionPathOf) });
    for (const [k, r] of this.model) if (!partitions || partitions.includes(r.part)) this.drop(k);
    this.insert(batch, instant);
  }
}
