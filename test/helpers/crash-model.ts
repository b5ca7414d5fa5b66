// The Map model of the crash tests, written from Hudi's semantics (hudi-format.md §8), not from the writer:
// record key → the row and the commit that wrote it, and the history of states per completed commit, so the
// oracle can derive the snapshot, time travel, incremental ranges and the meta columns without the library.

/** A row of the crash tables (`w` appears after the schema-evolving write). */
export interface ModelRow {
  id: string;
  part: string;
  ts: bigint;
  v: number | null;
  w?: string | null;
}

/** A live record: its row and the instant of the commit that last wrote it (`_hoodie_commit_time`). */
export interface ModelRecord {
  row: ModelRow;
  commitTime: string;
}

/** Record key (global indexes: the id alone; otherwise partition + id) → live record. */
export type ModelState = Map<string, ModelRecord>;

/** One completed commit: its instant, what kind, and the table right after it. */
export interface ModelCommit {
  instant: string;
  kind: 'write' | 'compaction';
  state: ModelState;
}

/** Shorthand for a model row. */
export const mrow = (id: string, part: string, ts: number, v: number | null = ts, w?: string | null): ModelRow => ({ id, part, ts: BigInt(ts), v, ...(w === undefined ? {} : { w }) });

/**
 * The expected table. Every mutating method takes the instant the table reported (or the one found on the
 * timeline after a crash) and appends a commit to the history.
 */
export class CrashModel {
  state: ModelState = new Map();
  history: ModelCommit[] = [];

  constructor(readonly global: boolean) {}

  /** A deep-enough copy (records are never mutated in place). */
  clone(): CrashModel {
    const m = new CrashModel(this.global);
    m.state = new Map(this.state);
    m.history = this.history.map((c) => ({ ...c, state: new Map(c.state) }));
    return m;
  }

  key(r: { id: string; part: string }): string {
    return this.global ? r.id : `${r.part}\u0000${r.id}`;
  }

  /** Hudi's upsert: dedupe the batch by key (greatest ordering value), then merge with the stored record. */
  upsert(rows: readonly ModelRow[], instant: string): void {
    const batch = new Map<string, ModelRow>();
    for (const r of rows) {
      const cur = batch.get(this.key(r));
      if (!cur || r.ts >= cur.ts) batch.set(this.key(r), r);
    }
    for (const [k, r] of batch) {
      const existing = this.state.get(k);
      // HoodieIndexUtils.mergeForPartitionUpdatesIfNeeded: the ordering value decides first, even across a
      // partition move. The crash inputs never lose on ordering, so a loss here is a mistake in the test.
      if (existing && r.ts < existing.row.ts) throw new Error(`crash model: input ${r.id} loses on ordering; keep crash inputs winning`);
      this.state.set(k, { row: r, commitTime: instant });
    }
    this.commit(instant, 'write');
  }

  /** Insert (and bulk insert) of keys the table does not hold (the crash inputs use fresh keys only). */
  insert(rows: readonly ModelRow[], instant: string): void {
    for (const r of rows) {
      if (this.state.has(this.key(r))) throw new Error(`crash model: insert of existing key ${r.id}; use fresh keys`);
      this.state.set(this.key(r), { row: r, commitTime: instant });
    }
    this.commit(instant, 'write');
  }

  /** Delete by record key strings: the key goes from every partition holding it. */
  deleteIds(ids: readonly string[], instant: string): void {
    for (const [k, rec] of this.state) if (ids.includes(rec.row.id)) this.state.delete(k);
    this.commit(instant, 'write');
  }

  /** Delete by rows: the record with the row's key (its partition too, for non-global indexes). */
  deleteRows(rows: readonly { id: string; part: string }[], instant: string): void {
    for (const r of rows) this.state.delete(this.key(r));
    this.commit(instant, 'write');
  }

  /** Insert overwrite: every record of the partitions (`'table'`: all) goes, the rows come in. */
  overwrite(rows: readonly ModelRow[], partitions: readonly string[] | 'table', instant: string): void {
    for (const [k, rec] of this.state) if (partitions === 'table' || partitions.includes(rec.row.part)) this.state.delete(k);
    for (const r of rows) this.state.set(this.key(r), { row: r, commitTime: instant });
    this.commit(instant, 'write');
  }

  /** Delete partitions (values of `part`). */
  deletePartitions(partitions: readonly string[], instant: string): void {
    for (const [k, rec] of this.state) if (partitions.includes(rec.row.part)) this.state.delete(k);
    this.commit(instant, 'write');
  }

  /** A compaction commit: rows and their commit times are unchanged (Hudi keeps the records' meta fields). */
  compaction(instant: string): void {
    this.commit(instant, 'compaction');
  }

  /** Roll back the latest data write and the compactions after it. */
  rollbackLatest(): string {
    let i = this.history.length - 1;
    while (i >= 0 && this.history[i]!.kind === 'compaction') i--;
    if (i < 0) throw new Error('crash model: nothing to roll back');
    const undone = this.history[i]!.instant;
    this.history.length = i;
    this.state = new Map(this.history.at(-1)?.state ?? []);
    return undone;
  }

  /** The latest data write's instant. */
  latestWrite(): string | undefined {
    return this.history.filter((c) => c.kind === 'write').at(-1)?.instant;
  }

  private commit(instant: string, kind: ModelCommit['kind']): void {
    const last = this.history.at(-1)?.instant;
    if (last !== undefined && instant <= last) throw new Error(`crash model: instant ${instant} is not after ${last}`);
    this.history.push({ instant, kind, state: new Map(this.state) });
  }
}

/** A record as the canonical line the oracle compares: meta columns, then the data fields. */
export function canonRecord(rec: ModelRecord): string {
  const r = rec.row;
  return `${rec.commitTime} ${r.id} part=${r.part} | ${r.part}|${r.id}|${r.ts}|${r.v}|${r.w ?? null}`;
}

/** The canonical lines of a state, sorted. */
export function canonState(state: ModelState): string[] {
  return [...state.values()].map(canonRecord).sort();
}
