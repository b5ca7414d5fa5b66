// table.history(key) on Spark-written tables (v6 COW, v8 MOR with delete blocks and a compaction, v9 COW and MOR
// with deletes, insert overwrite and clustering), every key checked against the table's commits: each commit's
// version of a key is derived from the snapshots just before and just after it (absent → present: insert,
// present → absent: delete, a row carrying the commit's time: update); compactions and clusterings give none.
import { describe, expect, test } from 'vitest';
import type { Table } from '../../src/index.js';
import { collect, openFixture } from '../helpers/fixtures.js';

const FIXTURES = [
  'sample_table/cow/v6_nonpartitioned.zip',
  'quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip',
  'sample_table/cow/v9_txns_simple_nometa.zip',
  'sample_table/mor/avro/v9_txns_simple_nometa.zip',
];

const json = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x instanceof Uint8Array ? [...x] : x));
const withoutMeta = (row: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('_hoodie_')));

/** The snapshot as of an instant (undefined: before the first commit), by record key, meta columns kept. */
async function snapshot(table: Table, asOf: string | undefined): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  if (asOf === undefined) return out;
  for (const r of await collect(table.rows({ asOf }))) out.set(r._hoodie_record_key as string, r);
  return out;
}

describe('history on Spark-written tables', () => {
  for (const zip of FIXTURES) {
    test(zip, { timeout: 120_000 }, async () => {
      const table = await openFixture(zip);
      const byCompletion = table.config.timelineLayoutVersion === 2;
      const time = (i: { requestedTime: string; completionTime?: string | undefined }) => (byCompletion ? i.completionTime ?? i.requestedTime : i.requestedTime);
      const writes = [...table.commits].sort((a, b) => (time(a) < time(b) ? -1 : 1));
      const expected = new Map<string, [string, string, string | null][]>(); // key → [op, commit, value] oldest first
      let prev: Map<string, Record<string, unknown>> = new Map();
      for (const w of writes) {
        const now = await snapshot(table, w.requestedTime);
        const operation = (await table.commitMetadata(w.requestedTime)).operationType ?? '';
        if (operation !== 'COMPACT' && operation !== 'CLUSTER') {
          for (const key of new Set([...prev.keys(), ...now.keys()])) {
            const b = prev.get(key);
            const a = now.get(key);
            const op = a && !b ? 'insert' : b && !a ? 'delete' : a && a._hoodie_commit_time === w.requestedTime ? 'update' : undefined;
            if (!op) continue;
            let list = expected.get(key);
            if (!list) expected.set(key, (list = []));
            list.push([op, w.requestedTime, a ? json(withoutMeta(a)) : null]);
          }
        }
        prev = now;
      }
      expect(expected.size).toBeGreaterThan(0);
      let updated = 0;
      for (const [key, want] of expected) {
        const h = await table.history(key);
        expect(h.versions.map((v) => [v.op, v.commitTime, v.value ? json(v.value) : null]), `history of ${key}`).toEqual([...want].reverse());
        expect(h.end, `${key} ends at its creation`).toEqual({ reason: 'created', before: want[0]?.[1] });
        if (byCompletion) for (const v of h.versions) expect(v.completionTime).toBe(writes.find((w) => w.requestedTime === v.commitTime)?.completionTime);
        if (want.some(([op]) => op !== 'insert')) updated++;
      }
      expect(updated, 'some key was updated or deleted').toBeGreaterThan(0);
    });
  }
});
