// Test helpers for CDC: a plain Map model of a table that derives, from the batches a test writes, the changes
// Hudi's CDC query reports for each write (never from the code under test), a canonical order to compare in, and
// a seeded random write sequence mirrored in the model.
import type { Table } from '../../src/index.js';
import type { Random } from './random.js';

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

/** The keys of {@link randomWrites}. */
export const CDC_KEYS = Array.from({ length: 8 }, (_, i) => `k${i}`);
const PARTS = ['p0', 'p1', 'p2'];
const partOf = (k: string) => PARTS[Number(k.slice(1)) % PARTS.length] as string;

/** Run `steps` random writes on `table`, mirrored in the model; the instants that change records, in order. */
export async function randomWrites(table: Table, model: Model, rnd: Random, steps: number): Promise<string[]> {
  const instants: string[] = [];
  let ts = 0;
  const some = () => CDC_KEYS.filter(() => rnd.chance(0.35));
  for (let s = 0; s < steps; s++) {
    const kind = rnd.int(10);
    if (kind < 5) {
      const keys = some();
      if (keys.length === 0) keys.push(rnd.pick(CDC_KEYS));
      const batch = keys.map((k) => row(k, partOf(k), ++ts, `v${ts}`));
      const t = (await table.upsert(batch)).instant;
      model.upsert(t, batch);
      instants.push(t);
    } else if (kind < 7) {
      const keys = [...some(), 'absent'];
      const t = (await table.delete(keys)).instant;
      model.delete(t, keys);
      instants.push(t);
    } else if (kind === 7) {
      const part = rnd.pick(PARTS);
      const batch: R[] = CDC_KEYS.filter((k) => partOf(k) === part && rnd.chance(0.5)).map((k) => row(k, part, ++ts, `o${ts}`));
      if (batch.length === 0) continue;
      const t = (await table.insertOverwrite(batch)).instant;
      model.overwrite(t, part, batch);
      instants.push(t);
    } else if (kind === 8) {
      const part = rnd.pick(PARTS);
      const t = (await table.deletePartitions([`part=${part}`])).instant; // hive-style paths
      model.deletePartition(t, part);
      instants.push(t);
    } else if (table.config.tableType === 'MERGE_ON_READ') {
      await table.compact({ force: true });
    }
  }
  return instants;
}
