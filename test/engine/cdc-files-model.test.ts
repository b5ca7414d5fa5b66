// CDC log files, model-based: seeded random upserts, deletes (of present and absent keys), insert overwrites,
// partition drops and (MOR) compactions (helpers/cdc-model.ts's randomWrites) on CDC-enabled COW and MOR tables of versions 6 and 9, in two supplemental logging modes; the
// changes read with `.cdc` files forced equal those inferred from file slices exactly, and the Map model's, for
// the whole timeline and random ranges.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage } from '../../src/index.js';
import type { CdcSupplementalLoggingMode } from '../../src/config/cdc-config.js';
import { canonical, CDC_SCHEMA, Model, randomWrites } from '../helpers/cdc-model.js';
import { Random } from '../helpers/random.js';

const EARLIEST = '00000000000000000';

const MODES: readonly CdcSupplementalLoggingMode[] = ['DATA_BEFORE_AFTER', 'OP_KEY_ONLY'];

for (const version of [6, 9] as const) {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    describe(`${type} table version ${version}`, () => {
      MODES.forEach((mode, i) => {
        test(`${mode}, random writes: changes from .cdc files == inferred == model, whole timeline and ranges`, async () => {
          const rnd = new Random(4000 + version * 10 + i + (type === 'MERGE_ON_READ' ? 5 : 0));
          const storage = memoryStorage();
          const table = await createTable(storage, { name: 'c', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: CDC_SCHEMA, compaction: { inline: false }, clean: { automatic: false }, tableVersion: version, metadataTable: false, cdc: { mode } });
          const model = new Model();
          const instants = await randomWrites(table, model, rnd, 12);
          expect((await storage.list('', { recursive: true })).some((f) => f.path.endsWith('.cdc')), 'some write logged CDC').toBe(true);
          const files = await table.changes({ from: EARLIEST, cdcSource: 'files' });
          expect(files).toEqual(await table.changes({ from: EARLIEST, cdcSource: 'infer' }));
          expect(canonical(files)).toEqual(canonical(model.changes));
          for (let n = 0; n < 3; n++) {
            const a = rnd.int(instants.length);
            const b = a + rnd.int(instants.length - a);
            const window = new Set(instants.slice(a + 1, b + 1));
            const got = await table.changes({ from: instants[a]!, to: instants[b]!, cdcSource: 'files' });
            expect(canonical(got), `(${instants[a]}, ${instants[b]}]`).toEqual(canonical(model.changes.filter((c) => window.has(c.commitTime))));
          }
        }, 180_000);
      });
    });
  }
}
