// Test helpers for CDC: a plain Map model of a table that derives, from the batches a test writes, the changes
// Hudi's CDC query reports for each write (never from the code under test), and a canonical order to compare in.

/** The rows the CDC tests write. */
export type R = { id: string; part: string; ts: bigint; val: string | null };
/** A row of the CDC tests' schema. */
export const row = (id: string, part: string, ts: number, val: string | null): R => ({ id, part, ts: BigInt(ts), val });

/** The CDC tests' table schema. */
export const CDC_SCHEMA = {
  type: 'record', name: 'c', namespace: 'test',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'val', type: ['null', 'string'], default: null }],
};

/** The changes a write makes to a model of the table (Map key → row), as Hudi's CDC defines them. */
export class Model {
  readonly rows = new Map<string, R>();
  readonly changes: { commitTime: string; op: string; before: R | null; after: R | null }[] = [];
  upsert(t: string, batch: R[]): void {
    for (const r of batch) {
      const old = this.rows.get(r.id);
      this.changes.push({ commitTime: t, op: old ? 'u' : 'i', before: old ?? null, after: r });
      this.rows.set(r.id, r);
    }
  }
  delete(t: string, keys: string[]): void {
    for (const k of keys) {
      const old = this.rows.get(k);
      if (old) this.changes.push({ commitTime: t, op: 'd', before: old, after: null });
      this.rows.delete(k);
    }
  }
  /** A dropped partition: its rows are deletes. */
  deletePartition(t: string, partition: string): void {
    this.overwrite(t, partition, []);
  }
  /** Replaced groups' rows are deletes, the new groups' rows inserts (a key in both gives both). */
  overwrite(t: string, partition: string, batch: R[]): void {
    for (const old of [...this.rows.values()].filter((r) => r.part === partition)) {
      this.changes.push({ commitTime: t, op: 'd', before: old, after: null });
      this.rows.delete(old.id);
    }
    for (const r of batch) {
      this.changes.push({ commitTime: t, op: 'i', before: null, after: r });
      this.rows.set(r.id, r);
    }
  }
}

/** Changes in a canonical order for comparison: commit, key, then d before i. */
export function canonical(changes: readonly { commitTime: string; op: string; before: unknown; after: unknown }[]): string[] {
  const key = (c: { before: unknown; after: unknown }) => ((c.after ?? c.before) as R).id;
  return changes
    .map((c) => ({ c, k: `${c.commitTime} ${key(c)} ${c.op}` }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map(({ c }) => JSON.stringify({ t: c.commitTime, op: c.op, before: c.before, after: c.after }, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
}

