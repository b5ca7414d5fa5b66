// CDC log files, model-based: seeded random upserts, deletes (of present and absent keys), insert overwrites and
// (MOR) compactions on CDC-enabled COW and MOR tables of versions 6 and 9, in two supplemental logging modes; the
// changes read with `.cdc` files forced equal those inferred from file slices exactly, and the Map model's, for
// the whole timeline and random ranges.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, type Table } from '../../src/index.js';
import type { CdcSupplementalLoggingMode } from '../../src/config/cdc-config.js';
import { canonical, CDC_SCHEMA, Model, row, type R } from '../helpers/cdc-model.js';
import { Random } from '../helpers/random.js';

const KEYS = Array.from({ length: 8 }, (_, i) => `k${i}`);
const PARTS = ['p0', 'p1'];
const partOf = (k: string) => PARTS[Number(k.slice(1)) % PARTS.length] as string;
const EARLIEST = '00000000000000000';

async function randomWrites(table: Table, model: Model, rnd: Random, steps: number): Promise<string[]> {
  const instants: string[] = [];
  let ts = 0;
  const some = () => KEYS.filter(() => rnd.chance(0.35));
  for (let s = 0; s < steps; s++) {
    const kind = rnd.int(10);
    if (kind < 6) {
      const keys = some();
      if (keys.length === 0) keys.push(rnd.pick(KEYS));
      const batch = keys.map((k) => row(k, partOf(k), ++ts, `v${ts}`));
      const t = (await table.upsert(batch)).instant;
      model.upsert(t, batch);
      instants.push(t);
    } else if (kind < 8) {
      const keys = [...some(), 'absent'];
      const t = (await table.delete(keys)).instant;
      model.delete(t, keys);
      instants.push(t);
    } else if (kind === 8) {
      const part = rnd.pick(PARTS);
      const batch: R[] = KEYS.filter((k) => partOf(k) === part && rnd.chance(0.5)).map((k) => row(k, part, ++ts, `o${ts}`));
      if (batch.length === 0) continue;
      const t = (await table.insertOverwrite(batch)).instant;
      model.overwrite(t, part, batch);
      instants.push(t);
    } else if (table.config.tableType === 'MERGE_ON_READ') {
      await table.compact({ force: true });
    }
  }
  return instants;
}

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
