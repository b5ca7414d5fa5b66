// CDC by inference, model-based: seeded random sequences of upserts, deletes (of present and absent keys),
// insert overwrites, partition drops and (MOR) compactions on COW and MOR tables of versions 6 and 9; the changes
// of the whole timeline and of random ranges (from exclusive, to inclusive) must be the Map model's. Also: a range
// whose files a clean deleted fails NOT_FOUND, and one after the clean still reads.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, type Table, type TableType } from '../../src/index.js';
import { canonical, CDC_SCHEMA, Model, randomWrites, row } from '../helpers/cdc-model.js';
import { failure } from '../helpers/expect-error.js';
import { Random } from '../helpers/random.js';

const EARLIEST = '00000000000000000';

async function newTable(type: TableType, tableVersion: 6 | 9): Promise<Table> {
  return createTable(memoryStorage(), { name: 'c', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: CDC_SCHEMA, index: 'BLOOM', compaction: { inline: false }, clean: { automatic: false }, tableVersion, metadataTable: false });
}

for (const version of [6, 9] as const) {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    describe(`${type} table version ${version}`, () => {
      for (const seed of [1, 2]) {
        test(`random writes (seed ${seed}): all changes and random ranges match the model`, async () => {
          const rnd = new Random(seed * 1000 + version + (type === 'MERGE_ON_READ' ? 7 : 0));
          const table = await newTable(type, version);
          const model = new Model();
          const instants = await randomWrites(table, model, rnd, 14);
          expect(canonical(await table.changes({ from: EARLIEST }))).toEqual(canonical(model.changes));
          for (let n = 0; n < 3; n++) {
            const a = rnd.int(instants.length);
            const b = a + rnd.int(instants.length - a);
            const window = new Set(instants.slice(a + 1, b + 1));
            const got = await table.changes({ from: instants[a]!, to: instants[b]! });
            expect(canonical(got), `(${instants[a]}, ${instants[b]}]`).toEqual(canonical(model.changes.filter((c) => window.has(c.commitTime))));
          }
        }, 120_000);
      }

      test('a range whose before-images a clean deleted fails NOT_FOUND; a range after it reads', async () => {
        const table = await newTable(type, version);
        const model = new Model();
        const instants: string[] = [];
        for (let i = 1; i <= 6; i++) {
          const batch = [row('k1', 'p0', i, `v${i}`)];
          const t = (await table.upsert(batch)).instant;
          model.upsert(t, batch);
          instants.push(t);
          if (type === 'MERGE_ON_READ') await table.compact({ force: true });
        }
        expect(await table.clean({ retainCommits: type === 'MERGE_ON_READ' ? 4 : 2 }), 'the clean deleted old slices') // MOR: the compactions count too.toBeDefined();
        const oldest = (await table.retention()).oldestReadable?.instant;
        expect(oldest).toBeDefined();
        expect((await failure(table.changes({ from: EARLIEST }))).code).toBe('NOT_FOUND');
        // From the oldest readable write on, the changes read: the before-images are still on storage.
        const from = instants.find((t) => t >= oldest!)!;
        expect(from).not.toBe(instants[5]);
        const later = new Set(instants.filter((t) => t > from));
        expect(canonical(await table.changes({ from }))).toEqual(canonical(model.changes.filter((c) => later.has(c.commitTime))));
      });
    });
  }
}
