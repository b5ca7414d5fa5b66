// A table that lives for 300 commits with the default services on (automatic clean keeping 10 commits,
// archival between 20 and 30, inline compaction every 5 deltacommits): the active timeline stays small,
// storage holds only the file versions the retained commits read, and every snapshot equals the model.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, type TableType } from '../../src/index.js';
import { Random } from '../helpers/random.js';

const COMMITS = 300;
const SCHEMA = {
  type: 'record', name: 'r', namespace: 'long',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }],
};

for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as TableType[]) {
  describe(`${type}: ${COMMITS} commits with default services`, () => {
    test('timeline, storage and snapshots stay as they should', { timeout: 600_000 }, async () => {
      const storage = memoryStorage();
      const table = await createTable(storage, { name: 'long', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, bloomFilter: { numEntries: 100 } });
      const rnd = new Random(type.length);
      const model = new Map<string, string>();
      const lastWrite = new Map<string, string>(); // key → instant of the commit that last wrote it
      const history: { instant: string; rows: string[] }[] = [];
      for (let c = 0; c < COMMITS; c++) {
        const batch = Array.from({ length: 1 + rnd.int(4) }, () => {
          const id = `k${rnd.int(60)}`;
          return { id, part: `p${id.length % 3}`, ts: c, v: rnd.int(1_000_000) };
        });
        const r = await table.upsert(batch);
        for (const row of batch) {
          model.set(row.id, `${row.part}|${row.id}|${row.ts}|${row.v}`);
          lastWrite.set(row.id, r.instant);
        }
        history.push({ instant: r.instant, rows: [...model.values()].sort() });
        if (c % 25 === 24 || c === COMMITS - 1) {
          const got: string[] = [];
          for await (const row of table.rows({ columns: ['part', 'id', 'ts', 'v'] })) got.push(`${row.part}|${row.id}|${row.ts}|${row.v}`);
          expect(got.sort(), `snapshot after commit ${c}`).toEqual([...model.values()].sort());
        }
      }
      const reopened = await openTable(storage);
      const active = reopened.timeline;
      const writes = reopened.commits;
      // The active timeline holds at most 30 instants (keep.max.commits; commits and cleans together) and at
      // least the 10 commits the cleaner retains; nothing pending.
      expect(active.length).toBeLessThanOrEqual(30);
      expect(writes.length).toBeGreaterThanOrEqual(10);
      expect(active.filter((i) => i.action !== 'clean' && i.action !== 'commit' && i.action !== 'deltacommit').map((i) => i.action)).toEqual([]);
      expect(active.every((i) => i.state === 'COMPLETED')).toBe(true);
      // Archived commits are still known: incremental reads reach back into them. (from, latest] with `from`
      // an archived commit returns exactly the rows whose last write came after `from`.
      const archived = await storage.list('.hoodie/archived');
      expect(archived.length).toBeGreaterThan(0);
      const activeFrom = active[0]!.requestedTime;
      const latest = history.at(-1)!.instant;
      const archivedWrites = history.filter((h) => h.instant < activeFrom);
      expect(archivedWrites.length).toBeGreaterThan(COMMITS - 40);
      // The newest archived commit has rows written before it, so a reader ignoring `from` fails.
      expect([...lastWrite.values()].filter((i) => i > archivedWrites.at(-1)!.instant).length).toBeLessThan(model.size);
      for (const from of [archivedWrites.at(-1)!.instant, archivedWrites.at(-21)!.instant, history[0]!.instant]) {
        expect(active.some((i) => i.requestedTime === from), `${from} is archived`).toBe(false);
        const want = [...model.entries()].filter(([id]) => lastWrite.get(id)! > from).map(([, v]) => v).sort();
        expect(want.length, `rows written after ${from}`).toBeGreaterThan(0);
        const got: string[] = [];
        for await (const row of reopened.rows({ from, to: latest, columns: ['part', 'id', 'ts', 'v'] })) got.push(`${row.part}|${row.id}|${row.ts}|${row.v}`);
        expect(got.sort(), `incremental (${from}, ${latest}]`).toEqual(want);
      }
      // Every retained commit reads exactly as it was; data files on storage are exactly what they read.
      const dataCommits = writes.filter((w) => type === 'COPY_ON_WRITE' || w.action === 'deltacommit');
      const retained = dataCommits.slice(-10);
      const needed = new Set<string>();
      for (const w of retained) {
        const h = history.find((x) => x.instant === w.requestedTime)!;
        const got: string[] = [];
        for await (const row of reopened.rows({ asOf: w.requestedTime, columns: ['part', 'id', 'ts', 'v'] })) got.push(`${row.part}|${row.id}|${row.ts}|${row.v}`);
        expect(got.sort(), `as of ${w.requestedTime}`).toEqual(h.rows);
      }
      for (const w of writes.slice(-10)) {
        for (const s of await reopened.fileSlices({ asOf: w.requestedTime })) {
          if (s.baseFile) needed.add(s.baseFile.path);
          for (const l of s.logFiles) needed.add(l.path);
        }
      }
      const onStorage = (await storage.list('', { recursive: true })).map((f) => f.path).filter((p) => !p.startsWith('.hoodie/') && !p.endsWith('.hoodie_partition_metadata'));
      const extra = onStorage.filter((p) => !needed.has(p));
      // Besides those, at most the slice each of the 3 partitions' groups had before the oldest retained commit.
      expect(extra.length, `files no retained commit reads: ${extra.join(', ')}`).toBeLessThanOrEqual(3);
      expect(onStorage.length).toBeLessThan(100);
    });
  });
}
