// CDC by inference on Spark-written tables (v6 COW, v8 MOR with delete blocks and a compaction, v9 COW and MOR
// with deletes, insert overwrite and clustering), checked commit by commit against the table's other reads: the
// after-images of a commit's inserts and updates are what an incremental query over that commit returns, and the
// before-images of its updates and deletes are the snapshot as of the previous commit for those keys; inserted
// keys are absent there, deleted keys absent from the snapshot as of the commit.
import { describe, expect, test } from 'vitest';
import type { ChangeRecord, Table } from '../../src/index.js';
import { collect, openFixture } from '../helpers/fixtures.js';

const FIXTURES = [
  'sample_table/cow/v6_nonpartitioned.zip',
  'quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip',
  'sample_table/cow/v9_txns_simple_nometa.zip',
  'sample_table/mor/avro/v9_txns_simple_nometa.zip',
];
const EARLIEST = '00000000000000000';

const json = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x instanceof Uint8Array ? [...x] : x));
const withoutMeta = (row: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('_hoodie_')));

/** The snapshot as of an instant (undefined: before the first commit), by record key, meta columns dropped. */
async function snapshot(table: Table, asOf: string | undefined): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (asOf === undefined) return out;
  for (const r of await collect(table.rows({ asOf }))) out.set(r._hoodie_record_key as string, json(withoutMeta(r)));
  return out;
}

/** The commits that change records, each with the completed write just before it (by completion time on v8/v9). */
function commitPairs(table: Table): { at: string; prev: string | undefined }[] {
  const byCompletion = table.config.timelineLayoutVersion === 2;
  const writes = [...table.commits].sort((a, b) => ((byCompletion ? a.completionTime ?? a.requestedTime : a.requestedTime) < (byCompletion ? b.completionTime ?? b.requestedTime : b.requestedTime) ? -1 : 1));
  return writes.map((w, i) => ({ at: w.requestedTime, prev: writes[i - 1]?.requestedTime }));
}

describe('CDC by inference on Spark-written tables', () => {
  for (const zip of FIXTURES) {
    test(zip, async () => {
      const table = await openFixture(zip);
      expect(table.config.recordKeyFields.length).toBe(1);
      const keyField = table.config.recordKeyFields[0] as string;
      const all = await table.changes({ from: EARLIEST });
      const key = (c: ChangeRecord) => String((c.after ?? c.before)?.[keyField]);
      let checked = 0;
      for (const { at, prev } of commitPairs(table)) {
        const operation = (await table.commitMetadata(at)).operationType ?? '';
        const mine = all.filter((c) => c.commitTime === at);
        if (operation === 'COMPACT' || operation === 'CLUSTER') {
          expect(mine, `${at} ${operation} changes no record`).toEqual([]);
          continue;
        }
        expect(await table.changes({ from: prev ?? EARLIEST, to: at }), `the range (${prev}, ${at}] is that commit's changes`).toEqual(mine);
        const incremental = (await collect(table.rows({ from: prev ?? EARLIEST, to: at }))).map((r) => json(withoutMeta(r))).sort();
        expect(mine.filter((c) => c.op !== 'd').map((c) => json(c.after)).sort(), `after-images of ${at}`).toEqual(incremental);
        const before = await snapshot(table, prev);
        const after = await snapshot(table, at);
        for (const c of mine) {
          if (c.op === 'i' && !mine.some((d) => d.op === 'd' && key(d) === key(c))) expect(before.has(key(c)), `${at}: inserted ${key(c)} was absent`).toBe(false);
          if (c.op !== 'i') expect(json(c.before), `${at}: before-image of ${key(c)}`).toBe(before.get(key(c)));
          if (c.op === 'd') expect(after.has(key(c)), `${at}: deleted ${key(c)} is gone`).toBe(false);
          checked++;
        }
        // Nothing missed: the snapshots' difference is what the changes say (a key deleted and inserted by an
        // overwrite is in both snapshots).
        const ops = (k: string) => mine.filter((c) => key(c) === k).map((c) => c.op).join('');
        const keys = [...new Set([...before.keys(), ...after.keys()])];
        expect(keys.filter((k) => !after.has(k)).sort(), `${at}: deleted keys`).toEqual([...new Set(mine.filter((c) => ops(key(c)) === 'd').map(key))].sort());
        expect(keys.filter((k) => !before.has(k)).sort(), `${at}: inserted keys`).toEqual([...new Set(mine.filter((c) => ops(key(c)) === 'i').map(key))].sort());
        for (const k of keys) if (before.has(k) && after.has(k) && before.get(k) !== after.get(k)) expect(['u', 'di'], `${at}: ${k} changed`).toContain(ops(k));
      }
      expect(checked, 'the fixture has changes to check').toBeGreaterThan(4);
      expect(new Set(all.map((c) => c.op)), 'inserts, updates and deletes all occur').toEqual(new Set(zip.includes('v6_') ? ['i', 'u'] : ['i', 'u', 'd']));
    }, 120_000);
  }
});
