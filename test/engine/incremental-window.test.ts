// Merge-on-read incremental reads merge only the window (Hudi's MergeOnReadIncrementalRelation 0.x / …V2 1.x:
// the file-system view over the files the window's writes wrote, each latest slice merged, rows kept whose
// _hoodie_commit_time is a window write's). Hand-built tables, expected rows derived by hand from the writes:
//   C0 upsert a(ts 5, val 1), b(ts 5, val 1) · D1 upsert a(ts 2, val 2) — a late arrival, it loses to C0's —
//   and b(ts 7, val 2) · C compaction · D2 upsert a(ts 1, val 3) — late again · D3 delete a.
// Copy-on-write rewrites the file: a losing update leaves the stored row (commit C0) and is never returned.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, type Table, type TableType } from '../../src/index.js';
import { TableState } from '../../src/engine/table-state.js';
import { resolveIncremental } from '../../src/engine/read/query.js';
import { windowSlices } from '../../src/plan/read-plan.js';
import type { FileSlice } from '../../src/file-group/file-slice.js';

const SCHEMA = {
  type: 'record', name: 'w', namespace: 'test',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'val', type: ['null', 'long'], default: null }],
};
const row = (id: string, ts: number, val: number) => ({ id, part: 'p', ts: BigInt(ts), val: BigInt(val) });

interface Built { table: Table; c0: string; d1: string; c?: string; d2?: string; d3?: string }

async function build(type: TableType, tableVersion: 6 | 9, stop: 'd1' | 'all'): Promise<Built> {
  const storage = memoryStorage();
  const table = await createTable(storage, { name: 'w', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, index: 'BLOOM', compaction: { inline: false }, tableVersion, metadataTable: false });
  const c0 = (await table.upsert([row('a', 5, 1), row('b', 5, 1)])).instant;
  const d1 = (await table.upsert([row('a', 2, 2), row('b', 7, 2)])).instant;
  if (stop === 'd1') return { table, c0, d1 };
  const compactions = type === 'MERGE_ON_READ' ? await table.compact() : [];
  const c = compactions[0]?.instant;
  const d2 = (await table.upsert([row('a', 1, 3)])).instant;
  const d3 = (await table.delete(['a'])).instant;
  return { table, c0, d1, c, d2, d3 };
}

async function window(table: Table, from: string, to?: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['_hoodie_commit_time', 'id', 'ts', 'val'], from, ...(to ? { to } : {}) })) out.push(`${r.id} ts${r.ts} val${r.val} @${r._hoodie_commit_time}`);
  return out.sort();
}

for (const version of [6, 9] as const) {
  describe(`table version ${version}`, () => {
    test('MOR: a late-arriving update in the window is returned though the stored record outside it wins the snapshot', async () => {
      const { table, c0, d1 } = await build('MERGE_ON_READ', version, 'd1');
      // The snapshot keeps a's C0 version (ts 5 beats ts 2); the window (C0, D1] holds D1's two versions.
      expect((await window(table, '00000000000000')).filter((r) => r.startsWith('a'))).toEqual([`a ts5 val1 @${c0}`]);
      expect(await window(table, c0, d1)).toEqual([`a ts2 val2 @${d1}`, `b ts7 val2 @${d1}`]);
    });

    test('COW: the merge rewrote the file, the stored record stays with its commit time, so only b is in the window', async () => {
      const { table, c0, d1 } = await build('COPY_ON_WRITE', version, 'd1');
      expect(await window(table, c0, d1)).toEqual([`b ts7 val2 @${d1}`]);
    });

    test('MOR: a compaction in the window brings its base file (the merged records) into the merge', async () => {
      const { table, c0, d1, c, d2, d3 } = await build('MERGE_ON_READ', version, 'all');
      expect(c).toBeDefined();
      // (C0, C]: the latest slice is C's base file (a: C0's version, b: D1's); D1's log sits on the slice before.
      expect(await window(table, c0, c)).toEqual([`b ts7 val2 @${d1}`]);
      // (C0, D2]: C's base file and D2's log: a's ts 5 beats D2's ts 1, and C0 is outside the window.
      expect(await window(table, c0, d2)).toEqual([`b ts7 val2 @${d1}`]);
      // (C, D2]: only D2's log — C's base file was written before the window: D2's late a is returned.
      expect(await window(table, c!, d2)).toEqual([`a ts1 val3 @${d2}`]);
      // (C, D3]: D2's a, then D3's delete.
      expect(await window(table, c!, d3)).toEqual([]);
      // (D2, D3]: a delete alone returns nothing.
      expect(await window(table, d2!, d3)).toEqual([]);
    });

    test('the plan reads only the files the window wrote', async () => {
      const { table, c0, d1 } = await build('MERGE_ON_READ', version, 'd1');
      const state = await TableState.load(table.storage);
      const read = await resolveIncremental(state, { from: c0, to: d1 });
      expect(read.plan.slices.length).toBe(1);
      const [slice] = read.plan.slices as [FileSlice];
      expect(slice.baseFile, 'C0 wrote the base file, outside the window').toBeUndefined();
      expect(slice.logFiles.length).toBe(1);
    });
  });
}

describe('windowSlices (pure)', () => {
  const base = { path: 'p/f1_0-1-1_001.parquet', name: 'f1_0-1-1_001.parquet', fileId: 'f1', partitionPath: 'p', instantTime: '001', size: 1 };
  const log = (v: number) => ({ path: `p/.f1_001.log.${v}_0-1-1`, name: `.f1_001.log.${v}_0-1-1`, fileId: 'f1', partitionPath: 'p', instantTime: '001', version: v, writeToken: '0-1-1', size: 1, completionTime: undefined });
  const slice: FileSlice = { partitionPath: 'p', fileId: 'f1', baseInstantTime: '001', baseFile: base, logFiles: [log(1), log(2)] };
  test('keeps the base file and logs named in the set, drops a slice left empty', () => {
    expect(windowSlices([slice], new Set([log(2).path]))).toEqual([{ ...slice, baseFile: undefined, logFiles: [log(2)] }]);
    expect(windowSlices([slice], new Set([base.path]))).toEqual([{ ...slice, logFiles: [] }]);
    expect(windowSlices([slice], new Set(['p/other.parquet']))).toEqual([]);
  });
});
