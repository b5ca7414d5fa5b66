// A write's `signal` (WriteOptions): aborted before the write or while it runs (any phase before the commit),
// the write rejects ABORTED and leaves the table's files byte-identical; aborted once the commit is written it
// changes nothing (the write completes). COW and MOR.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, type Storage, type Table, type WriteProgress } from '../../src/index.js';
import { failure } from '../helpers/expect-error.js';
import { expectTreeUnchanged, treeSnapshot } from '../helpers/tree-snapshot.js';

const rows = (n: number, ts: number) => Array.from({ length: n }, (_, i) => ({ id: `k${i}`, ts, p: i % 2 === 0 ? 'a' : 'b' }));

async function table(type: 'COPY_ON_WRITE' | 'MERGE_ON_READ'): Promise<{ storage: Storage; t: Table }> {
  const storage = memoryStorage();
  const t = await createTable(storage, { name: 't', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], workers: 0 });
  await t.upsert(rows(20, 1));
  return { storage, t };
}

async function snapshot(t: Table): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const r of t.rows({ columns: ['id', 'ts'] })) out.push(r);
  return out.sort((a, b) => String((a as { id: string }).id).localeCompare(String((b as { id: string }).id)));
}

describe('write signal', () => {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`${type}: an already aborted signal rejects ABORTED and writes nothing`, async () => {
      const { storage, t } = await table(type);
      const before = await treeSnapshot(storage);
      const ac = new AbortController();
      ac.abort();
      const err = await failure(t.upsert(rows(5, 2), { signal: ac.signal }));
      expect(err.code).toBe('ABORTED');
      await expectTreeUnchanged(storage, before);
    });

    // Aborted from a progress report: the write's next report throws (in `phase`).
    const cases = [
      { phase: 'index', at: (p: WriteProgress) => p.phase === 'index' && p.done === 0 },
      { phase: 'write', at: (p: WriteProgress) => p.phase === 'write' && p.done === 0 },
      { phase: 'commit', at: (p: WriteProgress) => p.phase === 'write' && p.done === p.total },
    ];
    for (const { phase, at } of cases) {
      test(`${type}: aborted before the ${phase} phase's next step, the attempt is discarded and the next write completes`, async () => {
        const { storage, t } = await table(type);
        const rowsBefore = await snapshot(t);
        const before = await treeSnapshot(storage);
        const ac = new AbortController();
        const seen: string[] = [];
        const onProgress = (p: WriteProgress) => {
          seen.push(p.phase);
          if (at(p)) ac.abort(new Error('user cancelled'));
        };
        const err = await failure(t.upsert(rows(10, 3), { signal: ac.signal, onProgress }));
        expect(err.code).toBe('ABORTED');
        expect(err.message).toContain(phase);
        expect(seen.includes('commit')).toBe(false); // the commit never started
        await expectTreeUnchanged(storage, before); // markers, files and the requested/inflight instant all gone
        expect(await snapshot(t)).toEqual(rowsBefore);
        await t.upsert(rows(10, 4));
        expect((await snapshot(t)).filter((r) => Number((r as { ts: unknown }).ts) === 4)).toHaveLength(10);
      });
    }

    test(`${type}: aborted after the commit is written, the write completes`, async () => {
      const { t } = await table(type);
      const ac = new AbortController();
      const onProgress = (p: WriteProgress) => {
        if (p.phase === 'commit' && p.done === p.total) ac.abort();
      };
      const result = await t.upsert(rows(4, 5), { signal: ac.signal, onProgress });
      expect(result.instant).toBe(t.commits.at(-1)!.requestedTime);
      expect((await snapshot(t)).filter((r) => Number((r as { ts: unknown }).ts) === 5)).toHaveLength(4);
    });
  }
});
