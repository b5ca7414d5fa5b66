// CDC by inference (table.changes / changeRows) on tables we write, COW and MOR, versions 6 and 9: sequences of
// inserts, updates, deletes, reinserts, an emptied file group, insert overwrite and (MOR) a compaction, checked
// against the changes a plain Map model of the table derives from the batches written — not from the code under
// test. Range bounds: `from` exclusive, `to` inclusive.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, type ChangeRecord, type Table, type TableType } from '../../src/index.js';
import { collect } from '../helpers/fixtures.js';
import { failure } from '../helpers/expect-error.js';
import { canonical, CDC_SCHEMA as SCHEMA, Model, row, type R } from '../helpers/cdc-model.js';


interface Built { table: Table; model: Model; instants: string[]; compaction: string | undefined }

async function build(type: TableType, tableVersion: 6 | 9): Promise<Built> {
  const table = await createTable(memoryStorage(), { name: 'c', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, index: 'BLOOM', compaction: { inline: false }, tableVersion, metadataTable: false });
  const model = new Model();
  const instants: string[] = [];
  const upsert = async (batch: R[]) => {
    const t = (await table.upsert(batch)).instant;
    model.upsert(t, batch);
    instants.push(t);
  };
  const del = async (keys: string[]) => {
    const t = (await table.delete(keys)).instant;
    model.delete(t, keys);
    instants.push(t);
  };
  await upsert([row('k1', 'p', 1, 'a'), row('k2', 'p', 1, 'a'), row('q1', 'q', 1, 'a'), row('r1', 'r', 1, 'a'), row('r2', 'r', 1, 'a')]); // inserts, 3 partitions
  await upsert([row('k1', 'p', 2, 'b'), row('k3', 'p', 2, 'a'), row('r1', 'r', 2, 'b')]); // update k1, r1; insert k3
  let compaction: string | undefined;
  if (type === 'MERGE_ON_READ') compaction = (await table.compact({ force: true }))[0]?.instant;
  await del(['k1', 'nope']); // delete k1 (and a key that never existed)
  await del(['q1']); // empties partition q's only file group
  await upsert([row('k1', 'p', 3, 'c'), row('k2', 'p', 3, 'b')]); // reinsert k1, update k2
  const t = (await table.insertOverwrite([row('r2', 'r', 4, 'z'), row('r3', 'r', 4, 'z')])).instant; // partition r replaced
  model.overwrite(t, 'r', [row('r2', 'r', 4, 'z'), row('r3', 'r', 4, 'z')]);
  instants.push(t);
  await upsert([row('k3', 'p', 5, 'b'), row('r3', 'r', 5, 'y')]); // updates after the overwrite
  return { table, model, instants, compaction };
}

const EARLIEST = '00000000000000000';

for (const version of [6, 9] as const) {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    describe(`${type} table version ${version}`, () => {
      test('every insert, update and delete of the timeline, with its before and after images', async () => {
        const { table, model, instants } = await build(type, version);
        const changes = await table.changes({ from: EARLIEST });
        expect(canonical(changes)).toEqual(canonical(model.changes));
        // Commit order, and each change's time is its commit's.
        const times = changes.map((c) => c.commitTime);
        expect([...new Set(times)]).toEqual(instants);
        for (const c of changes) expect(c.ts_ms).toBe(Date.UTC(+c.commitTime.slice(0, 4), +c.commitTime.slice(4, 6) - 1, +c.commitTime.slice(6, 8), +c.commitTime.slice(8, 10), +c.commitTime.slice(10, 12), +c.commitTime.slice(12, 14), +c.commitTime.slice(14, 17)));
      });

      test('insert, update, delete, reinsert of one key give i, u, d, i with the right images', async () => {
        const { table, instants } = await build(type, version);
        const k1 = (await table.changes({ from: EARLIEST })).filter((c) => ((c.after ?? c.before) as R).id === 'k1');
        expect(k1.map((c) => [c.op, c.commitTime])).toEqual([['i', instants[0]], ['u', instants[1]], ['d', instants[2]], ['i', instants[4]]]);
        expect(k1.map((c) => [c.before?.val ?? null, c.after?.val ?? null])).toEqual([[null, 'a'], ['a', 'b'], ['b', null], [null, 'c']]);
        expect(Object.keys(k1[1]!.after!), 'images carry no meta columns').toEqual(['id', 'part', 'ts', 'val']);
      });

      test('range bounds: from exclusive, to inclusive; changeRows streams the same changes', async () => {
        const { table, model, instants } = await build(type, version);
        const [, c1, c2, c3] = instants as [string, string, string, string];
        const inRange = model.changes.filter((c) => c.commitTime === c2 || c.commitTime === c3);
        expect(canonical(await table.changes({ from: c1, to: c3 }))).toEqual(canonical(inRange));
        expect(canonical(await collect(table.changeRows({ from: c1, to: c3 })))).toEqual(canonical(inRange));
        expect(await table.changes({ from: instants[instants.length - 1]! })).toEqual([]);
        expect((await failure(table.changes({ from: c3, to: c1 }))).code).toBe('INVALID_ARGUMENT');
      });

      test('within a commit, changes come by partition, then record key', async () => {
        const { table, instants } = await build(type, version);
        const first = (await table.changes({ from: EARLIEST, to: instants[0]! })).map((c: ChangeRecord) => `${(c.after as R).part}/${(c.after as R).id} ${c.op}`);
        expect(first).toEqual(['p/k1 i', 'p/k2 i', 'q/q1 i', 'r/r1 i', 'r/r2 i']);
      });

      test('changesArrow: the same changes as an Arrow Table (before/after as structs)', async () => {
        const { table } = await build(type, version);
        const changes = await table.changes({ from: EARLIEST });
        const arrow = await table.changesArrow({ from: EARLIEST });
        expect(arrow.schema.fields.map((f) => f.name)).toEqual(['op', 'ts_ms', 'commit_time', 'before', 'after']);
        const { arrowToRows } = await import('../../src/arrow/arrow.js');
        const back = [...arrowToRows(arrow)].map((r) => ({ op: r.op, ts_ms: Number(r.ts_ms), commitTime: r.commit_time, before: r.before, after: r.after }));
        expect(canonical(back as typeof changes)).toEqual(canonical(changes));
      });

      if (type === 'MERGE_ON_READ') {
        test('a compaction gives no changes, and the writes after it are inferred right', async () => {
          const { table, model, compaction, instants } = await build(type, version);
          expect(compaction).toBeDefined();
          const changes = await table.changes({ from: instants[1]! });
          expect(changes.some((c) => c.commitTime === compaction)).toBe(false);
          expect(canonical(changes)).toEqual(canonical(model.changes.filter((c) => instants.indexOf(c.commitTime) >= 2)));
          // The range of the compaction alone is empty.
          expect(await table.changes({ from: instants[1]!, to: compaction! })).toEqual([]);
        });
      }
    });
  }
}

describe('a write that promotes a column', () => {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`${type}: before images of rows written under the older schema come in the table's current types`, async () => {
      const intSchema = { type: 'record', name: 'c', namespace: 'test', fields: [{ name: 'id', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'n', type: 'int' }] };
      const longSchema = { ...intSchema, fields: [{ name: 'id', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'n', type: 'long' }] };
      const table = await createTable(memoryStorage(), { name: 'c', type, recordKey: 'id', orderingField: 'ts', schema: intSchema, compaction: { inline: false }, metadataTable: false });
      await table.upsert([{ id: 'a', ts: 1n, n: 7 }, { id: 'b', ts: 1n, n: 8 }]);
      const t = (await table.upsert([{ id: 'a', ts: 2n, n: 10_000_000_000n }], { schema: longSchema })).instant;
      const [change] = await table.changes({ from: EARLIEST, to: t }).then((cs) => cs.filter((c) => c.commitTime === t));
      expect(change?.op).toBe('u');
      expect(change?.before).toEqual({ id: 'a', ts: 1n, n: 7n }); // the int 7 of the first file, read as the long it now is
      expect(change?.after).toEqual({ id: 'a', ts: 2n, n: 10_000_000_000n });
    });
  }
});
