// End to end on tables lakelet creates as version 9: 40 upserts with archival after each commit (Hudi's
// 20/30 limits) move the oldest instants into the LSM history; the snapshot, time travel to every instant
// (archived ones included) and incremental reads from each give what the writes made, on copy-on-write and on
// merge-on-read tables whose log files were written by archived deltacommits.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { archivedOf, namesIn } from './lsm-archival-timeline.js';
import { collect } from '../helpers/fixtures.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'lsm',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }],
};
const WRITES = 40;
const part = (k: number) => (k % 2 ? 'x' : 'y');

/** Write k inserts r<k> (v = k) and updates r<k−1> (v = 100k). */
async function build(type: 'COPY_ON_WRITE' | 'MERGE_ON_READ', compaction: boolean): Promise<{ storage: Storage; instants: string[] }> {
  const storage = memoryStorage();
  const table = await createTable(storage, {
    tableVersion: 9, metadataTable: false, name: 'lsm', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA,
    bloomFilter: { numEntries: 100 }, clean: { automatic: false }, compaction: { inline: compaction },
  });
  const instants: string[] = [];
  for (let k = 1; k <= WRITES; k++) {
    const batch = [{ id: `r${k}`, part: part(k), ts: k, v: k }];
    if (k > 1) batch.push({ id: `r${k - 1}`, part: part(k - 1), ts: k, v: 100 * k });
    const result = await table.upsert(batch);
    expect(result.warnings, `write ${k}`).toEqual([]);
    instants.push(result.instant);
  }
  return { storage, instants };
}

/** What the table holds after write k (0: nothing): r<j> = 100(j+1) for j < k, r<k> = k. */
function expectedAfter(k: number): string[] {
  const out: string[] = [];
  for (let j = 1; j <= k; j++) out.push(`${part(j)}|r${j}|${j < k ? 100 * (j + 1) : j}`);
  return out.sort();
}

async function rows(table: Table, options: { asOf?: string; from?: string; to?: string } = {}): Promise<string[]> {
  return (await collect(table.rows({ columns: ['id', 'part', 'v'], ...options }))).map((r) => `${String(r.part)}|${String(r.id)}|${String(r.v)}`).sort();
}

for (const [type, compaction] of [['COPY_ON_WRITE', false], ['MERGE_ON_READ', false], ['MERGE_ON_READ', true]] as const) {
  describe(`${type}${compaction ? ' with inline compaction' : ''}, table version 9`, async () => {
    const { storage, instants } = await build(type, compaction);
    const table = await openTable(storage);
    const active = table.commits.map((c) => c.requestedTime);
    const archived = (await archivedOf(storage)).completedWrites().map((i) => i.requestedTime);

    test('the oldest writes are in the history, the rest active, each once', async () => {
      expect(await namesIn(storage, '.hoodie/timeline/history')).toContain('_version_');
      expect(archived.length).toBeGreaterThan(0);
      expect(archived.filter((t) => active.includes(t))).toEqual([]);
      expect([...archived, ...active].filter((t) => instants.includes(t)).sort()).toEqual(instants);
      if (!compaction) {
        // Archival after write 31 (31 > 30) leaves 20; writes 32–40 make 29 active.
        expect(archived).toEqual(instants.slice(0, 11));
        expect(active).toEqual(instants.slice(11));
      }
    });

    test('the snapshot holds every write', async () => {
      expect(await rows(table)).toEqual(expectedAfter(WRITES));
    });

    test('time travel to every write, archived or active', async () => {
      for (const [i, t] of instants.entries()) expect(await rows(table, { asOf: t }), `as of write ${i + 1}`).toEqual(expectedAfter(i + 1));
    });

    test('incremental reads from each archived write: the rows written after it', async () => {
      for (const [i, t] of instants.slice(0, 12).entries()) {
        const changed = expectedAfter(WRITES).filter((r) => Number(r.split('|')[1]!.slice(1)) >= i + 1);
        expect(await rows(table, { from: t }), `from write ${i + 1}`).toEqual(changed);
      }
    });

    test('incremental reads between two archived writes: the rows the later one wrote, as it wrote them', async () => {
      for (let w = 2; w <= 11; w++) {
        // (write w−1, write w]: write w inserted r<w> = w and updated r<w−1> = 100w.
        const expected = [`${part(w)}|r${w}|${w}`, `${part(w - 1)}|r${w - 1}|${100 * w}`].sort();
        expect(await rows(table, { from: instants[w - 2]!, to: instants[w - 1]! }), `(write ${w - 1}, write ${w}]`).toEqual(expected);
      }
    });
  });
}
